// MassCancel, the dead man's switch (ScheduleCancel and its begin-block hook) and Noop.
import { describe, expect, test } from 'bun:test'
import {
  acceptedIds,
  batchPlace,
  checkOrderInvariants,
  emptyBlockAt,
  massCancel,
  nextBlockTime,
  noop,
  placePayload,
  rootMatches,
  scheduleCancel,
} from '../../../test/support/chain/orders.ts'
import { ALICE, BOB, BTC, checkInvariants, ETH, ev, place, runRows, SOL, TestChain } from '../../../test/support/chain/test-chain.ts'
import { lowestUnusedNonce } from '../access/accounts.ts'
import { reservedMarginOf } from '../margin/reserved-margin.ts'
import { ORDER_LIMITS } from './order-indexes.ts'

/** ALICE rests bids and asks on BTC and a bid on ETH; BOB one BTC bid. Returns ALICE's ids. */
function withOrders(chain: TestChain): [number, number, number, number] {
  const ids = acceptedIds(
    chain.ok(
      ALICE,
      batchPlace(
        placePayload(BTC, 'Bid', '60000', '1'),
        placePayload(BTC, 'Bid', '59000', '1'),
        placePayload(BTC, 'Ask', '70000', '1'),
        placePayload(ETH, 'Bid', '3000', '1'),
      ),
    ),
  )
  chain.ok(BOB, place(BTC, 'Bid', '58000', '1'))
  return ids as [number, number, number, number]
}
const openIds = (chain: TestChain, who: string): number[] => [...chain.state.accounts.get(who)!.orders.keys()]

describe('MassCancel', () => {
  test('by Side: one side of one market', () => {
    const chain = new TestChain()
    const [b1, b2, a1, e1] = withOrders(chain)
    runRows(chain, [
      {
        by: ALICE,
        action: massCancel({ by: 'Side', market_id: BTC, side: 'Bid' }),
        expect: [
          ev('OrderDone', { order_id: b1, reason: 'Cancelled' }),
          ev('OrderDone', { order_id: b2, reason: 'Cancelled' }),
          ev('MassCancelDone', { by: 'Side', side: 'Bid', market_id: BTC, cancelled: 2, not_found: [] }),
        ],
      },
    ])
    expect(openIds(chain, ALICE)).toEqual([a1, e1])
    expect(openIds(chain, BOB).length).toBe(1)
  })

  test('by Owner: every order, or those of one market', () => {
    const chain = new TestChain()
    const [, , , e1] = withOrders(chain)
    runRows(chain, [
      {
        by: ALICE,
        action: massCancel({ by: 'Owner', market_id: BTC }),
        expect: ['OrderDone', 'OrderDone', 'OrderDone', ev('MassCancelDone', { cancelled: 3 })],
      },
    ])
    expect(openIds(chain, ALICE)).toEqual([e1])
    runRows(chain, [
      {
        by: ALICE,
        action: massCancel({ by: 'Owner' }),
        expect: [ev('OrderDone', { order_id: e1 }), ev('MassCancelDone', { market_id: null, cancelled: 1 })],
      },
      { by: ALICE, action: massCancel({ by: 'Owner' }), expect: [ev('MassCancelDone', { cancelled: 0 })] },
    ])
    expect(reservedMarginOf(chain.state.accounts.get(ALICE)!)).toBe(0n)
    checkInvariants(chain.state)
  })

  test('by Ids: listed orders; unknown, foreign, other-market and repeated ids are reported, not rejected', () => {
    const chain = new TestChain()
    const [b1, b2, a1, e1] = withOrders(chain)
    const bobs = openIds(chain, BOB)[0]!
    runRows(chain, [
      {
        by: ALICE,
        action: massCancel({ by: 'Ids', market_id: BTC, order_ids: [a1!, 999, bobs, e1!, a1!, b2!] }),
        expect: [
          ev('OrderDone', { order_id: a1 }),
          ev('OrderDone', { order_id: b2 }),
          ev('MassCancelDone', { by: 'Ids', cancelled: 2, not_found: [999, bobs, e1] }),
        ],
      },
    ])
    expect(openIds(chain, ALICE)).toEqual([b1, e1])
  })

  test('malformed selections and unknown markets are rejected', () => {
    const chain = new TestChain()
    withOrders(chain)
    runRows(chain, [
      { by: ALICE, action: massCancel({ by: 'Side', market_id: BTC }), expect: { reject: 'InvalidMassCancel' } },
      { by: ALICE, action: massCancel({ by: 'Side', side: 'Bid' }), expect: { reject: 'InvalidMassCancel' } },
      { by: ALICE, action: massCancel({ by: 'Owner', side: 'Bid' }), expect: { reject: 'InvalidMassCancel' } },
      { by: ALICE, action: massCancel({ by: 'Ids' }), expect: { reject: 'InvalidMassCancel' } },
      { by: ALICE, action: massCancel({ by: 'Owner', order_ids: [1] }), expect: { reject: 'InvalidMassCancel' } },
      { by: ALICE, action: massCancel({ by: 'Owner', market_id: 99 }), expect: { reject: 'MarketNotFound' } },
    ])
    expect(openIds(chain, ALICE).length).toBe(4)
  })
})

describe("dead man's switch", () => {
  test('deadlines must be 5 s to 24 h ahead of block time', () => {
    const chain = new TestChain()
    // Row i runs in a block of its own, at block time t0 + i seconds.
    const t0 = nextBlockTime(chain)
    const t = (row: number) => t0 + row * 1_000
    runRows(chain, [
      { by: ALICE, action: scheduleCancel(t(0) + ORDER_LIMITS.dmsLeadMsMin - 1), expect: { reject: 'InvalidDeadline' } },
      { by: ALICE, action: scheduleCancel(t(1) + ORDER_LIMITS.dmsLeadMsMax + 1), expect: { reject: 'InvalidDeadline' } },
      { by: ALICE, action: scheduleCancel(t(2) - 1), expect: { reject: 'InvalidDeadline' } },
      {
        by: ALICE,
        action: scheduleCancel(t(3) + ORDER_LIMITS.dmsLeadMsMin),
        expect: [ev('CancelScheduled', { deadline_ms: t(3) + ORDER_LIMITS.dmsLeadMsMin })],
      },
      { by: ALICE, action: scheduleCancel(t(4) + ORDER_LIMITS.dmsLeadMsMax), expect: ['CancelScheduled'] },
      { by: ALICE, action: scheduleCancel(null), expect: [ev('CancelScheduled', { deadline_ms: null })] },
    ])
    expect(chain.state.accounts.get(ALICE)!.dmsDeadlineMs).toBeNull()
  })

  test('fires at the first block past the deadline: every resting order cancelled, deadline cleared', () => {
    const chain = new TestChain()
    const ids = withOrders(chain)
    const deadline = nextBlockTime(chain) + 10_000
    chain.ok(ALICE, scheduleCancel(deadline))
    expect(chain.state.accounts.get(ALICE)!.dmsDeadlineMs).toBe(deadline)
    expect(emptyBlockAt(chain, deadline).events).toEqual([])
    const { result, events } = emptyBlockAt(chain, deadline + 1)
    expect(events.map((e): unknown[] => (e.sub_kind === 'OrderDone' ? [e.order_id, e.reason] : [e.sub_kind]))).toEqual([
      ...ids.map((id) => [id, 'DeadMansSwitch']),
      ['DeadMansSwitchFired'],
    ])
    expect(events.at(-1)).toMatchObject({ account: ALICE, deadline_ms: deadline, cancelled: 4 })
    const alice = chain.state.accounts.get(ALICE)!
    expect([alice.orders.size, reservedMarginOf(alice), alice.dmsDeadlineMs]).toEqual([0, 0n, null])
    expect(openIds(chain, BOB).length).toBe(1)
    expect(rootMatches(chain.state, result)).toBe(true)
    checkInvariants(chain.state)
    checkOrderInvariants(chain.state)
    // Once only.
    expect(emptyBlockAt(chain, deadline + 60_000).events).toEqual([])
  })

  test('a deadline pushed forward or cleared does not fire at the old time', () => {
    const chain = new TestChain()
    withOrders(chain)
    const first = nextBlockTime(chain) + 10_000
    chain.ok(ALICE, scheduleCancel(first))
    chain.ok(ALICE, scheduleCancel(first + 20_000))
    chain.ok(BOB, scheduleCancel(first))
    chain.ok(BOB, scheduleCancel(null))
    expect(emptyBlockAt(chain, first + 1).events).toEqual([])
    checkOrderInvariants(chain.state)
    const fired = emptyBlockAt(chain, first + 20_001).events
    expect(fired.filter((e) => e.sub_kind === 'OrderDone').length).toBe(4)
    expect(fired.at(-1)).toMatchObject({ sub_kind: 'DeadMansSwitchFired', account: ALICE })
  })

  test('orders placed after scheduling are cancelled too; the switch is part of the state root', () => {
    const chain = new TestChain()
    const deadline = nextBlockTime(chain) + 30_000
    const r = chain.block([{ by: ALICE, action: scheduleCancel(deadline) }])
    expect(rootMatches(chain.state, r)).toBe(true)
    chain.ok(ALICE, place(SOL, 'Bid', '100', '1'))
    const { events } = emptyBlockAt(chain, deadline + 5)
    expect(events.map((e) => e.sub_kind)).toEqual(['OrderDone', 'DeadMansSwitchFired'])
  })
})

describe('Noop', () => {
  test('consumes the nonce, emits nothing, changes nothing else', () => {
    const chain = new TestChain()
    const before = chain.balance(ALICE)
    const out = chain.send(ALICE, noop())
    expect(out).toEqual({ status: 'accepted', reason: null, events: [] })
    expect(lowestUnusedNonce(chain.state, ALICE)).toBe(1)
    expect(chain.balance(ALICE)).toBe(before)
  })
})
