// A seeded random workload of every order action (PlaceOrder with expiries and reduce-only,
// BatchPlaceOrder, BatchModify, CancelOrder, MassCancel, ScheduleCancel, Noop) in blocks with
// irregular gaps, so orders expire and switches fire between envelopes. After every block: the
// incremental state root equals the full recomputation, the state and order-area invariants hold
// (reduce-only orders never exceed what their owner can close), money is conserved; replaying the
// blocks from genesis reaches the same roots and events.
import { describe, expect, test } from 'bun:test'
import {
  batchModify,
  batchPlace,
  checkOrderInvariants,
  massCancel,
  noop,
  placePayload,
  scheduleCancel,
} from '../../../test/support/chain/orders.ts'
import {
  type Action,
  ALICE,
  BOB,
  CAROL,
  cancel,
  conservedSum,
  DAVE,
  genesisState,
  Rng,
  TestChain,
} from '../../../test/support/chain/test-chain.ts'
import { expectReached, runWorkload } from '../../../test/support/chain/workload.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import type { ChainState, Side, Tif } from '../core/types.ts'
import { ORDER_LIMITS } from './order-indexes.ts'

const BLOCKS = 220
const TRADERS = [ALICE, BOB, CAROL, DAVE]
const MARKETS = [
  { id: 1, mid: 650_000, maxLots: 5_000 },
  { id: 2, mid: 350_000, maxLots: 2_000 },
]

class Workload {
  private readonly rng: Rng
  private readonly mids = MARKETS.map((m) => m.mid)

  constructor(seed: number) {
    this.rng = new Rng(seed)
  }

  /** One block's actions, generated from the state before it; `time` is the block's time. */
  block(state: ChainState, time: number): { by: string; action: Action }[] {
    const count = this.rng.range(10, 40)
    return Array.from({ length: count }, () => {
      const by = this.rng.pick(TRADERS)
      return { by, action: this.action(state, by, time) }
    })
  }

  private order(state: ChainState, time: number, aggressive: boolean): Record<string, unknown> {
    const rng = this.rng
    const mi = rng.int(MARKETS.length)
    const m = MARKETS[mi]!
    const mid = Math.max(1_000, this.mids[mi]! + rng.range(-3, 3))
    this.mids[mi] = mid
    const side: Side = rng.chance(50) ? 'Bid' : 'Ask'
    const sign = side === 'Bid' ? 1 : -1
    const price = aggressive ? mid + sign * rng.int(20) : mid - sign * (1 + rng.int(30))
    const tif: Tif = aggressive ? rng.pick(['Ioc', 'Ioc', 'Fok', 'Gtc'] as const) : rng.chance(15) ? 'PostOnly' : 'Gtc'
    const market = state.markets.get(m.id)!
    const cloid = rng.chance(15) ? `c${rng.int(12)}` : undefined
    // Expiries from already past to 20 s ahead, so some expire between blocks and some are refused.
    const expiresAtMs = rng.chance(25) ? time + rng.range(-500, 20_000) : undefined
    return placePayload(
      m.id,
      side,
      formatDecimal(BigInt(price), market.priceDecimals),
      formatDecimal(BigInt(rng.range(1, m.maxLots)), market.sizeDecimals),
      {
        tif,
        reduceOnly: rng.chance(30),
        ...(cloid === undefined ? {} : { cloid }),
        ...(expiresAtMs === undefined ? {} : { expiresAtMs }),
      },
    )
  }

  private action(state: ChainState, by: string, time: number): Action {
    const rng = this.rng
    const mine = [...state.accounts.get(by)!.orders.values()]
    const r = rng.int(100)
    if (r < 30) return { PlaceOrder: this.order(state, time, false) }
    if (r < 45) return { PlaceOrder: this.order(state, time, true) }
    if (r < 53) return batchPlace(...Array.from({ length: rng.range(1, 6) }, () => this.order(state, time, rng.chance(30))))
    if (r < 68 && mine.length > 0) {
      return batchModify(
        ...Array.from({ length: rng.range(1, 4) }, () => {
          const o = rng.pick(mine)
          const market = state.markets.get(o.marketId)!
          const ref = o.clientOrderId !== undefined && rng.chance(40) ? { client_order_id: o.clientOrderId } : { order_id: o.id }
          const k = rng.int(5)
          const qty = (lots: number) => formatDecimal(BigInt(Math.max(1, lots)), market.sizeDecimals)
          if (k === 0) return { market_id: o.marketId, ...ref, qty: qty(o.origLots - rng.range(1, o.remainingLots)) }
          if (k === 1) return { market_id: o.marketId, ...ref, qty: qty(o.origLots + rng.range(1, 1_000)) }
          if (k === 2) return { market_id: o.marketId, ...ref, qty: qty(o.origLots - o.remainingLots) }
          if (k === 3) return { market_id: o.marketId, ...ref, tif: rng.pick(['Gtc', 'PostOnly', 'Ioc'] as const) }
          const sign = o.side === 'Bid' ? 1 : -1
          return {
            market_id: o.marketId,
            ...ref,
            price: formatDecimal(BigInt(Math.max(1, o.priceTicks + sign * rng.range(-25, 25))), market.priceDecimals),
          }
        }),
      )
    }
    if (r < 80 && mine.length > 0) return cancel(rng.pick(mine).marketId, rng.pick(mine).id)
    if (r < 85) {
      const k = rng.int(3)
      if (k === 0) return massCancel({ by: 'Owner', ...(rng.chance(50) ? { market_id: rng.pick(MARKETS).id } : {}) })
      if (k === 1) return massCancel({ by: 'Side', market_id: rng.pick(MARKETS).id, side: rng.chance(50) ? 'Bid' : 'Ask' })
      return massCancel({ by: 'Ids', order_ids: [...mine.slice(0, rng.int(4)).map((o) => o.id), state.nextOrderId + 100] })
    }
    if (r < 90) {
      const k = rng.int(10)
      if (k === 0) return scheduleCancel(null)
      if (k === 1) return scheduleCancel(time + 1_000) // too soon
      return scheduleCancel(time + rng.range(ORDER_LIMITS.dmsLeadMsMin, 25_000))
    }
    if (r < 93) return noop()
    return { PlaceOrder: this.order(state, time, true) }
  }
}

describe('order actions, random workload', () => {
  test(`${BLOCKS} blocks: incremental root, invariants, conservation, replay`, () => {
    const workload = new Workload(7_070_707)
    const gaps = new Rng(11)
    const conserved = conservedSum(genesisState())
    const seen = runWorkload({
      genesis: () => new TestChain(),
      blocks: BLOCKS,
      nextBlock: (chain) => {
        // Mostly short gaps, sometimes a long one that lets expiries and switches come due.
        const timestampMs = chain.state.timestampMs + (gaps.chance(10) ? gaps.range(5_000, 30_000) : gaps.range(1, 1_500))
        return { timestampMs, envelopes: workload.block(chain.state, timestampMs).map((tx) => chain.envelope(tx)) }
      },
      afterBlock: (chain, _result, height) => {
        checkOrderInvariants(chain.state)
        expect({ height, conserved: conservedSum(chain.state) }).toEqual({ height, conserved })
      },
      eventKey: (e) =>
        e.sub_kind === 'OrderDone'
          ? `Done:${e.reason}`
          : e.sub_kind === 'Rejected' || e.sub_kind === 'BatchItemRejected'
            ? `${e.sub_kind}:${e.reason}`
            : e.sub_kind,
    })
    expectReached(seen, [
      'OrderExpired',
      'DeadMansSwitchFired',
      'CancelScheduled',
      'MassCancelDone',
      'Filled',
      'Done:Replaced',
      'Done:AmendClampedAtFilled',
      'Done:ReduceOnlyClamped',
      'Done:DeadMansSwitch',
      'Done:Cancelled',
      'Done:SelfTradeCancelled',
      'BatchItemRejected:OrderExpired',
      'BatchItemRejected:InvalidModify',
      'BatchItemRejected:OrderNotFound',
      'Rejected:InvalidDeadline',
      'Rejected:OrderExpired',
      'Rejected:ReduceOnlyWouldOpenOrFlip',
    ])
  })
})
