// A private key typed into the console leaves the page only as ECIES ciphertext to the service's
// encryption key of this start (docs/protocol.md#key-upload-encryption), built by the same code the
// service decrypts with (src/wire/ecies.ts). The typed text is checked and turned into bytes here;
// the byte buffers are zeroed once encrypted (the input's own string cannot be wiped: the form
// clears it).
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { hexToBytes } from '../../lib/hex.ts'
import { addressOfPublicKey } from '../../wire/admin-login.ts'
import { type EciesPayload, eciesEncrypt } from '../../wire/ecies.ts'
import { apiCall } from './api.ts'

/** A payload ready for POST /api/keys or a hedge account: the parts, the key they were made for, the address. */
export interface EncryptedKey extends EciesPayload {
  readonly public_key: string
  readonly address: string
}

/**
 * Encrypts a private key given as 64 hex characters (0x and surrounding spaces allowed) to the
 * service's current encryption key; throws an Error with a sentence for a person when the text is
 * not a secp256k1 private key.
 */
export async function encryptPrivateKey(typed: string): Promise<EncryptedKey> {
  const hex = typed.trim().replace(/^0x/i, '')
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('The private key must be 64 hex characters (0x optional).')
  const secret = hexToBytes(hex)
  const plaintext = new TextEncoder().encode(hex.toLowerCase())
  try {
    if (!secp256k1.utils.isValidSecretKey(secret)) throw new Error('This is not a valid secp256k1 private key.')
    const address = addressOfPublicKey(secp256k1.getPublicKey(secret, false))
    const { public_key } = await apiCall<{ public_key: string }>('GET', '/api/keys/encryption-key')
    return { ...eciesEncrypt(public_key, plaintext), public_key, address }
  } finally {
    secret.fill(0)
    plaintext.fill(0)
  }
}
