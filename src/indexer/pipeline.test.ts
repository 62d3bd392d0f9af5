// The pipeline's guarantees: one transaction per stage batch with its watermark, so a block indexed
// twice changes nothing; the same tables whatever the batching; a restart (or a stop) mid-way
// catches up from the block store with no row missing or doubled; a history file of another chain
// or ahead of the block store is rebuilt; an envelope the block store lacks is an error, not a gap.
import { Database } from 'bun:sqlite'
import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DERIVED_TABLES, indexAll, tableRows } from '../../test/support/history.ts'
import { SyntheticChain } from '../../test/support/synthetic-chain.ts'
import { BlockStore } from '../node/block-store.ts'
import { BLOCK_STORE_FILE } from '../wire/stored-block.ts'
import { Pipeline } from './pipeline.ts'
import { READ_OPS } from './read/ops.ts'
import { setMeta } from './schema.ts'
import { symbolLookup } from './symbols.ts'
import { eventsBetween } from './tables/events.ts'
import { writeWatermark } from './watermarks.ts'

const MARKETS = [
  { marketId: 1, priceDecimals: 1, sizeDecimals: 4, midTicks: 650_000 },
  { marketId: 2, priceDecimals: 2, sizeDecimals: 3, midTicks: 350_000 },
]
const ACCOUNTS = Array.from({ length: 6 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`)
const symbolOf = symbolLookup([
  { market_id: 1, symbol: 'BTC-USD', lifecycle: 'Active', routing: 'native' },
  { market_id: 2, symbol: 'ETH-USD', lifecycle: 'Active', routing: 'native' },
])

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A block store with `blocks` synthetic blocks spanning several minutes (candle buckets). */
function syntheticStore(blocks: number, fillsPerBlock = 7): { dir: string; store: BlockStore; tip: number } {
  const dir = mkdtempSync(join(tmpdir(), 'perpd-pipeline-test-'))
  dirs.push(dir)
  const store = new BlockStore(dir)
  const chain = new SyntheticChain(store, {
    markets: MARKETS,
    accounts: ACCOUNTS,
    startTimeMs: Date.UTC(2026, 0, 31, 23, 55),
    blockTimeMs: 20_000,
    seed: 7,
  })
  for (let i = 0; i < blocks; i++) chain.commitBlock(i % 5 === 3 ? 0 : fillsPerBlock)
  return { dir, store, tip: chain.tip }
}

const snapshot = (p: Pipeline) => Object.fromEntries(DERIVED_TABLES.map((t) => [t, tableRows(p, t)]))

describe('pipeline', () => {
  test('every fill gives two fill rows, one trade and one count in each candle interval', () => {
    const { dir, tip } = syntheticStore(40)
    const p = new Pipeline({ dataDir: dir, log: () => {} })
    indexAll(p, tip)
    const trades = p.db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM trades').get()!.n
    expect(trades).toBe(32 * 7)
    expect(p.db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM fills').get()!.n).toBe(2 * trades)
    for (const row of p.db.query<{ interval: string; n: number }, []>('SELECT interval, SUM(n) AS n FROM candles GROUP BY interval').all())
      expect(row.n).toBe(trades)
    // The blocks run from Jan 31 23:55 into February: two calendar-month buckets.
    expect(
      p.db
        .query<{ t: number }, []>("SELECT t FROM candles WHERE interval = '1M' AND market_id = 1 ORDER BY t")
        .all()
        .map((r) => r.t),
    ).toEqual([Date.UTC(2026, 0, 1), Date.UTC(2026, 1, 1)])
    expect(p.progress()).toMatchObject({ blockCount: 40, envelopeTotal: 0 })
    p.close()
  })

  test('the index holds every event of the block store in chain order, each body as stored', () => {
    const { dir, store, tip } = syntheticStore(12)
    const p = new Pipeline({ dataDir: dir, log: () => {} })
    indexAll(p, tip)
    const indexed = [...eventsBetween(p.db, 1, tip)].map((e) => ({
      height: e.height,
      seq: e.seq,
      envelopeIdx: e.envelope_idx,
      kind: e.kind,
      subKind: e.sub_kind,
      marketId: e.market_id,
      account: e.account,
      bodyJson: JSON.stringify(e.body),
    }))
    const stored = store.eventsBetween(1, tip)
    // Ten of the twelve blocks hold seven fills each.
    expect(stored).toHaveLength(10 * 7)
    expect(indexed).toEqual(stored)
    p.close()
  })

  test('a block indexed twice changes nothing (watermarks reset, every stage run again)', () => {
    const { dir, tip } = syntheticStore(25)
    const p = new Pipeline({ dataDir: dir, log: () => {} })
    indexAll(p, tip)
    const before = snapshot(p)
    const counters = p.progress()
    p.close()
    const again = new Pipeline({ dataDir: dir, log: () => {} })
    for (const stage of ['ingest', 'derive', 'candle', 'stats'] as const) writeWatermark(again.db, stage, 10)
    again.close()
    const p2 = new Pipeline({ dataDir: dir, log: () => {} })
    indexAll(p2, tip)
    expect(snapshot(p2)).toEqual(before)
    expect(p2.progress()).toEqual(counters)
    p2.close()
  })

  test('one block per batch and everything in one batch give the same tables', () => {
    const { dir, tip } = syntheticStore(30)
    const all = new Pipeline({ dataDir: dir, log: () => {} })
    indexAll(all, tip)
    const expected = snapshot(all)
    all.close()
    rmSync(join(dir, 'history.sqlite'))
    rmSync(join(dir, 'history.sqlite-wal'), { force: true })
    rmSync(join(dir, 'history.sqlite-shm'), { force: true })
    const one = new Pipeline({ dataDir: dir, log: () => {} })
    for (let h = 1; h <= tip; h++) indexAll(one, h)
    expect(snapshot(one)).toEqual(expected)
    one.close()
  })

  test('stopped between stages and reopened, it catches up with no row missing or doubled', () => {
    const { dir, store, tip } = syntheticStore(20)
    const clean = new Pipeline({ dataDir: dir, log: () => {} })
    indexAll(clean, tip)
    const expected = snapshot(clean)
    clean.close()
    for (const f of ['history.sqlite', 'history.sqlite-wal', 'history.sqlite-shm']) rmSync(join(dir, f), { force: true })
    // Ingest only the first half, derive a quarter, then stop.
    const first = new Pipeline({ dataDir: dir, log: () => {} })
    first.step(10)
    first.close()
    const second = new Pipeline({ dataDir: dir, log: () => {} })
    expect(second.watermarks.ingest).toBe(10)
    indexAll(second, tip)
    expect(snapshot(second)).toEqual(expected)
    second.close()
    store.close()
  })

  test('a history file of another chain or of an index version this build does not upgrade is rebuilt', () => {
    const { dir, tip } = syntheticStore(12)
    const p = new Pipeline({ dataDir: dir, log: () => {} })
    indexAll(p, tip)
    const expected = snapshot(p)
    setMeta(p.db, 'genesis_root', '0xother')
    p.close()
    const lines: string[] = []
    const rebuilt = new Pipeline({ dataDir: dir, log: (l) => lines.push(l) })
    expect(rebuilt.watermarks.ingest).toBe(0)
    expect(lines.join('\n')).toContain('another chain')
    indexAll(rebuilt, tip)
    expect(snapshot(rebuilt)).toEqual(expected)
    // An index version this build neither writes nor upgrades (a later build's): rebuilt too.
    setMeta(rebuilt.db, 'index_version', '3')
    rebuilt.close()
    lines.length = 0
    const again = new Pipeline({ dataDir: dir, log: (l) => lines.push(l) })
    expect(again.watermarks.ingest).toBe(0)
    expect(lines.join('\n')).toContain('index version 3, this node writes 2')
    indexAll(again, tip)
    expect(snapshot(again)).toEqual(expected)
    again.close()
  })

  test('cursor paging returns every fill row of an account exactly once, newest first', () => {
    const { dir, tip } = syntheticStore(30)
    const p = new Pipeline({ dataDir: dir, log: () => {} })
    indexAll(p, tip)
    const ctx = { db: p.db, symbolOf }
    const account = ACCOUNTS[0]!
    const everything = READ_OPS.fills(ctx, {
      filter: { account },
      page: { offset: 0, limit: 10_000, cursor: undefined, includeTotal: true },
    })
    const keys = (rows: unknown[]) =>
      (rows as { height: number; seq: number; is_taker: boolean }[]).map((r) => `${r.height}.${r.seq}.${Number(r.is_taker)}`)
    const all = keys(everything.data)
    expect(all.length).toBe(everything.page.total!)
    const paged: string[] = []
    let cursor: number[] | undefined
    for (let i = 0; i < 1000; i++) {
      const page = READ_OPS.fills(ctx, { filter: { account }, page: { offset: 0, limit: 7, cursor, includeTotal: false } })
      paged.push(...keys(page.data))
      if (!page.page.has_more) break
      cursor = page.page.next_cursor!.split('.').map(Number)
    }
    expect(paged).toEqual(all)
    expect(new Set(paged).size).toBe(paged.length)
    // Newest first across both markets of the account.
    const heightsSeqs = (everything.data as { height: number; seq: number }[]).map((r) => r.height * 1e6 + r.seq)
    expect(heightsSeqs).toEqual([...heightsSeqs].sort((a, b) => b - a))
    // Offset paging agrees with the cursor on the first pages.
    const byOffset = READ_OPS.fills(ctx, { filter: { account }, page: { offset: 7, limit: 7, cursor: undefined, includeTotal: false } })
    expect(keys(byOffset.data)).toEqual(all.slice(7, 14))
    // A market filter reads one (account, market) range.
    const btc = READ_OPS.fills(ctx, {
      filter: { account, marketId: 1 },
      page: { offset: 0, limit: 10_000, cursor: undefined, includeTotal: true },
    })
    expect((btc.data as { market_id: number }[]).every((r) => r.market_id === 1)).toBe(true)
    expect(btc.page.total).toBeLessThan(everything.page.total!)
    p.close()
  })

  test('leaderboard snapshots rank the all-time and windowed figures with meta', () => {
    const { dir, tip } = syntheticStore(30)
    const p = new Pipeline({ dataDir: dir, log: () => {}, leaderboardRefreshMs: 60_000 })
    indexAll(p, tip)
    const ctx = { db: p.db, symbolOf }
    const board = READ_OPS.leaderboard(ctx, { metric: 'volume', period: 'all', limit: 3 })
    expect(board.data.map((r) => r.rank)).toEqual([1, 2, 3])
    const volumes = board.data.map((r) => Number(r.value))
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a))
    expect(board.meta).toMatchObject({ source: 'snapshot', as_of_height: tip, metric: 'volume', period: 'all' })
    const top = READ_OPS.accountStats(ctx, { account: board.data[0]!.account })
    expect(top.volume).toBe(board.data[0]!.value)
    p.close()
  })
  test('an envelope the index has and the block store lacks is an error on every envelope read, not a gap', () => {
    const { dir, store, tip } = syntheticStore(6)
    // The synthetic blocks have no envelopes: one more block with one.
    const parent = store.header(tip)!
    const height = tip + 1
    store.commitBlock({
      header: {
        height,
        parent: parent.digest,
        digest: `0x${'d'.repeat(64)}`,
        timestampMs: parent.timestampMs + 20_000,
        envelopeCount: 1,
        eventCount: 0,
        stateRoot: `0x${'0'.repeat(64)}`,
      },
      envelopes: [
        {
          height,
          envelopeIdx: 0,
          txHash: `0x${'e'.repeat(64)}`,
          signer: ACCOUNTS[0]!,
          nonce: 0,
          actionKind: 'CancelOrder',
          marketId: 1,
          actionJson: '{"CancelOrder":{"market_id":1,"order_id":9}}',
          signatureJson: '{}',
          status: 'kept-reject',
          reasonJson: '{"code":"OrderNotFound","message":"no order 9"}',
        },
      ],
      events: [],
    })
    const p = new Pipeline({ dataDir: dir, log: () => {} })
    indexAll(p, height)
    const ctx = { db: p.db, symbolOf }
    const page = { offset: 0, limit: 100, cursor: undefined, includeTotal: false }
    const lost = p.db
      .query<{ height: number; envelope_idx: number; tx_hash: string }, []>(
        'SELECT height, envelope_idx, tx_hash FROM main.envelopes ORDER BY height, envelope_idx LIMIT 1',
      )
      .get()!
    const reads = [
      () => READ_OPS.envelopes(ctx, { filter: {}, page }),
      () => READ_OPS.blockEnvelopes(ctx, { height: lost.height }),
      () => READ_OPS.tx(ctx, { hash: lost.tx_hash }),
    ]
    expect(READ_OPS.envelopes(ctx, { filter: {}, page }).data.map((e) => e.action)).toEqual([
      { CancelOrder: { market_id: 1, order_id: 9 } },
    ])
    expect(READ_OPS.blockEnvelopes(ctx, { height })!.map((e) => e.reason)).toEqual([{ code: 'OrderNotFound', message: 'no order 9' }])
    expect(READ_OPS.tx(ctx, { hash: lost.tx_hash })!.tx_hash).toBe(lost.tx_hash)
    // A block store replaced or damaged under the index (the node writes it; this stands in).
    const chain = new Database(join(dir, BLOCK_STORE_FILE))
    chain.query('DELETE FROM envelopes WHERE height = ? AND envelope_idx = ?').run(lost.height, lost.envelope_idx)
    chain.close()
    for (const read of reads)
      expect(read).toThrow(`envelope ${lost.height}/${lost.envelope_idx} is in the history index but not in the block store`)
    p.close()
  })
})
