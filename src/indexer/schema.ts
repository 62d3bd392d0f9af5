// The history index database (history.sqlite in the data directory): its tables, indexes and the
// way both the indexer (the one writer) and the readers open it. WAL lets readers on other threads
// see the last committed transaction while the indexer writes the next one.
import { Database } from 'bun:sqlite'
import { dirname, join } from 'node:path'
import { attachChain } from './chain-source.ts'
import { TX_RUNS_SCHEMA } from './tables/tx-runs.ts'

/**
 * Version of the derived tables' layout and meaning. A database written by another version is
 * rebuilt from the block store (the index is derived data; the block store is the source), but for
 * the versions in UPGRADABLE_INDEX_VERSIONS, which this build changes in place. Version 2 keeps no
 * copy of the block store's actions and events (dropBlockStoreCopies); a build that writes
 * version 1 rebuilds an index of version 2 instead of failing on the columns it lacks.
 */
export const INDEX_VERSION = '2'

/** Index versions this build opens and upgrades in place (pipeline.ts): 1, by dropBlockStoreCopies. */
export const UPGRADABLE_INDEX_VERSIONS: ReadonlySet<string> = new Set(['1'])

export const HISTORY_FILE = 'history.sqlite'

/** The history database path inside a node's data directory. */
export const historyPath = (dataDir: string) => join(dataDir, HISTORY_FILE)

/**
 * The orders by client id (tables/orders.ts orderByClientId), of the orders that have one: an order
 * without (most of a 50-order batch's, say) costs no entry here. SQLite uses a partial index for
 * `client_order_id = ?`, which implies the index's condition.
 */
const ORDERS_CLIENT_ID_INDEX =
  'CREATE INDEX IF NOT EXISTS orders_client_id ON orders (owner, market_id, client_order_id, order_id) WHERE client_order_id IS NOT NULL'

// Row keys come from (height, seq) or (height, envelope_idx), so writing a block twice writes the
// same rows. Tables read by account are clustered on the account (WITHOUT ROWID primary keys
// starting with it), so a page of one account's rows is one contiguous range of the B-tree. The
// fill table, the largest, has no secondary index at all: it is clustered by (account, market),
// and an account's page across markets merges one range per market it traded (account_markets).
// The envelopes table is a rowid table, in 16 KiB pages (PAGE_SIZE_BYTES). It keeps what the
// envelope lists filter and page on; an envelope's action and reason, and every event, are read
// from the block store (attached as `chain`, chain-source.ts) instead of copied here
// (tables/envelopes.ts, tables/events.ts).
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS watermarks (stage TEXT PRIMARY KEY, height INTEGER NOT NULL);

CREATE TABLE IF NOT EXISTS blocks (
  height INTEGER PRIMARY KEY, parent TEXT NOT NULL, digest TEXT NOT NULL, timestamp_ms INTEGER NOT NULL,
  envelope_count INTEGER NOT NULL, event_count INTEGER NOT NULL, state_root TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS blocks_digest ON blocks (digest);

CREATE TABLE IF NOT EXISTS envelopes (
  height INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, tx_hash TEXT NOT NULL, signer TEXT NOT NULL,
  nonce INTEGER NOT NULL, action_kind TEXT NOT NULL, market_id INTEGER, status TEXT NOT NULL,
  PRIMARY KEY (height, envelope_idx));
-- No index on tx_hash: its lookup is tx_runs and tx_keys (tables/tx-runs.ts).
CREATE INDEX IF NOT EXISTS envelopes_signer ON envelopes (signer, height, envelope_idx);
CREATE INDEX IF NOT EXISTS envelopes_kind ON envelopes (action_kind, height, envelope_idx);
CREATE INDEX IF NOT EXISTS envelopes_market ON envelopes (market_id, height, envelope_idx);

-- The events: read from the block store's event_groups (tables/events.ts).

CREATE TABLE IF NOT EXISTS fills (
  account TEXT NOT NULL, height INTEGER NOT NULL, seq INTEGER NOT NULL, is_taker INTEGER NOT NULL,
  timestamp_ms INTEGER NOT NULL, market_id INTEGER NOT NULL, order_id INTEGER NOT NULL, counterparty TEXT NOT NULL,
  side TEXT NOT NULL, price TEXT NOT NULL, qty TEXT NOT NULL, notional INTEGER NOT NULL, fee INTEGER NOT NULL,
  realized_pnl INTEGER NOT NULL, realized_pnl_pct TEXT NOT NULL, position_action TEXT, trigger_id INTEGER,
  client_order_id TEXT, PRIMARY KEY (account, market_id, height, seq, is_taker)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS account_markets (account TEXT NOT NULL, market_id INTEGER NOT NULL, PRIMARY KEY (account, market_id)) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS trades (
  height INTEGER NOT NULL, seq INTEGER NOT NULL, timestamp_ms INTEGER NOT NULL, market_id INTEGER NOT NULL,
  price TEXT NOT NULL, qty TEXT NOT NULL, notional INTEGER NOT NULL, side TEXT NOT NULL,
  taker TEXT NOT NULL, maker TEXT NOT NULL, taker_fee INTEGER NOT NULL, maker_fee INTEGER NOT NULL,
  taker_realized_pnl INTEGER NOT NULL, maker_realized_pnl INTEGER NOT NULL,
  PRIMARY KEY (height, seq)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS trades_market ON trades (market_id, height, seq);

CREATE TABLE IF NOT EXISTS order_events (
  owner TEXT NOT NULL, height INTEGER NOT NULL, seq INTEGER NOT NULL, timestamp_ms INTEGER NOT NULL,
  order_id INTEGER NOT NULL, market_id INTEGER NOT NULL, event_type TEXT NOT NULL, side TEXT, price TEXT, qty TEXT,
  remaining TEXT, reason TEXT, client_order_id TEXT, trigger_id INTEGER,
  PRIMARY KEY (owner, height, seq)) WITHOUT ROWID;
-- No index on order_id: nothing reads the rows by order, and its upkeep was two fifths of a row's
-- insert (dropOrderEventsOrderIndex).

CREATE TABLE IF NOT EXISTS orders (
  order_id INTEGER PRIMARY KEY, owner TEXT NOT NULL, market_id INTEGER NOT NULL, side TEXT, price TEXT, qty TEXT,
  tif TEXT, reduce_only INTEGER, client_order_id TEXT, trigger_id INTEGER, status TEXT NOT NULL, close_reason TEXT,
  remaining TEXT, filled TEXT, placed_height INTEGER, placed_timestamp_ms INTEGER, closed_height INTEGER,
  closed_timestamp_ms INTEGER, last_height INTEGER NOT NULL, last_seq INTEGER NOT NULL);
${ORDERS_CLIENT_ID_INDEX};
-- An owner's open orders: what the default order history leaves out (tables/order-events.ts).
CREATE INDEX IF NOT EXISTS orders_open ON orders (owner, order_id) WHERE status = 'open';

CREATE TABLE IF NOT EXISTS fund_flows (
  account TEXT NOT NULL, height INTEGER NOT NULL, seq INTEGER NOT NULL, timestamp_ms INTEGER NOT NULL,
  flow_type TEXT NOT NULL, amount INTEGER NOT NULL, balance_after INTEGER, market_id INTEGER, tx_hash TEXT,
  PRIMARY KEY (account, height, seq)) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS bridge_flows (
  account TEXT NOT NULL, height INTEGER NOT NULL, seq INTEGER NOT NULL, timestamp_ms INTEGER NOT NULL,
  direction TEXT NOT NULL, status TEXT NOT NULL, amount INTEGER NOT NULL, reference TEXT NOT NULL,
  counterparty TEXT, external_tx TEXT, reason TEXT, tx_hash TEXT,
  PRIMARY KEY (account, height, seq)) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS positions (
  account TEXT NOT NULL, height INTEGER NOT NULL, market_id INTEGER NOT NULL, timestamp_ms INTEGER NOT NULL,
  size_before TEXT NOT NULL, size_after TEXT NOT NULL, realized_pnl INTEGER NOT NULL, fills INTEGER NOT NULL,
  volume INTEGER NOT NULL, action TEXT, cause TEXT NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
  PRIMARY KEY (account, height, market_id)) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS referral_events (
  account TEXT NOT NULL, height INTEGER NOT NULL, seq INTEGER NOT NULL, timestamp_ms INTEGER NOT NULL,
  role TEXT NOT NULL, event_type TEXT NOT NULL, inviter TEXT NOT NULL, invitee TEXT NOT NULL,
  PRIMARY KEY (account, height, seq)) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS rebate_events (
  account TEXT NOT NULL, height INTEGER NOT NULL, seq INTEGER NOT NULL, timestamp_ms INTEGER NOT NULL,
  role TEXT NOT NULL, market_id INTEGER NOT NULL, inviter TEXT NOT NULL, invitee TEXT NOT NULL,
  fee INTEGER NOT NULL, amount INTEGER NOT NULL, PRIMARY KEY (account, height, seq)) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS account_events (
  account TEXT NOT NULL, height INTEGER NOT NULL, seq INTEGER NOT NULL, sub_kind TEXT NOT NULL,
  PRIMARY KEY (account, height, seq)) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS candles (
  market_id INTEGER NOT NULL, interval TEXT NOT NULL, t INTEGER NOT NULL, close_t INTEGER NOT NULL,
  o TEXT NOT NULL, h TEXT NOT NULL, l TEXT NOT NULL, c TEXT NOT NULL, v TEXT NOT NULL, n INTEGER NOT NULL,
  last_height INTEGER NOT NULL, PRIMARY KEY (market_id, interval, t)) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS account_stats (
  account TEXT PRIMARY KEY, volume INTEGER NOT NULL, fills INTEGER NOT NULL, taker_fills INTEGER NOT NULL,
  maker_fills INTEGER NOT NULL, fees INTEGER NOT NULL, realized_pnl INTEGER NOT NULL, winning_closes INTEGER NOT NULL,
  losing_closes INTEGER NOT NULL, first_fill_ms INTEGER NOT NULL, last_fill_ms INTEGER NOT NULL,
  last_height INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS account_stats_pnl ON account_stats (realized_pnl DESC, account);
CREATE INDEX IF NOT EXISTS account_stats_volume ON account_stats (volume DESC, account);

CREATE TABLE IF NOT EXISTS account_daily (
  account TEXT NOT NULL, day INTEGER NOT NULL, volume INTEGER NOT NULL, realized_pnl INTEGER NOT NULL,
  fills INTEGER NOT NULL, last_height INTEGER NOT NULL, PRIMARY KEY (day, account)) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS leaderboard_snapshots (
  snapshot_id INTEGER PRIMARY KEY, as_of_height INTEGER NOT NULL, as_of_timestamp_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS leaderboard_rows (
  snapshot_id INTEGER NOT NULL, metric TEXT NOT NULL, period TEXT NOT NULL, rank INTEGER NOT NULL,
  account TEXT NOT NULL, value INTEGER NOT NULL, volume INTEGER NOT NULL, realized_pnl INTEGER NOT NULL, fills INTEGER NOT NULL,
  PRIMARY KEY (snapshot_id, metric, period, rank)) WITHOUT ROWID;
`

/**
 * SQLite's page caches, in KiB: budgets that a growing index fills and then keeps, in the node's
 * resident memory. The same pages sit in the operating system's file cache, outside the process,
 * so a page that does not fit costs a read from that cache rather than from the disk
 * (docs/performance.md#memory).
 */
const WRITER_CACHE_KIB = 16_384
const READER_CACHE_KIB = 8_192

/**
 * The page size of a new history database, as the block store's (src/node/block-store.ts
 * PAGE_SIZE_BYTES, which says why) with its envelopes and event groups in rowid tables. The index
 * of a batch load (50-order BatchPlaceOrder) cost 8-10% less CPU per envelope with both, and of
 * single orders about 4% less (`bun scripts/bench/reindex.ts --blocks-per-step 2`, two runs of
 * each, alternated). An index made before keeps its layout and works as before.
 */
const PAGE_SIZE_BYTES = 16_384

/** Opens the history database for writing (the indexer) and creates what is missing. */
export function openHistoryWriter(path: string): Database {
  const db = new Database(path, { create: true, strict: true })
  // Before the journal mode, which takes a lock another connection may hold for a moment.
  db.exec('PRAGMA busy_timeout = 5000')
  // Takes effect only on a new file, before WAL mode and the first table.
  db.exec(`PRAGMA page_size = ${PAGE_SIZE_BYTES}`)
  db.exec('PRAGMA journal_mode = WAL')
  // NORMAL: a power loss may drop the last transactions, never tear one; every transaction
  // carries its watermark, so the indexer re-derives what was dropped from the block store.
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec(`PRAGMA cache_size = -${WRITER_CACHE_KIB}`)
  db.exec(SCHEMA)
  db.exec(TX_RUNS_SCHEMA)
  dropOrderEventsOpen(db)
  dropOrderEventsOrderIndex(db)
  partialClientIdIndex(db)
  return db
}

/**
 * An index made by a build of 2026-11-27 or earlier marks each order_events row open or closed
 * (`open`, with an index on it) and updated an order's earlier rows when it closed; the default order history now
 * leaves out the orders the archive holds open instead (tables/order-events.ts). Drops the column
 * and its index, once, in one transaction: SQLite rewrites the table to drop a column.
 */
function dropOrderEventsOpen(db: Database): void {
  if (!hasColumn(db, 'order_events', 'open')) return
  db.transaction(() => {
    db.exec('DROP INDEX IF EXISTS order_events_closed')
    db.exec('ALTER TABLE order_events DROP COLUMN open')
  })()
}

/**
 * An index made by a build of 2026-11-28 or earlier has an index of order_events by order_id, which
 * its rows' trigger ids were updated through. The order's trigger id is now known before its first
 * row is made (derive/orders.ts), and nothing else reads the rows by order, so the index goes: each
 * order_events row then costs about two fifths less to insert. Dropping an index keeps the rows.
 */
function dropOrderEventsOrderIndex(db: Database): void {
  db.exec('DROP INDEX IF EXISTS order_events_order')
}

/**
 * An index made by a build of 2026-11-28 or earlier has every order in orders_client_id, also
 * those without a client id; rebuilt once as ORDERS_CLIENT_ID_INDEX, in one transaction.
 */
function partialClientIdIndex(db: Database): void {
  const sql = db.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'orders_client_id'").get()?.sql
  if (sql === undefined || /\bWHERE\b/i.test(sql)) return
  db.transaction(() => {
    db.exec('DROP INDEX orders_client_id')
    db.exec(ORDERS_CLIENT_ID_INDEX)
  })()
}

/**
 * Opens the history database read-only (the readers; they never block the writer in WAL), with the
 * block store beside it attached as `chain`, read-only too: envelopes' actions and the events are
 * read from there.
 */
export function openHistoryReader(path: string): Database {
  const db = new Database(path, { readonly: true, strict: true })
  db.exec('PRAGMA busy_timeout = 5000')
  db.exec(`PRAGMA cache_size = -${READER_CACHE_KIB}`)
  attachChain(db, dirname(path))
  return db
}

/**
 * An index made by an earlier build copied every envelope's action and reason and
 * every event group from the block store (and, before that, held the events a row each in
 * `events`). Drops the copies, once: the table drops free their pages for the index's next rows,
 * and dropping the two columns rewrites the envelopes table. Returns whether there was anything to drop.
 */
export function dropBlockStoreCopies(db: Database): boolean {
  if (!hasBlockStoreCopies(db)) return false
  db.transaction(() => {
    db.exec('DROP TABLE IF EXISTS main.events')
    db.exec('DROP TABLE IF EXISTS main.event_groups')
    for (const column of ['action', 'reason'])
      if (hasColumn(db, 'envelopes', column)) db.exec(`ALTER TABLE main.envelopes DROP COLUMN ${column}`)
  })()
  return true
}

/** Whether the index holds copies of the block store's rows that dropBlockStoreCopies drops. */
export function hasBlockStoreCopies(db: Database): boolean {
  const tables = db
    .query<{ name: string }, []>("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name IN ('events', 'event_groups')")
    .all()
  return tables.length > 0 || hasColumn(db, 'envelopes', 'action')
}

function hasColumn(db: Database, table: string, column: string): boolean {
  return (
    db.query<{ name: string }, [string, string]>("SELECT name FROM pragma_table_info(?, 'main') WHERE name = ?").get(table, column) !== null
  )
}

export function getMeta(db: Database, key: string): string | undefined {
  return db.query<{ value: string }, [string]>('SELECT value FROM meta WHERE key = ?').get(key)?.value
}

export function setMeta(db: Database, key: string, value: string): void {
  db.query('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value)
}
