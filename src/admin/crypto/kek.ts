// The key-encryption key (KEK): 32 random bytes in --kek-file, hex (docs/admin.md#sealing-and-the-kek-file).
// Every stored private key is sealed under it with AES-256-GCM; the database alone therefore never
// yields a key. The file is read and written as bytes (crypto/secret-hex.ts), never as a string.

import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { gcm } from '@noble/ciphers/aes.js'
import { randomBytes } from '@noble/ciphers/utils.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, concatBytes } from '../../lib/hex.ts'
import { StartRefused } from '../start-refused.ts'
import { secretFromHexBytes, secretToHexBytes } from './secret-hex.ts'

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
export class KekError extends StartRefused {
  override readonly name = 'KekError'
}

/** Whether the KEK file exists (a file that cannot be stat'ed for another reason counts as present, so reading it reports why). */
export function kekFileExists(file: string): boolean {
  try {
    statSync(file)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT'
  }
}

/**
 * Reads the KEK from `file`. A file that group or others may read is refused, as ssh does with
 * keys, as is one that does not hold 64 hex digits.
 */
export function readKek(file: string): Kek {
  let mode: number
  let text: Uint8Array
  try {
    mode = statSync(file).mode & 0o777
    text = readFileSync(file)
  } catch (err) {
    throw new KekError(`cannot read the KEK file ${file}: ${(err as Error).message}`)
  }
  try {
    if ((mode & 0o077) !== 0) {
      throw new KekError(
        `the KEK file ${file} has mode ${mode.toString(8)}; it must not be readable by group or others (chmod 600 ${file})`,
      )
    }
    const key = secretFromHexBytes(text, KEK_BYTES)
    if (key === undefined) throw new KekError(`the KEK file ${file} must hold ${KEK_BYTES} bytes as ${KEK_BYTES * 2} hex digits`)
    return { key, id: kekId(key), created: false }
  } finally {
    text.fill(0)
  }
}

/** A fresh random KEK, in memory only. */
export function generateKek(): Kek {
  const key = randomBytes(KEK_BYTES)
  return { key, id: kekId(key), created: true }
}

/**
 * Writes `kek` to `file` (mode 0600, its directory created 0700 when missing) and syncs it to
 * disk. `exclusive` fails when the file exists instead of replacing a key someone else wrote.
 */
export function writeKekFile(file: string, kek: Kek, exclusive: boolean): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const text = secretToHexBytes(kek.key, UTF8.encode('\n'))
  const fd = openSync(file, exclusive ? 'wx' : 'w', 0o600)
  try {
    writeSync(fd, text)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
    text.fill(0)
  }
  // The process umask could have narrowed the mode further, never widened it; make it exact.
  chmodSync(file, 0o600)
}

/** Creates a new KEK in `file`, which must not exist ('wx': never overwrites a key). */
export function createKek(file: string): Kek {
  const kek = generateKek()
  writeKekFile(file, kek, true)
  return kek
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
