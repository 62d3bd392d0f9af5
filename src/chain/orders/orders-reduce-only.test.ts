// Reduce-only orders (docs/orders.md#reduce-only-orders, reduce-only.ts): placement rules, and
// resting reduce-only orders that never open or flip a position, as taker, as maker within one
// match, and after the position changes. BTC-USD: price "65000" is 650000 ticks, qty "1" is 10000
// lots.
import { describe, expect, test } from 'bun:test'
import { checkOrderInvariants } from '../../../test/support/chain/orders.ts'
import { ALICE, BOB, BTC, CAROL, checkInvariants, ev, place, runRows, TestChain } from '../../../test/support/chain/test-chain.ts'

/** ALICE long 1 BTC at 65,000 (bought from BOB), order ids 1 and 2 used. */
function aliceLong(): TestChain {
  const chain = new TestChain()
  chain.ok(BOB, place(BTC, 'Ask', '65000', '1'))
  chain.ok(ALICE, place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' }))
  return chain
}

const restingOf = (chain: TestChain, who: string) =>
  [...chain.state.accounts.get(who)!.orders.values()].map((o) => ({
    id: o.id,
    side: o.side,
    remaining: o.remainingLots,
    qty: o.origLots,
    ro: o.reduceOnly,
  }))
const sizeOf = (chain: TestChain, who: string) => chain.state.accounts.get(who)!.positions.get(BTC)?.sizeLots ?? 0

describe('reduce-only placement', () => {
  test('Gtc clamped, Ioc expires, Fok short of depth FokRejected, Fok beyond the position ReduceOnlyWouldOpenOrFlip', () => {
    const chain = aliceLong()
    runRows(chain, [
      // Empty bid side: an Ioc reduce-only ends IocExpired with nothing filled.
      {
        by: ALICE,
        action: place(BTC, 'Ask', '60000', '0.5', { reduceOnly: true, tif: 'Ioc' }),
        expect: ['OrderAccepted', ev('OrderDone', { reason: 'IocExpired', filled_lots: 0, remaining_lots: 5000 })],
      },
      { by: CAROL, action: place(BTC, 'Bid', '64000', '0.3'), expect: ['OrderAccepted', 'OrderResting'] },
      // Closable 1 BTC but only 0.3 on the book.
      { by: ALICE, action: place(BTC, 'Ask', '64000', '0.5', { reduceOnly: true, tif: 'Fok' }), expect: { reject: 'FokRejected' } },
      {
        by: ALICE,
        action: place(BTC, 'Ask', '64000', '2', { reduceOnly: true, tif: 'Fok' }),
        expect: { reject: 'ReduceOnlyWouldOpenOrFlip' },
      },
      // A partial fill of an Ioc reduce-only ends IocExpired.
      {
        by: ALICE,
        action: place(BTC, 'Ask', '64000', '0.5', { reduceOnly: true, tif: 'Ioc' }),
        expect: [
          'OrderAccepted',
          ev('Filled', { qty_lots: 3000 }),
          ev('OrderDone', { account: CAROL, reason: 'Filled' }),
          ev('OrderDone', { account: ALICE, reason: 'IocExpired', filled_lots: 3000, remaining_lots: 2000 }),
        ],
      },
      // Long 0.7: a Gtc of 1 rests 0.7.
      {
        by: ALICE,
        action: place(BTC, 'Ask', '70000', '1', { reduceOnly: true }),
        expect: ['OrderAccepted', ev('OrderResting', { qty_lots: 10000, remaining_lots: 7000 })],
      },
    ])
    checkOrderInvariants(chain.state)
  })

  test('a new reduce-only order rests only within what older resting ones leave closable', () => {
    const chain = aliceLong()
    runRows(chain, [
      {
        by: ALICE,
        action: place(BTC, 'Ask', '70000', '0.6', { reduceOnly: true }),
        expect: ['OrderAccepted', ev('OrderResting', { order_id: 3, remaining_lots: 6000 })],
      },
      {
        by: ALICE,
        action: place(BTC, 'Ask', '71000', '1', { reduceOnly: true }),
        expect: ['OrderAccepted', ev('OrderResting', { order_id: 4, qty_lots: 10000, remaining_lots: 4000 })],
      },
      {
        by: ALICE,
        action: place(BTC, 'Ask', '72000', '1', { reduceOnly: true }),
        expect: ['OrderAccepted', ev('OrderDone', { order_id: 5, reason: 'ReduceOnlyClamped', filled_lots: 0, remaining_lots: 10000 })],
      },
      { by: CAROL, action: place(BTC, 'Bid', '64000', '0.5'), expect: ['OrderAccepted', 'OrderResting'] },
      // Fills 0.5 (long 0.5 left); its remainder finds nothing free, and the older orders are cut,
      // newest first: order 4 (0.4) goes, order 3 shrinks from 0.6 to 0.5.
      {
        by: ALICE,
        action: place(BTC, 'Ask', '64000', '1', { reduceOnly: true }),
        expect: [
          ev('OrderAccepted', { order_id: 7 }),
          ev('Filled', { qty_lots: 5000, taker_size_after: 5000 }),
          ev('OrderDone', { account: CAROL, reason: 'Filled' }),
          ev('OrderDone', { order_id: 4, reason: 'ReduceOnlyClamped', remaining_lots: 4000 }),
          ev('OrderResting', { order_id: 3, qty_lots: 5000, remaining_lots: 5000, reduce_only: true }),
          ev('OrderDone', { order_id: 7, reason: 'ReduceOnlyClamped', filled_lots: 5000, remaining_lots: 5000 }),
        ],
      },
    ])
    expect(restingOf(chain, ALICE)).toEqual([{ id: 3, side: 'Ask', remaining: 5000, qty: 5000, ro: true }])
    checkOrderInvariants(chain.state)
  })
})

describe('resting reduce-only orders follow the position', () => {
  test('the taker shrinks its position: its resting reduce-only orders shrink; a flip cancels them', () => {
    const chain = aliceLong()
    chain.ok(ALICE, place(BTC, 'Ask', '70000', '1', { reduceOnly: true }))
    chain.ok(CAROL, place(BTC, 'Bid', '64000', '3'))
    runRows(chain, [
      {
        by: ALICE,
        action: place(BTC, 'Ask', '64000', '0.4', { tif: 'Ioc' }),
        expect: [
          'OrderAccepted',
          ev('Filled', { taker_size_after: 6000 }),
          ev('OrderResting', { order_id: 3, qty_lots: 6000, remaining_lots: 6000 }),
          ev('OrderDone', { reason: 'Filled', account: ALICE }),
        ],
      },
      // Sells 1.6 more: short 1, the reduce-only ask would now open, so it goes.
      {
        by: ALICE,
        action: place(BTC, 'Ask', '64000', '1.6', { tif: 'Ioc' }),
        expect: [
          'OrderAccepted',
          ev('Filled', { taker_size_after: -10000 }),
          ev('OrderDone', { order_id: 3, reason: 'ReduceOnlyClamped', remaining_lots: 6000, filled_lots: 0 }),
          ev('OrderDone', { reason: 'Filled', account: ALICE }),
        ],
      },
    ])
    expect(restingOf(chain, ALICE)).toEqual([])
    checkOrderInvariants(chain.state)
  })

  test('a maker whose plain ask fills first: its reduce-only ask in the same match is capped and taken off before the taker rests', () => {
    const chain = aliceLong()
    chain.ok(ALICE, place(BTC, 'Ask', '65100', '1'))
    chain.ok(ALICE, place(BTC, 'Ask', '65200', '1', { reduceOnly: true }))
    runRows(chain, [
      {
        by: CAROL,
        action: place(BTC, 'Bid', '65200', '2'),
        expect: [
          ev('OrderAccepted', { order_id: 5 }),
          ev('Filled', { maker: ALICE, maker_order_id: 3, qty_lots: 10000, maker_size_after: 0 }),
          ev('OrderDone', { order_id: 3, reason: 'Filled' }),
          ev('OrderDone', { order_id: 4, account: ALICE, reason: 'ReduceOnlyClamped', remaining_lots: 10000 }),
          ev('OrderResting', { order_id: 5, account: CAROL, price_ticks: 652000, remaining_lots: 10000 }),
        ],
      },
    ])
    expect(sizeOf(chain, ALICE)).toBe(0)
    const book = chain.state.books.get(BTC)!
    expect([book.bestBid(), book.bestAsk()]).toEqual([652000, undefined])
    checkInvariants(chain.state)
    checkOrderInvariants(chain.state)
  })

  test('a partly capped reduce-only maker fills what its owner can still close, the rest is cancelled', () => {
    const chain = aliceLong()
    chain.ok(ALICE, place(BTC, 'Ask', '65100', '0.4'))
    chain.ok(ALICE, place(BTC, 'Ask', '65200', '1', { reduceOnly: true }))
    runRows(chain, [
      {
        by: CAROL,
        action: place(BTC, 'Bid', '65200', '2', { tif: 'Ioc' }),
        expect: [
          'OrderAccepted',
          ev('Filled', { maker_order_id: 3, qty_lots: 4000, maker_size_after: 6000 }),
          ev('OrderDone', { order_id: 3, reason: 'Filled' }),
          ev('Filled', { maker_order_id: 4, qty_lots: 6000, maker_size_after: 0, maker_remaining_lots: 4000 }),
          ev('OrderDone', { order_id: 4, reason: 'ReduceOnlyClamped', remaining_lots: 4000, filled_lots: 6000 }),
          ev('OrderDone', { account: CAROL, reason: 'IocExpired', filled_lots: 10000, remaining_lots: 10000 }),
        ],
      },
    ])
    expect(sizeOf(chain, ALICE)).toBe(0)
    checkOrderInvariants(chain.state)
  })

  test("a plain maker fill that the walk ends on still clamps the owner's reduce-only orders further out", () => {
    const chain = aliceLong()
    chain.ok(ALICE, place(BTC, 'Ask', '70000', '1', { reduceOnly: true }))
    chain.ok(ALICE, place(BTC, 'Ask', '66000', '0.5'))
    runRows(chain, [
      {
        by: BOB,
        action: place(BTC, 'Bid', '66000', '0.5', { tif: 'Ioc' }),
        expect: [
          'OrderAccepted',
          ev('Filled', { maker: ALICE, maker_order_id: 4, maker_size_after: 5000 }),
          ev('OrderDone', { order_id: 4, reason: 'Filled' }),
          ev('OrderResting', { order_id: 3, account: ALICE, qty_lots: 5000, remaining_lots: 5000 }),
          ev('OrderDone', { account: BOB, reason: 'Filled' }),
        ],
      },
    ])
    checkOrderInvariants(chain.state)
  })

  test('a reduce-only bid of a short maker is capped the same way', () => {
    const chain = new TestChain()
    chain.ok(BOB, place(BTC, 'Bid', '65000', '1'))
    chain.ok(ALICE, place(BTC, 'Ask', '65000', '1', { tif: 'Ioc' }))
    // ALICE short 1: a plain bid and a reduce-only bid below it; CAROL sweeps both.
    chain.ok(ALICE, place(BTC, 'Bid', '64900', '1'))
    chain.ok(ALICE, place(BTC, 'Bid', '64800', '1', { reduceOnly: true }))
    const events = chain.ok(CAROL, place(BTC, 'Ask', '64800', '2', { tif: 'Ioc' }))
    expect(events.filter((e) => e.sub_kind === 'Filled').map((e) => e.sub_kind === 'Filled' && [e.maker_order_id, e.qty_lots])).toEqual([
      [3, 10000],
    ])
    expect(events).toContainEqual(expect.objectContaining({ sub_kind: 'OrderDone', order_id: 4, reason: 'ReduceOnlyClamped' }))
    expect(sizeOf(chain, ALICE)).toBe(0)
    checkOrderInvariants(chain.state)
  })
})
