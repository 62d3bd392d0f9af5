import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AUDIT_GENESIS_HASH, appendAudit, auditRowHash, listAudit, verifyAuditChain } from './audit.ts'
import { ADMIN_DB_FILE, AdminDb, MIGRATIONS, SCHEMA_VERSION } from './db.ts'

const dir = mkdtempSync(join(tmpdir(), 'perpd-audit-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs fn on the raw database with the append-only trigger lifted, as an attacker with the file could. */
function tamper(file: string, fn: (d: Database) => void): void {
  const d = new Database(file)
  try {
    d.run('DROP TRIGGER audit_log_no_update')
    d.run('DROP TRIGGER audit_log_no_delete')
    fn(d)
  } finally {
    d.close()
  }
}

function freshDb(name: string): AdminDb {
  const db = AdminDb.open(join(dir, name))
  for (let i = 0; i < 5; i++)
    db.write((tx) => appendAudit(tx, { atMs: 1_000 + i, actor: '0xadmin', action: 'login', target: null, detail: { ip: `10.0.0.${i}` } }))
  return db
}

describe('the audit hash chain', () => {
  test("each row carries the previous row's hash and its own over that and its content", () => {
    const db = freshDb('chain')
    const rows = listAudit(db, { limit: 10 }).reverse()
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5])
    expect(rows[0]!.prev_hash).toBe(AUDIT_GENESIS_HASH)
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash)
    const r = rows[2]!
    expect(r.hash).toBe(auditRowHash(r.prev_hash!, { ...r, detail: JSON.stringify(r.detail) }))
    expect(db.read((d) => verifyAuditChain(d))).toEqual({ ok: true, rows: 5, head: rows[4]!.hash! })
    db.close()
  })

  test('a changed row is reported by its id', () => {
    freshDb('changed').close()
    const file = join(dir, 'changed', ADMIN_DB_FILE)
    tamper(file, (d) => d.run(`UPDATE audit_log SET detail = '{"ip":"6.6.6.6"}' WHERE id = 3`))
    const d = new Database(file, { readonly: true })
    const v = verifyAuditChain(d)
    d.close()
    expect(v).toMatchObject({ ok: false, brokenId: 3, rows: 2 })
    if (!v.ok) expect(v.problem).toContain('does not match its hash')
  })

  test('a row changed with its hash recomputed breaks the link to the next row; a deleted row leaves a gap', () => {
    freshDb('rehashed').close()
    const file = join(dir, 'rehashed', ADMIN_DB_FILE)
    tamper(file, (d) => {
      const r = d.query('SELECT * FROM audit_log WHERE id = 2').get() as {
        id: number
        at_ms: number
        actor: string
        action: string
        target: string | null
        prev_hash: string
      }
      const detail = '{"ip":"6.6.6.6"}'
      d.run('UPDATE audit_log SET detail = ?, hash = ? WHERE id = 2', [detail, auditRowHash(r.prev_hash, { ...r, detail })])
    })
    let d = new Database(file, { readonly: true })
    expect(verifyAuditChain(d)).toMatchObject({ ok: false, brokenId: 3 })
    d.close()

    freshDb('deleted').close()
    const other = join(dir, 'deleted', ADMIN_DB_FILE)
    tamper(other, (x) => x.run('DELETE FROM audit_log WHERE id = 4'))
    d = new Database(other, { readonly: true })
    const v = verifyAuditChain(d)
    d.close()
    expect(v).toMatchObject({ ok: false, brokenId: 5 })
    if (!v.ok) expect(v.problem).toContain('rows 4..4 are missing')
  })

  test('rows cut off the end and replaced show as a gap: ids continue from the highest ever used', () => {
    const db = freshDb('truncated')
    db.close()
    const file = join(dir, 'truncated', ADMIN_DB_FILE)
    tamper(file, (d) => d.run('DELETE FROM audit_log WHERE id >= 4'))
    const again = AdminDb.open(join(dir, 'truncated'))
    // The triggers are back only through a migration; appending still works without them.
    again.write((tx) => appendAudit(tx, { atMs: 9, actor: '0xadmin', action: 'login', target: null }))
    const v = again.read((d) => verifyAuditChain(d))
    again.close()
    expect(v).toMatchObject({ ok: false, brokenId: 6 })
  })

  test('a database of schema 1 is migrated: its existing rows are chained, and stay append-only', () => {
    // The file as version 1 wrote it, with rows.
    const dataDir = join(dir, 'v1')
    mkdirSync(dataDir)
    const file = join(dataDir, ADMIN_DB_FILE)
    const v1 = new Database(file, { create: true })
    v1.run(MIGRATIONS[0]!.sql)
    v1.run('PRAGMA user_version = 1')
    for (let i = 0; i < 3; i++)
      v1.run("INSERT INTO audit_log (at_ms, actor, action, target, detail) VALUES (?, '0xold', 'login', NULL, '{}')", [i])
    v1.close()
    const db = AdminDb.open(dataDir)
    expect(db.schemaVersion()).toBe(SCHEMA_VERSION)
    const before = db.read((d) => verifyAuditChain(d))
    expect(before).toMatchObject({ ok: true, rows: 3 })
    db.write((tx) => appendAudit(tx, { atMs: 5, actor: '0xnew', action: 'login', target: null }))
    expect(db.read((d) => verifyAuditChain(d))).toMatchObject({ ok: true, rows: 4 })
    expect(() => db.write((d) => d.run("UPDATE audit_log SET actor = 'x'"))).toThrow(/append-only/)
    expect(() => db.write((d) => d.run('DELETE FROM audit_log'))).toThrow(/append-only/)
    db.close()
  })
})
