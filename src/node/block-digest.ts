// Block and genesis digests: keccak over canonical msgpack, so any node recomputes them exactly.
import { bytesToHex } from '../lib/hex.ts'
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

export function blockDigest(b: DigestInput): string {
  const envelopesHash = keccak256(encodeCanonical(b.envelopes.map((e) => [e[0], e[1]])))
  return bytesToHex(keccak256(encodeCanonical([b.height, b.parent, b.timestampMs, bytesToHex(envelopesHash), b.stateRoot, b.envelopes.length, b.eventCount])))
}

/** The parent digest of block 1: a hash of the genesis document and its state root. */
export function genesisDigest(genesis: unknown, stateRoot: string): string {
  return bytesToHex(keccak256(encodeCanonical(['perpd-genesis', genesis, stateRoot])))
}
