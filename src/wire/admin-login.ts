// The bytes of the admin login (docs/protocol.md#admin-login-signature) and the address of a key:
// pure code with no Node or Bun dependency, so the admin service, its command line and the web
// console (bundled for the browser) build the same bytes from one function.
import { bytesToHex, hexToBytes, u64be } from '../lib/hex.ts'
import { keccak256 } from '../lib/keccak.ts'

/**
 * The 28 bytes an admin signs to log in: canonical msgpack of [challenge_bytes, timestamp_ms],
 * written out as 0x92 ‖ 0xc4 0x10 ‖ challenge(16) ‖ 0xcf ‖ u64be(timestamp_ms). The uint64 form
 * is fixed by the protocol (it is also the canonical one for any timestamp after February 1970).
 */
export function adminLoginMessage(challengeHex: string, timestampMs: number): Uint8Array {
  const challenge = hexToBytes(challengeHex)
  if (challenge.length !== 16) throw new Error('admin challenge must be 16 bytes (32 hex characters)')
  const out = new Uint8Array(28)
  out[0] = 0x92
  out[1] = 0xc4
  out[2] = 0x10
  out.set(challenge, 3)
  out[19] = 0xcf
  out.set(u64be(timestampMs), 20)
  return out
}

/** Ethereum address (lowercase 0x) of an uncompressed public key: last 20 bytes of keccak(X ‖ Y). */
export function addressOfPublicKey(uncompressed65: Uint8Array): string {
  return bytesToHex(keccak256(uncompressed65.subarray(1)).subarray(12))
}
