// End to end on a real node: every read method of the markets, trigger, feed and history areas
// against real trading (fills on a native book, fills against Book B at an oracle quote, a fired
// trigger, an OCO bracket armed by its parent's fill). The read client checks every reply against
// the method's result schema, so each call here also proves the schema; the assertions check values.
import { beforeAll, describe, expect, test } from 'bun:test'
import { cancelOrder, placeOcoPair, placeOrder, placeTriggerOrder, submitOracleQuote } from '../../src/client/actions.ts'
import { bodyAs } from '../../src/client/rpc-client.ts'
import { DEV_ADMIN } from '../../src/node/dev-genesis.ts'
import { accepted, keptRejectReason, orderIdOf, startDevNodeForFile } from '../support/dev-node.ts'
import { waitIndexed } from '../support/history-client.ts'
import { until } from '../support/poll.ts'

const BTC = 1
const ETH = 2
const SOL = 3
const BOOK_B = '0x00000000000000000000000000000000000000bb'

const { node, rpc, client } = await startDevNodeForFile({ blockTimeMs: 40 })
const alice = client(1)
const bob = client(2)
const carol = client(3)
const dave = client(4)
const quoter = client(7)

/** Alice's resting BTC bid (0.5 at 65000, client id mr-1), 0.2 of it filled by Bob's IOC ask. */
let aliceBid = 0
let bobIoc = 0
let btcFillHeight = 0

const data = async <T>(method: string, params: Record<string, unknown> = {}) => (await rpc.query<T>(method, params)).data

beforeAll(async () => {
  const bid = await alice.send(
    placeOrder({ market_id: BTC, side: 'Bid', price: '65000', qty: '0.5', tif: 'Gtc', reduce_only: false, client_order_id: 'mr-1' }),
  )
  aliceBid = orderIdOf(bid)
  const take = await bob.send(placeOrder({ market_id: BTC, side: 'Ask', price: '64000', qty: '0.2', tif: 'Ioc', reduce_only: false }))
  bobIoc = orderIdOf(take)
  btcFillHeight = accepted(take).height
  accepted(await alice.send(placeOrder({ market_id: BTC, side: 'Ask', price: '66000', qty: '0.1', tif: 'Gtc', reduce_only: false })))
})

describe('native market reads', () => {
  test('detail, summary, settings, BBOs, marks and the list agree on the book and the fill', async () => {
    const detail = await data<Record<string, unknown>>('getMarketById', { market_id: BTC })
    expect(detail).toMatchObject({
      market_id: BTC,
      symbol: 'BTC-USD',
      routing: 'native',
      lifecycle: 'Active',
      halt_reason: null,
      emergency_halt: false,
      best_bid: '65000',
      best_ask: '66000',
      last_trade_price: '65000',
      open_orders: 2,
      open_interest: '0.2',
      delist_requested_at_ms: null,
      latest_quote: null,
      initial_margin_bps: 200,
      maintenance_margin_bps: 100,
    })
    expect(await data('getMarket', { symbol: 'btc' })).toEqual(detail)

    const summary = await until(
      'the feed to count the fill',
      () => data<Record<string, unknown>>('getMarketSummary', { market_id: BTC }),
      (s) => s.day_base_volume === '0.2',
    )
    expect(summary).toMatchObject({
      market_id: BTC,
      symbol: 'BTC-USD',
      mark_price: detail.mark_price,
      best_bid: '65000',
      best_ask: '66000',
      spread: '1000',
      bid_levels: 1,
      ask_levels: 1,
      open_orders: 2,
      open_interest: '0.2',
      day_ntl_volume: '13000',
      day_base_volume: '0.2',
    })

    expect(await data('getMarketSettings', { symbol: 'BTC' })).toEqual({
      market_id: BTC,
      symbol: 'BTC-USD',
      routing: 'native',
      price_decimals: 1,
      size_decimals: 4,
      maker_fee_bps: 2,
      taker_fee_bps: 5,
      max_leverage: 50,
      initial_margin_bps: 200,
      maintenance_margin_bps: 100,
      liquidation_penalty_bps: expect.any(Number),
      min_order_qty: '0.0001',
      fee_recipient: DEV_ADMIN,
      max_fills_per_quote: 16,
      max_quote_lag_ms: expect.any(Number),
      min_quote_interval_ms: expect.any(Number),
      max_quote_change_bps: expect.any(Number),
      min_quote_price: expect.any(String),
      max_quote_price: expect.any(String),
      max_quote_spread_bps: expect.any(Number),
    })

    const bbos = await data<{ symbol: string; bid: string | null; ask: string | null; spread: string | null }[]>('getAllBBOs')
    expect(bbos.find((b) => b.symbol === 'BTC-USD')).toEqual({ symbol: 'BTC-USD', bid: '65000', ask: '66000', spread: '1000' })
    expect(bbos.find((b) => b.symbol === 'SOL-USD')).toEqual({ symbol: 'SOL-USD', bid: null, ask: null, spread: null })

    const list = await data<{ symbol: string; mark_price: string; open_interest: string; open_interest_notional: string }[]>('getMarkets')
    expect(list.map((m) => m.symbol)).toEqual(['BTC-USD', 'ETH-USD', 'SOL-USD', 'XAU-USD'])
    const btc = list[0]!
    expect(btc.open_interest).toBe('0.2')
    expect(Number(btc.open_interest_notional)).toBe(Number(btc.mark_price) * 0.2)
    const marks = await data<Record<string, string>>('getAllMarks')
    expect(Object.keys(marks).sort()).toEqual(['BTC-USD', 'ETH-USD', 'SOL-USD', 'XAU-USD'])
    expect(marks['BTC-USD']).toBe(btc.mark_price)
  })
})

describe('external-peg market reads', () => {
  test('the oracle quote: none on a native market; stale-halted, resumed, rejected and filled against on XAU', async () => {
    expect(await data('getOracleQuote', { symbol: 'BTC' })).toMatchObject({
      market_id: BTC,
      routing: 'native',
      quote: null,
      consecutive_rejects: 0,
    })
    // Genesis time is long past, so XAU's first block found no fresh quote and halted it.
    const stale = await data<Record<string, unknown>>('getOracleQuote', { symbol: 'XAU-USD' })
    expect(stale).toEqual({
      market_id: 4,
      symbol: 'XAU-USD',
      routing: 'external_peg',
      lifecycle: 'Halted',
      halt_reason: 'QuoteStale',
      quote: null,
      consecutive_rejects: 0,
      max_fills_per_quote: 16,
      max_quote_lag_ms: 10_000,
      min_quote_interval_ms: 100,
      max_quote_change_bps: 500,
      min_quote_price: '100',
      max_quote_price: '100000',
      max_quote_spread_bps: 200,
    })

    const sourceTs = Date.now()
    const q = accepted(
      await quoter.send(
        submitOracleQuote([{ symbol: 'XAU-USD', bid_price: '2399', ask_price: '2401', mark_price: '2400', source_ts_ms: sourceTs }]),
      ),
    )
    expect(
      keptRejectReason(
        await quoter.send(
          submitOracleQuote([
            { symbol: 'XAU-USD', bid_price: '2399', ask_price: '2401', mark_price: '2400', source_ts_ms: Date.now() + 60_000 },
          ]),
        ),
      ),
    ).toBe('QuoteSourceTooFuture')
    const quoted = await data<{
      lifecycle: string
      halt_reason: string | null
      consecutive_rejects: number
      quote: Record<string, unknown>
    }>('getOracleQuote', { market_id: 4 })
    expect(quoted).toMatchObject({ lifecycle: 'Active', halt_reason: null, consecutive_rejects: 1 })
    expect(quoted.quote).toEqual({
      bid_price: '2399',
      ask_price: '2401',
      mark_price: '2400',
      source_ts_ms: sourceTs,
      accepted_height: q.height,
      accepted_at_ms: expect.any(Number),
      lag_ms: expect.any(Number),
      fresh: true,
      fills_on_quote: 0,
      last_price: null,
      volume: null,
    })

    // Alice buys 0.5 at the ask and Bob sells 1 at the bid against Book B: traders are net short;
    // Book B closed its short 0.5 at 2 better (PnL 1) and holds a long 0.5 at 2399 (uPnL 0.5 at 2400).
    accepted(await alice.send(placeOrder({ market_id: 4, side: 'Bid', price: '2500', qty: '0.5', tif: 'Ioc', reduce_only: false })))
    accepted(await bob.send(placeOrder({ market_id: 4, side: 'Ask', price: '2300', qty: '1', tif: 'Ioc', reduce_only: false })))
    expect((await data<{ quote: { fills_on_quote: number } }>('getOracleQuote', { symbol: 'XAU' })).quote.fills_on_quote).toBe(2)
    expect(await data('getMarketStats', { symbol: 'XAU' })).toEqual({
      market_id: 4,
      symbol: 'XAU-USD',
      long_size: '0.5',
      short_size: '1',
      net_size: '-0.5',
      oracle_counter_pnl: '1.5',
      open_interest: '1',
      open_interest_notional: '2400',
      fills_in_block: expect.any(Number),
      block_height: expect.any(Number),
    })
    expect(await data('getMarket', { symbol: 'XAU' })).toMatchObject({
      routing: 'external_peg',
      best_bid: '2399',
      best_ask: '2401',
      mark_price: '2400',
      latest_quote: { fresh: true },
    })
    const bbos = await data<Record<string, unknown>[]>('getAllBBOs')
    expect(bbos.find((b) => b.symbol === 'XAU-USD')).toEqual({ symbol: 'XAU-USD', bid: '2399', ask: '2401', spread: '2' })
    expect(await data('getMarketSummary', { symbol: 'XAU' })).toMatchObject({ bid_levels: 1, ask_levels: 1, open_orders: 0, spread: '2' })

    // The audit log: the chain's stale halt (the block producer's marker as signer, no account) and the quoter's resume.
    const audit = await data<{ signer: string; event: { sub_kind: string; account: string | null } }[]>('getAdminAuditLog', {
      start_time_ms: 0,
    })
    expect(audit.find((e) => e.event.sub_kind === 'MarketHaltedQuoteStale')).toMatchObject({
      signer: '0x0000000000000000000000000000000000000000',
      event: { account: null },
    })
    expect(audit.find((e) => e.event.sub_kind === 'MarketResumedAfterQuote')).toMatchObject({
      signer: quoter.address,
      event: { account: quoter.address },
    })
    expect(await data('getAdminAuditLog', { signer: DEV_ADMIN })).toEqual([])
  })
})

describe('trigger reads', () => {
  test('a limit trigger with an expiry, and a bracket waiting for its parent then armed by its fill', async () => {
    const expiresAt = Date.now() + 3_600_000
    const stop = accepted(
      await alice.send(
        placeTriggerOrder({
          market_id: ETH,
          side: 'Ask',
          qty: '0.1',
          trigger_price: '3000',
          trigger_direction: 'Below',
          order_type: 'limit',
          limit_price: '2990',
          tif: 'Gtc',
          reduce_only: false,
          client_order_id: 'mr-stop',
          expires_at_ms: expiresAt,
        }),
      ),
    )
    const stopId = bodyAs(stop.events[0]!, 'TriggerPlaced').trigger_id
    expect(await data('getTriggerOrders', { address: alice.address, market_id: ETH })).toEqual([
      {
        trigger_id: stopId,
        market_id: ETH,
        symbol: 'ETH-USD',
        side: 'Ask',
        order_type: 'limit',
        qty: '0.1',
        trigger_price: '3000',
        trigger_direction: 'Below',
        limit_price: '2990',
        tif: 'Gtc',
        reduce_only: false,
        client_order_id: 'mr-stop',
        expires_at_ms: expiresAt,
        pair_id: null,
        tx_hash: stop.tx_hash,
        placed_height: stop.height,
      },
    ])

    const parent = orderIdOf(
      await alice.send(placeOrder({ market_id: ETH, side: 'Bid', price: '3400', qty: '0.2', tif: 'Gtc', reduce_only: false })),
    )
    const placed = accepted(
      await alice.send(
        placeOcoPair({
          market_id: ETH,
          side: 'Ask',
          qty: '0.2',
          limit_price: '3800',
          stop: { trigger_price: '3200', trigger_direction: 'Below', order_type: 'market' },
          reduce_only: true,
          client_pair_id: 7,
          parent_order_id: parent,
        }),
      ),
    )
    const waiting = await data<Record<string, unknown>[]>('getOcoPairs', { address: alice.address, symbol: 'ETH' })
    expect(waiting).toEqual([
      {
        pair_id: expect.any(Number),
        client_pair_id: 7,
        market_id: ETH,
        symbol: 'ETH-USD',
        status: 'waiting',
        side: 'Ask',
        qty: '0.2',
        limit_price: '3800',
        stop: { trigger_price: '3200', trigger_direction: 'Below', order_type: 'market', limit_price: null, expires_at_ms: null },
        reduce_only: true,
        parent_order_id: parent,
        limit_order_id: null,
        stop_trigger_id: null,
        tx_hash: placed.tx_hash,
        placed_height: placed.height,
      },
    ])
    expect(await data('getOcoPairs', { address: alice.address, symbol: 'BTC' })).toEqual([])

    accepted(await bob.send(placeOrder({ market_id: ETH, side: 'Ask', price: '3400', qty: '0.2', tif: 'Ioc', reduce_only: false })))
    const [armed] = await data<{ status: string; limit_order_id: number; stop_trigger_id: number }[]>('getOcoPairs', {
      address: alice.address,
    })
    // Read before toMatchObject, which in Bun writes its expect.any matchers into the object it checks.
    const armedStopId = armed!.stop_trigger_id
    expect(typeof armedStopId).toBe('number')
    expect(armed).toMatchObject({
      pair_id: waiting[0]!.pair_id,
      status: 'armed',
      limit_order_id: expect.any(Number),
      stop_trigger_id: expect.any(Number),
    })
    const triggers = await data<{ trigger_id: number }[]>('getTriggerOrders', { address: alice.address })
    expect(triggers.map((t) => t.trigger_id)).toEqual([stopId, armedStopId])
    expect(triggers[1]).toMatchObject({
      order_type: 'market',
      limit_price: null,
      tif: 'Ioc',
      reduce_only: true,
      pair_id: waiting[0]!.pair_id,
      expires_at_ms: null,
    })
    expect(await data('getTriggerOrders', { address: carol.address })).toEqual([])
  })
})

describe('getBootstrap', () => {
  test('without an address: every book, no account; with one: its account, positions and open orders', async () => {
    const bare = await rpc.query<{ height: number; markets: unknown[]; books: { symbol: string }[]; account: null; orders: unknown[] }>(
      'getBootstrap',
    )
    expect(bare.data.height).toBe(bare.height)
    expect(bare.data.books.map((b) => b.symbol)).toEqual(['BTC-USD', 'ETH-USD', 'SOL-USD', 'XAU-USD'])
    expect(bare.data).toMatchObject({ account: null, orders: [] })

    const r = await data<{
      books: unknown[]
      account: { address: string; positions: Record<string, { size: string }> }
      orders: { order_id: number; market_id: number }[]
    }>('getBootstrap', { address: alice.address, market_id: BTC, depth: 1 })
    expect(r.books).toEqual([
      {
        market_id: BTC,
        symbol: 'BTC-USD',
        height: expect.any(Number),
        bids: [{ price: '65000', qty: '0.3', cumulative_qty: '0.3', orders: 1 }],
        asks: [{ price: '66000', qty: '0.1', cumulative_qty: '0.1', orders: 1 }],
      },
    ])
    expect(r.account.address).toBe(alice.address)
    expect(r.account.positions[String(BTC)]).toMatchObject({ size: '0.2' })
    expect(r.account.positions[String(4)]).toMatchObject({ size: '0.5' })
    expect(r.orders.map((o) => o.market_id)).toEqual([BTC, BTC, ETH])
    expect(r.orders[0]).toMatchObject({ order_id: aliceBid, remaining: '0.3', filled: '0.2', client_order_id: 'mr-1' })
  })
})

describe('history reads', () => {
  /** A fired market trigger: Alice's stop buys SOL when trading lifts the mark to 151. */
  let firedTrigger = 0

  beforeAll(async () => {
    accepted(await dave.send(placeOrder({ market_id: SOL, side: 'Bid', price: '140', qty: '0.01', tif: 'Gtc', reduce_only: false })))
    accepted(await carol.send(placeOrder({ market_id: SOL, side: 'Ask', price: '152', qty: '1', tif: 'Gtc', reduce_only: false })))
    const t = accepted(
      await alice.send(
        placeTriggerOrder({
          market_id: SOL,
          side: 'Bid',
          qty: '1',
          trigger_price: '151',
          trigger_direction: 'Above',
          order_type: 'market',
          reduce_only: false,
        }),
      ),
    )
    firedTrigger = bodyAs(t.events[0]!, 'TriggerPlaced').trigger_id
    // A trade at 151 with the book at 140 / 152: the mark (median of bid, ask and trade) is 151.
    accepted(await dave.send(placeOrder({ market_id: SOL, side: 'Ask', price: '151', qty: '0.01', tif: 'Gtc', reduce_only: false })))
    accepted(await bob.send(placeOrder({ market_id: SOL, side: 'Bid', price: '151', qty: '0.01', tif: 'Ioc', reduce_only: false })))
    await until(
      'the trigger to fire',
      () => data<unknown[]>('getTriggerOrders', { address: alice.address, market_id: SOL }),
      (ts) => ts.length === 0,
    )
    await waitIndexed(node.url)
  })

  test('getCandles: a stored interval and another length agree on the one BTC fill', async () => {
    const [minute] = await data<{ open_time_ms: number }[]>('getCandles', { market_id: BTC, interval_ms: 60_000 })
    expect(minute as unknown).toEqual({
      open_time_ms: expect.any(Number),
      close_time_ms: minute!.open_time_ms + 60_000,
      open: '65000',
      high: '65000',
      low: '65000',
      close: '65000',
      volume: '0.2',
      trades: 1,
    })
    const odd = await data<Record<string, unknown>[]>('getCandles', {
      symbol: 'BTC',
      interval_ms: 90_000,
      start_time_ms: 0,
      end_time_ms: Date.now() + 60_000,
    })
    expect(odd).toEqual([
      {
        open_time_ms: expect.any(Number),
        close_time_ms: (odd[0]!.open_time_ms as number) + 90_000,
        open: '65000',
        high: '65000',
        low: '65000',
        close: '65000',
        volume: '0.2',
        trades: 1,
      },
    ])
    expect(await data('getCandles', { symbol: 'SOL', interval_ms: 60_000, end_time_ms: 1 })).toEqual([])
  })

  test("getUserFills: the fired trigger's fill names it; getUserFillsSince pages oldest first; getOrderFills by client id", async () => {
    const sol = await data<Record<string, unknown>[]>('getUserFills', { address: alice.address, market_id: SOL })
    expect(sol).toEqual([
      {
        block_height: expect.any(Number),
        event_seq: expect.any(Number),
        timestamp_ms: expect.any(Number),
        market_id: SOL,
        symbol: 'SOL-USD',
        order_id: expect.any(Number),
        price: '152',
        qty: '1',
        notional: '152',
        fee: '0.076',
        is_taker: true,
        aggressor_side: 'Bid',
        side: 'Bid',
        realized_pnl: '0',
        counterparty: carol.address,
        position_action: 'open_long',
        trigger_id: firedTrigger,
      },
    ])

    const all = await data<{ block_height: number; market_id: number }[]>('getUserFills', { address: alice.address })
    expect(all.map((f) => f.market_id)).toEqual([SOL, ETH, 4, BTC])
    const first = await rpc.query<{ market_id: number }[]>('getUserFillsSince', { address: alice.address, from_block: 0, limit: 2 })
    expect(first.data.map((f) => f.market_id)).toEqual([BTC, 4])
    expect(first.page).toMatchObject({ has_more: true })
    const rest = await data<{ market_id: number }[]>('getUserFillsSince', {
      address: alice.address,
      cursor: (first.page as { next_cursor: string }).next_cursor,
    })
    expect(rest.map((f) => f.market_id)).toEqual([ETH, SOL])

    const byCloid = await data('getOrderFills', { address: alice.address, symbol: 'BTC', client_order_id: 'mr-1' })
    expect(byCloid).toEqual([
      {
        block_height: btcFillHeight,
        event_seq: expect.any(Number),
        timestamp_ms: expect.any(Number),
        market_id: BTC,
        symbol: 'BTC-USD',
        order_id: aliceBid,
        client_order_id: 'mr-1',
        price: '65000',
        qty: '0.2',
        notional: '13000',
        fee: '2.6',
        is_taker: false,
        aggressor_side: 'Ask',
        side: 'Bid',
        realized_pnl: '0',
        counterparty: bob.address,
        position_action: 'open_long',
      },
    ])
    const bookB = await data<{ counterparty: string }[]>('getUserFills', { address: bob.address, symbol: 'XAU' })
    expect(bookB.map((f) => [f.counterparty])).toEqual([[BOOK_B]])
  })

  test('getOrderStatus: open on the chain, closed from the hot cache, unknown', async () => {
    expect(await data('getOrderStatus', { order_id: aliceBid })).toMatchObject({
      status: 'open',
      source: 'chain',
      owner: alice.address,
      order_id: aliceBid,
      remaining: '0.3',
      filled: '0.2',
      client_order_id: 'mr-1',
      close_reason: null,
    })
    expect(await data('getOrderStatus', { order_id: bobIoc })).toEqual({
      status: 'closed',
      source: 'hot_cache',
      owner: bob.address,
      order_id: bobIoc,
      market_id: BTC,
      symbol: 'BTC-USD',
      side: 'Ask',
      price: '64000',
      qty: '0.2',
      remaining: '0',
      filled: '0.2',
      tif: 'Ioc',
      reduce_only: false,
      client_order_id: null,
      trigger_id: null,
      placed_height: btcFillHeight,
      close_reason: 'filled',
      closed_height: btcFillHeight,
      closed_timestamp_ms: expect.any(Number),
    })
    const cancelled = accepted(await alice.send(cancelOrder({ market_id: BTC, order_id: aliceBid })))
    expect(await data('getOrderStatus', { address: alice.address, symbol: 'BTC', client_order_id: 'mr-1' })).toMatchObject({
      status: 'closed',
      order_id: aliceBid,
      close_reason: 'cancelled',
      remaining: '0.3',
      closed_height: cancelled.height,
    })
    expect(await data('getOrderStatus', { address: alice.address, symbol: 'BTC', client_order_id: 'nope' })).toEqual({
      status: 'unknown',
      source: null,
      order_id: null,
    })
  })

  test('getRecentTrades of every market newest first; getUserRateLimit counts volume and envelopes', async () => {
    const trades = await data<{ block_height: number; event_seq: number; symbol: string; price: string; side: string }[]>(
      'getRecentTrades',
      {},
    )
    const keys = trades.map((t) => t.block_height * 1e6 + t.event_seq)
    expect(keys).toEqual([...keys].sort((a, b) => b - a))
    expect(trades.map((t) => [t.symbol, t.price, t.side])).toEqual([
      ['SOL-USD', '152', 'Bid'],
      ['SOL-USD', '151', 'Bid'],
      ['ETH-USD', '3400', 'Ask'],
      ['XAU-USD', '2399', 'Ask'],
      ['XAU-USD', '2401', 'Bid'],
      ['BTC-USD', '65000', 'Ask'],
    ])
    const limit = await data('getUserRateLimit', { address: bob.address })
    // Bob: 0.2 BTC at 65000, 1 XAU at 2399, 0.2 ETH at 3400, 0.01 SOL at 151, in four envelopes.
    expect(limit).toEqual({ address: bob.address, cum_vlm: '16080.51', n_requests_used: 4, n_requests_cap: 2_000, window_blocks: 10_000 })
  })
})
