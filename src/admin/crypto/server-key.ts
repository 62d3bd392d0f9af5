// The ECIES key uploads are encrypted to (docs/protocol.md#key-upload-encryption). It is made at
// every start and exists only in this process, so a payload captured in transit is useless after a
// restart.
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, hexToBytes, isHex } from '../../lib/hex.ts'
import { EciesError, type EciesPayload, eciesDecrypt } from '../../wire/ecies.ts'

/** Outcome of {@link ServerKey.decrypt}: the plaintext, or a reason code and a message for a 400. */
export type DecryptOutcome =
  | { readonly ok: true; readonly plaintext: Uint8Array }
  | { readonly ok: false; readonly reason: 'STALE_SERVER_KEY' | 'DECRYPTION_FAILED' | 'BAD_PAYLOAD'; readonly message: string }

/** This process's ECIES key pair; the private half never leaves the object. */
export class ServerKey {
  private readonly secret: Uint8Array
  /** 0x04… uncompressed, as GET /api/keys/encryption-key returns it. */
  readonly publicKey: string
  readonly createdAtMs: number

  constructor(clock: () => number = Date.now) {
    this.secret = secp256k1.utils.randomSecretKey()
    this.publicKey = bytesToHex(secp256k1.getPublicKey(this.secret, false))
    this.createdAtMs = clock()
  }

  /**
   * Decrypts an upload. `encryptedTo` is the public key the client says it encrypted to (the
   * project's CLI sends it): when it is not this start's key the failure names the stale key
   * outright. Without it a tag mismatch is reported with the stale key as the likely cause.
   */
  decrypt(payload: EciesPayload, encryptedTo?: string): DecryptOutcome {
    if (encryptedTo !== undefined && !this.isCurrent(encryptedTo)) {
      return {
        ok: false,
        reason: 'STALE_SERVER_KEY',
        message:
          `the payload was encrypted to a stale server key ${encryptedTo.slice(0, 20)}…; the service made a new key at its start ` +
          `(${new Date(this.createdAtMs).toISOString()}): fetch GET /api/keys/encryption-key and encrypt again`,
      }
    }
    try {
      return { ok: true, plaintext: eciesDecrypt(this.secret, payload) }
    } catch (err) {
      if (!(err instanceof EciesError)) throw err
      if (err.code === 'AUTH_FAILED') {
        return {
          ok: false,
          reason: 'DECRYPTION_FAILED',
          message:
            'decryption failed: the payload was most likely encrypted to a stale server key (a new key is made at every ' +
            `start, the current one since ${new Date(this.createdAtMs).toISOString()}; fetch GET /api/keys/encryption-key again) or it was altered`,
        }
      }
      return { ok: false, reason: 'BAD_PAYLOAD', message: err.message }
    }
  }

  private isCurrent(publicKeyHex: string): boolean {
    if (!isHex(publicKeyHex)) return false
    try {
      return bytesToHex(secp256k1.Point.fromBytes(hexToBytes(publicKeyHex)).toBytes(false)) === this.publicKey
    } catch {
      return false
    }
  }
}
