/**
 * ECIES on secp256k1 as eciesjs / eciespy do it by default
 * (docs/protocol.md#key-upload-encryption), used to upload private keys (hedge account keys) to the
 * node without sending them in the clear:
 * E = e·G, S = e·PK (65-byte uncompressed points), K = HKDF-SHA256(E ‖ S, salt 32×0, no info),
 * AES-256-GCM with a 16-byte IV, ciphertext = ct ‖ tag. eciesjs packs E ‖ iv ‖ tag ‖ ct instead;
 * only the order differs.
 */
import { gcm } from '@noble/ciphers/aes.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { randomBytes } from '@noble/hashes/utils.js'
import { bytesToHex, concatBytes, hexToBytes } from '../lib/hex.ts'

/** Why decryption or encryption failed; `code` lets the API layer pick a status without parsing text. */
export type EciesErrorCode = 'BAD_PAYLOAD' | 'BAD_POINT' | 'AUTH_FAILED'

/** A payload that cannot be decrypted (or a key that cannot be encrypted to). */
export class EciesError extends Error {
  override readonly name = 'EciesError'
  constructor(
    readonly code: EciesErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/** The upload payload as it travels in JSON (all fields 0x-hex). */
export type EciesPayload = { ephemeral_public_key: string; iv: string; ciphertext: string }

const IV_LENGTH = 16
const TAG_LENGTH = 16
const SALT = new Uint8Array(32)
const EMPTY = new Uint8Array(0)

/** K = HKDF-SHA256(ikm = E ‖ S, salt = 32 zero bytes, info = empty, 32 bytes). */
export function eciesKey(ephemeralPublic65: Uint8Array, shared65: Uint8Array): Uint8Array {
  return hkdf(sha256, concatBytes(ephemeralPublic65, shared65), SALT, EMPTY, 32)
}

function decodeHexField(value: unknown, field: string): Uint8Array {
  if (typeof value !== 'string') throw new EciesError('BAD_PAYLOAD', `ecies: ${field} must be a hex string`)
  try {
    return hexToBytes(value)
  } catch {
    throw new EciesError('BAD_PAYLOAD', `ecies: ${field} is not valid hex`)
  }
}

/** Uncompressed encoding of a public key given as 33- or 65-byte SEC1 bytes; EciesError if not a point. */
function uncompressedPoint(bytes: Uint8Array, what: string): Uint8Array {
  try {
    return secp256k1.Point.fromBytes(bytes).toBytes(false)
  } catch {
    throw new EciesError('BAD_POINT', `ecies: ${what} is not a valid secp256k1 point`)
  }
}

/**
 * Encrypts `plaintext` to the server key (0x04… hex, compressed also accepted). The ephemeral key
 * and IV are random unless given (tests pin them to reproduce the vectors).
 */
export function eciesEncrypt(
  serverPublicKeyHex: string,
  plaintext: Uint8Array,
  opts?: { ephemeralPrivateKey?: Uint8Array; iv?: Uint8Array },
): EciesPayload {
  const serverPub = uncompressedPoint(decodeHexField(serverPublicKeyHex, 'server public key'), 'server public key')
  const e = opts?.ephemeralPrivateKey ?? secp256k1.utils.randomSecretKey()
  const iv = opts?.iv ?? randomBytes(IV_LENGTH)
  if (iv.length !== IV_LENGTH) throw new EciesError('BAD_PAYLOAD', `ecies: iv must be ${IV_LENGTH} bytes`)
  const E = secp256k1.getPublicKey(e, false)
  const S = secp256k1.getSharedSecret(e, serverPub, false)
  const key = eciesKey(E, S)
  const ciphertext = gcm(key, iv).encrypt(plaintext)
  key.fill(0)
  return { ephemeral_public_key: bytesToHex(E), iv: bytesToHex(iv), ciphertext: bytesToHex(ciphertext) }
}

/**
 * Decrypts an upload with the server's private key. Throws EciesError: BAD_PAYLOAD for malformed
 * fields, BAD_POINT for an ephemeral key that is not a curve point, AUTH_FAILED when the GCM tag
 * does not verify (wrong key — the server key changes at every start — or a tampered payload).
 */
export function eciesDecrypt(serverPrivateKey: Uint8Array, payload: EciesPayload): Uint8Array {
  if (typeof payload !== 'object' || payload === null) throw new EciesError('BAD_PAYLOAD', 'ecies: payload must be an object')
  const E = decodeHexField(payload.ephemeral_public_key, 'ephemeral_public_key')
  const iv = decodeHexField(payload.iv, 'iv')
  const data = decodeHexField(payload.ciphertext, 'ciphertext')
  // The HKDF input is E exactly as sent, so only the 65-byte uncompressed form (what eciesjs
  // sends by default) is accepted: a compressed E would derive a different key than the sender's.
  if (E.length !== 65 || E[0] !== 0x04) {
    throw new EciesError('BAD_POINT', 'ecies: ephemeral_public_key must be a 65-byte uncompressed point (0x04…)')
  }
  uncompressedPoint(E, 'ephemeral_public_key')
  if (iv.length !== IV_LENGTH) throw new EciesError('BAD_PAYLOAD', `ecies: iv must be ${IV_LENGTH} bytes`)
  if (data.length < TAG_LENGTH) throw new EciesError('BAD_PAYLOAD', 'ecies: ciphertext is shorter than the 16-byte tag')
  const S = secp256k1.getSharedSecret(serverPrivateKey, E, false)
  const key = eciesKey(E, S)
  try {
    return gcm(key, iv).decrypt(data)
  } catch {
    throw new EciesError(
      'AUTH_FAILED',
      'ecies: decryption failed (authentication tag mismatch): the payload was encrypted to a different ' +
        'server key (it changes at every node start; fetch /api/keys/encryption-key again) or was altered',
    )
  } finally {
    key.fill(0)
  }
}
