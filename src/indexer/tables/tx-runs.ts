// Tables `tx_runs` and `tx_keys`: where the envelope with a given tx hash is (getTx, search), kept
// as sorted runs that merge in size tiers, a small log-structured merge tree inside SQLite.
//
// Why not an index on envelopes.tx_hash: a hash is a random key, so each envelope's entry lands
// on a random page of that index, and once the index outgrows the page cache every envelope
// costs a page read and a page write at commit (WAL, then the checkpoint). At 2M indexed
// envelopes that index cost 36 µs of the history thread per envelope and grew with the index.
// Here each ingest batch writes its envelopes as a new run: its keys sorted under a run id higher
// than any before, so the rows append at the right edge of one B-tree. When FANOUT runs of a
// tier have gathered they are rewritten, sorted together, as one run of a higher tier, again at
// the right edge. Every row is written about once per tier, in order, and a lookup seeks once per
// run (at most FANOUT - 1 per merging tier, plus the top tier's runs, which are never merged, so
// no merge rewrites more than TOP_RUN_ROWS_MAX rows and the history thread never stalls long).
import type { Database } from 'bun:sqlite'

/** Characters of a tx hash's key: its first 64 bits as '0x' and 16 hex digits; a lookup checks the whole hash on the envelope. */
const TX_KEY_CHARS = 18
/** The key of a tx hash, in JavaScript and as SQL over a `tx_hash` column (the two must agree). */
const txKey = (txHash: string) => txHash.slice(0, TX_KEY_CHARS).toLowerCase()
const TX_KEY_SQL = `lower(substr(tx_hash, 1, ${TX_KEY_CHARS}))`

/** Runs of a tier merge into one once this many have gathered. */
export const FANOUT = 8
/** Runs of at most this many rows are tier 0 (about one block); each tier above holds runs FANOUT times larger. */
const TIER0_ROWS_MAX = 1_024
/** The top tier: its runs (more than TIER0_ROWS_MAX x FANOUT^(TOP_TIER-1) rows) are never merged. */
export const TOP_TIER = 3
/** The largest a merge can make a run (FANOUT runs of the tier below the top). */
export const TOP_RUN_ROWS_MAX = TIER0_ROWS_MAX * FANOUT ** TOP_TIER

/** The tier of a run of `rows` rows. */
export function tierOf(rows: number): number {
  let tier = 0
  for (let max = TIER0_ROWS_MAX; rows > max && tier < TOP_TIER; max *= FANOUT) tier++
  return tier
}

export const TX_RUNS_SCHEMA = `
CREATE TABLE IF NOT EXISTS tx_runs (run INTEGER PRIMARY KEY, tier INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tx_keys (
  run INTEGER NOT NULL, tx_key TEXT NOT NULL, height INTEGER NOT NULL, envelope_idx INTEGER NOT NULL,
  PRIMARY KEY (run, tx_key, height, envelope_idx)) WITHOUT ROWID;
`

/** A run id above every run's, so the run's rows go to the right edge of tx_keys. */
function nextRun(db: Database): number {
  return (db.query<{ run: number | null }, []>('SELECT MAX(run) AS run FROM tx_runs').get()?.run ?? 0) + 1
}

/**
 * Adds the envelopes of blocks [from, to] of the block store (attached as `chain`) as a new run,
 * and merges what then fills a tier. Called before the blocks enter the index's blocks table: a
 * block already there (ingested again after its watermark was set back) adds nothing.
 */
export function addTxRun(db: Database, from: number, to: number): void {
  const run = nextRun(db)
  const added = db
    .query(`INSERT INTO tx_keys SELECT ?, ${TX_KEY_SQL}, height, envelope_idx FROM chain.envelopes
      WHERE height BETWEEN ? AND ? AND height NOT IN (SELECT height FROM main.blocks WHERE height BETWEEN ? AND ?) ORDER BY 2, 3, 4`)
    .run(run, from, to, from, to).changes
  if (added === 0) return
  db.query('INSERT INTO tx_runs (run, tier) VALUES (?, ?)').run(run, tierOf(added))
  compactTxRuns(db)
}

/** Merges FANOUT runs of a tier below the top into one, lowest tier first, until no tier below the top holds FANOUT runs. */
export function compactTxRuns(db: Database): void {
  for (let tier = 0; tier < TOP_TIER; tier++) {
    for (;;) {
      const runs = db
        .query<{ run: number }, [number, number]>('SELECT run FROM tx_runs WHERE tier = ? ORDER BY run LIMIT ?')
        .all(tier, FANOUT)
      if (runs.length < FANOUT) break
      mergeRuns(db, runs)
    }
  }
}

function mergeRuns(db: Database, runs: readonly { run: number }[]): void {
  const run = nextRun(db)
  const ids = runs.map((r) => r.run)
  const marks = ids.map(() => '?').join(', ')
  // OR IGNORE: should two runs ever hold the same envelope, the merged run holds it once.
  const rows = db
    .query(`INSERT OR IGNORE INTO tx_keys SELECT ?, tx_key, height, envelope_idx FROM tx_keys WHERE run IN (${marks}) ORDER BY 2, 3, 4`)
    .run(run, ...ids).changes
  db.query(`DELETE FROM tx_keys WHERE run IN (${marks})`).run(...ids)
  db.query(`DELETE FROM tx_runs WHERE run IN (${marks})`).run(...ids)
  db.query('INSERT INTO tx_runs (run, tier) VALUES (?, ?)').run(run, tierOf(rows))
}

/** The first envelope (by height, envelope_idx) with this tx hash, or null. */
export function txLocation(db: Database, txHash: string): { height: number; envelope_idx: number } | null {
  const hash = txHash.toLowerCase()
  const found = db
    .query<{ height: number; envelope_idx: number }, [string, string]>(
      `SELECT e.height, e.envelope_idx FROM tx_keys k JOIN envelopes e ON e.height = k.height AND e.envelope_idx = k.envelope_idx
      WHERE k.run IN (SELECT run FROM tx_runs) AND k.tx_key = ? AND e.tx_hash = ? ORDER BY e.height, e.envelope_idx LIMIT 1`,
    )
    .get(txKey(hash), hash)
  if (found !== null || !hasTxHashIndex(db)) return found
  // Not moved to runs yet (upgradeFromTxHashIndex): the older index still answers.
  return db
    .query<{ height: number; envelope_idx: number }, [string]>(
      'SELECT height, envelope_idx FROM envelopes INDEXED BY envelopes_tx WHERE tx_hash = ? ORDER BY height, envelope_idx LIMIT 1',
    )
    .get(hash)
}

/** Whether the index still has the index on envelopes.tx_hash of versions before the runs. */
export function hasTxHashIndex(db: Database): boolean {
  return db.query("SELECT 1 FROM main.sqlite_master WHERE type = 'index' AND name = 'envelopes_tx'").get() !== null
}

/**
 * An index written before the runs kept an index on envelopes.tx_hash: its entries become one
 * top-tier run (read in the index's order, so nothing is sorted) and the index is dropped. Runs
 * an older node left behind are replaced, since it did not add to them. One transaction.
 */
export function upgradeFromTxHashIndex(db: Database): boolean {
  if (!hasTxHashIndex(db)) return false
  db.transaction(() => {
    db.exec('DELETE FROM tx_keys')
    db.exec('DELETE FROM tx_runs')
    const added = db
      .query(`INSERT INTO tx_keys SELECT 1, ${TX_KEY_SQL}, height, envelope_idx FROM envelopes INDEXED BY envelopes_tx
        ORDER BY tx_hash`)
      .run().changes
    if (added > 0) db.query('INSERT INTO tx_runs (run, tier) VALUES (1, ?)').run(TOP_TIER)
    db.exec('DROP INDEX envelopes_tx')
  })()
  return true
}
