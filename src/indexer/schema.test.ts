// The history database's file layout (schema.ts PAGE_SIZE_BYTES): a new one has 16 KiB pages and
// keeps its copies of the block store's large rows (envelopes, event groups) in rowid tables; one
// made before with SQLite's 4 KiB pages keeps them when opened again.
import { Database } from 'bun:sqlite'
import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openHistoryWriter } from './schema.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function layoutOf(db: Database) {
  const sqlOf = (table: string) =>
    db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)!.sql
  return {
    pageSize: db.query<{ page_size: number }, []>('PRAGMA page_size').get()!.page_size,
    withoutRowid: Object.fromEntries(['envelopes', 'event_groups', 'order_events'].map((t) => [t, /WITHOUT ROWID/i.test(sqlOf(t))])),
  }
}

test('a new history database has 16 KiB pages, envelopes and event groups in rowid tables, the per-account tables clustered', () => {
  const dir = mkdtempSync(join(tmpdir(), 'perpd-history-layout-'))
  dirs.push(dir)
  const db = openHistoryWriter(join(dir, 'history.sqlite'))
  expect(layoutOf(db)).toEqual({ pageSize: 16_384, withoutRowid: { envelopes: false, event_groups: false, order_events: true } })
  db.close()
})

test('a history database made with 4 KiB pages keeps them when opened again', () => {
  const dir = mkdtempSync(join(tmpdir(), 'perpd-history-layout-'))
  dirs.push(dir)
  const path = join(dir, 'history.sqlite')
  const older = new Database(path, { create: true })
  older.exec('PRAGMA journal_mode = WAL')
  older.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)')
  older.close()
  const db = openHistoryWriter(path)
  expect(layoutOf(db).pageSize).toBe(4_096)
  db.close()
})
