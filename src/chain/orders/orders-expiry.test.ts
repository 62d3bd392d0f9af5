// PlaceOrder.expires_at_ms and the begin-block expiry hook (order-expiry.ts). TestChain gives every
// block one more second of block time; emptyBlockAt applies a block at a chosen time.
import { describe, expect, test } from 'bun:test'
import {
  batchPlace,
  checkOrderInvariants,
  emptyBlockAt,
  isOrderEvent,
  nextBlockTime,
  placePayload,
  placeX,
  rootMatches,
} from '../../../test/support/chain/orders.ts'
import { ALICE, BOB, BTC, cancel, checkInvariants, ETH, ev, place, runRows, TestChain } from '../../../test/support/chain/test-chain.ts'
import { applyBlock, eventEnvelopeIndexes } from '../block/apply.ts'
import { reservedMarginOf } from '../margin/reserved-margin.ts'
import { ORDER_LIMITS } from './order-indexes.ts'

describe('expires_at_ms at placement', () => {
  test('not after the block time: OrderExpired; after it: rests with its expiry', () => {
    const chain = new TestChain()
    const t = nextBlockTime(chain)
    runRows(chain, [
      { by: ALICE, action: placeX(BTC, 'Bid', '60000', '1', { expiresAtMs: t }), expect: { reject: 'OrderExpired' } },
      { by: ALICE, action: placeX(BTC, 'Bid', '60000', '1', { expiresAtMs: t + 1_000 - 1 }), expect: { reject: 'OrderExpired' } },
      { by: ALICE, action: placeX(BTC, 'Bid', '60000', '1', { expiresAtMs: t + 2_000 + 1 }), expect: ['OrderAccepted', 'OrderResting'] },
    ])
    expect([...chain.state.accounts.get(ALICE)!.orders.values()].map((o) => o.expiresAtMs)).toEqual([t + 2_001])
    checkOrderInvariants(chain.state)
  })

  test('an expiry on an order that does not rest is accepted and changes nothing', () => {
    const chain = new TestChain()
    chain.ok(BOB, place(BTC, 'Ask', '65000', '1'))
    const events = chain.ok(ALICE, placeX(BTC, 'Bid', '65000', '0.5', { tif: 'Ioc', expiresAtMs: nextBlockTime(chain) + 10 }))
    expect(events.map((e) => e.sub_kind)).toEqual(['OrderAccepted', 'Filled', 'OrderDone'])
    expect(chain.state.orderIndexes.expiries.size).toBe(0)
  })
})

describe('the expiry hook', () => {
  test('removes a resting order at the first block past its expiry, with remaining and filled lots', () => {
    const chain = new TestChain()
    const t0 = nextBlockTime(chain)
    const id = chain.placeOk(ALICE, placeX(BTC, 'Ask', '65000', '1', { expiresAtMs: t0 + 5_000, cloid: 'e1' }))
    chain.ok(BOB, place(BTC, 'Bid', '65000', '0.3', { tif: 'Ioc' }))
    const reserved = reservedMarginOf(chain.state.accounts.get(ALICE)!)
    expect(reserved).toBeGreaterThan(0n)
    // Block time equal to the expiry: not yet past it.
    expect(emptyBlockAt(chain, t0 + 5_000).events).toEqual([])
    const { result, events } = emptyBlockAt(chain, t0 + 5_001)
    expect(events).toEqual([
      {
        kind: 'Exec',
        sub_kind: 'OrderExpired',
        market_id: BTC,
        account: ALICE,
        order_id: id,
        reason: 'Expired',
        remaining_lots: 7000,
        filled_lots: 3000,
        expires_at_ms: t0 + 5_000,
        client_order_id: 'e1',
      },
    ])
    expect(eventEnvelopeIndexes(result)[result.events.findIndex((e) => e.sub_kind === 'OrderExpired')]).toBeNull()
    const alice = chain.state.accounts.get(ALICE)!
    expect([alice.orders.size, alice.ordersByClientId.size, reservedMarginOf(alice)]).toEqual([0, 0, 0n])
    expect(chain.state.books.get(BTC)!.size).toBe(0)
    expect(rootMatches(chain.state, result)).toBe(true)
    checkInvariants(chain.state)
    checkOrderInvariants(chain.state)
    // Its client id is free again.
    expect(chain.ok(ALICE, placeX(BTC, 'Ask', '65000', '1', { cloid: 'e1' })).map((e) => e.sub_kind)).toEqual([
      'OrderAccepted',
      'OrderResting',
    ])
  })

  test('orders that left the book before their expiry are skipped; ties go by order id', () => {
    const chain = new TestChain()
    const t = nextBlockTime(chain) + 60_000
    const ids = [
      chain.placeOk(ALICE, placeX(BTC, 'Bid', '60000', '1', { expiresAtMs: t })),
      chain.placeOk(BOB, placeX(BTC, 'Bid', '60001', '1', { expiresAtMs: t })),
      chain.placeOk(ALICE, placeX(ETH, 'Bid', '3000', '1', { expiresAtMs: t - 1 })),
      chain.placeOk(ALICE, placeX(BTC, 'Bid', '59000', '1', { expiresAtMs: t })),
      chain.placeOk(BOB, placeX(BTC, 'Bid', '59000', '1', { expiresAtMs: t })),
    ]
    chain.ok(ALICE, cancel(BTC, ids[3]!))
    // Fills BOB's bid at 60001 in full.
    chain.ok(ALICE, place(BTC, 'Ask', '60001', '1', { tif: 'Ioc' }))
    const block = emptyBlockAt(chain, t + 1)
    expect(block.events.map((e) => (e.sub_kind === 'OrderExpired' ? e.order_id : -1))).toEqual([ids[2]!, ids[0]!, ids[4]!])
    expect(rootMatches(chain.state, block.result)).toBe(true)
  })

  test('expiry runs at the beginning of the block, before its envelopes', () => {
    const chain = new TestChain()
    const t = nextBlockTime(chain) + 5_000
    const id = chain.placeOk(ALICE, placeX(BTC, 'Ask', '65000', '1', { expiresAtMs: t }))
    // In the block that expires it, a crossing bid no longer finds it.
    const envelopes = [chain.envelope({ by: BOB, action: place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' }) })]
    const result = applyBlock(chain.state, { height: chain.state.height + 1, timestampMs: t + 1, envelopes })
    const own = result.events.flatMap((e, seq) => (isOrderEvent(e) ? [[eventEnvelopeIndexes(result)[seq], e] as const] : []))
    expect(own.map(([envelopeIdx, e]) => [envelopeIdx, e.sub_kind])).toEqual([
      [null, 'OrderExpired'],
      [0, 'OrderAccepted'],
      [0, 'OrderDone'],
    ])
    expect(own[0]![1]).toMatchObject({ order_id: id })
  })

  test(`at most ${ORDER_LIMITS.expiriesPerBlockMax} orders expire per block; the rest in the next`, () => {
    const chain = new TestChain()
    const t = nextBlockTime(chain) + 1_000_000
    // 24 batches of 50 orders: 1,200 orders expiring at the same time.
    for (let b = 0; b < 24; b++) {
      const who = b % 2 === 0 ? ALICE : BOB
      const side = who === ALICE ? 'Bid' : 'Ask'
      const base = who === ALICE ? 50_000 : 70_000
      chain.ok(
        who,
        batchPlace(
          ...Array.from({ length: 50 }, (_, i) =>
            placePayload(BTC, side, String(base + (side === 'Bid' ? -1 : 1) * (b * 50 + i)), '0.01', { expiresAtMs: t }),
          ),
        ),
      )
    }
    expect(chain.state.books.get(BTC)!.size).toBe(1_200)
    const first = emptyBlockAt(chain, t + 1)
    expect(first.events.length).toBe(ORDER_LIMITS.expiriesPerBlockMax)
    expect(rootMatches(chain.state, first.result)).toBe(true)
    const second = emptyBlockAt(chain, t + 2)
    expect(second.events.length).toBe(200)
    expect(chain.state.books.get(BTC)!.size).toBe(0)
    const ids = [...first.events, ...second.events].map((e) => (e.sub_kind === 'OrderExpired' ? e.order_id : -1))
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    checkInvariants(chain.state)
    checkOrderInvariants(chain.state)
  })

  test('cancelled orders leave stale queue entries that compaction drops', () => {
    const chain = new TestChain()
    const t = nextBlockTime(chain) + 1_000_000
    for (let round = 0; round < 30; round++) {
      const events = chain.ok(
        ALICE,
        batchPlace(...Array.from({ length: 50 }, (_, i) => placePayload(BTC, 'Bid', String(50_000 + i), '0.01', { expiresAtMs: t }))),
      )
      expect(events.filter((e) => e.sub_kind === 'OrderResting').length).toBe(50)
      chain.ok(ALICE, { MassCancel: { by: 'Owner' } })
    }
    // 1,500 pushes, all stale but the ones since the last compaction: the queue stays bounded.
    expect(chain.state.orderIndexes.expiries.size).toBeLessThan(1_100)
    expect(emptyBlockAt(chain, t + 1).events).toEqual([])
  })
})

describe('expiry in batches', () => {
  test('a batch item with a passed expiry is rejected on its own', () => {
    const chain = new TestChain()
    const t = nextBlockTime(chain)
    runRows(chain, [
      {
        by: ALICE,
        action: batchPlace(
          placePayload(BTC, 'Bid', '60000', '1', { expiresAtMs: t - 1 }),
          placePayload(BTC, 'Bid', '60000', '1', { expiresAtMs: t + 60_000 }),
        ),
        expect: [
          ev('BatchItemRejected', { index: 0, reason: 'OrderExpired', action_kind: 'BatchPlaceOrder' }),
          'OrderAccepted',
          'OrderResting',
        ],
      },
    ])
  })
})
