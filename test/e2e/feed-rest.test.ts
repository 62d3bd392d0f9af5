// Hot-read market data (docs/websocket.md#hot-read-rest) on a real node: the wrapper and headers,
// the orderbook depth cap, trades paging newest first, BBOs sorted by symbol, marks, the four-field
// market list, the summary, 404 for unknown markets; getBootstrap. The 503 while seeding and the
// stale flag are checked in process on a feed that is not seeded yet / has not seen a block for a
// while.
import { beforeAll, describe, expect, test } from 'bun:test'
import { feedRoutes } from '../../src/api/routes/feed-routes.ts'
import { nodeFeedSource } from '../../src/api/ws/node-feed-source.ts'
import type { FeedRuntime } from '../../src/api/ws/runtime.ts'
import { placeOrder } from '../../src/client/actions.ts'
import type { ActionReply } from '../../src/client/rpc-client.ts'
import { HotFeed } from '../../src/feed/hot-feed.ts'
import { genesisState } from '../support/chain/test-chain.ts'
import { startDevNodeForFile } from '../support/dev-node.ts'

const { node, rpc, client } = await startDevNodeForFile({ blockTimeMs: 50 })
const alice = client(1)
const bob = client(2)

beforeAll(async () => {
  const ok = (r: ActionReply) => expect(r.status).toBe('accepted')
  // A BTC book with two bid and one ask level, and three trades at 65000, 65010, 65020.
  for (const [price, qty] of [
    ['64900', '0.5'],
    ['64800', '0.25'],
  ] as const)
    ok(await alice.send(placeOrder({ market_id: 1, side: 'Bid', price, qty, tif: 'Gtc', reduce_only: false })))
  ok(await alice.send(placeOrder({ market_id: 1, side: 'Ask', price: '65100', qty: '1', tif: 'Gtc', reduce_only: false })))
  for (const price of ['65000', '65010', '65020']) {
    ok(await alice.send(placeOrder({ market_id: 1, side: 'Ask', price, qty: '0.1', tif: 'Gtc', reduce_only: false })))
    ok(await bob.send(placeOrder({ market_id: 1, side: 'Bid', price, qty: '0.1', tif: 'Ioc', reduce_only: false })))
  }
})

async function hot(path: string) {
  const res = await fetch(`${node.url}${path}`)
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> }
}

describe('hot-read REST', () => {
  test('orderbook: the wrapper, its headers, levels with cumulative quantity', async () => {
    const r = await hot('/api/v1/market/orderbook/BTC-USD')
    expect(r.status).toBe(200)
    expect(Object.keys(r.body)).toEqual(['chain_height', 'book_updated_at_ms', 'stale', 'ready', 'data'])
    expect(r.body).toMatchObject({ stale: false, ready: true })
    expect(r.headers.get('x-chain-height')).toBe(String(r.body.chain_height))
    expect(r.headers.get('x-book-updated-at-ms')).toBe(String(r.body.book_updated_at_ms))
    expect(r.headers.get('x-market-data-stale')).toBeNull()
    expect(Object.keys(r.body.data)).toEqual(['symbol', 'height', 'state_hash', 'source', 'bids', 'asks'])
    expect(r.body.data.bids).toEqual([
      { price: '64900', qty: '0.5', cumulative_qty: '0.5' },
      { price: '64800', qty: '0.25', cumulative_qty: '0.75' },
    ])
    expect(r.body.data.asks).toEqual([{ price: '65100', qty: '1', cumulative_qty: '1' }])
    const one = await hot('/api/v1/market/orderbook/btc?depth=1')
    expect(one.body.data.bids).toHaveLength(1)
    expect((await hot('/api/v1/market/orderbook/BTC-USD?depth=-1')).status).toBe(400)
  })

  test('trades: newest first, offset skips the newest, limit bounds the page', async () => {
    const r = await hot('/api/v1/market/trades/BTC-USD')
    expect(r.body.data.map((t: { price: string }) => t.price)).toEqual(['65020', '65010', '65000'])
    expect(Object.keys(r.body.data[0])).toEqual([
      'block_height',
      'event_seq',
      'timestamp_ms',
      'market_id',
      'symbol',
      'price',
      'qty',
      'notional',
      'side',
    ])
    expect(r.body.data[0]).toMatchObject({ market_id: 1, symbol: 'BTC-USD', qty: '0.1', notional: '6502', side: 'Bid' })
    const page = await hot('/api/v1/market/trades/BTC?offset=1&limit=1')
    expect(page.body.data.map((t: { price: string }) => t.price)).toEqual(['65010'])
    expect((await hot('/api/v1/market/trades/BTC?limit=5000')).body.data).toHaveLength(3)
  })

  test('bbos sorted by symbol, marks, the four-field market list', async () => {
    const bbos = await hot('/api/v1/bbos')
    expect(bbos.body.data.map((b: { symbol: string }) => b.symbol)).toEqual(['BTC-USD', 'ETH-USD', 'SOL-USD', 'XAU-USD'])
    expect(bbos.body.data[0]).toEqual({ symbol: 'BTC-USD', bid: '64900', ask: '65100', spread: '200' })
    const marks = await hot('/api/v1/marks')
    expect(Object.keys(marks.body.data)).toEqual(['BTC-USD', 'ETH-USD', 'SOL-USD', 'XAU-USD'])
    const chainMarks = (await rpc.query<Record<string, string>>('getAllMarks')).data
    expect(marks.body.data['BTC-USD']).toBe(chainMarks['BTC-USD']!)
    const markets = await hot('/api/v1/markets')
    expect(markets.body.data[0]).toEqual({ market_id: 1, symbol: 'BTC-USD', price_decimals: 1, size_decimals: 4 })
    expect(markets.headers.get('x-chain-height')).not.toBeNull()
  })

  test('summary: top of book, levels, open orders, fills and the UTC-day volumes', async () => {
    const r = await hot('/api/v1/markets/BTC/summary')
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      symbol: 'BTC-USD',
      best_bid: '64900',
      best_ask: '65100',
      spread: '200',
      bid_levels: 2,
      ask_levels: 1,
      open_orders: 3,
      day_base_volume: '0.3',
      day_ntl_volume: '19503',
    })
    for (const k of ['mark_price', 'open_interest', 'open_interest_notional', 'fills_in_block', 'prev_day_price'])
      expect(r.body.data).toHaveProperty(k)
  })

  test('an unknown market is 404 {error: "market not found"} on every symbol path', async () => {
    for (const path of ['/api/v1/market/orderbook/NOSUCH', '/api/v1/market/trades/NOSUCH', '/api/v1/markets/NOSUCH/summary']) {
      const r = await hot(path)
      expect(r.status).toBe(404)
      expect(r.body).toEqual({ error: 'market not found' })
    }
  })

  test('getBootstrap: markets, books and the account with its open orders at one height', async () => {
    const r = await rpc.query<{
      height: number
      markets: { symbol: string }[]
      books: { symbol: string; bids: unknown[] }[]
      account: { address: string; balance: string }
      orders: { order_id: number }[]
    }>('getBootstrap', { address: alice.address, symbol: 'BTC', depth: 1 })
    expect(r.data.height).toBe(r.height)
    expect(r.data.markets.map((m) => m.symbol)).toEqual(['BTC-USD', 'ETH-USD', 'SOL-USD', 'XAU-USD'])
    expect(r.data.books.map((b) => [b.symbol, b.bids.length])).toEqual([['BTC-USD', 1]])
    expect(r.data.account.address).toBe(alice.address)
    const orders = (await rpc.query<{ order_id: number }[]>('getAccountOrders', { address: alice.address })).data
    expect(r.data.orders.map((o) => o.order_id)).toEqual(orders.map((o) => o.order_id))
  })
})

describe('hot-read REST in process', () => {
  const routesOver = (feed: HotFeed) => feedRoutes({ feed } as FeedRuntime)
  const get = async (app: ReturnType<typeof feedRoutes>, path: string) => app.handle(new Request(`http://local${path}`))

  test('503 {error: "market feed seeding"} with Retry-After: 2 while the slot is not built', async () => {
    const app = routesOver(new HotFeed(nodeFeedSource({ state: genesisState() })))
    for (const path of [
      '/api/v1/market/orderbook/BTC-USD',
      '/api/v1/bbos',
      '/api/v1/marks',
      '/api/v1/markets',
      '/api/v1/markets/BTC/summary',
    ]) {
      const res = await get(app, path)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('2')
      expect(await res.json()).toEqual({ error: 'market feed seeding' })
    }
  })

  test('stale data is still served with 200 and X-Market-Data-Stale: true', async () => {
    let now = 0
    const feed = new HotFeed(nodeFeedSource({ state: genesisState() }), { now: () => now, staleAfterMs: 5_000 })
    feed.seed()
    const app = routesOver(feed)
    expect((await get(app, '/api/v1/marks')).headers.get('x-market-data-stale')).toBeNull()
    now = 6_000
    const res = await get(app, '/api/v1/marks')
    expect(res.status).toBe(200)
    expect(res.headers.get('x-market-data-stale')).toBe('true')
    expect(((await res.json()) as { stale: boolean }).stale).toBe(true)
  })
})
