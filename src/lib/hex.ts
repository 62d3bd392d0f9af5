/**
 * Hex and byte helpers used on the wire. Hand-rolled with lookup tables because they run on every
 * request (signatures, addresses, hashes) and must be strict: a malformed hex string is an error,
 * never silently truncated the way `Buffer.from(s, 'hex')` does.
 */

// Byte -> two lowercase hex characters, built once.
const BYTE_TO_HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

// Char code -> nibble value, or -1 for a non-hex character. Covers 0-9, a-f and A-F.
const HEX_VALUE = new Int8Array(128).fill(-1)
for (let i = 0; i < 10; i++) HEX_VALUE[48 + i] = i
for (let i = 0; i < 6; i++) {
  HEX_VALUE[97 + i] = 10 + i
  HEX_VALUE[65 + i] = 10 + i
}

/** Value of one hex digit at `s[i]`, or -1 when it is not a hex digit. */
function nibble(s: string, i: number): number {
  const c = s.charCodeAt(i)
  return c < 128 ? (HEX_VALUE[c] as number) : -1
}

/** Offset of the hex digits in `h`: 2 when it starts with `0x`, else 0. */
function prefixLength(h: string): number {
  return h.length >= 2 && h.charCodeAt(0) === 48 && h.charCodeAt(1) === 120 ? 2 : 0
}

/** Encodes bytes as `0x` followed by lowercase hex (the only form this project emits). */
export function bytesToHex(b: Uint8Array): string {
  let out = '0x'
  for (let i = 0; i < b.length; i++) out += BYTE_TO_HEX[b[i] as number]
  return out
}

/** Decodes hex with an optional `0x` prefix, any case; throws on odd length or a non-hex digit. */
export function hexToBytes(h: string): Uint8Array {
  if (typeof h !== 'string') throw new TypeError('hex: expected a string')
  const start = prefixLength(h)
  const digits = h.length - start
  if (digits % 2 !== 0) throw new Error(`hex: odd number of digits (${digits})`)
  const out = new Uint8Array(digits / 2)
  for (let i = 0, j = start; i < out.length; i++, j += 2) {
    const hi = nibble(h, j)
    const lo = nibble(h, j + 1)
    if (hi < 0 || lo < 0) throw new Error(`hex: invalid character at position ${hi < 0 ? j : j + 1}`)
    out[i] = (hi << 4) | lo
  }
  return out
}

/** Concatenates byte arrays into a new array (one allocation). */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let len = 0
  for (const p of parts) len += p.length
  const out = new Uint8Array(len)
  let off = 0
  for (const p of parts) {
    out.set(p, off)
    off += p.length
  }
  return out
}

const U64_MAX = (1n << 64n) - 1n

/** 8-byte big-endian encoding of an unsigned 64-bit integer; throws RangeError outside [0, 2^64). */
export function u64be(n: bigint | number): Uint8Array {
  let v: bigint
  if (typeof n === 'number') {
    // A number above 2^53 has already lost precision; refusing it beats hashing a different value.
    if (!Number.isSafeInteger(n)) throw new RangeError(`u64be: ${n} is not a safe integer`)
    v = BigInt(n)
  } else {
    v = n
  }
  if (v < 0n || v > U64_MAX) throw new RangeError(`u64be: ${v} is outside the uint64 range`)
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, v)
  return out
}

/**
 * True when `s` is hex that {@link hexToBytes} accepts (optional `0x`, even digit count) and, when
 * `bytes` is given, decodes to exactly that many bytes.
 */
export function isHex(s: string, bytes?: number): boolean {
  if (typeof s !== 'string') return false
  const start = prefixLength(s)
  const digits = s.length - start
  if (digits % 2 !== 0) return false
  if (bytes !== undefined && digits !== bytes * 2) return false
  for (let i = start; i < s.length; i++) if (nibble(s, i) < 0) return false
  return true
}

/**
 * Canonical form of an address: lowercase `0x` + 40 hex digits. Accepts `0x`-prefixed or bare
 * 40-digit hex in any case; returns undefined when malformed. The EIP-55 checksum of a mixed-case
 * address is not verified: addresses are compared, never typed in by hand here.
 */
export function normalizeAddress(s: string): string | undefined {
  if (typeof s !== 'string') return undefined
  const start = prefixLength(s)
  if (s.length - start !== 40) return undefined
  for (let i = start; i < s.length; i++) if (nibble(s, i) < 0) return undefined
  return `0x${s.slice(start).toLowerCase()}`
}
