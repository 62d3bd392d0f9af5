// The hot feed on the real state machine: every block's stored form (events with decimal-string
// bodies) moves the feed's books, trades, candles, counters and per-account rows, and the books
// always equal the chain's own books.
import { describe, expect, test } from 'bun:test'
import { type Action, ALICE, BOB, BTC, CAROL, ETH, place, Rng, SOL, TestChain, XAU } from '../../test/support/chain/test-chain.ts'
import { FeedHarness } from '../../test/support/feed.ts'
import { DEV_QUOTER } from '../node/dev-genesis.ts'

const orderIdOf = (h: FeedHarness, by: string, action: Action): number => {
  const { delta } = h.block([{ by, action }])
  return delta.orderUpdates.get(by)!.find((u) => u.kind === 'accepted')!.order_id
}

describe('hot feed', () => {
  test('seeding reads the resting orders once; later blocks keep the books equal to the chain', () => {
    const chain = new TestChain()
    chain.ok(ALICE, place(BTC, 'Bid', '64000', '0.5', { cloid: 'a1' }))
    chain.ok(BOB, place(BTC, 'Ask', '66000', '0.25'))
    const h = new FeedHarness(chain)
    h.expectBooksMatchChain()
    expect(h.feed.height).toBe(2)
    const fm = h.feed.resolve('btc')!
    expect(h.feed.orderbook(fm, 50)).toMatchObject({
      symbol: 'BTC-USD',
      height: 2,
      bids: [{ price: '64000', qty: '0.5', cumulative_qty: '0.5' }],
      asks: [{ price: '66000', qty: '0.25', cumulative_qty: '0.25' }],
    })
    h.send(CAROL, place(BTC, 'Ask', '64000', '0.2', { tif: 'Ioc' }))
    h.expectBooksMatchChain()
    expect(h.feed.orderbook(fm, 50).bids).toEqual([{ price: '64000', qty: '0.3', cumulative_qty: '0.3' }])
  })

  test('a fill: trade row, user fill rows with client ids, order updates with exactly their fields', () => {
    const h = new FeedHarness()
    const bidId = orderIdOf(h, ALICE, place(BTC, 'Bid', '65000', '0.5', { cloid: 'maker-1' }))
    const { delta } = h.block([{ by: BOB, action: place(BTC, 'Ask', '64000', '0.2', { tif: 'Ioc', cloid: 'taker-1' }) }])
    const height = h.feed.height
    const ts = h.feed.timestampMs
    expect(delta.trades.get(BTC)).toEqual([
      {
        block_height: height,
        event_seq: 1,
        timestamp_ms: ts,
        market_id: BTC,
        symbol: 'BTC-USD',
        price: '65000',
        qty: '0.2',
        notional: '13000',
        side: 'Ask',
      },
    ])
    expect([...delta.booksChanged]).toEqual([BTC])
    expect(delta.bboChanged.has(BTC)).toBe(true)
    expect(delta.userFills.get(BOB)).toEqual([
      {
        block_height: height,
        event_seq: 1,
        timestamp_ms: ts,
        market_id: BTC,
        symbol: 'BTC-USD',
        order_id: bidId + 1,
        client_order_id: 'taker-1',
        price: '65000',
        qty: '0.2',
        notional: '13000',
        fee: '6.5',
        is_taker: true,
        aggressor_side: 'Ask',
      },
    ])
    expect(delta.userFills.get(ALICE)).toEqual([
      {
        block_height: height,
        event_seq: 1,
        timestamp_ms: ts,
        market_id: BTC,
        symbol: 'BTC-USD',
        order_id: bidId,
        client_order_id: 'maker-1',
        price: '65000',
        qty: '0.2',
        notional: '13000',
        fee: '2.6',
        is_taker: false,
        aggressor_side: 'Ask',
      },
    ])
    expect(delta.orderUpdates.get(BOB)).toEqual([
      {
        block_height: height,
        event_seq: 0,
        order_id: bidId + 1,
        market_id: BTC,
        symbol: 'BTC-USD',
        kind: 'accepted',
        remaining: '0.2',
        side: 'Ask',
        price: '64000',
        qty: '0.2',
        tif: 'Ioc',
      },
      {
        block_height: height,
        event_seq: 2,
        order_id: bidId + 1,
        market_id: BTC,
        symbol: 'BTC-USD',
        kind: 'done',
        remaining: '0',
        reason: 'Filled',
      },
    ])
    expect(delta.touched.has(ALICE) && delta.touched.has(BOB)).toBe(true)
    const fm = h.feed.market(BTC)!
    expect(h.feed.summary(fm)).toMatchObject({
      symbol: 'BTC-USD',
      best_bid: '65000',
      best_ask: null,
      spread: null,
      fills_in_block: 1,
      bid_levels: 1,
      ask_levels: 0,
      open_orders: 1,
      day_ntl_volume: '13000',
      day_base_volume: '0.2',
    })
    expect(fm.trades.page(0, 10)).toHaveLength(1)
    expect(h.feed.currentCandle(fm, '1m')).toMatchObject({ s: 'BTC-USD', i: '1m', o: '65000', c: '65000', v: '0.2', n: 1 })
    h.expectBooksMatchChain()
  })

  test('per-account rows only for the accounts someone watches; the books and trades whatever is watched', () => {
    const watching = (addresses: readonly string[], accounts: boolean) => ({
      accounts: () => accounts,
      orderUpdates: (a: string) => addresses.includes(a),
      triggerUpdates: (a: string) => addresses.includes(a),
      userFills: (a: string) => addresses.includes(a),
    })
    const watched = new FeedHarness()
    const all = new FeedHarness()
    const maker = [{ by: ALICE, action: place(BTC, 'Bid', '65000', '0.5', { cloid: 'maker-1' }) }]
    const taker = [{ by: BOB, action: place(BTC, 'Ask', '64000', '0.2', { tif: 'Ioc', cloid: 'taker-1' }) }]

    const nobody = watched.block(maker, { interest: watching([], false) }).delta
    const everyone = all.block(maker).delta
    expect([nobody.orderUpdates.size, nobody.triggerUpdates.size, nobody.userFills.size, nobody.touched.size]).toEqual([0, 0, 0, 0])
    expect(everyone.orderUpdates.get(ALICE)!.length).toBeGreaterThan(0)
    expect(everyone.touched.has(ALICE)).toBe(true)

    // Only Bob watched, with an account topic somewhere: his rows are the unfiltered ones, Alice's are left out.
    const bobOnly = watched.block(taker, { interest: watching([BOB], true) }).delta
    const unfiltered = all.block(taker).delta
    expect(bobOnly.orderUpdates.get(BOB)).toEqual(unfiltered.orderUpdates.get(BOB))
    expect(bobOnly.userFills.get(BOB)).toEqual(unfiltered.userFills.get(BOB))
    expect(bobOnly.orderUpdates.has(ALICE)).toBe(false)
    // A fill's rows come for both sides once either side is watched (the maker's row names its client id).
    expect(bobOnly.userFills.get(ALICE)).toEqual(unfiltered.userFills.get(ALICE))
    expect([...bobOnly.touched].sort()).toEqual([...unfiltered.touched].sort())
    expect(bobOnly.trades).toEqual(unfiltered.trades)
    expect(watched.feed.orderbook(watched.feed.resolve('btc')!, 50)).toEqual(all.feed.orderbook(all.feed.resolve('btc')!, 50))
    watched.expectBooksMatchChain()
  })

  test('resting rows carry reduce_only and client_order_id; a cancel is done with reason Cancelled', () => {
    const h = new FeedHarness()
    const { delta } = h.block([{ by: ALICE, action: place(ETH, 'Ask', '3600', '1', { cloid: 'c-9' }) }])
    const [accepted, resting] = delta.orderUpdates.get(ALICE)!
    expect(Object.keys(accepted!)).toEqual([
      'block_height',
      'event_seq',
      'order_id',
      'market_id',
      'symbol',
      'kind',
      'remaining',
      'side',
      'price',
      'qty',
      'tif',
    ])
    expect(resting).toMatchObject({
      kind: 'resting',
      remaining: '1',
      side: 'Ask',
      price: '3600',
      qty: '1',
      tif: 'Gtc',
      reduce_only: false,
      client_order_id: 'c-9',
    })
    const cancelled = h.send(ALICE, { CancelOrder: { market_id: ETH, order_id: accepted!.order_id } })
    expect(cancelled.orderUpdates.get(ALICE)).toEqual([
      {
        block_height: h.feed.height,
        event_seq: 0,
        order_id: accepted!.order_id,
        market_id: ETH,
        symbol: 'ETH-USD',
        kind: 'done',
        remaining: '1',
        reason: 'Cancelled',
      },
    ])
    expect(cancelled.booksChanged.has(ETH)).toBe(true)
    h.expectBooksMatchChain()
  })

  test('a random workload of places, IOCs, amends, cancels and mass cancels keeps every book equal to the chain', () => {
    const h = new FeedHarness()
    const rng = new Rng(7)
    const traders = [ALICE, BOB, CAROL]
    const open: { id: number; market: number; by: string }[] = []
    const decimals: Record<number, [number, number]> = { [BTC]: [1, 4], [ETH]: [2, 3], [SOL]: [3, 2] }
    const mids: Record<number, number> = { [BTC]: 65_000, [ETH]: 3_500, [SOL]: 150 }
    for (let blockNo = 0; blockNo < 150; blockNo++) {
      const txs = []
      for (let i = 0; i < 1 + rng.int(4); i++) {
        const by = traders[rng.int(3)]!
        const market = [BTC, ETH, SOL][rng.int(3)]!
        const [px] = decimals[market]!
        const price = (mids[market]! * (1 + (rng.int(41) - 20) / 2000)).toFixed(px)
        const kind = rng.int(10)
        const mine = open.filter((o) => o.by === by)
        if (kind < 5 || mine.length === 0) {
          const tif = (['Gtc', 'Gtc', 'Ioc', 'PostOnly'] as const)[rng.int(4)]!
          txs.push({ by, action: place(market, rng.chance(50) ? 'Bid' : 'Ask', price, market === SOL ? '1.5' : '0.01', { tif }) })
        } else if (kind < 7) {
          const o = mine[rng.int(mine.length)]!
          txs.push({ by, action: { CancelOrder: { market_id: o.market, order_id: o.id } } })
        } else if (kind < 9) {
          const o = mine[rng.int(mine.length)]!
          const modify = rng.chance(50) ? { qty: o.market === SOL ? '0.5' : '0.005' } : { price }
          txs.push({ by, action: { BatchModify: { modifies: [{ market_id: o.market, order_id: o.id, ...modify }] } } })
        } else {
          txs.push({ by, action: { MassCancel: { market_id: market, by: 'Side', side: rng.chance(50) ? 'Bid' : 'Ask' } } })
        }
      }
      const { delta } = h.block(txs)
      for (const [by, updates] of delta.orderUpdates) {
        for (const u of updates) {
          if (u.kind === 'resting') {
            if (!open.some((o) => o.id === u.order_id)) open.push({ id: u.order_id, market: u.market_id, by })
          } else if (u.kind === 'done' || u.kind === 'expired')
            open.splice(open.findIndex((o) => o.id === u.order_id) >>> 0, open.some((o) => o.id === u.order_id) ? 1 : 0)
        }
      }
      // Makers filled to zero leave the book without an order update of their own in this list.
      for (let i = open.length - 1; i >= 0; i--) if (h.feed.market(open[i]!.market)!.book.get(open[i]!.id) === undefined) open.splice(i, 1)
      h.expectBooksMatchChain()
    }
    expect(h.feed.market(BTC)!.trades.size + h.feed.market(ETH)!.trades.size + h.feed.market(SOL)!.trades.size).toBeGreaterThan(10)
  })

  test('the 24 h counters roll over at UTC midnight at the start of the block; prev_day_price is the closing mark', () => {
    const h = new FeedHarness()
    const day = Date.UTC(2026, 5, 1)
    h.block([{ by: ALICE, action: place(BTC, 'Bid', '65000', '1') }], { timestampMs: day - 2_000 })
    h.block([{ by: BOB, action: place(BTC, 'Ask', '65000', '0.4', { tif: 'Ioc' }) }], { timestampMs: day - 1_000 })
    const fm = h.feed.market(BTC)!
    expect(h.feed.summary(fm)).toMatchObject({ day_base_volume: '0.4', day_ntl_volume: '26000' })
    const closingMark = fm.row.mark_price
    h.block([{ by: BOB, action: place(BTC, 'Ask', '65000', '0.1', { tif: 'Ioc' }) }], { timestampMs: day })
    expect(h.feed.summary(fm)).toMatchObject({
      prev_day_price: closingMark,
      day_base_volume: '0.1',
      day_ntl_volume: '6500',
      fills_in_block: 1,
    })
    h.block([], { timestampMs: day + 1_000 })
    expect(h.feed.summary(fm)).toMatchObject({ day_base_volume: '0.1', fills_in_block: 0 })
  })

  test('an accepted oracle quote: the external_quote row carries last_price and volume from the signed item; BBO is the quote', () => {
    const h = new FeedHarness()
    const ts = h.chain.state.timestampMs + 1_000
    const { delta } = h.block([
      {
        by: DEV_QUOTER,
        action: {
          SubmitOracleQuote: {
            quotes: [
              {
                market_id: XAU,
                bid_price: '2400.1',
                ask_price: '2400.5',
                mark_price: '2400.3',
                source_ts_ms: ts,
                last_price: '2400.2',
                volume: '12.5',
              },
            ],
          },
        },
      },
    ])
    expect(delta.quotes.get(XAU)).toEqual({
      bid_price: '2400.1',
      ask_price: '2400.5',
      mark_price: '2400.3',
      source_ts_ms: ts,
      quoter: DEV_QUOTER,
      last_price: '2400.2',
      volume: '12.5',
    })
    const xau = h.feed.market(XAU)!
    expect(h.feed.bbo(xau)).toEqual({ best_bid: '2400.1', best_ask: '2400.5', spread: '0.4' })
    expect(delta.bboChanged.has(XAU)).toBe(true)
    expect(delta.marksChanged.get(XAU)).toBe('2400.3')
  })

  test('a book that drifts (an event the feed cannot map) is rebuilt from the chain, loudly', () => {
    const h = new FeedHarness()
    const id = orderIdOf(h, ALICE, place(BTC, 'Bid', '64000', '0.5'))
    h.block([{ by: ALICE, action: { CancelOrder: { market_id: BTC, order_id: id } } }], { hide: (k) => k === 'OrderDone' })
    expect(h.feed.resyncs).toBe(1)
    expect(h.logs.join()).toContain('BTC-USD book drifted (1 orders, chain 0)')
    expect(h.feed.market(BTC)!.book.orderCount).toBe(0)
  })

  test('readiness, staleness and the market list', () => {
    const h = new FeedHarness()
    expect(h.feed.status()).toMatchObject({ native_ready: true, ext_ready: true, stale: false, chain_height: 0 })
    h.advanceWall(6_000)
    expect(h.feed.stale).toBe(true)
    h.block([])
    expect(h.feed.stale).toBe(false)
    expect(h.feed.marketInfos().map((m) => m.symbol)).toEqual(['BTC-USD', 'ETH-USD', 'SOL-USD', 'XAU-USD'])
    expect(Object.keys(h.feed.marks())).toEqual(['BTC-USD', 'ETH-USD', 'SOL-USD', 'XAU-USD'])
    expect(h.feed.bbos().map((b) => b.symbol)).toEqual(['BTC-USD', 'ETH-USD', 'SOL-USD', 'XAU-USD'])
    expect(h.feed.resolve('ETH')!.marketId).toBe(ETH)
    expect(h.feed.resolve('NOPE')).toBeUndefined()
  })
})
