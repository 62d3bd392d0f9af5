// A seeded random workload of the margin area: market makers quote around mids that random-walk
// (with jumps), small accounts trade at high leverage in Cross and Isolated mode, change their
// leverage and mode, move isolated margin, and the liquidator liquidates whatever the scan lists
// (plus stale attempts). After every block: the incremental root equals the full recomputation,
// sum(balance + isolated margin - cost basis) is conserved, and the state and margin invariants
// hold (no hidden negative balance among them). Replaying the blocks reaches the same roots.
import { describe, expect, test } from 'bun:test'
import {
  checkMarginInvariants,
  conservedWithIsolated,
  EVE,
  FRED,
  GINA,
  LIQ,
  liquidate,
  marginGenesis,
  updateIsolatedMargin,
  updateLeverage,
  updateMarginMode,
} from '../../../test/support/chain/margin.ts'
import { ALICE, BOB, BTC, CAROL, cancel, DAVE, ETH, place, Rng, SOL, TestChain, type Tx } from '../../../test/support/chain/test-chain.ts'
import { expectReached, runWorkload } from '../../../test/support/chain/workload.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import { createGenesisState } from '../block/genesis.ts'
import type { ChainState, Market } from '../core/types.ts'
import { liquidatablePositions } from './liquidatable.ts'

const BLOCKS = 160
const EXTRA = [
  '0x00000000000000000000000000000000000e0e04',
  '0x00000000000000000000000000000000000e0e05',
  '0x00000000000000000000000000000000000e0e06',
]
const SMALL = [EVE, FRED, GINA, ...EXTRA]
const MAKERS = [ALICE, BOB]

interface Flow {
  readonly id: number
  mid: number
  readonly maxLots: number
}

class MarginWorkload {
  private readonly rng: Rng
  private readonly flows: Flow[] = [
    { id: BTC, mid: 600_000, maxLots: 30_000 },
    { id: ETH, mid: 350_000, maxLots: 20_000 },
    { id: SOL, mid: 150_000, maxLots: 2_000 },
  ]

  constructor(seed: number) {
    this.rng = new Rng(seed)
  }

  block(state: ChainState): Tx[] {
    const rng = this.rng
    const txs: Tx[] = []
    for (const f of this.flows) {
      // A random walk of about 1% per block, with a 5% jump now and then.
      const step = Math.floor(f.mid / (rng.chance(6) ? 20 : 100))
      f.mid = Math.max(10_000, f.mid + rng.range(-step, step))
      const market = state.markets.get(f.id)!
      // Makers quote both sides; a bystander trades at the mid so the mark follows it.
      for (let i = 0; i < 2; i++) {
        txs.push({
          by: ALICE,
          action: this.order(market, 'Bid', f.mid - 1 - rng.int(Math.floor(f.mid / 200)), rng.range(1, f.maxLots), 'Gtc'),
        })
        txs.push({
          by: BOB,
          action: this.order(market, 'Ask', f.mid + 1 + rng.int(Math.floor(f.mid / 200)), rng.range(1, f.maxLots), 'Gtc'),
        })
      }
      txs.push({
        by: rng.chance(50) ? CAROL : DAVE,
        action: this.order(market, rng.chance(50) ? 'Bid' : 'Ask', f.mid, rng.range(1, f.maxLots), 'Ioc'),
      })
    }
    // Makers drop quotes that drifted away, so books stay small.
    for (const maker of MAKERS) {
      let n = 0
      for (const o of state.accounts.get(maker)!.orders.values()) {
        const f = this.flows.find((x) => x.id === o.marketId)!
        if (Math.abs(o.priceTicks - f.mid) > f.mid / 100 && n++ < 20) txs.push({ by: maker, action: cancel(o.marketId, o.id) })
      }
    }
    const count = rng.range(10, 25)
    for (let i = 0; i < count; i++) txs.push(this.smallTx(state))
    // The liquidator takes what the scan lists now; some entries are gone by the time they run.
    const listed = liquidatablePositions(state, [...state.markets.values()], 6).entries
    for (const e of listed) txs.push({ by: LIQ, action: liquidate(e.account.address, e.market.marketId) })
    if (rng.chance(20)) txs.push({ by: LIQ, action: liquidate(rng.pick(SMALL), rng.pick(this.flows).id) })
    return txs
  }

  private order(market: Market, side: 'Bid' | 'Ask', ticks: number, lots: number, tif: 'Gtc' | 'Ioc', reduceOnly = false) {
    return place(
      market.marketId,
      side,
      formatDecimal(BigInt(Math.max(1, ticks)), market.priceDecimals),
      formatDecimal(BigInt(lots), market.sizeDecimals),
      { tif, reduceOnly },
    )
  }

  private smallTx(state: ChainState): Tx {
    const rng = this.rng
    const by = rng.pick(SMALL)
    const f = rng.pick(this.flows)
    const market = state.markets.get(f.id)!
    const r = rng.int(100)
    if (r < 12) return { by, action: updateLeverage(f.id, rng.range(0, market.maxLeverage + 2)) }
    if (r < 20) return { by, action: updateMarginMode(f.id, rng.chance(50) ? 'Isolated' : 'Cross') }
    if (r < 28) {
      const amount = formatDecimal(BigInt(rng.range(1, 3_000_000_000)), 6)
      return { by, action: updateIsolatedMargin(f.id, amount, rng.chance(50) ? 'Add' : 'Remove') }
    }
    if (r < 36) {
      const orders = [...state.accounts.get(by)!.orders.values()]
      if (orders.length > 0) {
        const o = rng.pick(orders)
        return { by, action: cancel(o.marketId, o.id) }
      }
    }
    const side = rng.chance(50) ? 'Bid' : 'Ask'
    const sign = side === 'Bid' ? 1 : -1
    const lots = rng.range(1, f.maxLots * (rng.chance(10) ? 8 : 1))
    if (r < 75)
      return { by, action: this.order(market, side, f.mid + sign * rng.int(Math.floor(f.mid / 100)), lots, 'Ioc', rng.chance(20)) }
    return { by, action: this.order(market, side, f.mid - sign * (1 + rng.int(Math.floor(f.mid / 100))), lots, 'Gtc', rng.chance(10)) }
  }
}

describe('margin modes and liquidation under a random workload', () => {
  test(`${BLOCKS} blocks: root = full root, conservation with isolated margin, invariants, replay`, () => {
    const genesis = marginGenesis(EXTRA.map((address) => ({ address, balance: '5000', roles: ['Trader'] })))
    const workload = new MarginWorkload(7_700_001)
    const conserved = conservedWithIsolated(createGenesisState(genesis).state)
    const seen = runWorkload({
      genesis: () => new TestChain(createGenesisState(genesis).state),
      blocks: BLOCKS,
      nextBlock: (chain) => ({ envelopes: workload.block(chain.state).map((tx) => chain.envelope(tx)) }),
      afterBlock: (chain, _result, height) => {
        expect({ height, conserved: conservedWithIsolated(chain.state) }).toEqual({ height, conserved })
        checkMarginInvariants(chain.state)
      },
      eventKey: (e) =>
        e.sub_kind === 'Rejected' ? e.reason : e.sub_kind === 'PositionLiquidated' ? `Liquidated:${e.margin_mode}` : e.sub_kind,
    })
    expectReached(seen, [
      'Liquidated:Cross',
      'Liquidated:Isolated',
      'BadDebt',
      'LeverageUpdated',
      'MarginModeUpdated',
      'IsolatedMarginUpdated',
      'InvalidLeverage',
      'PositionOpen',
      'OpenOrdersExist',
      'NoOpenPosition',
      'PositionNotIsolated',
      'InsufficientMargin',
      'NotLiquidatable',
    ])
  }, 60_000)
})
