/**
 * Minimal EIP-712 hashing: flat structs of atomic types, which is all the signing schemes of
 * docs/protocol.md#l1-actions and docs/protocol.md#user-signed-actions use. Written out rather than
 * pulled from viem so the server has no wallet library on its hot path; vectors.json (made with
 * viem) pins the output.
 */
import { concatBytes, hexToBytes, normalizeAddress } from '../lib/hex.ts'
import { keccak256 } from '../lib/keccak.ts'

/** One member of a struct type: `{name: "agent", type: "address"}`. */
export type TypedField = { name: string; type: string }

/** The EIP-712 domain fields this project uses (always all four). */
export type Eip712Domain = { name: string; version: string; chainId: bigint | number; verifyingContract: string }

const UTF8 = new TextEncoder()

// A type or field name must not be able to smuggle extra syntax into the type string. Colons are
// allowed because the user-signed types are named `Perpd:<Kind>` (viem accepts that too).
const NAME = /^[A-Za-z_$][A-Za-z0-9_$:]*$/

const DOMAIN_FIELDS: TypedField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
]

/** `Name(type1 name1,type2 name2)`, the EIP-712 encodeType of a struct without nested structs. */
export function encodeType(primaryType: string, fields: TypedField[]): string {
  if (!NAME.test(primaryType)) throw new TypeError(`eip712: invalid type name ${JSON.stringify(primaryType)}`)
  let out = `${primaryType}(`
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as TypedField
    if (!NAME.test(f.name)) throw new TypeError(`eip712: invalid field name ${JSON.stringify(f.name)}`)
    if (fieldKind(f.type) === undefined) throw new TypeError(`eip712: unsupported field type ${JSON.stringify(f.type)}`)
    out += `${(i === 0 ? '' : ',') + f.type} ${f.name}`
  }
  return `${out})`
}

// Type hashes depend only on code-defined types; cache them (bounded, in case a caller derives
// type names from input).
const typeHashCache = new Map<string, Uint8Array>()
const TYPE_HASH_CACHE_MAX = 256

/** keccak256(encodeType), cached; the returned array is shared, so callers must not mutate it. */
export function typeHash(primaryType: string, fields: TypedField[]): Uint8Array {
  const type = encodeType(primaryType, fields)
  let h = typeHashCache.get(type)
  if (h === undefined) {
    h = keccak256(UTF8.encode(type))
    if (typeHashCache.size >= TYPE_HASH_CACHE_MAX) typeHashCache.clear()
    typeHashCache.set(type, h)
  }
  return h
}

type FieldKind =
  | { k: 'string' }
  | { k: 'bytes' }
  | { k: 'address' }
  | { k: 'bool' }
  | { k: 'bytesN'; size: number }
  | { k: 'uint'; bits: number }
  | { k: 'int'; bits: number }

const kindCache = new Map<string, FieldKind | undefined>()

/** Parses an atomic Solidity type name; undefined when unsupported (arrays, structs, odd sizes). */
function fieldKind(type: string): FieldKind | undefined {
  if (kindCache.has(type)) return kindCache.get(type)
  let kind: FieldKind | undefined
  if (type === 'string' || type === 'bytes' || type === 'address' || type === 'bool') kind = { k: type }
  else {
    const m = /^(uint|int|bytes)([1-9][0-9]*)$/.exec(type)
    if (m !== null) {
      const n = Number(m[2])
      if (m[1] === 'bytes') kind = n <= 32 ? { k: 'bytesN', size: n } : undefined
      else kind = n % 8 === 0 && n <= 256 ? { k: m[1] as 'uint' | 'int', bits: n } : undefined
    }
  }
  if (kindCache.size < 1024) kindCache.set(type, kind)
  return kind
}

/** Bytes of a `bytes`/`bytesN` value given as a Uint8Array or hex string. */
function toBytes(v: unknown, name: string): Uint8Array {
  if (v instanceof Uint8Array) return v
  if (typeof v === 'string') {
    try {
      return hexToBytes(v)
    } catch {
      // fall through to the error below
    }
  }
  throw new TypeError(`eip712: field ${name} must be bytes (hex string)`)
}

/** Integer value of a uintN/intN field given as bigint or safe-integer number. */
function toBigInt(v: unknown, name: string): bigint {
  if (typeof v === 'bigint') return v
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v)
  throw new TypeError(`eip712: field ${name} must be an integer`)
}

/** 32-byte big-endian two's complement word of an integer already range-checked. */
function word(v: bigint): Uint8Array {
  const out = new Uint8Array(32)
  let x = BigInt.asUintN(256, v)
  for (let i = 31; i >= 0 && x !== 0n; i--) {
    out[i] = Number(x & 0xffn)
    x >>= 8n
  }
  return out
}

/** encodeData of one atomic field: always one 32-byte word. */
function encodeField(type: string, value: unknown, name: string): Uint8Array {
  const kind = fieldKind(type)
  if (kind === undefined) throw new TypeError(`eip712: unsupported field type ${JSON.stringify(type)}`)
  if (value === undefined) throw new TypeError(`eip712: field ${name} is missing`)
  switch (kind.k) {
    case 'string':
      if (typeof value !== 'string') throw new TypeError(`eip712: field ${name} must be a string`)
      return keccak256(UTF8.encode(value))
    case 'bytes':
      return keccak256(toBytes(value, name))
    case 'address': {
      const a = typeof value === 'string' ? normalizeAddress(value) : undefined
      if (a === undefined) throw new TypeError(`eip712: field ${name} must be an address`)
      const out = new Uint8Array(32)
      out.set(hexToBytes(a), 12)
      return out
    }
    case 'bool':
      if (typeof value !== 'boolean') throw new TypeError(`eip712: field ${name} must be a boolean`)
      return word(value ? 1n : 0n)
    case 'bytesN': {
      const b = toBytes(value, name)
      // Same rule as viem: a bytesN value must have exactly N bytes, then it is right-padded.
      if (b.length !== kind.size) throw new TypeError(`eip712: field ${name} must be ${kind.size} bytes`)
      const out = new Uint8Array(32)
      out.set(b)
      return out
    }
    case 'uint': {
      const v = toBigInt(value, name)
      if (v < 0n || v >= 1n << BigInt(kind.bits)) throw new RangeError(`eip712: field ${name} out of ${type} range`)
      return word(v)
    }
    case 'int': {
      const v = toBigInt(value, name)
      const half = 1n << BigInt(kind.bits - 1)
      if (v < -half || v >= half) throw new RangeError(`eip712: field ${name} out of ${type} range`)
      return word(v)
    }
  }
}

/**
 * hashStruct = keccak256(typeHash ‖ encodeData(message)) for a flat struct; values are read from
 * `message` by field name. Throws TypeError/RangeError on a missing or ill-typed value.
 */
export function hashStruct(primaryType: string, fields: TypedField[], message: Record<string, unknown>): Uint8Array {
  const parts: Uint8Array[] = [typeHash(primaryType, fields)]
  for (const f of fields) parts.push(encodeField(f.type, message[f.name], f.name))
  return keccak256(concatBytes(...parts))
}

/** EIP-712 domain separator: hashStruct("EIP712Domain", domain). */
export function domainSeparator(domain: Eip712Domain): Uint8Array {
  return hashStruct('EIP712Domain', DOMAIN_FIELDS, domain)
}

const PREFIX_1901 = Uint8Array.of(0x19, 0x01)

/** The 32-byte digest that is signed: keccak256(0x1901 ‖ domainSeparator ‖ hashStruct). */
export function typedDataDigest(domainSep: Uint8Array, structHash: Uint8Array): Uint8Array {
  return keccak256(concatBytes(PREFIX_1901, domainSep, structHash))
}
