/**
 * Keccak-256 (the Ethereum variant, not NIST SHA3-256), used for every hash on the wire.
 *
 * It runs in WebAssembly (hash-wasm's compiled keccak) once that module is instantiated, which
 * starts when this file loads and takes a few milliseconds; until then, and where WebAssembly is
 * missing, @noble/hashes computes the same digest in JavaScript. The WebAssembly code has 64-bit
 * lanes where JavaScript works on 32-bit halves: about 0.7 µs against 3.6 µs for a 100-byte input
 * on the development machine, and every /action hashes five or six times on its admission thread
 * (scripts/bench/keccak.ts measures both). keccak.test.ts checks both give the same bytes.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { createKeccak, type IHasher } from 'hash-wasm'
import { bytesToHex } from './hex.ts'

let wasmHasher: IHasher | undefined

/** Resolves once the WebAssembly hasher is in use (false: it could not start; noble is used). */
export const keccakWasmReady: Promise<boolean> = createKeccak(256).then(
  (hasher) => {
    wasmHasher = hasher
    return true
  },
  () => false,
)

/** Keccak-256 digest of `data` (32 bytes). */
export function keccak256(data: Uint8Array): Uint8Array {
  // The hasher is one shared state, safe because a digest is computed start to end synchronously.
  const hasher = wasmHasher
  if (hasher === undefined) return keccak_256(data)
  hasher.init()
  hasher.update(data)
  return hasher.digest('binary')
}

/** The JavaScript implementation, whatever the WebAssembly one's state (tests, benchmarks). */
export const keccak256Noble: (data: Uint8Array) => Uint8Array = keccak_256

/** Keccak-256 digest of `data` as `0x` + 64 lowercase hex digits. */
export function keccak256Hex(data: Uint8Array): string {
  return bytesToHex(keccak256(data))
}
