// The read and block limits of docs/history-api.md and docs/rpc.md, each against a real node:
//  - max_tx_per_block on a live node started with a genesis of max_tx_per_block 5;
//  - the page limits (block events 500/2000, envelopes 25/200, fills and orders 50/200, candles
//    500/2000, /info candleSnapshot 5000, audit log 100/1000) and the 10,000-block windows
//    (getRecentTrades, getUserRateLimit; getCandles reads past it) on a node serving a chain long
//    enough to exceed each of them.
// That chain is built first in this process by the node's own ChainNode with a clock that moves a
// minute per block (5,001 one-minute candle buckets need 5,001 minutes of block time): every block
// is signed, admitted and applied as a live node does, and the real node (bun src/main.ts) then
// replays it from the data directory, checking every state root and digest, indexes it and serves it.
import { afterAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { batchPlaceOrder, cancelOrder, placeOrder, setGlobalRebateRatio } from '../../src/client/actions.ts'
import { Signer } from '../../src/client/signer.ts'
import type { ActionResult } from '../../src/node/action-result.ts'
import { ChainNode } from '../../src/node/chain-node.ts'
import { devGenesis } from '../../src/node/dev-genesis.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { getJson, postJson, waitIndexed } from '../support/history-client.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode, tempDataDir } from '../support/node-process.ts'
import { until } from '../support/poll.ts'

const MINUTE = 60_000
/** Blocks with one BTC-USD fill each: one 1m candle bucket each, one more than /info's 5000. */
const TRADE_BLOCKS = 5_001
/**
 * Empty blocks after the trades: with the big block and the admin's blocks after them, the
 * 10,000-block window then holds only the last few dozen trades.
 */
const EMPTY_BLOCKS = 9_950
/** Admin actions (one Ops event each), more than the audit log's maximum limit of 1000. */
const ADMIN_ACTIONS = 1_010
/** Envelopes of one block of BatchPlaceOrder, 50 orders each: 2 events per resting order (1 per item refused past the open-order cap), over 2,000 in all. */
const BIG_BLOCK_BATCHES = 25

const [bob, alice, carol, admin] = [DEV_KEYS[2], DEV_KEYS[1], DEV_KEYS[3], DEV_KEYS[0]].map((k) => new Signer(k)) as [
  Signer,
  Signer,
  Signer,
  Signer,
]

interface Layout {
  /** Heights of the blocks holding one fill each. */
  readonly tradeHeights: number[]
  /** Their 1m candle buckets (open times), one per block, ascending. */
  readonly buckets: number[]
  /** The block of BIG_BLOCK_BATCHES batch envelopes. */
  readonly bigHeight: number
  readonly tip: number
}

/** Builds the long chain into dataDir (see the file comment). */
async function buildChain(dataDir: string): Promise<Layout> {
  let clock = devGenesis().genesis_time_ms
  const node = new ChainNode({ dataDir, genesis: devGenesis(), blockTimeMs: MINUTE, now: () => (clock += MINUTE), log: () => {} })
  node.startManual()
  const nonces = new Map<string, number>()
  const send = (s: Signer, action: Record<string, unknown>): Promise<ActionResult> => {
    const n = nonces.get(s.address) ?? 0
    nonces.set(s.address, n + 1)
    return node.submit(s.sign(action, n, 'dev').params)
  }
  const block = async (pending: Promise<ActionResult>[]): Promise<void> => {
    node.produceBlock()
    for (const r of await Promise.all(pending))
      if (r.status !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(r).slice(0, 300)}`)
  }
  await block([send(bob, placeOrder({ market_id: 1, side: 'Ask', price: '65000', qty: '10', tif: 'Gtc', reduce_only: false }))])
  const tradeHeights: number[] = []
  const buckets: number[] = []
  for (let i = 0; i < TRADE_BLOCKS; i++) {
    await block([send(alice, placeOrder({ market_id: 1, side: 'Bid', price: '65000', qty: '0.001', tif: 'Ioc', reduce_only: false }))])
    tradeHeights.push(node.state.height)
    buckets.push(Math.floor(node.state.timestampMs / MINUTE) * MINUTE)
  }
  if (new Set(buckets).size !== TRADE_BLOCKS) throw new Error('two trade blocks share a 1m bucket')
  const orders = (k: number) =>
    Array.from({ length: 50 }, (_, i) => ({
      market_id: 1,
      side: 'Bid' as const,
      price: String(30_000 + k * 50 + i),
      qty: '0.001',
      tif: 'Gtc' as const,
      reduce_only: false,
    }))
  await block(Array.from({ length: BIG_BLOCK_BATCHES }, (_, k) => send(carol, batchPlaceOrder(orders(k)))))
  const bigHeight = node.state.height
  for (let i = 0; i < EMPTY_BLOCKS; i++) node.produceBlock()
  // The admin's actions last, inside the audit log's 10,000-block scan; 60 a block (the nonce window is 64).
  for (let done = 0; done < ADMIN_ACTIONS; done += 60) {
    await block(
      Array.from({ length: Math.min(60, ADMIN_ACTIONS - done) }, (_, i) =>
        send(admin, setGlobalRebateRatio({ ratio_bps: 1_000 + ((done + i) % 2) })),
      ),
    )
  }
  const tip = node.state.height
  node.stop()
  return { tradeHeights, buckets, bigHeight, tip }
}

const nodes: NodeProcess[] = []
afterAll(async () => {
  for (const n of nodes) {
    await n.stop()
    removeDir(n.dataDir)
  }
})

const dataDir = tempDataDir()
const layout = await buildChain(dataDir)
// A long block time: the live node adds few blocks to the built chain while the tests read it.
const node = await startNode({ dataDir, blockTimeMs: 5_000 })
nodes.push(node)
const rpc = new CheckedRpcClient(node.url)
await waitIndexed(node.url, layout.tip, 300_000)

const get = async <T = any>(path: string): Promise<T> => {
  const r = await getJson<T>(node.url, path)
  if (r.status !== 200) throw new Error(`GET ${path}: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`)
  return r.body
}
type Paged = { data: unknown[]; page: { limit: number; has_more: boolean } }

describe('page limits of the history REST API', () => {
  test('block events: 500 by default, at most 2000', async () => {
    const header = (await get<{ data: { event_count: number } }>(`/api/v1/blocks/${layout.bigHeight}`)).data
    expect(header.event_count).toBeGreaterThan(2_000)
    const byDefault = await get<Paged>(`/api/v1/blocks/${layout.bigHeight}/events`)
    expect([byDefault.data.length, byDefault.page.limit, byDefault.page.has_more]).toEqual([500, 500, true])
    const most = await get<Paged>(`/api/v1/blocks/${layout.bigHeight}/events?limit=100000`)
    expect([most.data.length, most.page.limit, most.page.has_more]).toEqual([2_000, 2_000, true])
    const rest = await get<Paged>(`/api/v1/blocks/${layout.bigHeight}/events?limit=2000&offset=2000`)
    expect([rest.data.length, rest.page.has_more]).toEqual([header.event_count - 2_000, false])
  })

  test('envelopes: 25 by default, at most 200', async () => {
    expect((await get<Paged>('/api/v1/envelopes')).data).toHaveLength(25)
    const most = await get<Paged>('/api/v1/envelopes?limit=100000')
    expect([most.data.length, most.page.limit, most.page.has_more]).toEqual([200, 200, true])
  })

  test('fills and orders: 50 by default, at most 200', async () => {
    for (const path of [
      `/api/v1/fills?account=${bob.address}`,
      `/api/v1/fills?account=${alice.address}`,
      `/api/v1/orders?owner=${alice.address}`,
      `/api/v1/orders?owner=${carol.address}&include_open=true`,
    ]) {
      expect(`${path} ${(await get<Paged>(path)).data.length}`).toBe(`${path} 50`)
      const most = await get<Paged>(`${path}&limit=100000`)
      expect(`${path} ${most.data.length} ${most.page.limit} ${most.page.has_more}`).toBe(`${path} 200 200 true`)
    }
  })
})

describe('candle limits', () => {
  const candles = (query: string) => get<{ t: number }[]>(`/api/v1/candles?symbol=BTC-USD&interval=1m${query}`)
  const ts = (list: { t: number }[]) => list.map((c) => c.t)
  const { buckets } = layout

  test('/candles: 500 by default, at most 2000, the newest without `from`', async () => {
    expect(ts(await candles(''))).toEqual(buckets.slice(-500))
    expect(ts(await candles('&limit=100000'))).toEqual(buckets.slice(-2_000))
  })

  test('/candles with `from` pages forward: the first `limit` buckets at or after it', async () => {
    expect(ts(await candles('&from=0&limit=1'))).toEqual(buckets.slice(0, 1))
    const page1 = await candles(`&from=${buckets[0]}&limit=3`)
    expect(ts(page1)).toEqual(buckets.slice(0, 3))
    const page2 = await candles(`&from=${page1.at(-1)!.t + 1}&limit=3`)
    expect(ts(page2)).toEqual(buckets.slice(3, 6))
    expect(ts(await candles(`&from=${buckets[1_000]}`))).toEqual(buckets.slice(1_000, 1_500))
    expect(ts(await candles(`&from=${buckets[1_000]}&limit=100000`))).toEqual(buckets.slice(1_000, 3_000))
    // A `to` with `from` still bounds the range.
    expect(ts(await candles(`&from=${buckets[0]}&to=${buckets[1]}`))).toEqual(buckets.slice(0, 2))
  })

  test('/info candleSnapshot: at most 5000 candles a call', async () => {
    const r = await postJson<{ t: number }[]>(node.url, '/info', {
      type: 'candleSnapshot',
      req: { coin: 'BTC-USD', interval: '1m', startTime: 0 },
    })
    expect(r.status).toBe(200)
    expect(ts(r.body)).toEqual(buckets.slice(-5_000))
  })

  test('getCandles: 500 by default, at most 2000; standard intervals read past the 10,000-block journal window', async () => {
    const open = (r: { data: { open_time_ms: number }[] }) => r.data.map((c) => c.open_time_ms)
    expect(open(await rpc.query('getCandles', { symbol: 'BTC-USD', interval_ms: MINUTE }))).toEqual(buckets.slice(-500))
    expect(open(await rpc.query('getCandles', { symbol: 'BTC-USD', interval_ms: MINUTE, limit: 100_000 }))).toEqual(buckets.slice(-2_000))
    // The first trade is more than 10,000 blocks old; the candle index still has its bucket.
    expect(layout.tip - layout.tradeHeights[0]!).toBeGreaterThan(10_000)
    expect(
      open(
        await rpc.query('getCandles', { symbol: 'BTC-USD', interval_ms: MINUTE, start_time_ms: 0, end_time_ms: buckets[2]!, limit: 10 }),
      ),
    ).toEqual(buckets.slice(0, 3))
  })
})

describe('the 10,000-block windows and the audit log', () => {
  test('getRecentTrades holds the trades of the last 10,000 blocks only; getUserRateLimit counts the same window', async () => {
    const r = await rpc.query<{ block_height: number }[]>('getRecentTrades', { symbol: 'BTC-USD', limit: 1_000 })
    const from = r.height - 10_000 + 1
    const inWindow = layout.tradeHeights.filter((h) => h >= from)
    expect(inWindow.length).toBeGreaterThan(0)
    expect(inWindow.length).toBeLessThan(layout.tradeHeights.length)
    expect(r.data.map((t) => t.block_height)).toEqual([...inWindow].reverse())
    const limit = await rpc.query<{ n_requests_used: number; window_blocks: number }>('getUserRateLimit', { address: alice.address })
    expect(limit.data.window_blocks).toBe(10_000)
    expect(limit.data.n_requests_used).toBe(layout.tradeHeights.filter((h) => h >= limit.height - 10_000 + 1).length)
  })

  test('getAdminAuditLog: 100 by default, at most 1000', async () => {
    type AuditPage = { limit: number; has_more: boolean }
    const byDefault = await rpc.query<unknown[]>('getAdminAuditLog')
    expect([byDefault.data.length, (byDefault.page as AuditPage).has_more]).toEqual([100, true])
    const most = await rpc.query<unknown[]>('getAdminAuditLog', { limit: 100_000 })
    expect([most.data.length, (most.page as AuditPage).limit, (most.page as AuditPage).has_more]).toEqual([1_000, 1_000, true])
  })
})

describe('max_tx_per_block', () => {
  test('a block never carries more; the rest waits in the mempool for the next blocks', async () => {
    const genesisFile = join(tempDataDir(), 'genesis.json')
    writeFileSync(genesisFile, JSON.stringify({ ...devGenesis(), max_tx_per_block: 5 }))
    const small = await startNode({ blockTimeMs: 300, extraArgs: ['--genesis', genesisFile] })
    nodes.push(small)
    const smallRpc = new CheckedRpcClient(small.url)
    expect((await smallRpc.query<{ max_tx_per_block: number }>('getExchangeConfig')).data.max_tx_per_block).toBe(5)
    const signers = DEV_KEYS.slice(1, 5).map((k) => new Signer(k))
    const sent = signers.flatMap((s) =>
      Array.from({ length: 6 }, (_, n) =>
        smallRpc.action<{ height: number; status: string }>(s.sign(cancelOrder({ market_id: 1, order_id: 900_000 + n }), n, 'dev').params),
      ),
    )
    const replies = await Promise.all(sent)
    expect(replies.every((r) => r.status === 'kept-reject')).toBe(true)
    const perBlock = new Map<number, number>()
    for (const r of replies) perBlock.set(r.height, (perBlock.get(r.height) ?? 0) + 1)
    expect(Math.max(...perBlock.values())).toBeLessThanOrEqual(5)
    expect(perBlock.size).toBeGreaterThanOrEqual(Math.ceil(replies.length / 5))
    // The headers agree: no block of the run holds more than 5 envelopes.
    await until(
      'the blocks in the history index',
      () => getJson(small.url, `/api/v1/blocks/${Math.max(...perBlock.keys())}`),
      (r) => r.status === 200,
      30_000,
    )
    for (const h of perBlock.keys()) {
      const header = (await getJson<{ data: { envelope_count: number } }>(small.url, `/api/v1/blocks/${h}`)).body.data
      expect(header.envelope_count).toBe(perBlock.get(h)!)
    }
  }, 120_000)
})
