// A seeded random workload of the markets area: oracle quotes (good and bad, in batches), orders on
// the external-peg and native markets, halts, resumes, emergency halts, amendments, delisting with
// open orders and positions, market creation and cancellation. After every block the incremental
// root must equal fullStateRoot (a market mutation that forgot markLeaf shows up), the invariants
// must hold and the money sum must be conserved; replaying the blocks reaches the same roots.
import { describe, expect, test } from 'bun:test'
import {
  activate,
  amend,
  cancelMarket,
  completeDelist,
  emergencyHalt,
  haltMarket,
  moneySum,
  QUOTER,
  type QuoteItem,
  quotes,
  requestDelist,
  resumeMarket,
} from '../../../test/support/chain/markets.ts'
import {
  ADMIN,
  ALICE,
  BOB,
  CAROL,
  createMarket,
  DAVE,
  genesisState,
  place,
  Rng,
  TestChain,
  type Tx,
  XAU,
} from '../../../test/support/chain/test-chain.ts'
import { expectReached, runWorkload } from '../../../test/support/chain/workload.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import type { ChainState } from '../core/types.ts'

const BLOCKS = 240
const TRADERS = [ALICE, BOB, CAROL, DAVE]

/** Generates one block of the markets workload from the state before it. */
class MarketsWorkload {
  private readonly rng: Rng
  /** Mid of each external-peg market, in ticks; it walks a little every block. */
  private readonly mids = new Map<number, number>([[XAU, 240_000]])
  private created = 0

  constructor(seed: number) {
    this.rng = new Rng(seed)
  }

  block(state: ChainState): Tx[] {
    const rng = this.rng
    const blockMs = state.timestampMs + 1_000
    const txs: Tx[] = []
    // Quotes: mostly good, sometimes missing (so markets go stale), sometimes bad (storms).
    if (rng.chance(80)) {
      const items: QuoteItem[] = []
      for (const [id, mid] of this.mids) {
        const next = Math.max(20_000, mid + rng.range(-300, 300))
        this.mids.set(id, next)
        const bad = rng.chance(12)
        const spread = rng.range(1, 100)
        items.push({
          market: id,
          bid: formatDecimal(BigInt(bad ? next + spread : next - spread), 2),
          ask: formatDecimal(BigInt(bad ? next - spread : next + spread), 2),
          mark: formatDecimal(BigInt(next), 2),
          ts: blockMs - rng.range(0, 500) + (rng.chance(3) ? 20_000 : 0),
        })
      }
      if (rng.chance(10)) items.push({ market: 1, bid: '1', ask: '2', mark: '1', ts: blockMs })
      txs.push({ by: QUOTER, action: quotes(items) })
    }
    const count = rng.range(5, 25)
    for (let i = 0; i < count; i++) txs.push(this.order(state))
    const r = rng.int(100)
    const peg = rng.pick([...this.mids.keys()])
    if (r < 4) txs.push({ by: ADMIN, action: haltMarket(rng.chance(50) ? peg : rng.range(1, 3)) })
    else if (r < 8) txs.push({ by: ADMIN, action: resumeMarket(rng.chance(50) ? peg : rng.range(1, 3)) })
    else if (r < 10) txs.push({ by: ADMIN, action: emergencyHalt(rng.range(1, 4), rng.chance(40)) })
    else if (r < 12) txs.push({ by: ADMIN, action: amend(peg, { max_fills_per_quote: rng.range(1, 8), taker_fee_bps: rng.range(0, 8) }) })
    else if (r < 15 && this.created < 6) txs.push(...this.newMarket(state))
    else if (r < 18) txs.push(...this.delistOne(state))
    return txs
  }

  private order(state: ChainState): Tx {
    const rng = this.rng
    const by = rng.pick(TRADERS)
    const live = [...state.markets.values()].filter((m) => m.lifecycle !== 'Delisted' && m.lifecycle !== 'Created')
    const m = live.length === 0 ? state.markets.get(1)! : rng.pick(live)
    const side = rng.chance(50) ? 'Bid' : 'Ask'
    const pos = state.accounts.get(by)?.positions.get(m.marketId)?.sizeLots ?? 0
    const mid = m.routing === 'external_peg' ? (this.mids.get(m.marketId) ?? m.markTicks) : m.markTicks
    const sign = side === 'Bid' ? 1 : -1
    const cross = rng.chance(60)
    const price = Math.max(1, mid + sign * (cross ? rng.range(0, 400) : -rng.range(1, 400)))
    const lots = Math.max(m.minOrderLots, rng.range(1, 5) * m.minOrderLots * 10)
    const reduceOnly = pos !== 0 && rng.chance(30)
    const tif = rng.pick(['Gtc', 'Ioc', 'Ioc', 'Fok'] as const)
    return {
      by,
      action: place(m.marketId, side, formatDecimal(BigInt(price), m.priceDecimals), formatDecimal(BigInt(lots), m.sizeDecimals), {
        tif,
        reduceOnly,
      }),
    }
  }

  private newMarket(state: ChainState): Tx[] {
    this.created++
    const peg = this.rng.chance(50)
    const symbol = `R${this.created}-USD`
    let maxId = 0
    for (const id of state.markets.keys()) maxId = Math.max(maxId, id)
    const id = maxId + 1
    if (peg) this.mids.set(id, 10_000)
    const txs: Tx[] = [
      {
        by: ADMIN,
        action: createMarket({
          symbol,
          routing: peg ? 'external_peg' : 'native',
          mark_price: '100',
          max_quote_lag_ms: 3_000,
          max_quote_change_bps: 2_000,
        }),
      },
    ]
    // Some are withdrawn before they open.
    txs.push({ by: ADMIN, action: this.rng.chance(25) ? cancelMarket(symbol) : activate(symbol) })
    return txs
  }

  private delistOne(state: ChainState): Tx[] {
    const candidates = [...state.markets.values()].filter((m) => m.marketId > 1 && m.lifecycle !== 'Delisted' && m.lifecycle !== 'Created')
    if (candidates.length === 0) return []
    const m = this.rng.pick(candidates)
    if (m.lifecycle === 'DelistPending') {
      this.mids.delete(m.marketId)
      return [{ by: ADMIN, action: completeDelist(m.marketId) }]
    }
    return [{ by: ADMIN, action: requestDelist(m.marketId) }]
  }
}

describe('markets workload', () => {
  test(`${BLOCKS} random blocks: root equals the full recomputation, money is conserved, replay agrees`, () => {
    const workload = new MarketsWorkload(4_242)
    const conserved = moneySum(genesisState())
    const seen = runWorkload({
      genesis: () => new TestChain(),
      blocks: BLOCKS,
      nextBlock: (chain) => ({ envelopes: workload.block(chain.state).map((tx) => chain.envelope(tx)) }),
      afterBlock: (chain, _result, height) => expect({ height, conserved: moneySum(chain.state) }).toEqual({ height, conserved }),
      eventKey: (e) => (e.sub_kind === 'Rejected' || e.sub_kind === 'BatchItemRejected' ? e.reason : e.sub_kind),
    })
    expectReached(seen, [
      'OracleQuoteAccepted',
      'QuoteCrossed',
      'MarketNotExternalPeg',
      'QuoteSourceTooFuture',
      'MarketHaltedQuoteStale',
      'MarketResumedAfterQuote',
      'QuoteRejectStorm',
      'Filled',
      'QuoteNotAvailable',
      'MarketLifecycleChanged',
      'DelistSettlement',
      'DelistCompleted',
      'MarketCancelled',
      'EmergencyHaltChanged',
      'MarketConfigAmended',
      'MarketNotTradable',
    ])
  })
})
