// The history database's file layout (schema.ts PAGE_SIZE_BYTES): a new one has 16 KiB pages, its
// envelopes in a rowid table and no copy of the block store's events; one made before with
// SQLite's 4 KiB pages keeps them when opened again. An index whose order_events rows carry an open
// mark loses the mark and its index when opened, its rows kept. A reader sees the block store
// beside it, read-only.
import { Database } from 'bun:sqlite'
import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BlockStore } from '../node/block-store.ts'
import { openHistoryReader, openHistoryWriter } from './schema.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A history database path in a new temporary directory, and a database an older build made there from `sql`. */
function historyFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'perpd-history-layout-'))
  dirs.push(dir)
  return join(dir, 'history.sqlite')
}
function olderDatabase(sql: string): string {
  const path = historyFile()
  const older = new Database(path, { create: true })
  older.exec(sql)
  older.close()
  return path
}

function layoutOf(db: Database) {
  const sqlOf = (table: string) =>
    db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)!.sql
  return {
    pageSize: db.query<{ page_size: number }, []>('PRAGMA page_size').get()!.page_size,
    withoutRowid: Object.fromEntries(['envelopes', 'order_events'].map((t) => [t, /WITHOUT ROWID/i.test(sqlOf(t))])),
    eventTables: db.query("SELECT name FROM sqlite_master WHERE name IN ('events', 'event_groups')").all(),
  }
}

test('a new history database has 16 KiB pages, envelopes in a rowid table, the per-account tables clustered, no event table', () => {
  const db = openHistoryWriter(historyFile())
  expect(layoutOf(db)).toEqual({ pageSize: 16_384, withoutRowid: { envelopes: false, order_events: true }, eventTables: [] })
  db.close()
})

test('a history database made with 4 KiB pages keeps them when opened again', () => {
  const path = olderDatabase('PRAGMA journal_mode = WAL; CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)')
  const db = openHistoryWriter(path)
  expect(layoutOf(db).pageSize).toBe(4_096)
  db.close()
})

test('order_events rows made with an open mark lose the mark and its index when opened, their other fields kept, once', () => {
  // The table and index as builds of 2026-11-27 and earlier made them.
  const path = olderDatabase(`CREATE TABLE order_events (
  owner TEXT NOT NULL, height INTEGER NOT NULL, seq INTEGER NOT NULL, timestamp_ms INTEGER NOT NULL,
  order_id INTEGER NOT NULL, market_id INTEGER NOT NULL, event_type TEXT NOT NULL, side TEXT, price TEXT, qty TEXT,
  remaining TEXT, reason TEXT, client_order_id TEXT, trigger_id INTEGER, open INTEGER NOT NULL,
  PRIMARY KEY (owner, height, seq)) WITHOUT ROWID;
CREATE INDEX order_events_order ON order_events (order_id);
CREATE INDEX order_events_closed ON order_events (owner, open, height, seq);
INSERT INTO order_events VALUES ('0xaa', 5, 1, 1000, 7, 1, 'Accepted', 'Bid', '100.0', '1.0', NULL, NULL, 'c-7', NULL, 0);
INSERT INTO order_events VALUES ('0xaa', 6, 2, 1200, 7, 1, 'Done', NULL, NULL, NULL, '0', 'Filled', 'c-7', 3, 0);`)

  const columns = (db: Database) =>
    db
      .query<{ name: string }, []>("SELECT name FROM pragma_table_info('order_events')")
      .all()
      .map((c) => c.name)
  const indexes = (db: Database) =>
    db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'order_events' ORDER BY name")
      .all()
      .map((c) => c.name)
  const db = openHistoryWriter(path)
  expect(columns(db)).not.toContain('open')
  expect(indexes(db)).toEqual(['order_events_order'])
  expect(db.query('SELECT * FROM order_events ORDER BY height').all()).toEqual([
    {
      owner: '0xaa',
      height: 5,
      seq: 1,
      timestamp_ms: 1000,
      order_id: 7,
      market_id: 1,
      event_type: 'Accepted',
      side: 'Bid',
      price: '100.0',
      qty: '1.0',
      remaining: null,
      reason: null,
      client_order_id: 'c-7',
      trigger_id: null,
    },
    {
      owner: '0xaa',
      height: 6,
      seq: 2,
      timestamp_ms: 1200,
      order_id: 7,
      market_id: 1,
      event_type: 'Done',
      side: null,
      price: null,
      qty: null,
      remaining: '0',
      reason: 'Filled',
      client_order_id: 'c-7',
      trigger_id: 3,
    },
  ])
  db.close()
  // A second open finds nothing to do.
  const again = openHistoryWriter(path)
  expect(columns(again)).not.toContain('open')
  again.close()
})

test('a reader sees the block store beside the index, read-only', () => {
  const path = historyFile()
  const store = new BlockStore(join(path, '..'))
  openHistoryWriter(path).close()
  const reader = openHistoryReader(path)
  expect(reader.query('SELECT COUNT(*) AS n FROM chain.blocks').get()).toEqual({ n: 0 })
  expect(() => reader.exec("INSERT INTO chain.meta (key, value) VALUES ('x', 'y')")).toThrow(/readonly/)
  reader.close()
  store.close()
})
