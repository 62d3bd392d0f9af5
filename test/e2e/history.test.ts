// End to end on a real node: trades appear in /fills, /orders, /candles, /info and the history
// JSON-RPC methods with the exact fields and values of docs/history-api.md; cursors return every
// row once; blocks, envelopes and transactions; /status watermarks and lags; the status codes of
// docs/errors.md#http-statuses.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cancelOrder, placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { type ActionReply, bodyAs, type EventViewReply, type RpcClient } from '../../src/client/rpc-client.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { getJson, postJson, type Status, waitIndexed, walkCursor } from '../support/history-client.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode } from '../support/node-process.ts'

const BTC = 1
let node: NodeProcess
let rpc: RpcClient
let alice: PerpdClient
let bob: PerpdClient
let statusBefore: Status
/** Alice's resting bid (0.5 at 65000, client id h-1), partly filled by Bob's IOC ask. */
let bidId = 0
let fill1: Extract<EventViewReply, { sub_kind: 'Filled' }>
let fill2: Extract<EventViewReply, { sub_kind: 'Filled' }>
let fill2Tx = ''

function accepted(r: ActionReply) {
  if (r.status !== 'accepted') throw new Error(`expected accepted, got ${JSON.stringify(r)}`)
  return r
}
const filled = (r: ActionReply) => accepted(r).events.find((e) => e.sub_kind === 'Filled')!

beforeAll(async () => {
  node = await startNode({ blockTimeMs: 40, extraArgs: ['--leaderboard-refresh-ms', '200'] })
  rpc = new CheckedRpcClient(node.url)
  alice = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] })
  bob = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[2] })
  statusBefore = await waitIndexed(node.url)
  const bid = accepted(
    await alice.send(
      placeOrder({ market_id: BTC, side: 'Bid', price: '65000', qty: '0.5', tif: 'Gtc', reduce_only: false, client_order_id: 'h-1' }),
    ),
  )
  bidId = bodyAs(bid.events[0]!, 'OrderAccepted').order_id
  fill1 = filled(await bob.send(placeOrder({ market_id: BTC, side: 'Ask', price: '64000', qty: '0.2', tif: 'Ioc', reduce_only: false })))
  accepted(await alice.send(placeOrder({ market_id: BTC, side: 'Ask', price: '66000', qty: '0.1', tif: 'Gtc', reduce_only: false })))
  const close = await bob.send(placeOrder({ market_id: BTC, side: 'Bid', price: '66000', qty: '0.1', tif: 'Ioc', reduce_only: false }))
  fill2 = filled(close)
  fill2Tx = close.tx_hash
  await waitIndexed(node.url, fill2.height)
})

afterAll(async () => {
  await node?.stop()
  removeDir(node.dataDir)
})

describe('fills and orders', () => {
  test('/fills: a taker and a maker row per fill, FillRecord exactly as documented', async () => {
    const r = await getJson(node.url, `/api/v1/fills?account=${bob.address}&include_total=true`)
    expect(r.status).toBe(200)
    expect(r.body.page).toEqual({ offset: 0, limit: 50, total: 2, next_cursor: null, has_more: false })
    expect(r.body.data).toEqual([
      {
        height: fill2.height,
        seq: fill2.seq,
        is_taker: true,
        timestamp_ms: expect.any(Number),
        market_id: BTC,
        order_id: fill2.body.taker_order_id,
        account: bob.address,
        counterparty: alice.address,
        price: '66000',
        qty: '0.1',
        notional: '6600',
        fee: '3.3',
        symbol: 'BTC-USD',
        realized_pnl: '-100',
        realized_pnl_pct: '-1.5384',
        position_action: 'close_short',
      },
      {
        height: fill1.height,
        seq: fill1.seq,
        is_taker: true,
        timestamp_ms: expect.any(Number),
        market_id: BTC,
        order_id: fill1.body.taker_order_id,
        account: bob.address,
        counterparty: alice.address,
        price: '65000',
        qty: '0.2',
        notional: '13000',
        fee: '6.5',
        symbol: 'BTC-USD',
        realized_pnl: '0',
        realized_pnl_pct: '0',
        position_action: 'open_short',
      },
    ])
    const a = await getJson(node.url, `/api/v1/fills?account=${alice.address}`)
    expect(a.body.data.map((f: any) => [f.is_taker, f.order_id, f.fee, f.realized_pnl, f.realized_pnl_pct, f.position_action])).toEqual([
      [false, fill2.body.maker_order_id, '1.32', '100', '1.5384', 'close_long'],
      [false, bidId, '2.6', '0', '0', 'open_long'],
    ])
  })

  test('/orders: lifecycle rows newest first; the open bid shows only with include_open', async () => {
    const closed = await getJson(node.url, `/api/v1/orders?owner=${alice.address}`)
    expect(closed.body.data.some((r: any) => r.order_id === bidId)).toBe(false)
    expect(closed.body.data.map((r: any) => [r.order_id, r.event_type, r.reason])).toEqual([
      [fill2.body.maker_order_id, 'Done', 'Filled'],
      [fill2.body.maker_order_id, 'Resting', null],
      [fill2.body.maker_order_id, 'Accepted', null],
    ])
    const all = await getJson(node.url, `/api/v1/orders?owner=${alice.address}&include_open=true`)
    expect(all.body.data.filter((r: any) => r.order_id === bidId)).toEqual([
      expect.objectContaining({ event_type: 'Resting', side: null, price: null, qty: null, remaining: null, client_order_id: 'h-1' }),
      {
        height: expect.any(Number),
        seq: 0,
        timestamp_ms: expect.any(Number),
        order_id: bidId,
        owner: alice.address,
        market_id: BTC,
        event_type: 'Accepted',
        side: 'Bid',
        price: '65000',
        qty: '0.5',
        remaining: null,
        reason: null,
        symbol: 'BTC-USD',
        client_order_id: 'h-1',
      },
    ])
  })

  test('cursor paging returns every fill row once, and offset above 1000 is 400', async () => {
    const all = (await getJson(node.url, `/api/v1/fills?account=${alice.address}&limit=200`)).body.data
    const walked = await walkCursor(node.url, `/api/v1/fills?account=${alice.address}`, 1)
    expect(walked).toEqual(all)
    expect((await getJson(node.url, `/api/v1/fills?account=${alice.address}&offset=1001`)).status).toBe(400)
    expect((await getJson(node.url, `/api/v1/fills?account=${alice.address}&cursor=nonsense`)).status).toBe(400)
  })

  test('missing required parameters are HTTP 500, malformed ones 400', async () => {
    expect((await getJson(node.url, '/api/v1/fills')).status).toBe(500)
    expect((await getJson(node.url, '/api/v1/orders')).status).toBe(500)
    expect((await getJson(node.url, '/api/v1/fills?account=0x12')).status).toBe(400)
    expect((await getJson(node.url, '/api/v1/blocks/latest/events')).status).toBe(400)
  })
})

describe('candles', () => {
  test('/candles, /info candleSnapshot and getCandles agree on the bucket of both fills', async () => {
    const candles = (await getJson(node.url, '/api/v1/candles?symbol=btc&interval=1h')).body
    expect(candles).toEqual([
      {
        t: expect.any(Number),
        T: expect.any(Number),
        s: 'BTC-USD',
        i: '1h',
        o: '65000',
        c: '66000',
        h: '66000',
        l: '65000',
        v: '0.3',
        n: 2,
      },
    ])
    expect(candles[0].T - candles[0].t).toBe(3_600_000)
    expect(candles[0].t % 3_600_000).toBe(0)
    const info = await postJson(node.url, '/info', {
      type: 'candleSnapshot',
      req: { coin: 'BTC', interval: '1h', startTime: 0, endTime: Date.now() + 60_000 },
    })
    expect(info.body).toEqual(candles)
    const rpcCandles = (await rpc.query<any[]>('getCandles', { symbol: 'BTC-USD', interval_ms: 3_600_000 })).data
    expect(rpcCandles).toEqual([
      {
        open_time_ms: candles[0].t,
        close_time_ms: candles[0].T,
        open: '65000',
        high: '66000',
        low: '65000',
        close: '66000',
        volume: '0.3',
        trades: 2,
      },
    ])
    // An unknown interval is 1h; a range before the fills is empty (buckets are not zero-filled).
    expect((await getJson(node.url, '/api/v1/candles?symbol=BTC-USD&interval=7x')).body).toEqual(candles)
    expect((await getJson(node.url, `/api/v1/candles?symbol=BTC&interval=1m&to=${candles[0].t - 1}`)).body).toEqual([])
    // A length that is none of the 14 is built from the trades of the window.
    const odd = (await rpc.query<any[]>('getCandles', { symbol: 'BTC', interval_ms: 7_000_000 })).data
    expect(odd.reduce((n, c) => n + c.trades, 0)).toBe(2)
  })

  test('unknown symbols: /candles 404, /info [] and an unknown request type 400', async () => {
    expect((await getJson(node.url, '/api/v1/candles?symbol=NOSUCH')).status).toBe(404)
    expect((await postJson(node.url, '/info', { type: 'candleSnapshot', req: { coin: 'NOSUCH', interval: '1m' } })).body).toEqual([])
    const bogus = await postJson(node.url, '/info', { type: 'bogus' })
    expect(bogus).toEqual({ status: 400, body: { error: 'unknown request type: bogus' } })
  })
})

describe('history JSON-RPC methods', () => {
  test('getUserFills carries the taker direction; height is the index watermark', async () => {
    const r = await rpc.query<any[]>('getUserFills', { address: bob.address, symbol: 'BTC' })
    expect(r.height).toBeLessThanOrEqual(r.chain_height)
    expect(r.data[1]).toEqual({
      block_height: fill1.height,
      event_seq: fill1.seq,
      timestamp_ms: expect.any(Number),
      market_id: BTC,
      symbol: 'BTC-USD',
      order_id: fill1.body.taker_order_id,
      price: '65000',
      qty: '0.2',
      notional: '13000',
      fee: '6.5',
      is_taker: true,
      aggressor_side: 'Ask',
      side: 'Ask',
      realized_pnl: '0',
      counterparty: alice.address,
      position_action: 'open_short',
    })
    const since = await rpc.query<any[]>('getUserFillsSince', { address: bob.address, from_block: 0, limit: 1 })
    expect(since.data.map((f) => f.block_height)).toEqual([fill1.height])
    expect(since.page).toMatchObject({ has_more: true })
    const next = await rpc.query<any[]>('getUserFillsSince', { address: bob.address, cursor: (since.page as any).next_cursor })
    expect(next.data.map((f) => f.block_height)).toEqual([fill2.height])
    const deep = await fetch(`${node.url}/api/v1/query`, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getUserFills', params: { address: bob.address, offset: 1001 } }),
    })
    expect(deep.status).toBe(400)
  })

  test('getOrderFills and getOrderStatus: open from the chain, closed from the hot cache', async () => {
    const byId = await rpc.query<any[]>('getOrderFills', { order_id: bidId })
    expect(byId.data.map((f) => [f.qty, f.client_order_id, f.is_taker])).toEqual([['0.2', 'h-1', false]])
    const byCloid = await rpc.query<any[]>('getOrderFills', { address: alice.address, symbol: 'BTC', client_order_id: 'h-1' })
    expect(byCloid.data).toEqual(byId.data)
    const open = (await rpc.query<any>('getOrderStatus', { order_id: bidId })).data
    expect(open).toMatchObject({
      status: 'open',
      source: 'chain',
      order_id: bidId,
      remaining: '0.3',
      filled: '0.2',
      client_order_id: 'h-1',
    })
    const cancelled = accepted(await alice.send(cancelOrder({ market_id: BTC, order_id: bidId })))
    const closed = (await rpc.query<any>('getOrderStatus', { address: alice.address, symbol: 'BTC-USD', client_order_id: 'h-1' })).data
    expect(closed).toMatchObject({
      status: 'closed',
      order_id: bidId,
      close_reason: 'cancelled',
      remaining: '0.3',
      closed_height: cancelled.height,
    })
    await waitIndexed(node.url, cancelled.height)
    const archived = (await rpc.query<any>('getOrderStatus', { order_id: bidId })).data
    expect(archived).toMatchObject({
      status: 'closed',
      side: 'Bid',
      price: '65000',
      qty: '0.5',
      close_reason: 'cancelled',
      placed_height: expect.any(Number),
    })
    expect((await rpc.query<any>('getOrderStatus', { order_id: 999_999 })).data).toMatchObject({ status: 'unknown' })
  })

  test('getRecentTrades (taker side, newest first) and getUserRateLimit', async () => {
    const trades = await rpc.query<any[]>('getRecentTrades', { symbol: 'BTC' })
    expect(trades.data.map((t) => [t.block_height, t.price, t.qty, t.notional, t.side])).toEqual([
      [fill2.height, '66000', '0.1', '6600', 'Bid'],
      [fill1.height, '65000', '0.2', '13000', 'Ask'],
    ])
    const limit = (await rpc.query<any>('getUserRateLimit', { address: bob.address })).data
    expect(limit).toEqual({
      address: bob.address,
      cum_vlm: '19600',
      n_requests_used: 2,
      n_requests_cap: expect.any(Number),
      window_blocks: 10_000,
    })
  })
})

describe('blocks, envelopes, transactions, search', () => {
  test('/blocks newest first with the limit clamped; /blocks/{height|digest} and its events and envelopes', async () => {
    const list = await getJson(node.url, '/api/v1/blocks?limit=500')
    expect(list.body.data.length).toBeLessThanOrEqual(200)
    expect(list.body.page.limit).toBe(200)
    expect(list.body.data[0].height).toBeGreaterThan(list.body.data[1].height)
    const b = (await getJson(node.url, `/api/v1/blocks/${fill2.height}`)).body.data
    expect(b).toMatchObject({ height: fill2.height, envelope_count: 1, envelopes: [] })
    expect((await getJson(node.url, `/api/v1/blocks/${b.digest}`)).body.data).toEqual(b)
    const events = (await getJson(node.url, `/api/v1/blocks/${fill2.height}/events`)).body.data
    expect(events.map((e: any) => e.sub_kind)).toEqual(['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'])
    expect(events[1]).toEqual(fill2)
    const envelopes = (await getJson(node.url, `/api/v1/blocks/${fill2.height}/envelopes`)).body.data
    expect(envelopes).toEqual([
      expect.objectContaining({
        tx_hash: fill2Tx,
        signer: bob.address,
        status: 'accepted',
        action_kind: 'PlaceOrder',
        market_id: BTC,
        symbol: 'BTC-USD',
        reason: null,
      }),
    ])
    expect((await getJson(node.url, '/api/v1/blocks/999999999')).status).toBe(404)
  })

  test('/envelopes filters, newest first; /tx/{hash} with its events and source local', async () => {
    const mine = await getJson(node.url, `/api/v1/envelopes?signer=${bob.address}&action_kind=PlaceOrder&include_total=true`)
    expect(mine.body.page.total).toBe(2)
    expect(mine.body.data[0].tx_hash).toBe(fill2Tx)
    const ranged = await getJson(node.url, `/api/v1/envelopes?from_block=${fill2.height}&to_block=${fill2.height}`)
    expect(ranged.body.data.map((e: any) => e.tx_hash)).toEqual([fill2Tx])
    const tx = await getJson(node.url, `/api/v1/tx/${fill2Tx}`)
    expect(tx.body.source).toBe('local')
    expect(tx.body.data).toMatchObject({ tx_hash: fill2Tx, height: fill2.height, action: { PlaceOrder: expect.any(Object) } })
    expect(tx.body.data.events[1]).toEqual(fill2)
    expect((await getJson(node.url, `/api/v1/tx/0x${'ab'.repeat(32)}`)).status).toBe(404)
  })

  test('/search finds a height, a tx hash and an account', async () => {
    expect((await getJson(node.url, `/api/v1/search?q=${fill2.height}`)).body.data).toEqual([
      expect.objectContaining({ type: 'block', height: fill2.height }),
    ])
    expect((await getJson(node.url, `/api/v1/search?q=${fill2Tx}`)).body.data).toEqual([
      expect.objectContaining({ type: 'tx', tx_hash: fill2Tx }),
    ])
    expect((await getJson(node.url, `/api/v1/search?q=${bob.address}`)).body.data).toEqual([
      expect.objectContaining({ type: 'account', address: bob.address, fills: 2 }),
    ])
  })

  test('/chain/account and /chain/open-orders read the live chain', async () => {
    const acct = await getJson(node.url, `/api/v1/chain/account?address=${bob.address}`)
    expect(acct.body.data).toMatchObject({ positions: { [BTC]: expect.objectContaining({ size: '-0.1' }) } })
    const orders = await getJson(node.url, `/api/v1/chain/open-orders?address=${alice.address}`)
    expect(orders.body.data).toEqual([])
  })
})

describe('status and stats', () => {
  test('/status: every field; watermarks move with the chain and the lags return to 0', async () => {
    const s = await waitIndexed(node.url)
    expect(Object.keys(s)).toEqual([
      'watermark',
      'block_count',
      'node_tip',
      'behind',
      'envelope_total',
      'derive_watermark',
      'derive_lag_blocks',
      'derive_index_version',
      'candle_watermark',
      'candle_lag_blocks',
      'stats_watermark',
      'stats_lag_blocks',
      'hot_feed',
      'markets',
    ])
    expect(s.watermark!).toBeGreaterThan(statusBefore.watermark ?? 0)
    expect(s.behind).toBe(s.node_tip! - s.watermark!)
    expect(s.block_count).toBe(s.watermark!)
    expect(s.envelope_total).toBe(5)
    expect(s.derive_lag_blocks).toBe(s.watermark! - s.derive_watermark!)
    expect(s.derive_index_version).toBe('2')
    expect(s.hot_feed).toEqual({
      native_ready: expect.any(Boolean),
      ext_ready: expect.any(Boolean),
      stale: expect.any(Boolean),
      chain_height: expect.any(Number),
      book_updated_at_ms: expect.any(Number),
    })
    expect(s.markets).toEqual({ native: 3, external_peg: 1 })
  })

  test('/account-stats and the /leaderboard snapshot (refreshed every 200 ms of block time here)', async () => {
    const stats = (await getJson(node.url, `/api/v1/account-stats?account=${bob.address}`)).body.data
    expect(stats).toMatchObject({ fills: 2, taker_fills: 2, volume: '19600', fees: '9.8', realized_pnl: '-100', losing_closes: 1 })
    let board: any
    for (let i = 0; i < 80; i++) {
      board = (await getJson(node.url, '/api/v1/leaderboard?metric=pnl&period=all')).body
      if ((board.meta.as_of_height ?? 0) >= fill2.height) break
      await Bun.sleep(100)
    }
    expect(board.meta).toMatchObject({ as_of_timestamp_ms: expect.any(Number), source: 'snapshot', metric: 'pnl', period: 'all' })
    expect(board.data.map((r: any) => [r.rank, r.account, r.value])).toEqual([
      [1, alice.address, '100'],
      [2, bob.address, '-100'],
    ])
  })
})
