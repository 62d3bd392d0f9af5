// Custody an auditor would sign off, end to end (docs/admin.md#data-directory,
// docs/admin.md#sealing-and-the-kek-file, docs/admin.md#rotating-the-kek, docs/admin.md#tls-and-links,
// docs/admin.md#audit-chain): where the KEK may live and when one is made, file modes, TLS and
// link refusals, `perpd-admin audit verify` against a tampered database, and `perpd-admin kek
// rotate` followed by a restart whose runner still signs. A real node and real admin processes.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { eciesEncrypt } from '../../src/wire/ecies.ts'
import {
  type AdminProcess,
  api,
  eventually,
  loginToken,
  removeAdminFiles,
  runAdmin,
  startAdmin,
  startPriceServer,
} from '../support/admin-process.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { DEV_KEYS, removeDir, startNode } from '../support/node-process.ts'

const QUOTER = DEV_KEYS[7] as Hex
const addr = (k: Hex) => privateKeyToAccount(k).address.toLowerCase()
const mode = (p: string) => statSync(p).mode & 0o777
/** A node URL nothing answers at: the service starts without it (its runners wait). */
const NOWHERE = 'http://127.0.0.1:1'

const node = await startNode()
const rpc = new CheckedRpcClient(node.url)
const prices = startPriceServer()
const scratch = mkdtempSync(join(tmpdir(), 'perpd-custody-'))
const admins: AdminProcess[] = []

afterAll(async () => {
  for (const a of admins) await a.stop().catch(() => 0)
  for (const a of admins) removeAdminFiles(a)
  await node.stop()
  prices.stop()
  removeDir(node.dataDir)
  removeDir(scratch)
})

async function started(opts: Parameters<typeof startAdmin>[0]): Promise<AdminProcess> {
  const a = await startAdmin(opts)
  admins.push(a)
  return a
}

describe('the KEK and the data directory at start', () => {
  test('outside --dev a KEK inside the data directory is refused with what to do; --dev accepts it', async () => {
    const dataDir = join(scratch, 'inside')
    const r = await runAdmin(['--node-url', NOWHERE, '--data-dir', dataDir, '--kek-file', join(dataDir, 'admin.kek'), '--port', '0'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('is inside the data directory')
    expect(r.stderr).toContain('a backup of the data directory would carry the key')
    expect(existsSync(join(dataDir, 'admin.kek'))).toBe(false)
    const dev = await started({ nodeUrl: NOWHERE, dataDir, args: ['--dev'] })
    expect(dev.kekFile).toBe(join(dataDir, 'admin.kek'))
    expect(mode(dev.kekFile)).toBe(0o600)
    await dev.stop()
  }, 60_000)

  test('a new data directory is 0700, its database files 0600, its KEK beside it', async () => {
    const a = await started({ nodeUrl: NOWHERE })
    expect(a.kekFile).toBe(`${a.dataDir}.kek`)
    expect(mode(a.dataDir)).toBe(0o700)
    expect(mode(a.kekFile)).toBe(0o600)
    expect(a.output()).toContain('created the key-encryption key')
    for (const f of [a.dbFile, `${a.dbFile}-wal`, `${a.dbFile}-shm`]) expect({ f, mode: mode(f) }).toEqual({ f, mode: 0o600 })
    await a.stop()
  }, 60_000)

  test('an existing database without its KEK is refused, and no new KEK is made', async () => {
    const a = await started({ nodeUrl: NOWHERE })
    await a.stop()
    const kek = readFileSync(a.kekFile)
    const moved = join(scratch, 'moved.kek')
    await Bun.write(moved, kek)
    chmodSync(moved, 0o600)
    removeDir(a.kekFile)
    const r = await runAdmin(['--node-url', NOWHERE, '--data-dir', a.dataDir, '--port', '0'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('exists but its KEK file')
    expect(r.stderr).toContain('a new KEK would not open the stored keys')
    expect(existsSync(a.kekFile)).toBe(false)
    // With the KEK where it is now, it starts.
    const again = await started({ nodeUrl: NOWHERE, dataDir: a.dataDir, args: ['--kek-file', moved] })
    await again.stop()
  }, 60_000)

  test('a database file or data directory open to others is refused at start', async () => {
    const a = await started({ nodeUrl: NOWHERE })
    await a.stop()
    chmodSync(a.dbFile, 0o644)
    let r = await runAdmin(['--node-url', NOWHERE, '--data-dir', a.dataDir, '--port', '0'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`chmod 600 ${a.dbFile}`)
    chmodSync(a.dbFile, 0o600)
    chmodSync(a.dataDir, 0o755)
    r = await runAdmin(['--node-url', NOWHERE, '--data-dir', a.dataDir, '--port', '0'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`chmod 700 ${a.dataDir}`)
    chmodSync(a.dataDir, 0o700)
  }, 60_000)
})

describe('TLS and links', () => {
  test('a non-loopback listen address without TLS, or a plain-http link to another host, is refused', async () => {
    const open = await runAdmin(['--node-url', NOWHERE, '--data-dir', join(scratch, 'never-1'), '--host', '0.0.0.0', '--port', '0'])
    expect(open.code).toBe(2)
    expect(open.stderr).toContain('--host 0.0.0.0 is not a loopback address')
    expect(open.stderr).toContain('--tls-cert')
    const link = await runAdmin(['--node-url', 'http://192.0.2.10:8080', '--data-dir', join(scratch, 'never-2'), '--port', '0'])
    expect(link.code).toBe(2)
    expect(link.stderr).toContain('is plain http to another host')
    const payout = await runAdmin([
      '--node-url',
      NOWHERE,
      '--withdraw-payout-url',
      'http://treasury.example:9/pay',
      '--data-dir',
      join(scratch, 'never-3'),
      '--port',
      '0',
    ])
    expect(payout.code).toBe(2)
    expect(payout.stderr).toContain('--withdraw-payout-url')
    const missing = await runAdmin([
      '--node-url',
      NOWHERE,
      '--data-dir',
      join(scratch, 'never-4'),
      '--port',
      '0',
      '--tls-cert',
      join(scratch, 'nope.pem'),
      '--tls-key',
      join(scratch, 'nope.key'),
    ])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('cannot read the TLS certificate')
  }, 60_000)

  test('with --tls-cert and --tls-key the API is served over https', async () => {
    const cert = join(scratch, 'c.pem')
    const key = join(scratch, 'k.pem')
    const gen = Bun.spawnSync(
      [
        'openssl',
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-subj',
        '/CN=localhost',
        '-days',
        '1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stderr: 'pipe' },
    )
    expect(gen.exitCode).toBe(0)
    const a = await started({ nodeUrl: node.url, args: ['--tls-cert', cert, '--tls-key', key] })
    expect(a.url).toStartWith('https://127.0.0.1:')
    const get = (path: string, init: RequestInit = {}) =>
      fetch(a.url + path, { ...init, tls: { rejectUnauthorized: false } } as RequestInit)
    const health = await get('/api/health')
    expect(health.status).toBe(200)
    expect(((await health.json()) as { ok: boolean }).ok).toBe(true)
    const ch = await get('/api/auth/challenge')
    expect(ch.headers.get('cache-control')).toBe('no-store')
    // Plain http to the same port is no API.
    expect(
      await fetch(`${a.url.replace('https://', 'http://')}/api/health`).then(
        (r) => r.status,
        () => 'refused',
      ),
    ).not.toBe(200)
    await a.stop()
  }, 60_000)
})

describe('the audit chain and the KEK rotation', () => {
  let admin: AdminProcess
  let token = ''
  let keyId = ''

  test('setup: a quoter key bound to the oracle, quoting', async () => {
    admin = await started({
      nodeUrl: node.url,
      args: ['--price-source-url', prices.url, '--oracle-interval-ms', '150', '--quote-refresh-ms', '500'],
    })
    token = await loginToken(admin.url, DEV_KEYS[0] as Hex)
    const { public_key } = (await api(admin.url, '/api/keys/encryption-key')).body
    const up = await api(admin.url, '/api/keys', {
      method: 'POST',
      token,
      body: { label: 'quoter', address: addr(QUOTER), ...eciesEncrypt(public_key, new TextEncoder().encode(QUOTER)) },
    })
    expect(up.status).toBe(201)
    keyId = up.body.id
    prices.set('XAU-USD', { bid: '2399.5', ask: '2400.5', mark: '2400' })
    expect(
      (await api(admin.url, '/api/service-config', { method: 'PUT', token, body: { service: 'oracle', key_id: keyId, enabled: true } }))
        .status,
    ).toBe(200)
    const since = Date.now()
    await eventually(
      async () =>
        ((await rpc.query<{ latest_quote: { source_ts_ms: number } | null }>('getMarket', { symbol: 'XAU-USD' })).data.latest_quote
          ?.source_ts_ms ?? 0) > since
          ? true
          : undefined,
      15_000,
      'a quote',
    )
  }, 60_000)

  test('audit verify checks the chain read-only, beside the running service', async () => {
    const r = await runAdmin(['audit', 'verify', '--data-dir', admin.dataDir])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^audit chain ok: \d+ rows, head [0-9a-f]{64}/)
    const entries = (await api(admin.url, '/api/audit?limit=2', { token })).body.entries
    expect(entries[0].prev_hash).toBe(entries[1].hash)
    expect(r.stdout).toContain(entries[0].hash)
  }, 60_000)

  test('kek rotate refuses while the service runs; after a stop it re-seals, and the restarted runner still signs', async () => {
    const busy = await runAdmin(['kek', 'rotate', '--data-dir', admin.dataDir])
    expect(busy.code).toBe(1)
    expect(busy.stderr).toContain('stop it first')
    await admin.stop()
    const oldKek = readFileSync(admin.kekFile, 'utf8')
    const r = await runAdmin(['kek', 'rotate', '--data-dir', admin.dataDir])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('1 keys re-sealed')
    const newKek = readFileSync(admin.kekFile, 'utf8')
    expect(newKek).not.toBe(oldKek)
    expect(mode(admin.kekFile)).toBe(0o600)
    expect(existsSync(`${admin.kekFile}.old`)).toBe(false)
    admin = await started({
      nodeUrl: node.url,
      dataDir: admin.dataDir,
      args: ['--price-source-url', prices.url, '--oracle-interval-ms', '150', '--quote-refresh-ms', '500'],
    })
    token = await loginToken(admin.url, DEV_KEYS[0] as Hex)
    const since = Date.now()
    await eventually(
      async () => {
        const q = (await rpc.query<{ latest_quote: { source_ts_ms: number } | null }>('getMarket', { symbol: 'XAU-USD' })).data.latest_quote
        return q !== null && q.source_ts_ms > since ? true : undefined
      },
      15_000,
      'a quote signed after the rotation',
    )
    const oracle = (await api(admin.url, '/api/service-config', { token })).body.services.oracle
    expect(oracle).toMatchObject({ key_id: keyId, status: { state: 'running', address: addr(QUOTER) } })
    const rotated = (await api(admin.url, '/api/audit?limit=50', { token })).body.entries.find(
      (e: { action: string }) => e.action === 'kek.rotate',
    )
    expect(rotated.detail.resealed).toBe(1)
  }, 60_000)

  test('audit verify names the first row that was tampered with', async () => {
    await admin.stop()
    const db = new Database(admin.dbFile)
    const target = (db.query("SELECT id FROM audit_log WHERE action = 'key.upload'").get() as { id: number }).id
    db.run('DROP TRIGGER audit_log_no_update')
    db.run("UPDATE audit_log SET actor = '0x0000000000000000000000000000000000000bad' WHERE id = ?", [target])
    db.close()
    const r = await runAdmin(['audit', 'verify', '--data-dir', admin.dataDir])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`audit chain broken at row ${target}:`)
    expect(r.stderr).toContain('the row was changed')
    // The service logs it at start too.
    admin = await started({ nodeUrl: node.url, dataDir: admin.dataDir })
    await eventually(
      async () => (admin.output().includes(`the hash chain is broken at row ${target}`) ? true : undefined),
      10_000,
      'the broken chain in the log',
    )
  }, 60_000)
})
