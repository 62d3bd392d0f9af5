// Key custody (docs/admin.md#keys; the encryption: docs/protocol.md#key-upload-encryption): the
// ECIES upload key, listing, upload, rename and delete. No route here returns a private key; the plaintext
// exists only between decryption and sealing.

import { secp256k1 } from '@noble/curves/secp256k1.js'
import { FormatRegistry, Type } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import { normalizeAddress } from '../../lib/hex.ts'
import type { Logger } from '../../lib/log.ts'
import { addressOfPrivateKey } from '../../wire/signing.ts'
import { secretFromHexBytes } from '../crypto/secret-hex.ts'
import type { ServerKey } from '../crypto/server-key.ts'
import { isPrintableLabel, KEY_LABEL_MAX, type KeyStore } from '../store/key-store.ts'
import type { AuthGuard } from './auth-guard.ts'
import { HttpError } from './errors.ts'
import { ADDRESS_PATTERN, json, UUID_PATTERN } from './helpers.ts'
import { readJsonBody } from './json-body.ts'

const HEX_FIELD_MAX = 1_024

// Elysia validates with TypeBox's formats; 'key-label' is the printable-text rule of key-store.ts.
FormatRegistry.Set('key-label', isPrintableLabel)

/** A key label: 1 to 64 printable characters (docs/admin.md#key-routes). */
const Label = Type.String({
  minLength: 1,
  maxLength: KEY_LABEL_MAX,
  format: 'key-label',
  description: 'a name for the key',
  error: `label must be 1 to ${KEY_LABEL_MAX} printable characters (no control, format or line-separator characters)`,
})

/** POST /api/keys body: the private key hex, ECIES-encrypted to GET /api/keys/encryption-key. */
export const KeyUploadBody = Type.Object({
  label: Label,
  address: Type.String({ pattern: ADDRESS_PATTERN, description: 'the address the key controls; checked after decryption' }),
  ephemeral_public_key: Type.String({ maxLength: HEX_FIELD_MAX, description: '0x-hex 65-byte uncompressed E = e·G' }),
  iv: Type.String({ maxLength: HEX_FIELD_MAX, description: '0x-hex 16-byte IV' }),
  ciphertext: Type.String({ maxLength: HEX_FIELD_MAX, description: '0x-hex AES-256-GCM ct ‖ tag of the key as 64 hex characters' }),
  public_key: Type.Optional(
    Type.String({
      maxLength: HEX_FIELD_MAX,
      description: 'the server key the payload was encrypted to; lets the service name a stale key',
    }),
  ),
})

/** PATCH /api/keys/{id} body. */
export const KeyRenameBody = Type.Object({ label: Label })

const UUID = new RegExp(UUID_PATTERN)

/** What the key routes need. */
export interface KeyRouteDeps {
  readonly guard: AuthGuard
  readonly keys: KeyStore
  readonly serverKey: ServerKey
  readonly log: Logger
}

/**
 * The 32 key bytes of a decrypted plaintext (64 hex characters, optional 0x), or an HttpError.
 * Decoded from the bytes themselves: the key never becomes a string (crypto/secret-hex.ts).
 */
export function privateKeyOf(plaintext: Uint8Array): Uint8Array {
  const key = secretFromHexBytes(plaintext, 32)
  if (key === undefined) throw new HttpError(400, 'BAD_PLAINTEXT', 'the decrypted payload is not a private key as 64 hex characters')
  if (!secp256k1.utils.isValidSecretKey(key)) {
    key.fill(0)
    throw new HttpError(400, 'BAD_PLAINTEXT', 'the decrypted payload is not a valid secp256k1 private key')
  }
  return key
}

/** GET /api/keys/encryption-key, GET and POST /api/keys, PATCH and DELETE /api/keys/{id}. */
export function keyRoutes(deps: KeyRouteDeps) {
  const { guard, keys, serverKey, log } = deps
  return new Elysia()
    .get('/api/keys/encryption-key', () => ({ public_key: serverKey.publicKey, algorithm: 'ecies-secp256k1' }))
    .get('/api/keys', async ({ headers }) => {
      await guard.admin(headers.authorization)
      return { keys: keys.list() }
    })
    .post(
      '/api/keys',
      async ({ headers, body }) => {
        const session = await guard.admin(headers.authorization)
        const decrypted = serverKey.decrypt(
          { ephemeral_public_key: body.ephemeral_public_key, iv: body.iv, ciphertext: body.ciphertext },
          body.public_key,
        )
        if (!decrypted.ok) throw new HttpError(400, decrypted.reason, decrypted.message)
        let key: Uint8Array | undefined
        try {
          key = privateKeyOf(decrypted.plaintext)
          const claimed = normalizeAddress(body.address)!
          const derived = addressOfPrivateKey(key)
          if (derived !== claimed) throw new HttpError(400, 'ADDRESS_MISMATCH', `the uploaded key controls ${derived}, not ${claimed}`)
          const created = keys.create({ label: body.label, privateKey: key, actor: session.address })
          if (!created.ok)
            throw new HttpError(409, 'KEY_EXISTS', `a key for ${derived} is already stored (id ${created.existingId})`, {
              id: created.existingId,
            })
          log.info(`key ${created.entry.id} (${derived}, ${JSON.stringify(body.label)}) uploaded by ${session.address}`)
          return json(created.entry, 201)
        } finally {
          decrypted.plaintext.fill(0)
          key?.fill(0)
        }
      },
      {
        parse: 'arrayBuffer',
        body: KeyUploadBody,
        // No session is 401 before the body is looked at.
        transform(ctx) {
          guard.session(ctx.headers.authorization)
          readJsonBody(ctx)
        },
      },
    )
    .patch(
      '/api/keys/:id',
      async ({ headers, params, body }) => {
        const session = await guard.admin(headers.authorization)
        const missing = () => new HttpError(404, 'KEY_NOT_FOUND', `no key with id ${params.id.slice(0, 64)}`)
        if (!UUID.test(params.id)) throw missing()
        const entry = keys.rename(params.id.toLowerCase(), body.label, session.address)
        if (entry === undefined) throw missing()
        log.info(`key ${entry.id} renamed to ${JSON.stringify(entry.label)} by ${session.address}`)
        return entry
      },
      {
        parse: 'arrayBuffer',
        body: KeyRenameBody,
        // No session is 401 before the body is looked at.
        transform(ctx) {
          guard.session(ctx.headers.authorization)
          readJsonBody(ctx)
        },
      },
    )
    .delete('/api/keys/:id', async ({ headers, params }) => {
      const session = await guard.admin(headers.authorization)
      const missing = () => new HttpError(404, 'KEY_NOT_FOUND', `no key with id ${params.id.slice(0, 64)}`)
      if (!UUID.test(params.id)) throw missing()
      const outcome = keys.delete(params.id.toLowerCase(), session.address)
      if (!outcome.ok && outcome.missing) throw missing()
      if (!outcome.ok && !outcome.missing) {
        throw new HttpError(
          409,
          'KEY_BOUND',
          `key ${params.id} is bound to ${outcome.usedBy.join(', ')}; unbind it first (PUT /api/service-config with key_id null)`,
          { used_by: outcome.usedBy },
        )
      }
      log.info(`key ${params.id} deleted by ${session.address}`)
      return { ok: true }
    })
}
