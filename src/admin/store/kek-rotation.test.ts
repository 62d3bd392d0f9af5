import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '../../lib/log.ts'
import { readKek } from '../crypto/kek.ts'
import { StartRefused } from '../start-refused.ts'
import { listAudit, verifyAuditChain } from './audit.ts'
import { prepareDataDir } from './data-dir.ts'
import { AdminDb } from './db.ts'
import { ADMIN_PID_FILE, rotateKek } from './kek-rotation.ts'
import { KEK_ID_META, KeyStore } from './key-store.ts'

const root = mkdtempSync(join(tmpdir(), 'perpd-rotate-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const KEYS = [
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
]
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))

describe('kek rotate', () => {
  const dataDir = join(root, 'data')
  const kekFile = join(root, 'admin.kek')
  const { kek } = prepareDataDir({ dataDir, kekFile, dev: false, log: silentLogger })
  const ids: string[] = []
  {
    const db = AdminDb.open(dataDir)
    const keys = new KeyStore(db, kek)
    keys.checkKek(kekFile)
    for (const k of KEYS) {
      const c = keys.create({ label: 'k', privateKey: bytes(k), actor: '0xadmin' })
      if (c.ok) ids.push(c.entry.id)
    }
    db.close()
  }

  test('refuses while the service runs, and without a database', () => {
    writeFileSync(join(dataDir, ADMIN_PID_FILE), `${process.ppid}\n`)
    expect(() => rotateKek({ dataDir, kekFile, dev: false, actor: 'test' })).toThrow('stop it first')
    rmSync(join(dataDir, ADMIN_PID_FILE))
    expect(() => rotateKek({ dataDir: join(root, 'nothing'), kekFile, dev: false, actor: 'test' })).toThrow(StartRefused)
    expect(existsSync(join(root, 'nothing'))).toBe(false)
  })

  test('re-seals every key under a new KEK in one go: the file holds the new KEK, the old opens nothing', () => {
    const before = readFileSync(kekFile, 'utf8')
    const r = rotateKek({ dataDir, kekFile, dev: false, actor: 'local:test' })
    expect(r).toMatchObject({ oldKekId: kek.id, resealed: 2 })
    expect(r.newKekId).not.toBe(kek.id)
    expect(readFileSync(kekFile, 'utf8')).not.toBe(before)
    expect(statSync(kekFile).mode & 0o777).toBe(0o600)
    expect(existsSync(`${kekFile}.old`)).toBe(false)
    expect(existsSync(`${kekFile}.new`)).toBe(false)
    const fresh = readKek(kekFile)
    expect(fresh.id).toBe(r.newKekId)
    const db = AdminDb.open(dataDir)
    expect(db.meta(KEK_ID_META)).toBe(r.newKekId)
    expect((db.read((d) => d.query('SELECT DISTINCT kek_id FROM keys').all()) as { kek_id: string }[]).map((x) => x.kek_id)).toEqual([
      r.newKekId,
    ])
    const keys = new KeyStore(db, fresh)
    keys.checkKek(kekFile)
    expect(ids.map((id) => keys.openPrivateKey(id))).toEqual(KEYS.map(bytes))
    const stale = new KeyStore(db, { ...kek, key: Uint8Array.from(Buffer.from(before.trim(), 'hex')) })
    expect(() => stale.openPrivateKey(ids[0]!)).toThrow()
    expect(listAudit(db, { limit: 1 })[0]).toMatchObject({
      action: 'kek.rotate',
      actor: 'local:test',
      detail: { from_kek_id: kek.id, to_kek_id: r.newKekId, resealed: 2 },
    })
    expect(db.read((d) => verifyAuditChain(d)).ok).toBe(true)
    db.close()
  })

  test('with the wrong KEK nothing changes', () => {
    const wrong = join(root, 'wrong.kek')
    writeFileSync(wrong, `${'cd'.repeat(32)}\n`, { mode: 0o600 })
    const current = readFileSync(kekFile, 'utf8')
    expect(() => rotateKek({ dataDir, kekFile: wrong, dev: false, actor: 'test' })).toThrow('is not the one this database was written with')
    expect(readFileSync(wrong, 'utf8')).toBe(`${'cd'.repeat(32)}\n`)
    expect(readFileSync(kekFile, 'utf8')).toBe(current)
    expect(existsSync(`${wrong}.new`) || existsSync(`${wrong}.old`)).toBe(false)
  })

  test('a leftover KEK_FILE.old stops a new rotation until someone looks at it', () => {
    writeFileSync(`${kekFile}.old`, 'x', { mode: 0o600 })
    expect(() => rotateKek({ dataDir, kekFile, dev: false, actor: 'test' })).toThrow(`${kekFile}.old exists`)
    rmSync(`${kekFile}.old`)
  })
})
