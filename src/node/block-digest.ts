// Block and genesis digests: keccak over canonical bytes, so any node recomputes them exactly.
import { bytesToHex, hexToBytes } from '../lib/hex.ts'
import { keccak256 } from '../lib/keccak.ts'
import { encodeCanonical } from '../lib/msgpack.ts'

export interface DigestInput {
  readonly height: number
  readonly parent: string
  readonly timestampMs: number
  readonly stateRoot: string
  /** (tx_hash, status) of every envelope in order. */
  readonly envelopes: readonly (readonly [string, string])[]
  readonly eventCount: number
}

/** Status byte of an envelope in the envelopes hash. */
const STATUS_BYTE: Record<string, number> = { accepted: 1, 'kept-reject': 2 }

/**
 * The envelopes commitment: keccak over tx_hash(32) ‖ status(1) per envelope. Binary rather than
 * msgpack of hex strings: hashing is the cost, and this hashes half the bytes.
 */
export function envelopesHash(envelopes: readonly (readonly [string, string])[]): Uint8Array {
  const buf = new Uint8Array(envelopes.length * 33)
  for (let i = 0; i < envelopes.length; i++) {
    const [hash, status] = envelopes[i]!
    buf.set(hexToBytes(hash), i * 33)
    buf[i * 33 + 32] = STATUS_BYTE[status] ?? 0
  }
  return keccak256(buf)
}

export function blockDigest(b: DigestInput): string {
  return bytesToHex(
    keccak256(
      encodeCanonical([
        b.height,
        b.parent,
        b.timestampMs,
        bytesToHex(envelopesHash(b.envelopes)),
        b.stateRoot,
        b.envelopes.length,
        b.eventCount,
      ]),
    ),
  )
}

/** The parent digest of block 1: a hash of the genesis document and its state root. */
export function genesisDigest(genesis: unknown, stateRoot: string): string {
  return bytesToHex(keccak256(encodeCanonical(['perpd-genesis', genesis, stateRoot])))
}
