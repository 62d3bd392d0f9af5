/** Keccak-256 (the Ethereum variant, not NIST SHA3-256), used for every hash on the wire. */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex } from './hex.ts'

/** Keccak-256 digest of `data` (32 bytes). */
export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data)
}

/** Keccak-256 digest of `data` as `0x` + 64 lowercase hex digits. */
export function keccak256Hex(data: Uint8Array): string {
  return bytesToHex(keccak_256(data))
}
