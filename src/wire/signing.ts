/**
 * The signing schemes of docs/protocol.md: L1 actions (Hyperliquid-compatible "Agent" typed
 * data over a msgpack connection id), user-signed typed data, transaction hashes, signature
 * parsing/recovery, and EIP-191 personal_sign for the admin login.
 *
 * Recovery is the per-request cost of the node's write path (about 0.6 ms with noble on Bun);
 * see {@link recoverAddress}.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { assert } from '../lib/assert.ts'
import { bytesToHex, concatBytes, hexToBytes, u64be } from '../lib/hex.ts'
import { keccak256 } from '../lib/keccak.ts'
import { encodeCanonical } from '../lib/msgpack.ts'
import { addressOfPublicKey } from './admin-login.ts'
import { domainSeparator, hashStruct, type TypedField, typedDataDigest, typeHash } from './eip712.ts'
import { nativeRecover, nativeRecoveryAvailable } from './native-secp256k1.ts'

const N = secp256k1.Point.Fn.ORDER
const HALF_N = N >> 1n
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'
const UTF8 = new TextEncoder()

// ---------------------------------------------------------------------------------------------
// L1 actions (docs/protocol.md#l1-actions)

/** EIP-712 `source` of an L1 action: "a" on the network named mainnet, "b" everywhere else. */
export function sourceForNetwork(network: string): 'a' | 'b' {
  return network === 'mainnet' ? 'a' : 'b'
}

const ZERO_BYTE = Uint8Array.of(0)

/** connection_id = keccak256(msgpack(action) ‖ u64be(nonce) ‖ 0x00) (no vault, no expiry). */
export function l1ConnectionId(action: unknown, nonce: number): Uint8Array {
  return keccak256(concatBytes(encodeCanonical(action), u64be(nonce), ZERO_BYTE))
}

// Everything constant in the L1 digest is hashed once: the domain, the Agent type hash and
// keccak("a") / keccak("b") are the same for every request.
const L1_DOMAIN = domainSeparator({ name: 'Exchange', version: '1', chainId: 1337, verifyingContract: ZERO_ADDRESS })
const AGENT_TYPE_HASH = typeHash('Agent', [
  { name: 'source', type: 'string' },
  { name: 'connectionId', type: 'bytes32' },
])
const SOURCE_HASH = { a: keccak256(UTF8.encode('a')), b: keccak256(UTF8.encode('b')) } as const

/** EIP-712 digest an L1 action is signed over: Agent{source, connectionId} in the Exchange domain. */
export function l1Digest(action: unknown, nonce: number, source: 'a' | 'b'): Uint8Array {
  const connectionId = l1ConnectionId(action, nonce)
  // hashStruct(Agent) written out: typeHash ‖ keccak(source) ‖ connectionId (bytes32 is itself).
  const structHash = keccak256(concatBytes(AGENT_TYPE_HASH, SOURCE_HASH[source], connectionId))
  return typedDataDigest(L1_DOMAIN, structHash)
}

// ---------------------------------------------------------------------------------------------
// User-signed actions (docs/protocol.md#user-signed-actions)

// chainId comes from the client (signature_chain_id), so the cache is bounded.
const userDomains = new Map<bigint, Uint8Array>()
const USER_DOMAIN_CACHE_MAX = 64

function userDomain(chainId: bigint): Uint8Array {
  let d = userDomains.get(chainId)
  if (d === undefined) {
    d = domainSeparator({ name: 'PerpdSignTransaction', version: '1', chainId, verifyingContract: ZERO_ADDRESS })
    if (userDomains.size >= USER_DOMAIN_CACHE_MAX) userDomains.clear()
    userDomains.set(chainId, d)
  }
  return d
}

/**
 * EIP-712 digest of a user-signed action: primary type `Perpd:<kind>` with `fields` (which start
 * with `network` and end with `nonce`), values read from `action` by field name, in the
 * PerpdSignTransaction domain of `chainId`. Throws TypeError/RangeError on a missing/ill-typed field.
 */
export function userSignedDigest(kind: string, fields: TypedField[], action: Record<string, unknown>, chainId: bigint): Uint8Array {
  return typedDataDigest(userDomain(chainId), hashStruct(`Perpd:${kind}`, fields, action))
}

// ---------------------------------------------------------------------------------------------
// Signatures (docs/protocol.md#transaction-hash)

/** A signature as it travels in the envelope. */
export type WireSignature = { r: string; s: string; v: number }

/** Result of {@link parseSignature}. */
export type ParsedSignature =
  | { ok: true; r: bigint; s: bigint; recovery: 0 | 1; v: 27 | 28 }
  | { ok: false; reason: 'BAD_SIGNATURE' | 'HIGH_S'; message: string }

// 0x followed by 1..64 hex digits: zero padding is optional because some SDKs strip a leading
// zero nibble (63 digits), but more than 64 digits is never a valid 256-bit scalar encoding.
const SCALAR_HEX = /^0x[0-9a-fA-F]{1,64}$/

function bad(message: string): ParsedSignature {
  return { ok: false, reason: 'BAD_SIGNATURE', message }
}

/**
 * Validates a wire signature: r, s `0x`-hex of at most 64 digits with 0 < r, s < n, v in
 * {27, 28, 0, 1}. A high-s signature (s > n/2) is refused as HIGH_S so each transaction has
 * exactly one valid signature and therefore one tx hash.
 */
export function parseSignature(sig: WireSignature): ParsedSignature {
  if (typeof sig !== 'object' || sig === null) return bad('signature must be an object {r, s, v}')
  const { r: rh, s: sh, v } = sig
  if (typeof rh !== 'string' || !SCALAR_HEX.test(rh)) return bad('signature r must be 0x-prefixed hex of at most 64 digits')
  if (typeof sh !== 'string' || !SCALAR_HEX.test(sh)) return bad('signature s must be 0x-prefixed hex of at most 64 digits')
  let recovery: 0 | 1
  if (v === 27 || v === 0) recovery = 0
  else if (v === 28 || v === 1) recovery = 1
  else return bad('signature v must be 27 or 28 (0 or 1 accepted)')
  const r = BigInt(rh)
  const s = BigInt(sh)
  if (r === 0n || r >= N) return bad('signature r is out of range')
  if (s === 0n || s >= N) return bad('signature s is out of range')
  if (s > HALF_N)
    return { ok: false, reason: 'HIGH_S', message: 'signature s is in the upper half of the curve order (use the low-s form)' }
  return { ok: true, r, s, recovery, v: recovery === 0 ? 27 : 28 }
}

/** 32-byte big-endian encoding of a scalar below 2^256. */
function scalar32(x: bigint): Uint8Array {
  // Through its hex digits: 32 rounds of bigint masks and shifts cost about 2 µs, and every /action
  // encodes four scalars (recovery and the tx hash).
  return hexToBytes(x.toString(16).padStart(64, '0'))
}

/**
 * Signer address (lowercase 0x) of a signature over a 32-byte digest, or undefined when no point
 * recovers. Expects r, s already range-checked by {@link parseSignature}.
 *
 * Runs on libsecp256k1 where available (native-secp256k1.ts), else on noble.
 */
export function recoverAddress(digest: Uint8Array, r: bigint, s: bigint, recovery: 0 | 1): string | undefined {
  if (digest.length !== 32 || r <= 0n || r >= N || s <= 0n || s >= N) return undefined
  if (nativeRecoveryAvailable) {
    const sig64 = new Uint8Array(64)
    sig64.set(scalar32(r), 0)
    sig64.set(scalar32(s), 32)
    const pub = nativeRecover(digest, sig64, recovery)
    return pub === undefined ? undefined : addressOfPublicKey(pub)
  }
  return recoverAddressNoble(digest, r, s, recovery)
}

/**
 * The pure-JS recovery (noble's `Signature#recoverPublicKey`: Q = r⁻¹(s·R − h·G) as one GLV mulAdd
 * with a shared doubling chain); the fallback where libsecp256k1 is not available. A hand-rolled
 * variant measured the same within noise: the 256-bit mulAdd on bigints is the whole cost.
 */
export function recoverAddressNoble(digest: Uint8Array, r: bigint, s: bigint, recovery: 0 | 1): string | undefined {
  if (digest.length !== 32 || r <= 0n || r >= N || s <= 0n || s >= N) return undefined
  try {
    const Q = new secp256k1.Signature(r, s, recovery).recoverPublicKey(digest)
    return addressOfPublicKey(Q.toBytes(false))
  } catch {
    // r is not the x coordinate of a curve point, or the result is the point at infinity.
    return undefined
  }
}

/** tx_hash = keccak256(digest ‖ r(32) ‖ s(32) ‖ v(1)) as 0x-hex (docs/protocol.md#transaction-hash). */
export function txHash(digest: Uint8Array, r: bigint, s: bigint, v: 27 | 28): string {
  const buf = new Uint8Array(97)
  buf.set(digest, 0)
  buf.set(scalar32(r), 32)
  buf.set(scalar32(s), 64)
  buf[96] = v
  return bytesToHex(keccak256(buf))
}

function privateKeyBytes(privateKey: string | Uint8Array): Uint8Array {
  const k = typeof privateKey === 'string' ? hexToBytes(privateKey) : privateKey
  if (k.length !== 32 || !secp256k1.utils.isValidSecretKey(k)) throw new Error('invalid secp256k1 private key')
  return k
}

/** Signs a 32-byte digest (RFC 6979, low-s) and returns the wire form: r, s as 0x + 64 hex, v 27/28. */
export function signDigest(privateKey: string | Uint8Array, digest: Uint8Array): WireSignature {
  assert(digest.length === 32, 'signDigest: digest must be 32 bytes')
  // 'recovered' = recovery byte ‖ r ‖ s; prehash false because the digest is already keccak.
  const sig = secp256k1.sign(digest, privateKeyBytes(privateKey), { prehash: false, format: 'recovered', lowS: true })
  const recovery = sig[0] as number
  // Ids 2/3 (r ≥ n) have probability ~2^-128 and no v 27/28 encoding.
  assert(recovery === 0 || recovery === 1, 'signDigest: unexpected recovery id')
  return { r: bytesToHex(sig.subarray(1, 33)), s: bytesToHex(sig.subarray(33, 65)), v: 27 + recovery }
}

/** Address (lowercase 0x) controlled by a private key (hex or 32 bytes). */
export function addressOfPrivateKey(privateKey: string | Uint8Array): string {
  return addressOfPublicKey(secp256k1.getPublicKey(privateKeyBytes(privateKey), false))
}

// ---------------------------------------------------------------------------------------------
// EIP-191 personal_sign and the admin login (docs/protocol.md#admin-login-signature)

/** personal_sign digest over raw bytes: keccak("\x19Ethereum Signed Message:\n" + len + message). */
export function eip191Digest(message: Uint8Array): Uint8Array {
  const prefix = UTF8.encode(`\x19Ethereum Signed Message:\n${message.length}`)
  return keccak256(concatBytes(prefix, message))
}

// The login bytes live in admin-login.ts, which the web console bundles for the browser.
export { adminLoginMessage } from './admin-login.ts'

/**
 * Signer of a personal_sign signature (65 bytes r ‖ s ‖ v as hex) over raw `message`, or
 * undefined when the signature is malformed, high-s or does not recover.
 */
export function recoverPersonalSign(message: Uint8Array, signatureHex65: string): string | undefined {
  let sig: Uint8Array
  try {
    sig = hexToBytes(signatureHex65)
  } catch {
    return undefined
  }
  if (sig.length !== 65) return undefined
  const parsed = parseSignature({
    r: bytesToHex(sig.subarray(0, 32)),
    s: bytesToHex(sig.subarray(32, 64)),
    v: sig[64] as number,
  })
  if (!parsed.ok) return undefined
  return recoverAddress(eip191Digest(message), parsed.r, parsed.s, parsed.recovery)
}
