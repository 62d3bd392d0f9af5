// The tx-hash runs of the history index: every envelope added is found at its place through every
// merge, absent and prefix-sharing hashes are told apart, and an index written with the older
// index on envelopes.tx_hash moves to runs once.
import type { Database } from 'bun:sqlite'
import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ALICE, BOB, BTC, cancel, place } from '../../../test/support/chain/test-chain.ts'
import { IndexedChain, indexAll } from '../../../test/support/history.ts'
import { Pipeline } from '../pipeline.ts'
import { READ_OPS } from '../read/ops.ts'
import { historyPath, openHistoryWriter } from '../schema.ts'
import { symbolLookup } from '../symbols.ts'
import { writeWatermark } from '../watermarks.ts'
import { addTxRun, FANOUT, TOP_RUN_ROWS_MAX, TOP_TIER, tierOf, txLocation, upgradeFromTxHashIndex } from './tx-runs.ts'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A history database with the block store's envelopes table attached as `chain`, as the ingest stage sees it. */
function historyDb(): Database {
  const dir = mkdtempSync(join(tmpdir(), 'perpd-tx-runs-'))
  dirs.push(dir)
  const db = openHistoryWriter(historyPath(dir))
  db.exec("ATTACH ':memory:' AS chain")
  db.exec(
    'CREATE TABLE chain.envelopes (height INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, tx_hash TEXT NOT NULL, PRIMARY KEY (height, envelope_idx))',
  )
  return db
}

/** Ingests one block of these tx hashes the way ingestBlocks does: its run, then its block and envelope rows, in one transaction. */
function ingest(db: Database, height: number, hashes: readonly string[]): void {
  db.transaction(() => {
    for (const [i, hash] of hashes.entries()) db.query('INSERT INTO chain.envelopes VALUES (?, ?, ?)').run(height, i, hash)
    addTxRun(db, height, height)
    db.query("INSERT INTO main.blocks VALUES (?, '0x00', ?, 0, ?, 0, '0x00')").run(height, `0x${height}`, hashes.length)
    for (const [i, hash] of hashes.entries()) {
      db.query(
        `INSERT INTO main.envelopes (height, envelope_idx, tx_hash, signer, nonce, action_kind, market_id, status)
        VALUES (?, ?, ?, '0x01', ?, 'PlaceOrder', 1, 'accepted')`,
      ).run(height, i, hash.toLowerCase(), i)
    }
  })()
}

const hashOf = (n: number) => `0x${n.toString(16).padStart(8, '0').repeat(8)}`
const runsByTier = (db: Database) =>
  db.query<{ tier: number; n: number }, []>('SELECT tier, COUNT(*) AS n FROM tx_runs GROUP BY tier ORDER BY tier').all()

test('a run of n rows is in the tier whose size class holds n; the top tier holds the rest', () => {
  expect(tierOf(1)).toBe(0)
  expect(tierOf(1_024)).toBe(0)
  expect(tierOf(1_025)).toBe(1)
  expect(tierOf(8_192)).toBe(1)
  expect(tierOf(8_193)).toBe(2)
  expect(tierOf(65_537)).toBe(TOP_TIER)
  expect(tierOf(10_000_000)).toBe(TOP_TIER)
  expect(TOP_RUN_ROWS_MAX).toBe(1_024 * FANOUT ** TOP_TIER)
})

test('FANOUT runs of a tier merge into one of the next, and every hash is still found where it is', () => {
  const db = historyDb()
  let n = 0
  const blocks = FANOUT * FANOUT + 3
  for (let height = 1; height <= blocks; height++) {
    ingest(
      db,
      height,
      Array.from({ length: 200 }, () => hashOf(++n)),
    )
  }
  // 67 blocks of 200 rows: 8 merges of 8 tier-0 runs made 8 tier-1 runs (1,600 rows each), and
  // those merged into one tier-2 run; 3 tier-0 runs wait.
  expect(runsByTier(db)).toEqual([
    { tier: 0, n: 3 },
    { tier: 2, n: 1 },
  ])
  expect(db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM tx_keys').get()!.n).toBe(blocks * 200)
  for (let k = 1; k <= n; k += 37) {
    const height = Math.floor((k - 1) / 200) + 1
    expect(txLocation(db, hashOf(k))).toEqual({ height, envelope_idx: (k - 1) % 200 })
  }
  expect(txLocation(db, hashOf(n))).toEqual({ height: blocks, envelope_idx: 199 })
  expect(txLocation(db, hashOf(n).toUpperCase().replace('0X', '0x'))).toEqual({ height: blocks, envelope_idx: 199 })
  expect(txLocation(db, hashOf(n + 1))).toBeNull()
})

test('small blocks: merged runs that stay in tier 0 merge again, no tier keeps FANOUT runs, and every hash is found', () => {
  const db = historyDb()
  let n = 0
  for (let height = 1; height <= 150; height++) ingest(db, height, height % 10 === 0 ? [] : [hashOf(++n), hashOf(++n), hashOf(++n)])
  for (const { n: runs } of runsByTier(db)) expect(runs).toBeLessThan(FANOUT)
  expect(db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM tx_keys').get()!.n).toBe(n)
  for (let k = 1; k <= n; k++) expect(txLocation(db, hashOf(k))).not.toBeNull()
})

test('hashes that share their first 64 bits are told apart by the whole hash; a repeated hash answers its first place', () => {
  const db = historyDb()
  const prefix = `0x${'ab'.repeat(8)}`
  const a = `${prefix}${'01'.repeat(24)}`
  const b = `${prefix}${'02'.repeat(24)}`
  ingest(db, 1, [a, hashOf(1)])
  ingest(db, 2, [hashOf(2), b, a])
  expect(txLocation(db, a)).toEqual({ height: 1, envelope_idx: 0 })
  expect(txLocation(db, b)).toEqual({ height: 2, envelope_idx: 1 })
  expect(txLocation(db, `${prefix}${'03'.repeat(24)}`)).toBeNull()
})

test('a block ingested again (its watermark set back) adds no run', () => {
  const db = historyDb()
  ingest(db, 1, [hashOf(1), hashOf(2)])
  addTxRun(db, 1, 1)
  expect(runsByTier(db)).toEqual([{ tier: 0, n: 1 }])
  expect(db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM tx_keys').get()!.n).toBe(2)
})

test('a block without envelopes adds no run', () => {
  const db = historyDb()
  ingest(db, 1, [])
  expect(runsByTier(db)).toEqual([])
})

test('an index written with an index on envelopes.tx_hash answers from it until it moves to one top-tier run, once', () => {
  const db = historyDb()
  db.exec('CREATE INDEX envelopes_tx ON envelopes (tx_hash)')
  ingest(db, 1, [hashOf(1), hashOf(2)])
  // An older node maintained only the index: the rows it added are in no run.
  db.query(
    `INSERT INTO main.envelopes (height, envelope_idx, tx_hash, signer, nonce, action_kind, market_id, status)
    VALUES (2, 0, ?, '0x01', 0, 'PlaceOrder', 1, 'accepted')`,
  ).run(hashOf(3))
  expect(db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM tx_keys').get()!.n).toBe(2)
  // Until the move, a hash the runs miss is looked up in the older index.
  expect(txLocation(db, hashOf(3))).toEqual({ height: 2, envelope_idx: 0 })
  expect(txLocation(db, hashOf(9))).toBeNull()
  expect(upgradeFromTxHashIndex(db)).toBe(true)
  expect(hasIndex(db)).toBe(false)
  expect(runsByTier(db)).toEqual([{ tier: TOP_TIER, n: 1 }])
  expect(txLocation(db, hashOf(1))).toEqual({ height: 1, envelope_idx: 0 })
  expect(txLocation(db, hashOf(3))).toEqual({ height: 2, envelope_idx: 0 })
  expect(upgradeFromTxHashIndex(db)).toBe(false)
  // New runs go above the upgraded one.
  ingest(db, 3, [hashOf(4)])
  expect(txLocation(db, hashOf(4))).toEqual({ height: 3, envelope_idx: 0 })
})

test('a pipeline over an index with the older index on tx hashes reports ready at once, and its first step moves it to runs', () => {
  const ic = new IndexedChain()
  try {
    const r = ic.send(ALICE, place(BTC, 'Bid', '65000', '0.5'))
    ic.send(BOB, place(BTC, 'Ask', '66000', '0.2'))
    ic.send(ALICE, cancel(BTC, (r.events.find((e) => e.sub_kind === 'OrderAccepted') as { order_id: number }).order_id))
    const old = ic.pipeline()
    indexAll(old, ic.tip)
    const hashes = old.db.query<{ tx_hash: string }, []>('SELECT tx_hash FROM envelopes ORDER BY height, envelope_idx').all()
    expect(hashes.length).toBe(3)
    // What a version before the runs wrote: the index on envelopes.tx_hash, no runs.
    old.db.exec('CREATE INDEX envelopes_tx ON envelopes (tx_hash); DELETE FROM tx_keys; DELETE FROM tx_runs')
    old.close()
    const lines: string[] = []
    const p = new Pipeline({ dataDir: ic.dir, log: (line) => lines.push(line) })
    const ctx = { db: p.db, symbolOf: symbolLookup([]) }
    expect(hasIndex(p.db)).toBe(true)
    expect(p.caughtUp(ic.tip)).toBe(false)
    expect(READ_OPS.txLocation(ctx, { hash: hashes[2]!.tx_hash })).toEqual({ height: ic.tip, envelope_idx: 0 })
    expect(p.step(ic.tip).worked).toBe(true)
    expect(lines.some((l) => l.includes('moved the tx-hash index'))).toBe(true)
    expect(p.caughtUp(ic.tip)).toBe(true)
    expect(hasIndex(p.db)).toBe(false)
    for (const { tx_hash } of hashes) expect(READ_OPS.txLocation(ctx, { hash: tx_hash })).not.toBeNull()
    expect(READ_OPS.txLocation(ctx, { hash: hashes[2]!.tx_hash })).toEqual({ height: ic.tip, envelope_idx: 0 })
    // Every block ingested again (the watermarks set back): no envelope is in two runs.
    writeWatermark(p.db, 'ingest', 0)
    p.close()
    const again = new Pipeline({ dataDir: ic.dir, log: () => {} })
    indexAll(again, ic.tip)
    expect(again.db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM tx_keys').get()!.n).toBe(hashes.length)
    again.close()
  } finally {
    ic.close()
  }
})

const hasIndex = (db: Database) => db.query("SELECT 1 FROM sqlite_master WHERE name = 'envelopes_tx'").get() !== null
