// BatchPlaceOrder and BatchModify (batch-place-order.ts, batch-modify.ts): items apply in order,
// a rejected item emits BatchItemRejected and changes nothing, the envelope is accepted.
// BTC-USD: price "65000" is 650000 ticks, qty "1" is 10000 lots.
import { describe, expect, test } from 'bun:test'
import { acceptedIds, batchModify, batchPlace, checkOrderInvariants, placePayload } from '../../../test/support/chain/orders.ts'
import { ALICE, BOB, BTC, CAROL, checkInvariants, ETH, ev, place, runRows, TestChain } from '../../../test/support/chain/test-chain.ts'
import { reservedMarginOf } from '../margin/reserved-margin.ts'
import { orderMargin } from './order-ops.ts'

const bookIds = (chain: TestChain, side: 'Bid' | 'Ask') =>
  chain.state.books
    .get(BTC)!
    .ordersOf(side, 100)
    .map((o) => [o.id, o.remainingLots])

describe('BatchPlaceOrder', () => {
  test('items apply in order; rejected items are reported by index and the rest still apply', () => {
    const chain = new TestChain()
    runRows(chain, [
      {
        by: ALICE,
        action: batchPlace(
          placePayload(BTC, 'Bid', '64000', '1', { cloid: 'b1' }),
          placePayload(99, 'Bid', '1', '1'),
          placePayload(BTC, 'Bid', '64000', '1', { cloid: 'b1' }),
          placePayload(BTC, 'Ask', '66000', '0.5', { tif: 'PostOnly' }),
          placePayload(BTC, 'Ask', '63000', '0.1', { tif: 'PostOnly' }),
          placePayload(ETH, 'Bid', '3000', '2'),
        ),
        expect: [
          ev('OrderAccepted', { order_id: 1, client_order_id: 'b1' }),
          ev('OrderResting', { order_id: 1 }),
          ev('BatchItemRejected', { index: 1, reason: 'MarketNotFound', market_id: 99, account: ALICE, action_kind: 'BatchPlaceOrder' }),
          ev('BatchItemRejected', { index: 2, reason: 'DuplicateClientOrderId', market_id: BTC }),
          ev('OrderAccepted', { order_id: 2 }),
          ev('OrderResting', { order_id: 2 }),
          ev('BatchItemRejected', { index: 4, reason: 'PostOnlyWouldCross' }),
          ev('OrderAccepted', { order_id: 3, market_id: ETH }),
          ev('OrderResting', { order_id: 3 }),
        ],
      },
      // An item may fill against orders an earlier item of another account rested; its own are self-trade cancelled.
      {
        by: BOB,
        action: batchPlace(
          placePayload(BTC, 'Ask', '64000', '0.4', { tif: 'Ioc' }),
          placePayload(BTC, 'Bid', '66000', '0.1', { tif: 'Fok' }),
        ),
        expect: [
          ev('OrderAccepted', { order_id: 4 }),
          ev('Filled', { maker_order_id: 1, qty_lots: 4000 }),
          ev('OrderDone', { order_id: 4, reason: 'Filled' }),
          ev('OrderAccepted', { order_id: 5 }),
          ev('Filled', { maker_order_id: 2, qty_lots: 1000 }),
          ev('OrderDone', { order_id: 5, reason: 'Filled' }),
        ],
      },
    ])
    checkInvariants(chain.state)
    checkOrderInvariants(chain.state)
  })

  test('a batch whose every item is rejected is still accepted, with one BatchItemRejected per item', () => {
    const chain = new TestChain()
    const nextId = chain.state.nextOrderId
    const out = chain.send(ALICE, batchPlace(placePayload(99, 'Bid', '1', '1'), placePayload(BTC, 'Bid', '64000', '100000')))
    expect(out.status).toBe('accepted')
    expect(out.events).toEqual([
      expect.objectContaining({ sub_kind: 'BatchItemRejected', index: 0, reason: 'MarketNotFound' }),
      expect.objectContaining({ sub_kind: 'BatchItemRejected', index: 1, reason: 'InsufficientMargin' }),
    ])
    expect(chain.state.nextOrderId).toBe(nextId)
  })

  test('a later item sees what the earlier ones did (margin, open orders)', () => {
    const chain = new TestChain()
    // 300 BTC at 64,000 and 20x hold 960,000 of ALICE's 1,000,000: the second 300 no longer fits.
    const out = chain.ok(
      ALICE,
      batchPlace(
        placePayload(BTC, 'Bid', '64000', '300'),
        placePayload(BTC, 'Bid', '64000', '300'),
        placePayload(BTC, 'Bid', '64000', '10'),
      ),
    )
    expect(out.map((e) => (e.sub_kind === 'BatchItemRejected' ? `${e.index}:${e.reason}` : e.sub_kind))).toEqual([
      'OrderAccepted',
      'OrderResting',
      '1:InsufficientMargin',
      'OrderAccepted',
      'OrderResting',
    ])
  })
})

describe('BatchModify', () => {
  test('lowering qty amends in place: time priority and order id kept, margin re-reserved exactly', () => {
    const chain = new TestChain()
    const [a = 0, b = 0] = acceptedIds(
      chain.ok(ALICE, batchPlace(placePayload(BTC, 'Bid', '64000', '1', { cloid: 'x' }), placePayload(BTC, 'Bid', '64000', '2'))),
    )
    const c = chain.placeOk(BOB, place(BTC, 'Bid', '64000', '1'))
    runRows(chain, [
      {
        by: ALICE,
        action: batchModify({ market_id: BTC, client_order_id: 'x', qty: '0.4' }),
        expect: [
          ev('OrderAccepted', { order_id: a, qty_lots: 4000, client_order_id: 'x' }),
          ev('OrderResting', { order_id: a, qty_lots: 4000, remaining_lots: 4000 }),
        ],
      },
    ])
    expect(bookIds(chain, 'Bid')).toEqual([
      [a, 4000],
      [b, 20000],
      [c, 10000],
    ])
    const market = chain.state.markets.get(BTC)!
    const alice = chain.state.accounts.get(ALICE)!
    expect(reservedMarginOf(alice)).toBe(orderMargin(market, 640000, 4000, 20) + orderMargin(market, 640000, 20000, 20))
    // A partial fill, then a lower total: qty counts the filled lots.
    chain.ok(CAROL, place(BTC, 'Ask', '64000', '0.1', { tif: 'Ioc' }))
    runRows(chain, [
      {
        by: ALICE,
        action: batchModify({ market_id: BTC, order_id: a, qty: '0.25' }),
        expect: [
          ev('OrderAccepted', { order_id: a, qty_lots: 2500 }),
          ev('OrderResting', { order_id: a, qty_lots: 2500, remaining_lots: 1500 }),
        ],
      },
      // Not above the filled 0.1: the order ends.
      {
        by: ALICE,
        action: batchModify({ market_id: BTC, order_id: a, qty: '0.1' }),
        expect: [
          ev('OrderDone', { order_id: a, reason: 'AmendClampedAtFilled', filled_lots: 1000, remaining_lots: 1500, client_order_id: 'x' }),
        ],
      },
    ])
    expect(reservedMarginOf(alice)).toBe(orderMargin(market, 640000, 20000, 20))
    expect(alice.ordersByClientId.size).toBe(0)
    checkInvariants(chain.state)
    checkOrderInvariants(chain.state)
  })

  test('a price change is cancel-plus-replace under a new id, keeps the client id, and may fill at once', () => {
    const chain = new TestChain()
    const a = chain.placeOk(ALICE, place(BTC, 'Bid', '64000', '1', { cloid: 'm1' }))
    const s = chain.placeOk(BOB, place(BTC, 'Ask', '64500', '0.3'))
    runRows(chain, [
      {
        by: ALICE,
        action: batchModify({ market_id: BTC, order_id: a, price: '64100' }),
        expect: [
          ev('OrderDone', { order_id: a, reason: 'Replaced', remaining_lots: 10000 }),
          ev('OrderAccepted', { order_id: s + 1, price_ticks: 641000, qty_lots: 10000, client_order_id: 'm1' }),
          ev('OrderResting', { order_id: s + 1 }),
        ],
      },
      // Crossing: done, accepted, fills, resting within one envelope
      // (docs/orders.md#order-lifecycle).
      {
        by: ALICE,
        action: batchModify({ market_id: BTC, client_order_id: 'm1', price: '64500', qty: '0.5' }),
        expect: [
          ev('OrderDone', { order_id: s + 1, reason: 'Replaced' }),
          ev('OrderAccepted', { order_id: s + 2, qty_lots: 5000 }),
          ev('Filled', { maker_order_id: s, qty_lots: 3000 }),
          ev('OrderDone', { order_id: s }),
          ev('OrderResting', { order_id: s + 2, remaining_lots: 2000, client_order_id: 'm1' }),
        ],
      },
      // A higher qty re-places too (it cannot keep its priority).
      {
        by: ALICE,
        action: batchModify({ market_id: BTC, order_id: s + 2, qty: '0.9' }),
        expect: [
          ev('OrderDone', { order_id: s + 2, reason: 'Replaced', filled_lots: 3000 }),
          ev('OrderAccepted', { order_id: s + 3, qty_lots: 6000 }),
          ev('OrderResting', { order_id: s + 3 }),
        ],
      },
      // A TIF change: an Ioc replacement that finds nothing to fill expires.
      {
        by: ALICE,
        action: batchModify({ market_id: BTC, order_id: s + 3, tif: 'Ioc' }),
        expect: [
          ev('OrderDone', { order_id: s + 3, reason: 'Replaced' }),
          ev('OrderAccepted', { order_id: s + 4, tif: 'Ioc' }),
          ev('OrderDone', { order_id: s + 4, reason: 'IocExpired' }),
        ],
      },
    ])
    expect(chain.state.accounts.get(ALICE)!.orders.size).toBe(0)
    checkInvariants(chain.state)
    checkOrderInvariants(chain.state)
  })

  test('rejected items leave their order as it was; the others apply', () => {
    const chain = new TestChain()
    const a = chain.placeOk(ALICE, place(BTC, 'Bid', '64000', '1', { tif: 'PostOnly' }))
    const b = chain.placeOk(ALICE, place(BTC, 'Bid', '63000', '1'))
    chain.ok(BOB, place(BTC, 'Ask', '64500', '1'))
    const before = reservedMarginOf(chain.state.accounts.get(ALICE)!)
    runRows(chain, [
      {
        by: ALICE,
        action: batchModify(
          { market_id: BTC, order_id: a, price: '64500' },
          { market_id: BTC, order_id: 999 },
          { market_id: BTC, order_id: 999, qty: '1' },
          { market_id: BTC, order_id: b, qty: '1' },
          { market_id: BTC, order_id: b, price: '63000.05' },
          { market_id: BTC, order_id: b, qty: '10000' },
          { market_id: 77, order_id: b, qty: '0.5' },
          { market_id: BTC, order_id: b, qty: '0.5' },
        ),
        expect: [
          ev('BatchItemRejected', { index: 0, reason: 'PostOnlyWouldCross', action_kind: 'BatchModify' }),
          ev('BatchItemRejected', { index: 1, reason: 'InvalidModify' }),
          ev('BatchItemRejected', { index: 2, reason: 'OrderNotFound' }),
          ev('BatchItemRejected', { index: 3, reason: 'InvalidModify' }),
          ev('BatchItemRejected', { index: 4, reason: 'InvalidPrice' }),
          ev('BatchItemRejected', { index: 5, reason: 'InsufficientMargin' }),
          ev('BatchItemRejected', { index: 6, reason: 'MarketNotFound' }),
          ev('OrderAccepted', { order_id: b, qty_lots: 5000 }),
          ev('OrderResting', { order_id: b, remaining_lots: 5000 }),
        ],
      },
    ])
    expect(bookIds(chain, 'Bid')).toEqual([
      [a, 10000],
      [b, 5000],
    ])
    expect(reservedMarginOf(chain.state.accounts.get(ALICE)!)).toBeLessThan(before)
    checkInvariants(chain.state)
  })

  test('a replacement that holds less margin passes where a fresh order of its size would not', () => {
    const chain = new TestChain()
    // 310 BTC at 64,000 hold 992,000 of ALICE's 1,000,000.
    const a = chain.placeOk(ALICE, place(BTC, 'Bid', '64000', '310'))
    expect(chain.send(ALICE, place(BTC, 'Bid', '63000', '300')).reason).toBe('InsufficientMargin')
    const events = chain.ok(ALICE, batchModify({ market_id: BTC, order_id: a, price: '63000', qty: '300' }))
    expect(events.map((e) => e.sub_kind)).toEqual(['OrderDone', 'OrderAccepted', 'OrderResting'])
    checkInvariants(chain.state)
  })

  test('a reduce-only order re-placed at another price keeps its closable share', () => {
    const chain = new TestChain()
    chain.ok(BOB, place(BTC, 'Ask', '65000', '1'))
    chain.ok(ALICE, place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' }))
    const a = chain.placeOk(ALICE, place(BTC, 'Ask', '70000', '1', { reduceOnly: true }))
    const events = chain.ok(ALICE, batchModify({ market_id: BTC, order_id: a, price: '69000' }))
    expect(events).toEqual([
      expect.objectContaining({ sub_kind: 'OrderDone', reason: 'Replaced', order_id: a }),
      expect.objectContaining({ sub_kind: 'OrderAccepted', reduce_only: true }),
      expect.objectContaining({ sub_kind: 'OrderResting', remaining_lots: 10000, reduce_only: true }),
    ])
    checkOrderInvariants(chain.state)
  })
})
