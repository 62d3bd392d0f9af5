// History index figures (issue 5): sustained fills through the indexer, and a deep /fills page.
//
//   bun scripts/bench/history.ts [--seconds 60] [--fills-per-second 10000] [--block-ms 100] [--rows 1000000] [--pages 2000]
//
// Part 1 drives the real indexer thread with synthetic committed blocks of Filled events, written
// through the real block store (chain.sqlite) and announced to the index exactly as the node does
// on each commit; it samples the derive lag (chain tip - derive watermark) every block, reports
// the peak, and after the load stops measures how long the lag takes to reach 0. Signed HTTP
// actions cannot make 10,000 fills per second on a 2-core machine (each fill needs a signed order
// checked on the same cores), so the blocks are synthetic; their event bodies come from the node's
// own wire/event-view.ts.
// Part 2 fills the index to `--rows` fill rows and times GET /api/v1/fills?account=...&limit=200
// through the real route, reader thread and HTTP server on 127.0.0.1, for the busiest account.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Elysia } from 'elysia'
import { attachHistory } from '../../src/api/history-link.ts'
import { historyRoutes } from '../../src/api/routes/history-routes.ts'
import { HistoryIndex } from '../../src/indexer/history-index.ts'
import { Pipeline } from '../../src/indexer/pipeline.ts'
import { parseOptionsOrExit } from '../../src/lib/options.ts'
import { BlockStore } from '../../src/node/block-store.ts'
import type { ChainNode } from '../../src/node/chain-node.ts'
import { SyntheticChain, type SyntheticMarket } from '../../test/support/synthetic-chain.ts'
import { percentile } from './stats.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  {
    seconds: { type: 'integer', default: 60, min: 1, max: 86_400, description: 'seconds of block time ingested in part 1' },
    'fills-per-second': {
      type: 'integer',
      default: 10_000,
      min: 1,
      max: 10_000_000,
      description: 'fills per second of the synthetic flow',
    },
    'block-ms': { type: 'integer', default: 100, min: 1, max: 60_000, description: 'block time of the synthetic flow' },
    rows: { type: 'integer', default: 1_000_000, min: 1, max: 1_000_000_000, description: 'fill rows in the index of part 2' },
    pages: { type: 'integer', default: 2_000, min: 1, max: 10_000_000, description: 'pages read in part 2' },
  },
  { usage: 'bun scripts/bench/history.ts [options]', program: 'bun scripts/bench/history.ts' },
)
const SECONDS = flags.seconds
const FILLS_PER_SECOND = flags['fills-per-second']
const BLOCK_MS = flags['block-ms']
const ROWS = flags.rows
const PAGES = flags.pages

const MARKETS: SyntheticMarket[] = [
  { marketId: 1, priceDecimals: 1, sizeDecimals: 4, midTicks: 650_000 },
  { marketId: 2, priceDecimals: 2, sizeDecimals: 3, midTicks: 350_000 },
  { marketId: 3, priceDecimals: 3, sizeDecimals: 2, midTicks: 150_000 },
]
const MARKET_REFS = MARKETS.map((m, i) => ({
  market_id: m.marketId,
  symbol: ['BTC-USD', 'ETH-USD', 'SOL-USD'][i]!,
  lifecycle: 'Active',
  routing: 'native',
}))
const accounts = (n: number) => Array.from({ length: n }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`)

async function sustained(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'perpd-bench-history-'))
  try {
    const store = new BlockStore(dir)
    const chain = new SyntheticChain(store, { markets: MARKETS, accounts: accounts(200), startTimeMs: Date.now(), blockTimeMs: BLOCK_MS })
    const index = await HistoryIndex.start({ dataDir: dir, log: () => {} }, 0, MARKET_REFS)
    const fillsPerBlock = Math.round((FILLS_PER_SECOND * BLOCK_MS) / 1000)
    const blocks = Math.round((SECONDS * 1000) / BLOCK_MS)
    // The blocks are built before the clock starts, so the timed loop does what the node's commit
    // path does for the index: write the block to the block store and announce it.
    const made = Array.from({ length: blocks }, () => chain.makeBlock(fillsPerBlock))
    let peakLag = 0
    let peakSpecLag = 0
    let lateBlocks = 0
    const started = performance.now()
    for (let i = 0; i < blocks; i++) {
      const due = started + i * BLOCK_MS
      const wait = due - performance.now()
      if (wait > 0) await Bun.sleep(wait)
      else lateBlocks++
      const b = made[i]!
      store.commitBlock(b)
      index.notifyBlock({ height: b.header.height, timestampMs: b.header.timestampMs, trades: [], closedOrders: [] })
      const wm = index.progress.watermarks
      peakLag = Math.max(peakLag, b.header.height - wm.derive)
      peakSpecLag = Math.max(peakSpecLag, wm.ingest - wm.derive)
    }
    const loadMs = performance.now() - started
    const stopped = performance.now()
    const tip = chain.tip
    let p = await index.sync(tip)
    while (p.watermarks.derive < tip) {
      await Bun.sleep(10)
      p = index.progress
    }
    const drainMs = performance.now() - stopped
    while (p.watermarks.stats < tip || p.watermarks.candle < tip) {
      await Bun.sleep(10)
      p = index.progress
    }
    const allMs = performance.now() - stopped
    const fills = blocks * fillsPerBlock
    console.log(
      `sustained: ${fills} fills in ${blocks} blocks of ${fillsPerBlock} over ${(loadMs / 1000).toFixed(1)} s = ${Math.round(fills / (loadMs / 1000))} fills/s offered (${lateBlocks} blocks committed late)`,
    )
    console.log(`  peak derive lag (tip - derive_watermark): ${peakLag} blocks; peak derive_lag_blocks (ingest - derive): ${peakSpecLag}`)
    console.log(`  after the load stopped: derive lag 0 in ${Math.round(drainMs)} ms; candle and stats lag 0 in ${Math.round(allMs)} ms`)
    await index.stop()
    store.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function deepPage(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'perpd-bench-history-'))
  try {
    const store = new BlockStore(dir)
    // 20 accounts: each fill gives two rows, so the busiest account holds about a tenth of them.
    const chain = new SyntheticChain(store, {
      markets: MARKETS,
      accounts: accounts(20),
      startTimeMs: Date.now() - 86_400_000,
      blockTimeMs: 50,
    })
    const pipeline = new Pipeline({ dataDir: dir, log: () => {} })
    const fillsPerBlock = 2_000
    const t0 = performance.now()
    while (chain.tip * fillsPerBlock * 2 < ROWS) {
      chain.commitBlock(fillsPerBlock)
      while (pipeline.step(chain.tip).worked) {
        /* index as we go, so the WAL stays small */
      }
    }
    const rows = pipeline.db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM fills').get()!.n
    const busiest = pipeline.db
      .query<{ account: string; n: number }, []>('SELECT account, COUNT(*) AS n FROM fills GROUP BY account ORDER BY n DESC LIMIT 1')
      .get()!
    pipeline.close()
    console.log(
      `deep page: ${rows} fill rows indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s; busiest account has ${busiest.n}`,
    )

    const index = await HistoryIndex.start({ dataDir: dir, log: () => {} }, chain.tip, MARKET_REFS)
    // The route needs only the node's market table and height: a stand-in node carries them.
    const node = {
      state: {
        height: chain.tip,
        markets: new Map(MARKET_REFS.map((m) => [m.market_id, { marketId: m.market_id, symbol: m.symbol, lifecycle: m.lifecycle }])),
      },
    } as unknown as ChainNode
    attachHistory(node, index)
    const app = new Elysia().use(historyRoutes(node)).listen({ hostname: '127.0.0.1', port: 0 })
    const base = `http://127.0.0.1:${app.server!.port}/api/v1/fills?account=${busiest.account}&limit=200`
    const times: number[] = []
    let cursor: string | null = null
    let rowsSeen = 0
    for (let i = 0; i < PAGES + 50; i++) {
      // Half the pages are first pages, half follow the cursor deeper into the account's history.
      const url = i % 2 === 0 || cursor === null ? base : `${base}&cursor=${cursor}`
      const t = performance.now()
      const res = await fetch(url)
      const body = (await res.json()) as { data: unknown[]; page: { next_cursor: string | null } }
      const ms = performance.now() - t
      if (res.status !== 200 || body.data.length === 0) throw new Error(`bad page: ${res.status}`)
      // Follow the cursor to the end of the account's history, then start over.
      if (i % 2 === 1 || cursor === null) cursor = body.page.next_cursor
      rowsSeen += body.data.length
      if (i >= 50) times.push(ms) // the first 50 warm the caches
    }
    times.sort((a, b) => a - b)
    console.log(
      `  GET /api/v1/fills?account=...&limit=200 over HTTP, ${times.length} pages (${rowsSeen} rows): p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms, max ${times[times.length - 1]!.toFixed(2)} ms`,
    )
    app.stop()
    await index.stop()
    store.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

console.log(`perpd history bench on ${navigator.hardwareConcurrency} cores, 127.0.0.1 only`)
await sustained()
await deepPage()
process.exit(0)
