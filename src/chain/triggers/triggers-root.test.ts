// A seeded random workload of trading, triggers, OCO pairs and brackets: after every block the
// incremental root equals fullStateRoot (no trigger mutation forgot its leaf), the state and
// trigger-index invariants hold, and replaying the blocks on a fresh genesis gives the same roots
// and events. The workload must reach every trigger transition of docs/orders.md#trigger-orders.
import { describe, expect, test } from 'bun:test'
import { ALICE, BOB, CAROL, cancel, DAVE, place, Rng, TestChain, type Tx } from '../../../test/support/chain/test-chain.ts'
import {
  amendTrig,
  cancelOco,
  cancelTrig,
  cancelTrigByCloid,
  checkTriggerInvariants,
  oco,
  trig,
} from '../../../test/support/chain/triggers.ts'
import { expectReached, runWorkload } from '../../../test/support/chain/workload.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import type { ChainState, Side } from '../core/types.ts'

const BLOCKS = 160
const TRADERS = [ALICE, BOB, CAROL, DAVE]

interface Flow {
  readonly id: number
  mid: number
  readonly maxLots: number
}

class TriggerWorkload {
  private readonly rng: Rng
  private readonly flows: Flow[] = [
    { id: 1, mid: 650_000, maxLots: 3_000 },
    { id: 2, mid: 350_000, maxLots: 1_000 },
  ]
  private pairIds = 0

  constructor(seed: number) {
    this.rng = new Rng(seed)
  }

  block(state: ChainState): Tx[] {
    const txs: Tx[] = []
    // The mid drifts in runs so marks travel far enough to cross triggers both ways.
    for (const f of this.flows) f.mid = Math.max(1_000, f.mid + this.rng.range(-2_500, 2_500))
    const count = this.rng.range(10, 30)
    for (let i = 0; i < count; i++) txs.push(this.tx(state))
    return txs
  }

  private price(f: Flow, ticks: number): string {
    return formatDecimal(BigInt(Math.max(1, ticks)), f.id === 1 ? 1 : 2)
  }

  private lots(f: Flow, lots: number): string {
    return formatDecimal(BigInt(Math.max(1, lots)), f.id === 1 ? 4 : 3)
  }

  private tx(state: ChainState): Tx {
    const rng = this.rng
    const by = rng.pick(TRADERS)
    const f = rng.pick(this.flows)
    const market = state.markets.get(f.id)!
    const mark = market.markTicks
    const side: Side = rng.chance(50) ? 'Bid' : 'Ask'
    const sign = side === 'Bid' ? 1 : -1
    const r = rng.int(100)
    const mine = state.triggers.accounts.get(by)
    const triggers = mine === undefined ? [] : [...mine.triggers.values()]
    const pairs = mine === undefined ? [] : [...mine.pairs.values()]
    const orders = [...state.accounts.get(by)!.orders.values()]
    if (r < 35) {
      // Trading: resting quotes around the mid and crossing takers.
      const crossing = rng.chance(40)
      const px = crossing ? f.mid + sign * rng.int(400) : f.mid - sign * rng.range(50, 800)
      return {
        by,
        action: place(f.id, side, this.price(f, px), this.lots(f, rng.range(1, f.maxLots)), {
          tif: crossing ? 'Ioc' : 'Gtc',
          reduceOnly: rng.chance(15),
        }),
      }
    }
    if (r < 55) {
      // A trigger around the mark; sometimes on the firing side (rejected at once).
      const direction = rng.chance(50) ? 'Above' : 'Below'
      const offset = rng.range(-200, 3_000) * (direction === 'Above' ? 1 : -1)
      const limit = rng.chance(40)
      return {
        by,
        action: trig(f.id, side, this.lots(f, rng.range(1, f.maxLots)), this.price(f, mark + offset), direction, {
          ...(limit
            ? {
                type: 'limit' as const,
                limit: this.price(f, mark + offset + rng.range(-500, 500)),
                tif: rng.pick(['Gtc', 'Ioc', 'PostOnly'] as const),
              }
            : {}),
          reduceOnly: rng.chance(30),
          ...(rng.chance(30) ? { cloid: `t${rng.int(6)}` } : {}),
          ...(rng.chance(25) ? { expiresAtMs: state.timestampMs + rng.range(0, 8) * 1_000 } : {}),
        }),
      }
    }
    if (r < 63 && triggers.length > 0) {
      const t = rng.pick(triggers)
      const change: Record<string, unknown> = {}
      if (rng.chance(60)) change.trigger_price = this.price(f, t.triggerTicks + rng.range(-800, 800))
      if (rng.chance(40)) change.qty = this.lots(f, rng.range(1, f.maxLots))
      if (rng.chance(20)) change.expires_at_ms = rng.chance(50) ? null : state.timestampMs + rng.range(1, 6) * 1_000
      return { by, action: amendTrig(t.marketId, t.id, change) }
    }
    if (r < 70 && triggers.length > 0) {
      const t = rng.pick(triggers)
      return {
        by,
        action:
          t.clientOrderId !== undefined && rng.chance(50) ? cancelTrigByCloid(t.marketId, t.clientOrderId) : cancelTrig(t.marketId, t.id),
      }
    }
    if (r < 82) {
      // An OCO pair closing either side, or a bracket on a resting order.
      const parent = orders.length > 0 && rng.chance(35) ? rng.pick(orders) : undefined
      const legSide: Side = parent === undefined ? side : parent.side === 'Bid' ? 'Ask' : 'Bid'
      const legSign = legSide === 'Bid' ? 1 : -1
      const fm = parent === undefined ? f : this.flows.find((x) => x.id === parent.marketId)!
      const fmMark = state.markets.get(fm.id)!.markTicks
      return {
        by,
        action: oco(
          fm.id,
          legSide,
          this.lots(fm, rng.range(1, fm.maxLots)),
          this.price(fm, fmMark - legSign * rng.range(100, 2_500)),
          this.price(fm, fmMark + legSign * rng.range(200, 3_000)),
          legSide === 'Bid' ? 'Above' : 'Below',
          this.pairIds++ % 40,
          {
            reduceOnly: rng.chance(40),
            ...(parent === undefined ? {} : { parent: parent.id }),
            ...(rng.chance(15) ? { stopExpiresAtMs: state.timestampMs + rng.range(1, 6) * 1_000 } : {}),
          },
        ),
      }
    }
    if (r < 88 && pairs.length > 0) {
      const p = rng.pick(pairs)
      return { by, action: cancelOco(p.marketId, p.id) }
    }
    if (orders.length > 0) {
      const o = rng.pick(orders)
      return { by, action: cancel(o.marketId, o.id) }
    }
    return { by, action: place(f.id, side, this.price(f, f.mid - sign * 1_000), this.lots(f, 1)) }
  }
}

describe('triggers and OCO pairs in the state root', () => {
  test(`${BLOCKS} random blocks: incremental root = full root, invariants hold, replay agrees, every transition reached`, () => {
    const workload = new TriggerWorkload(7_2026)
    const seen = runWorkload({
      genesis: () => new TestChain(),
      blocks: BLOCKS,
      nextBlock: (chain) => ({ envelopes: workload.block(chain.state).map((tx) => chain.envelope(tx)) }),
      afterBlock: (chain) => checkTriggerInvariants(chain.state),
      eventKey: (e) =>
        e.sub_kind === 'Rejected'
          ? `Rejected:${e.reason}`
          : e.kind === 'Trigger' || e.kind === 'Oco'
            ? 'reason' in e
              ? `${e.sub_kind}:${e.reason}`
              : e.sub_kind
            : undefined,
    })
    expectReached(seen, [
      'TriggerPlaced',
      'TriggerAmended',
      'TriggerActivated',
      'TriggerExpired:Expired',
      'TriggerCancelled:ByOwner',
      'TriggerCancelled:OnFailure',
      'TriggerCancelled:OcoSibling',
      'OcoPlaced',
      'OcoResolved:OrderResolved',
      'OcoResolved:TriggerFired',
      'OcoResolved:ManualCancel',
      'OcoResolved:PairCancelled',
      'OcoResolved:TriggerExpired',
      'Rejected:TriggerWouldFireImmediately',
    ])
    expect([...seen.keys()].some((k) => k.startsWith('TriggerFireFailed:'))).toBe(true)
  })
})
