// The history database's file layout (schema.ts PAGE_SIZE_BYTES): a new one has 16 KiB pages, its
// envelopes in a rowid table and no copy of the block store's events; one made before with
// SQLite's 4 KiB pages keeps them when opened again. An index whose order_events rows carry an open
// mark loses the mark and its index when opened, and the index of the rows by order_id, its rows
// kept; its index of orders by client id is rebuilt to hold only the orders that have one. A
// reader sees the block store beside it, read-only.
import { Database } from 'bun:sqlite'
import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BlockStore } from '../node/block-store.ts'
import { openHistoryReader, openHistoryWriter } from './schema.ts'
import { orderByClientId } from './tables/orders.ts'

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
    orderEventIndexes: db
      .query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'order_events' AND sql IS NOT NULL")
      .all(),
  }
}

test('a new history database has 16 KiB pages, envelopes in a rowid table, the per-account tables clustered, no event table, no index of order_events by order', () => {
  const db = openHistoryWriter(historyFile())
  expect(layoutOf(db)).toEqual({
    pageSize: 16_384,
    withoutRowid: { envelopes: false, order_events: true },
    eventTables: [],
    orderEventIndexes: [],
  })
  db.close()
})

test('orders_client_id of an older index, every order in it, is rebuilt once to hold only the orders with a client id; the lookup uses it', () => {
  // The table and index as builds of 2026-11-28 and earlier made them.
  const path = olderDatabase(`CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY, owner TEXT NOT NULL, market_id INTEGER NOT NULL, side TEXT, price TEXT, qty TEXT,
  tif TEXT, reduce_only INTEGER, client_order_id TEXT, trigger_id INTEGER, status TEXT NOT NULL, close_reason TEXT,
  remaining TEXT, filled TEXT, placed_height INTEGER, placed_timestamp_ms INTEGER, closed_height INTEGER,
  closed_timestamp_ms INTEGER, last_height INTEGER NOT NULL, last_seq INTEGER NOT NULL);
CREATE INDEX orders_client_id ON orders (owner, market_id, client_order_id, order_id);
INSERT INTO orders (order_id, owner, market_id, client_order_id, status, last_height, last_seq) VALUES (1, '0xaa', 1, 'c-1', 'closed', 5, 0);
INSERT INTO orders (order_id, owner, market_id, client_order_id, status, last_height, last_seq) VALUES (2, '0xaa', 1, NULL, 'open', 5, 1);
INSERT INTO orders (order_id, owner, market_id, client_order_id, status, last_height, last_seq) VALUES (3, '0xaa', 1, 'c-1', 'open', 6, 0);`)
  const indexSql = (db: Database) =>
    db.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'orders_client_id'").get()!.sql
  const db = openHistoryWriter(path)
  expect(indexSql(db)).toMatch(/WHERE client_order_id IS NOT NULL$/)
  // Its entries: the two orders with a client id, none without.
  expect(
    db
      .query('SELECT order_id FROM orders INDEXED BY orders_client_id WHERE owner = ? AND market_id = 1 AND client_order_id IS NOT NULL')
      .all('0xaa'),
  ).toEqual([{ order_id: 1 }, { order_id: 3 }])
  expect(orderByClientId(db, '0xAA', 1, 'c-1')?.order_id).toBe(3)
  const plan = db
    .query<{ detail: string }, [string, number, string]>(
      'EXPLAIN QUERY PLAN SELECT * FROM orders WHERE owner = ? AND market_id = ? AND client_order_id = ? ORDER BY order_id DESC LIMIT 1',
    )
    .all('0xaa', 1, 'c-1')
  expect(plan.map((p) => p.detail).join(' ')).toContain('USING INDEX orders_client_id')
  expect(db.query('SELECT COUNT(*) AS n FROM orders').get()).toEqual({ n: 3 })
  db.close()
  // A second open keeps it.
  const again = openHistoryWriter(path)
  expect(indexSql(again)).toMatch(/WHERE client_order_id IS NOT NULL$/)
  again.close()
})

test('a history database made with 4 KiB pages keeps them when opened again', () => {
  const path = olderDatabase('PRAGMA journal_mode = WAL; CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)')
  const db = openHistoryWriter(path)
  expect(layoutOf(db).pageSize).toBe(4_096)
  db.close()
})

test('order_events rows made with an open mark lose the mark, its index and the order_id index when opened, their other fields kept, once', () => {
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
  expect(indexes(db)).toEqual([])
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
