// PlaceOrder scenarios driven through applyBlock on the dev genesis. Each table row is one action
// in a block of its own and ends in the events it must emit or the reason it must be rejected for.
// BTC-USD: price "65000" is 650000 ticks, qty "1" is 10000 lots, notional = ticks x lots x 10.
import { describe, expect, test } from 'bun:test'
import {
  ADMIN,
  ALICE,
  activateMarket,
  BOB,
  BTC,
  CAROL,
  cancel,
  createMarket,
  DAVE,
  DEV_BALANCE,
  ETH,
  ev,
  place,
  runRows,
  TestChain,
  XAU,
} from '../../../test/support/chain/test-chain.ts'
import { lowestUnusedNonce } from '../access/accounts.ts'
import { reservedMarginOf } from '../margin/reserved-margin.ts'

/** USD as SCALE_6. */
const usd = (n: number): bigint => BigInt(Math.round(n * 1e6))

describe('PlaceOrder time in force', () => {
  test('Gtc rests, Ioc fills what it can and expires, Fok all or nothing, PostOnly never crosses', () => {
    const chain = new TestChain()
    runRows(chain, [
      {
        by: BOB,
        action: place(BTC, 'Ask', '65000', '0.5'),
        expect: [ev('OrderAccepted', { order_id: 1 }), ev('OrderResting', { order_id: 1, remaining_lots: 5000 })],
      },
      {
        by: ALICE,
        action: place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' }),
        expect: [
          ev('OrderAccepted', { order_id: 2 }),
          ev('Filled', {
            maker: BOB,
            taker: ALICE,
            maker_order_id: 1,
            taker_order_id: 2,
            price_ticks: 650000,
            qty_lots: 5000,
            notional: usd(32_500),
          }),
          ev('OrderDone', { order_id: 1, account: BOB, reason: 'Filled', filled_lots: 5000, remaining_lots: 0 }),
          ev('OrderDone', { order_id: 2, account: ALICE, reason: 'IocExpired', filled_lots: 5000, remaining_lots: 5000 }),
        ],
      },
      {
        by: ALICE,
        action: place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' }),
        expect: ['OrderAccepted', ev('OrderDone', { reason: 'IocExpired', filled_lots: 0, remaining_lots: 10000 })],
      },
      { by: BOB, action: place(BTC, 'Ask', '65100', '0.3'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: CAROL, action: place(BTC, 'Bid', '65100', '0.5', { tif: 'Fok' }), expect: { reject: 'FokRejected' } },
      {
        by: CAROL,
        action: place(BTC, 'Bid', '65100', '0.3', { tif: 'Fok' }),
        expect: [
          'OrderAccepted',
          ev('Filled', { qty_lots: 3000, price_ticks: 651000 }),
          ev('OrderDone', { account: BOB, reason: 'Filled' }),
          ev('OrderDone', { account: CAROL, reason: 'Filled', filled_lots: 3000, remaining_lots: 0 }),
        ],
      },
      { by: BOB, action: place(BTC, 'Ask', '65200', '1'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: CAROL, action: place(BTC, 'Bid', '65200', '1', { tif: 'PostOnly' }), expect: { reject: 'PostOnlyWouldCross' } },
      {
        by: CAROL,
        action: place(BTC, 'Bid', '65199.9', '1', { tif: 'PostOnly' }),
        expect: ['OrderAccepted', ev('OrderResting', { tif: 'PostOnly', price_ticks: 651999, remaining_lots: 10000 })],
      },
    ])
  })

  test('a kept-reject consumes the nonce and changes nothing else', () => {
    const chain = new TestChain()
    chain.ok(BOB, place(BTC, 'Ask', '65000', '0.1'))
    const nextId = chain.state.nextOrderId
    const balance = chain.balance(CAROL)
    expect(lowestUnusedNonce(chain.state, CAROL)).toBe(0)
    const out = chain.send(CAROL, place(BTC, 'Bid', '65000', '1', { tif: 'Fok' }))
    expect(out.status).toBe('kept-reject')
    expect(out.events).toEqual([
      expect.objectContaining({ sub_kind: 'Rejected', reason: 'FokRejected', account: CAROL, action_kind: 'PlaceOrder', market_id: BTC }),
    ])
    expect(lowestUnusedNonce(chain.state, CAROL)).toBe(1)
    expect(chain.state.nextOrderId).toBe(nextId)
    expect(chain.balance(CAROL)).toBe(balance)
    expect(chain.state.books.get(BTC)!.size).toBe(1)
  })
})

describe('PlaceOrder reduce-only', () => {
  test('no position, wrong side, clamping and Fok beyond the position', () => {
    const chain = new TestChain()
    runRows(chain, [
      { by: ALICE, action: place(BTC, 'Ask', '66000', '1', { reduceOnly: true }), expect: { reject: 'ReduceOnlyWouldOpenOrFlip' } },
      { by: BOB, action: place(BTC, 'Ask', '65000', '0.5'), expect: ['OrderAccepted', 'OrderResting'] },
      // ALICE becomes long 0.5 BTC.
      {
        by: ALICE,
        action: place(BTC, 'Bid', '65000', '0.5', { tif: 'Ioc' }),
        expect: ['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'],
      },
      { by: ALICE, action: place(BTC, 'Bid', '64000', '0.1', { reduceOnly: true }), expect: { reject: 'ReduceOnlyWouldOpenOrFlip' } },
      {
        by: ALICE,
        action: place(BTC, 'Ask', '64000', '1', { reduceOnly: true, tif: 'Fok' }),
        expect: { reject: 'ReduceOnlyWouldOpenOrFlip' },
      },
      // Gtc larger than the position: clamped to 0.5 BTC, the excess does not rest; it holds no margin.
      {
        by: ALICE,
        action: place(BTC, 'Ask', '66000', '1', { reduceOnly: true }),
        expect: [
          ev('OrderAccepted', { qty_lots: 10000, reduce_only: true }),
          ev('OrderResting', { qty_lots: 10000, remaining_lots: 5000 }),
        ],
      },
    ])
    const resting = [...chain.state.accounts.get(ALICE)!.orders.values()]
    expect(resting.map((o) => [o.remainingLots, o.marginLots, o.marginHeld])).toEqual([[5000, 0, 0n]])
  })

  test('a clamped Gtc that fills its closable size ends ReduceOnlyClamped; Fok within the position fills', () => {
    const chain = new TestChain()
    chain.ok(BOB, place(BTC, 'Ask', '65000', '0.5'))
    chain.ok(ALICE, place(BTC, 'Bid', '65000', '0.5', { tif: 'Ioc' }))
    chain.ok(CAROL, place(BTC, 'Bid', '64000', '2'))
    runRows(chain, [
      {
        by: ALICE,
        action: place(BTC, 'Ask', '64000', '0.2', { reduceOnly: true, tif: 'Fok' }),
        expect: [
          'OrderAccepted',
          ev('Filled', { qty_lots: 2000, taker_size_before: 5000, taker_size_after: 3000 }),
          ev('OrderDone', { account: ALICE, reason: 'Filled' }),
        ],
      },
      {
        by: ALICE,
        action: place(BTC, 'Ask', '64000', '1', { reduceOnly: true }),
        expect: [
          'OrderAccepted',
          ev('Filled', { qty_lots: 3000, taker_size_after: 0 }),
          ev('OrderDone', { account: ALICE, reason: 'ReduceOnlyClamped', filled_lots: 3000, remaining_lots: 7000 }),
        ],
      },
    ])
    expect(chain.state.accounts.get(ALICE)!.positions.size).toBe(0)
  })
})

describe('PlaceOrder reduce-only, resting orders', () => {
  // Resting reduce-only orders never open or flip a position: at placement the remainder rests
  // only within the closable size other resting reduce-only orders leave free, and whenever the
  // position shrinks the account's resting reduce-only orders are clamped (reduce-only.ts).
  test('resting reduce-only orders never open a position', () => {
    const chain = new TestChain()
    chain.ok(BOB, place(BTC, 'Ask', '65000', '1'))
    chain.ok(ALICE, place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' }))
    // Long 1 BTC: the first reduce-only ask rests 1 BTC, the next ones find nothing left to close.
    expect(chain.ok(ALICE, place(BTC, 'Ask', '70000', '1', { reduceOnly: true })).map((e) => e.sub_kind)).toEqual([
      'OrderAccepted',
      'OrderResting',
    ])
    for (let i = 1; i < 5; i++) {
      expect(chain.ok(ALICE, place(BTC, 'Ask', String(70000 + i), '1', { reduceOnly: true })).at(-1)).toMatchObject({
        sub_kind: 'OrderDone',
        reason: 'ReduceOnlyClamped',
        filled_lots: 0,
      })
    }
    chain.ok(CAROL, place(BTC, 'Bid', '65000', '1'))
    // Closing the position by other means cancels the resting reduce-only ask.
    const close = chain.ok(ALICE, place(BTC, 'Ask', '65000', '1', { tif: 'Ioc' }))
    expect(close).toContainEqual(
      expect.objectContaining({ sub_kind: 'OrderDone', account: ALICE, order_id: 3, reason: 'ReduceOnlyClamped', remaining_lots: 10000 }),
    )
    const sweep = chain.send(BOB, place(BTC, 'Bid', '70010', '5', { tif: 'Ioc' }))
    expect(sweep.events.filter((e) => e.sub_kind === 'Filled')).toEqual([])
    expect(chain.state.accounts.get(ALICE)!.positions.get(BTC)).toBeUndefined()
    expect(chain.state.accounts.get(ALICE)!.orders.size).toBe(0)
  })
})

describe('PlaceOrder rejections', () => {
  test('market checks, dust, margin and duplicate client ids', () => {
    const chain = new TestChain()
    runRows(chain, [
      { by: ALICE, action: place(99, 'Bid', '1', '1'), expect: { reject: 'MarketNotFound' } },
      { by: ALICE, action: place(XAU, 'Bid', '2400', '1'), expect: { reject: 'QuoteNotAvailable' } },
      // Market 5: 6 price and 6 size decimals, so ticks x lots is divided by 10^6 and can truncate to 0.
      {
        by: ADMIN,
        action: createMarket({ symbol: 'DUST-USD', price_decimals: 6, size_decimals: 6, mark_price: '1' }),
        expect: [ev('MarketCreated', { market_id: 5 })],
      },
      { by: ALICE, action: place(5, 'Bid', '1', '1'), expect: { reject: 'MarketNotTradable' } },
      { by: ADMIN, action: activateMarket(5), expect: ['MarketLifecycleChanged'] },
      { by: ALICE, action: place(5, 'Bid', '0.000001', '0.000001'), expect: { reject: 'DustNotionalFill' } },
      { by: BOB, action: place(5, 'Ask', '0.5', '0.000003'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: ALICE, action: place(5, 'Bid', '0.5', '0.000001', { tif: 'Ioc' }), expect: { reject: 'DustNotionalFill' } },
      {
        by: ALICE,
        action: place(5, 'Bid', '0.5', '0.000002', { tif: 'Ioc' }),
        expect: ['OrderAccepted', ev('Filled', { notional: 1n }), 'OrderDone'],
      },
      // 1,000,000 USD at 20x carries 20,000,000 USD of notional: 400 BTC at 64,000 needs 1,280,000 of margin.
      { by: CAROL, action: place(BTC, 'Bid', '64000', '400'), expect: { reject: 'InsufficientMargin' } },
      { by: CAROL, action: place(BTC, 'Bid', '64000', '300'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: CAROL, action: place(BTC, 'Bid', '64000', '20'), expect: { reject: 'InsufficientMargin' } },
      { by: CAROL, action: place(BTC, 'Bid', '64000', '10'), expect: ['OrderAccepted', 'OrderResting'] },
      {
        by: DAVE,
        action: place(BTC, 'Bid', '60000', '1', { cloid: 'q1' }),
        expect: [ev('OrderAccepted', { client_order_id: 'q1' }), 'OrderResting'],
      },
      { by: DAVE, action: place(BTC, 'Bid', '60001', '1', { cloid: 'q1' }), expect: { reject: 'DuplicateClientOrderId' } },
      { by: DAVE, action: place(ETH, 'Bid', '3000', '1', { cloid: 'q1' }), expect: ['OrderAccepted', 'OrderResting'] },
      { by: BOB, action: place(BTC, 'Bid', '60000', '1', { cloid: 'q1' }), expect: ['OrderAccepted', 'OrderResting'] },
      { by: DAVE, action: cancel(BTC, 5), expect: [ev('OrderDone', { reason: 'Cancelled', client_order_id: 'q1' })] },
      { by: DAVE, action: place(BTC, 'Bid', '60001', '1', { cloid: 'q1' }), expect: ['OrderAccepted', 'OrderResting'] },
    ])
    // CAROL's 310 BTC at 64,000 and 20x hold exactly 992,000 USD.
    expect(reservedMarginOf(chain.state.accounts.get(CAROL)!)).toBe(usd(992_000))
  })

  test('below the minimum order size', () => {
    const chain = new TestChain()
    chain.ok(ADMIN, createMarket({ symbol: 'BIG-USD', min_order_qty: '0.01' }))
    chain.ok(ADMIN, activateMarket(5))
    runRows(chain, [
      { by: ALICE, action: place(5, 'Bid', '100', '0.009'), expect: { reject: 'BelowMinOrderSize' } },
      { by: ALICE, action: place(5, 'Bid', '100', '0.01'), expect: ['OrderAccepted', 'OrderResting'] },
    ])
  })
})

describe('PlaceOrder matching', () => {
  test('price-time priority across makers', () => {
    const chain = new TestChain()
    runRows(chain, [
      { by: BOB, action: place(BTC, 'Ask', '65000', '1'), expect: [ev('OrderAccepted', { order_id: 1 }), 'OrderResting'] },
      { by: CAROL, action: place(BTC, 'Ask', '65000', '1'), expect: [ev('OrderAccepted', { order_id: 2 }), 'OrderResting'] },
      { by: DAVE, action: place(BTC, 'Ask', '64999.9', '1'), expect: [ev('OrderAccepted', { order_id: 3 }), 'OrderResting'] },
      {
        by: ALICE,
        action: place(BTC, 'Bid', '65000', '2.5', { tif: 'Ioc' }),
        expect: [
          ev('OrderAccepted', { order_id: 4 }),
          ev('Filled', { maker_order_id: 3, maker: DAVE, price_ticks: 649999, qty_lots: 10000 }),
          ev('OrderDone', { order_id: 3 }),
          ev('Filled', { maker_order_id: 1, maker: BOB, price_ticks: 650000, qty_lots: 10000 }),
          ev('OrderDone', { order_id: 1 }),
          ev('Filled', { maker_order_id: 2, maker: CAROL, price_ticks: 650000, qty_lots: 5000, maker_remaining_lots: 5000 }),
          ev('OrderDone', { order_id: 4, reason: 'Filled', filled_lots: 25000 }),
        ],
      },
    ])
    expect(
      chain.state.books
        .get(BTC)!
        .ordersOf('Ask', 10)
        .map((o) => [o.id, o.remainingLots]),
    ).toEqual([[2, 5000]])
    expect(chain.state.markets.get(BTC)!.lastTradeTicks).toBe(650000)
  })

  test('self-trade: the resting own order is cancelled, not matched', () => {
    const chain = new TestChain()
    runRows(chain, [
      { by: ALICE, action: place(BTC, 'Ask', '65000', '1'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: BOB, action: place(BTC, 'Ask', '65000', '1'), expect: ['OrderAccepted', 'OrderResting'] },
      {
        by: ALICE,
        action: place(BTC, 'Bid', '65000', '1.5'),
        expect: [
          ev('OrderAccepted', { order_id: 3 }),
          ev('OrderDone', { order_id: 1, account: ALICE, reason: 'SelfTradeCancelled', remaining_lots: 10000, filled_lots: 0 }),
          ev('Filled', { maker: BOB, maker_order_id: 2, qty_lots: 10000 }),
          ev('OrderDone', { order_id: 2, reason: 'Filled' }),
          ev('OrderResting', { order_id: 3, remaining_lots: 5000 }),
        ],
      },
    ])
    const book = chain.state.books.get(BTC)!
    expect([book.bestBid(), book.bestAsk()]).toEqual([650000, undefined])
    expect(chain.state.accounts.get(ALICE)!.positions.get(BTC)!.sizeLots).toBe(10000)
  })

  test('a Gtc cut at the fill limit does not rest its remainder across the makers left', () => {
    const chain = new TestChain()
    const makers = Array.from({ length: 1001 }, (_, i) => ({ by: i % 2 === 0 ? BOB : CAROL, action: place(BTC, 'Ask', '65000', '0.0001') }))
    chain.block(makers)
    const events = chain.ok(ALICE, place(BTC, 'Bid', '65000', '0.2'))
    expect(events.filter((e) => e.sub_kind === 'Filled').length).toBe(1000)
    expect(events.at(-1)).toMatchObject({
      sub_kind: 'OrderDone',
      account: ALICE,
      reason: 'FillLimitReached',
      filled_lots: 1000,
      remaining_lots: 1000,
    })
    const book = chain.state.books.get(BTC)!
    expect([book.bestBid(), book.bestAsk(), book.size]).toEqual([undefined, 650000, 1])
  })

  test('fees: maker 2 bps and taker 5 bps of notional, rounded up, credited to the fee recipient', () => {
    const chain = new TestChain()
    chain.ok(BOB, place(BTC, 'Ask', '65000.1', '0.0001'))
    const events = chain.ok(ALICE, place(BTC, 'Bid', '65000.1', '0.0001', { tif: 'Ioc' }))
    // notional 650001 ticks x 1 lot x 10 = 6,500,010; taker 3,250.005 -> 3,251; maker 1,300.002 -> 1,301.
    expect(events[1]).toMatchObject({ sub_kind: 'Filled', notional: 6_500_010n, taker_fee: 3251n, maker_fee: 1301n })
    expect(chain.balance(ALICE)).toBe(DEV_BALANCE - 3251n)
    expect(chain.balance(BOB)).toBe(DEV_BALANCE - 1301n)
    expect(chain.balance(ADMIN)).toBe(DEV_BALANCE + 3251n + 1301n)
  })

  test('exact balances after a round trip', () => {
    const chain = new TestChain()
    chain.ok(BOB, place(BTC, 'Ask', '65000', '1'))
    chain.ok(ALICE, place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' }))
    chain.ok(CAROL, place(BTC, 'Bid', '66000', '1'))
    const close = chain.ok(ALICE, place(BTC, 'Ask', '66000', '1', { tif: 'Ioc' }))
    expect(close[1]).toMatchObject({
      sub_kind: 'Filled',
      taker_realized_pnl: usd(1000),
      maker_realized_pnl: 0n,
      taker_fee: usd(33),
      maker_fee: usd(13.2),
    })
    // ALICE: +1,000 PnL - 32.5 - 33 taker fees; BOB and CAROL paid maker fees and hold the positions.
    expect(chain.balance(ALICE)).toBe(DEV_BALANCE + usd(1000 - 32.5 - 33))
    expect(chain.balance(BOB)).toBe(DEV_BALANCE - usd(13))
    expect(chain.balance(CAROL)).toBe(DEV_BALANCE - usd(13.2))
    expect(chain.balance(ADMIN)).toBe(DEV_BALANCE + usd(32.5 + 13 + 33 + 13.2))
    const alice = chain.state.accounts.get(ALICE)!
    expect(alice.positions.size).toBe(0)
    expect(reservedMarginOf(alice)).toBe(0n)
    expect(chain.state.accounts.get(BOB)!.positions.get(BTC)).toMatchObject({ sizeLots: -10000, costBasis: -usd(65_000) })
    expect(chain.state.accounts.get(CAROL)!.positions.get(BTC)).toMatchObject({ sizeLots: 10000, costBasis: usd(66_000) })
    expect(chain.state.markets.get(BTC)!.openInterestLots).toBe(10000)
    // The mark moved to the last trade (one-sided book after the fills).
    expect(chain.state.markets.get(BTC)!.markTicks).toBe(660000)
  })
})
