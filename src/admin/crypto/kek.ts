// The key-encryption key (KEK): 32 random bytes in --kek-file, hex. Every stored private key is
// sealed under it with AES-256-GCM; the database alone therefore never yields a key.
import { gcm } from '@noble/ciphers/aes.js'
import { randomBytes } from '@noble/ciphers/utils.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { bytesToHex, concatBytes, hexToBytes, isHex } from '../../lib/hex.ts'

const KEK_BYTES = 32
const NONCE_BYTES = 12
const UTF8 = new TextEncoder()
const KEK_ID_DOMAIN = UTF8.encode('perpd-admin/kek-id/v1')

/** A loaded KEK and its public fingerprint (stored beside each sealed key). */
export interface Kek {
  readonly key: Uint8Array
  /** sha256(domain ‖ key), first 8 bytes, hex: names the KEK without revealing it. */
  readonly id: string
  /** Whether this start created the file. */
  readonly created: boolean
}

/** The KEK file cannot be used; the message says why and what to do. */
export class KekError extends Error {
  override readonly name = 'KekError'
}

/**
 * Reads the KEK from `file`, creating it (mode 0600, in a 0700 directory when that is new) when
 * it does not exist. A file that group or others may read is refused, as ssh does with keys.
 */
export function loadOrCreateKek(file: string): Kek {
  let created = false
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new KekError(`cannot read the KEK file ${file}: ${(err as Error).message}`)
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    text = bytesToHex(randomBytes(KEK_BYTES)).slice(2) + '\n'
    // 'wx' fails if another process created the file meanwhile, rather than overwriting its key.
    writeFileSync(file, text, { mode: 0o600, flag: 'wx' })
    // The process umask could have narrowed the mode further, never widened it; make it exact.
    chmodSync(file, 0o600)
    created = true
  }
  const mode = statSync(file).mode & 0o777
  if ((mode & 0o077) !== 0) {
    throw new KekError(`the KEK file ${file} has mode ${mode.toString(8)}; it must not be readable by group or others (chmod 600 ${file})`)
  }
  const hex = text.trim()
  if (!isHex(hex, KEK_BYTES)) throw new KekError(`the KEK file ${file} must hold ${KEK_BYTES} bytes as ${KEK_BYTES * 2} hex digits`)
  const key = hexToBytes(hex)
  return { key, id: kekId(key), created }
}

/** The fingerprint of a KEK. */
export function kekId(key: Uint8Array): string {
  return bytesToHex(sha256(concatBytes(KEK_ID_DOMAIN, key)).subarray(0, 8)).slice(2)
}

/** A secret sealed under the KEK: a fresh 12-byte nonce and ciphertext ‖ tag. */
export interface Sealed {
  readonly nonce: Uint8Array
  readonly sealed: Uint8Array
}

/**
 * Seals `plaintext` under the KEK with `recordId` as associated data, so a sealed blob copied
 * into another row fails to open instead of becoming that row's key.
 */
export function seal(kek: Kek, recordId: string, plaintext: Uint8Array): Sealed {
  const nonce = randomBytes(NONCE_BYTES)
  return { nonce, sealed: gcm(kek.key, nonce, UTF8.encode(recordId)).encrypt(plaintext) }
}

/** Opens a sealed secret; throws when the KEK, the record id or the bytes do not match. */
export function unseal(kek: Kek, recordId: string, sealed: Sealed): Uint8Array {
  return gcm(kek.key, sealed.nonce, UTF8.encode(recordId)).decrypt(sealed.sealed)
}
