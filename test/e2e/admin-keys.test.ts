// Key custody end to end (docs/admin.md#keys; docs/protocol.md#key-upload-encryption): uploads
// encrypted by eciesjs and by the project's own encryptor, every error status, bindings that block
// deletion, the KEK file, the audit log, and a byte scan proving the database never holds a key in
// plaintext.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { encrypt as eciesjsEncrypt } from 'eciesjs'
import { bytesToHex, type Hex, hexToBytes } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { eciesEncrypt } from '../../src/wire/ecies.ts'
import { type AdminProcess, api, loginToken, runAdmin, startAdmin } from '../support/admin-process.ts'
import { DEV_KEYS, removeDir, startNode, tempDataDir } from '../support/node-process.ts'

const ADMIN_KEY = DEV_KEYS[0] as Hex
const node = await startNode()
let admin: AdminProcess = await startAdmin({ nodeUrl: node.url })
let token = await loginToken(admin.url, ADMIN_KEY)
const dirs: string[] = [admin.dataDir, admin.kekFile, node.dataDir]
/** Every private key this file uploads; none may appear in a reply, a log line or the database. */
const secrets: Hex[] = []

afterAll(async () => {
  await admin.stop()
  await node.stop()
  for (const d of dirs) removeDir(d)
})

const newKey = (): Hex => {
  const k = bytesToHex(secp256k1.utils.randomSecretKey())
  secrets.push(k)
  return k
}
const addressOf = (k: Hex) => privateKeyToAccount(k).address
const serverKey = async () => (await api(admin.url, '/api/keys/encryption-key')).body.public_key as Hex

/** An upload body built with eciesjs, repacked from its E ‖ iv ‖ tag ‖ ct into the wire fields. */
function eciesjsUpload(serverPublicKey: Hex, key: Hex, label: string) {
  const packed = eciesjsEncrypt(hexToBytes(serverPublicKey), new TextEncoder().encode(key.slice(2)))
  const E = packed.subarray(0, 65)
  const iv = packed.subarray(65, 81)
  const tag = packed.subarray(81, 97)
  const ct = packed.subarray(97)
  return {
    label,
    address: addressOf(key),
    ephemeral_public_key: bytesToHex(E),
    iv: bytesToHex(iv),
    ciphertext: bytesToHex(new Uint8Array([...ct, ...tag])),
  }
}

/** An upload body built with the project's encryptor (src/wire/ecies.ts). */
function ownUpload(serverPublicKey: Hex, key: Hex, label: string) {
  return { label, address: addressOf(key), ...eciesEncrypt(serverPublicKey, new TextEncoder().encode(key)) }
}

const upload = (body: unknown, t = token) => api(admin.url, '/api/keys', { method: 'POST', body, token: t })

describe('the encryption key', () => {
  test('is a 0x04 uncompressed secp256k1 point, algorithm ecies-secp256k1, without a token', async () => {
    const r = await api(admin.url, '/api/keys/encryption-key')
    expect(r.status).toBe(200)
    expect(r.body.algorithm).toBe('ecies-secp256k1')
    expect(r.body.public_key).toMatch(/^0x04[0-9a-f]{128}$/)
    expect(() => secp256k1.Point.fromHex(r.body.public_key.slice(2))).not.toThrow()
  })
})

describe('upload', () => {
  test('a payload made by eciesjs is stored: 201 with the key entry', async () => {
    const key = newKey()
    const r = await upload(eciesjsUpload(await serverKey(), key, 'oracle-eciesjs'))
    expect(r.status).toBe(201)
    expect(r.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      label: 'oracle-eciesjs',
      address: addressOf(key).toLowerCase(),
      created_at: expect.any(String),
      used_by: [],
    })
    expect(Date.parse(r.body.created_at)).toBeGreaterThan(Date.now() - 60_000)
  })

  test("a payload made by the project's encryptor (0x-prefixed plaintext) is stored", async () => {
    const key = newKey()
    const r = await upload(ownUpload(await serverKey(), key, 'own'))
    expect(r.status).toBe(201)
    expect(r.body.address).toBe(addressOf(key).toLowerCase())
    const list = await api(admin.url, '/api/keys', { token })
    expect(list.body.keys.map((k: { id: string }) => k.id)).toContain(r.body.id)
  })

  test('the same key twice is 409', async () => {
    const key = newKey()
    const pub = await serverKey()
    expect((await upload(ownUpload(pub, key, 'a'))).status).toBe(201)
    const again = await upload(ownUpload(pub, key, 'b'))
    expect(again.status).toBe(409)
    expect(again.body.reason).toBe('KEY_EXISTS')
  })

  test('a derived address other than `address` is 400', async () => {
    const key = newKey()
    const body = { ...ownUpload(await serverKey(), key, 'x'), address: addressOf(DEV_KEYS[5] as Hex) }
    const r = await upload(body)
    expect(r.status).toBe(400)
    expect(r.body.reason).toBe('ADDRESS_MISMATCH')
    expect(r.body.error).toContain(addressOf(key).toLowerCase())
  })

  test('the address matches case-insensitively', async () => {
    const key = newKey()
    const body = ownUpload(await serverKey(), key, 'upper')
    expect((await upload({ ...body, address: `0x${body.address.slice(2).toUpperCase()}` })).status).toBe(201)
  })

  test('decryption failures are 400: altered ciphertext, wrong iv, foreign ephemeral key, bad hex', async () => {
    const key = newKey()
    const body = ownUpload(await serverKey(), key, 'x')
    const flip = (h: string) => h.slice(0, -2) + (h.endsWith('00') ? '01' : '00')
    for (const bad of [
      { ...body, ciphertext: flip(body.ciphertext) },
      { ...body, iv: flip(body.iv) },
      { ...body, ephemeral_public_key: bytesToHex(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), false)) },
      { ...body, ephemeral_public_key: `0x04${'00'.repeat(64)}` },
      { ...body, iv: '0x1234' },
      { ...body, ciphertext: 'zz' },
    ]) {
      const r = await upload(bad)
      expect(r.status).toBe(400)
      expect(['DECRYPTION_FAILED', 'BAD_PAYLOAD']).toContain(r.body.reason)
    }
  })

  test('a plaintext that is not a private key is 400', async () => {
    const pub = await serverKey()
    for (const text of ['hello', '00'.repeat(32), 'ff'.repeat(32)]) {
      const r = await upload({ label: 'x', address: addressOf(DEV_KEYS[5] as Hex), ...eciesEncrypt(pub, new TextEncoder().encode(text)) })
      expect(r.status).toBe(400)
      expect(r.body.reason).toBe('BAD_PLAINTEXT')
      expect(r.text).not.toContain(text)
    }
  })

  test('invalid JSON and a wrong body shape are 400; no token is 401', async () => {
    expect((await upload('{nope')).status).toBe(400)
    expect((await upload({ label: 'x' })).status).toBe(400)
    expect((await upload({ ...ownUpload(await serverKey(), newKey(), 'x'), label: '' })).status).toBe(400)
    expect((await api(admin.url, '/api/keys', { method: 'POST', body: ownUpload(await serverKey(), newKey(), 'x') })).status).toBe(401)
  })
})

describe('delete and bindings', () => {
  test('a bound key cannot be deleted (409) until it is unbound; a missing key is 404', async () => {
    const key = newKey()
    const id = (await upload(ownUpload(await serverKey(), key, 'liq'))).body.id as string
    const bind = await api(admin.url, '/api/service-config', {
      method: 'PUT',
      token,
      body: { service: 'liquidator', key_id: id, enabled: true },
    })
    expect(bind.status).toBe(200)
    const listed = (await api(admin.url, '/api/keys', { token })).body.keys.find((k: { id: string }) => k.id === id)
    expect(listed.used_by).toEqual(['liquidator'])
    const del = await api(admin.url, `/api/keys/${id}`, { method: 'DELETE', token })
    expect(del.status).toBe(409)
    expect(del.body).toMatchObject({ reason: 'KEY_BOUND', used_by: ['liquidator'] })
    // Disabled is still bound.
    expect(
      (await api(admin.url, '/api/service-config', { method: 'PUT', token, body: { service: 'liquidator', key_id: id, enabled: false } }))
        .status,
    ).toBe(200)
    expect((await api(admin.url, `/api/keys/${id}`, { method: 'DELETE', token })).status).toBe(409)
    expect(
      (await api(admin.url, '/api/service-config', { method: 'PUT', token, body: { service: 'liquidator', key_id: null, enabled: false } }))
        .status,
    ).toBe(200)
    expect((await api(admin.url, `/api/keys/${id}`, { method: 'DELETE', token })).body).toEqual({ ok: true })
    expect((await api(admin.url, `/api/keys/${id}`, { method: 'DELETE', token })).status).toBe(404)
    expect((await api(admin.url, '/api/keys/00000000-0000-4000-8000-000000000000', { method: 'DELETE', token })).status).toBe(404)
    expect((await api(admin.url, '/api/keys/not-a-uuid', { method: 'DELETE', token })).status).toBe(404)
  })

  test('service-config lists the five services; a bad service or unknown key is 400', async () => {
    const cfg = await api(admin.url, '/api/service-config', { token })
    expect(Object.keys(cfg.body.services)).toEqual(['oracle', 'liquidator', 'hedger', 'bridge_deposit', 'bridge_withdraw'])
    expect(cfg.body.services.hedger).toMatchObject({ key_id: null, address: null, enabled: false, status: { state: 'stopped' } })
    const bad = await api(admin.url, '/api/service-config', {
      method: 'PUT',
      token,
      body: { service: 'nope', key_id: null, enabled: true },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toContain('oracle, liquidator, hedger, bridge_deposit, bridge_withdraw')
    const missing = await api(admin.url, '/api/service-config', {
      method: 'PUT',
      token,
      body: { service: 'oracle', key_id: '00000000-0000-4000-8000-000000000000', enabled: true },
    })
    expect(missing.status).toBe(400)
    expect(missing.body.reason).toBe('KEY_NOT_FOUND')
    expect(
      (await api(admin.url, '/api/service-config', { method: 'PUT', token, body: { service: 'oracle', key_id: 'x', enabled: true } }))
        .status,
    ).toBe(400)
  })

  test('a key holding Admin on chain is never bound (409 KEY_IS_ADMIN); a key serves one service (409 KEY_IN_USE)', async () => {
    // The dev Admin's own key, uploaded as an operator key.
    secrets.push(ADMIN_KEY)
    const adminKey = (await upload(ownUpload(await serverKey(), ADMIN_KEY, 'admin'))).body.id as string
    const refused = await api(admin.url, '/api/service-config', {
      method: 'PUT',
      token,
      body: { service: 'liquidator', key_id: adminKey, enabled: true },
    })
    expect(refused.status).toBe(409)
    expect(refused.body.reason).toBe('KEY_IS_ADMIN')
    expect(refused.body.error).toContain(addressOf(ADMIN_KEY).toLowerCase())
    expect((await api(admin.url, '/api/service-config', { token })).body.services.liquidator.key_id).toBeNull()
    expect((await api(admin.url, `/api/keys/${adminKey}`, { method: 'DELETE', token })).status).toBe(200)

    const shared = (await upload(ownUpload(await serverKey(), newKey(), 'shared'))).body.id as string
    expect(
      (
        await api(admin.url, '/api/service-config', {
          method: 'PUT',
          token,
          body: { service: 'bridge_deposit', key_id: shared, enabled: false },
        })
      ).status,
    ).toBe(200)
    for (const service of ['oracle', 'liquidator', 'bridge_withdraw']) {
      const r = await api(admin.url, '/api/service-config', { method: 'PUT', token, body: { service, key_id: shared, enabled: true } })
      expect(r.status).toBe(409)
      expect(r.body).toMatchObject({ reason: 'KEY_IN_USE', used_by: ['bridge_deposit'] })
    }
    // The same service again (enabling it) is no conflict; once unbound there, the key may go elsewhere.
    expect(
      (
        await api(admin.url, '/api/service-config', {
          method: 'PUT',
          token,
          body: { service: 'bridge_deposit', key_id: shared, enabled: false },
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await api(admin.url, '/api/service-config', {
          method: 'PUT',
          token,
          body: { service: 'bridge_deposit', key_id: null, enabled: false },
        })
      ).status,
    ).toBe(200)
    expect(
      (await api(admin.url, '/api/service-config', { method: 'PUT', token, body: { service: 'oracle', key_id: shared, enabled: false } }))
        .status,
    ).toBe(200)
    expect(
      (await api(admin.url, '/api/service-config', { method: 'PUT', token, body: { service: 'oracle', key_id: null, enabled: false } }))
        .status,
    ).toBe(200)
  }, 30_000)

  test('labels are printable text: control, format and separator characters or 65 characters are 400, at upload and rename', async () => {
    const bad = [
      '\u001b[31mred\u001b[0m',
      'two\nlines',
      'cr\rhere',
      '\u202eexe.txt',
      'nul\u0000',
      'zero\u200bwidth',
      'ls\u2028',
      'x'.repeat(65),
      '',
    ]
    for (const label of bad) {
      const r = await upload(ownUpload(await serverKey(), newKey(), label))
      expect({ label, status: r.status, reason: r.body.reason }).toEqual({ label, status: 400, reason: 'INVALID_REQUEST' })
      expect(r.body.error).toContain('label')
    }
    const id = (await upload(ownUpload(await serverKey(), newKey(), 'before é😀'))).body.id as string
    for (const label of bad) {
      const r = await api(admin.url, `/api/keys/${id}`, { method: 'PATCH', token, body: { label } })
      expect({ label, status: r.status }).toEqual({ label, status: 400 })
    }
    const renamed = await api(admin.url, `/api/keys/${id}`, { method: 'PATCH', token, body: { label: 'after' } })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ id, label: 'after' })
    expect(
      (await api(admin.url, '/api/keys/00000000-0000-4000-8000-000000000000', { method: 'PATCH', token, body: { label: 'x' } })).status,
    ).toBe(404)
    expect((await api(admin.url, `/api/keys/${id}`, { method: 'PATCH', body: { label: 'x' } })).status).toBe(401)
    const audit = (await api(admin.url, '/api/audit?limit=5', { token })).body.entries
    expect(audit[0]).toMatchObject({ action: 'key.rename', target: id, detail: { from: 'before é😀', to: 'after' } })
  }, 30_000)

  test('the audit log records uploads, deletes, binds and unbinds, and refuses changes', async () => {
    const entries = (await api(admin.url, '/api/audit?limit=500', { token })).body.entries as {
      action: string
      actor: string
      target: string | null
    }[]
    const actions = new Set(entries.map((e) => e.action))
    for (const a of ['login', 'key.upload', 'key.delete', 'key.rename', 'service.bind', 'service.unbind']) expect(actions).toContain(a)
    expect(entries.every((e) => e.actor === addressOf(ADMIN_KEY).toLowerCase())).toBe(true)
    const db = new Database(admin.dbFile)
    try {
      expect(() => db.run("UPDATE audit_log SET actor = 'x'")).toThrow(/append-only/)
      expect(() => db.run('DELETE FROM audit_log')).toThrow(/append-only/)
    } finally {
      db.close()
    }
  })
})

describe('at rest', () => {
  test('no reply, log line or database byte holds a private key', async () => {
    const replies = [
      (await api(admin.url, '/api/keys', { token })).text,
      (await api(admin.url, '/api/service-config', { token })).text,
      (await api(admin.url, '/api/audit?limit=500', { token })).text,
    ]
      .join('\n')
      .toLowerCase()
    const files = [admin.dbFile, `${admin.dbFile}-wal`].filter(existsSync).map((f) => Buffer.from(readFileSync(f)))
    expect(files.length).toBeGreaterThan(0)
    expect(secrets.length).toBeGreaterThanOrEqual(8)
    for (const k of secrets) {
      const hex = k.slice(2)
      expect(replies.includes(hex)).toBe(false)
      expect(admin.output().toLowerCase().includes(hex)).toBe(false)
      for (const bytes of files) {
        expect(bytes.includes(Buffer.from(hex, 'latin1'))).toBe(false)
        expect(bytes.includes(Buffer.from(hex.toUpperCase(), 'latin1'))).toBe(false)
        expect(bytes.includes(Buffer.from(hex, 'hex'))).toBe(false)
      }
    }
  })

  test('the KEK file is created with mode 0600', () => {
    // Beside the data directory, not in it (docs/admin.md#data-directory).
    const kek = admin.kekFile
    expect(kek).toBe(`${admin.dataDir}.kek`)
    expect(existsSync(join(admin.dataDir, 'admin.kek'))).toBe(false)
    expect(statSync(kek).mode & 0o777).toBe(0o600)
    expect(readFileSync(kek, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/)
  })

  test('503 when the database cannot be written (another process holds its write lock)', async () => {
    const db = new Database(admin.dbFile)
    db.run('BEGIN EXCLUSIVE')
    try {
      const r = await upload(ownUpload(await serverKey(), newKey(), 'locked'))
      expect(r.status).toBe(503)
      expect(r.body.reason).toBe('DATABASE_UNAVAILABLE')
    } finally {
      db.run('ROLLBACK')
      db.close()
    }
    expect((await upload(ownUpload(await serverKey(), newKey(), 'unlocked'))).status).toBe(201)
  })
})

describe('restarts', () => {
  test('a restart keeps keys, ends sessions, makes a new encryption key; an old payload names the stale key', async () => {
    const before = (await api(admin.url, '/api/keys', { token })).body.keys as { id: string }[]
    const oldPub = await serverKey()
    const key = newKey()
    const stale = ownUpload(oldPub, key, 'stale')
    await admin.stop()
    admin = await startAdmin({ nodeUrl: node.url, dataDir: admin.dataDir })
    expect((await api(admin.url, '/api/auth/me', { token })).status).toBe(401)
    token = await loginToken(admin.url, ADMIN_KEY)
    expect((await api(admin.url, '/api/keys', { token })).body.keys.map((k: { id: string }) => k.id)).toEqual(before.map((k) => k.id))
    const newPub = await serverKey()
    expect(newPub).not.toBe(oldPub)
    const r = await upload(stale)
    expect(r.status).toBe(400)
    expect(r.body.reason).toBe('DECRYPTION_FAILED')
    expect(r.body.error).toContain('stale server key')
    const named = await upload({ ...stale, public_key: oldPub })
    expect(named.status).toBe(400)
    expect(named.body.reason).toBe('STALE_SERVER_KEY')
    expect((await upload(ownUpload(newPub, key, 'fresh'))).status).toBe(201)
  })

  test("a KEK other than the database's, or one others may read, is refused at start", async () => {
    await admin.stop()
    // After a clean stop (WAL checkpointed) the file still holds only sealed keys.
    const bytes = Buffer.from(readFileSync(admin.dbFile))
    for (const k of secrets)
      expect(bytes.includes(Buffer.from(k.slice(2), 'hex')) || bytes.includes(Buffer.from(k.slice(2), 'latin1'))).toBe(false)
    const db = new Database(admin.dbFile, { readonly: true })
    const rows = db.query('SELECT sealed FROM keys').all() as { sealed: Uint8Array }[]
    db.close()
    expect(rows.length).toBeGreaterThan(0)
    // 32 key bytes + the 16-byte GCM tag.
    expect(rows.every((r) => r.sealed.length === 48)).toBe(true)
    const otherKek = join(tempDataDir(), 'other.kek')
    dirs.push(join(otherKek, '..'))
    writeFileSync(otherKek, `${'ab'.repeat(32)}\n`, { mode: 0o600 })
    const wrong = await runAdmin(['--node-url', node.url, '--data-dir', admin.dataDir, '--kek-file', otherKek, '--port', '0'])
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain('is not the one this database was written with')
    const own = admin.kekFile
    chmodSync(own, 0o644)
    const open = await runAdmin(['--node-url', node.url, '--data-dir', admin.dataDir, '--port', '0'])
    expect(open.code).toBe(1)
    expect(open.stderr).toContain('must not be readable by group or others')
    chmodSync(own, 0o600)
    admin = await startAdmin({ nodeUrl: node.url, dataDir: admin.dataDir })
  })
})
