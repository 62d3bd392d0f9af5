// The incremental state root against a from-scratch recomputation, on a seeded random workload:
// after every block the root applyBlock returns must equal fullStateRoot(state) (a mutation that
// forgot markDirty shows up here), replaying the same blocks on a fresh genesis must reach the same
// root and events at every height, and the state invariants must hold throughout.
import { describe, expect, test } from 'bun:test'
import {
  type Action,
  ADMIN,
  ALICE,
  activateMarket,
  agentAddress,
  BOB,
  CAROL,
  cancel,
  cancelByCloid,
  conservedSum,
  createMarket,
  DAVE,
  genesisState,
  place,
  Rng,
  registerAgent,
  TestChain,
  type Tx,
  XAU,
} from '../../../test/support/chain/test-chain.ts'
import { expectReached, runWorkload } from '../../../test/support/chain/workload.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import type { ChainState, Side, Tif } from '../core/types.ts'

const BLOCKS = 320
const MASTERS = [ADMIN, ALICE, BOB, CAROL, DAVE]
/** The dust-prone market the workload creates at block 40 and activates at block 45. */
const NEW_MARKET = 5

interface MarketFlow {
  readonly id: number
  mid: number
  readonly spread: number
  readonly maxLots: number
}

/** Generates one block of actions from the state before it (which orders exist, who is an agent). */
class Workload {
  private readonly rng: Rng
  private readonly agents: [agent: string, master: string][] = []
  private readonly markets: MarketFlow[] = [
    { id: 1, mid: 650_000, spread: 3, maxLots: 20_000 },
    { id: 2, mid: 350_000, spread: 3, maxLots: 5_000 },
    { id: 3, mid: 150_000, spread: 3, maxLots: 2_000 },
  ]
  private agentCount = 0

  constructor(seed: number) {
    this.rng = new Rng(seed)
  }

  block(state: ChainState, height: number): Tx[] {
    const rng = this.rng
    const txs: Tx[] = []
    if (height === 40)
      txs.push({ by: ADMIN, action: createMarket({ symbol: 'DUST-USD', price_decimals: 6, size_decimals: 6, mark_price: '1' }) })
    if (height === 45) {
      txs.push({ by: ADMIN, action: activateMarket(NEW_MARKET) })
      this.markets.push({ id: NEW_MARKET, mid: 1_000_000, spread: 1, maxLots: 5 })
    }
    const count = rng.range(20, 70)
    for (let i = 0; i < count; i++) txs.push(this.tx(state))
    return txs
  }

  private tx(state: ChainState): Tx {
    const rng = this.rng
    const master = rng.pick(MASTERS)
    // An agent acts for its master on some of its actions.
    const mine = this.agents.filter(([, m]) => m === master)
    const by = mine.length > 0 && rng.chance(30) ? rng.pick(mine)[0] : master
    const r = rng.int(1000)
    if (r < 8 && this.agentCount < 40) {
      const agent = agentAddress(this.agentCount++)
      // Mostly Trader agents; a Quoter one fails for lack of the role and so never acts.
      const role = rng.chance(80) ? 'Trader' : 'Quoter'
      if (role === 'Trader') this.agents.push([agent, master])
      return { by: master, action: registerAgent(agent, role) }
    }
    if (r < 12) return { by: agentAddress(250), action: place(1, 'Bid', '1', '1') } // neither account nor agent
    if (r < 220) {
      const cancelled = this.cancelOne(state, master)
      if (cancelled !== undefined) return { by, action: cancelled }
    }
    if (r < 235) return { by, action: place(rng.chance(50) ? XAU : 77, 'Bid', '1', '1') }
    const m = rng.pick(this.markets)
    m.mid = Math.max(m.spread * 10, m.mid + rng.range(-2, 2))
    const side: Side = rng.chance(50) ? 'Bid' : 'Ask'
    const sign = side === 'Bid' ? 1 : -1
    let price: number
    let lots = rng.range(1, m.maxLots)
    let tif: Tif = 'Gtc'
    let reduceOnly = false
    if (r < 600) {
      price = m.mid - sign * (m.spread + rng.int(30))
      if (rng.chance(15)) tif = 'PostOnly'
      if (rng.chance(5)) price = m.mid + sign * rng.int(5) // a PostOnly that may cross, or a crossing Gtc
    } else {
      price = m.mid + sign * rng.int(30)
      tif = rng.pick(['Ioc', 'Ioc', 'Fok', 'Gtc'] as const)
      reduceOnly = rng.chance(25)
      if (rng.chance(3)) lots = m.maxLots * 1_000 // too large for the margin
    }
    const market = state.markets.get(m.id)!
    const cloid = rng.chance(20) ? `c${rng.int(40)}` : undefined
    const opts = { tif, reduceOnly, ...(cloid === undefined ? {} : { cloid }) }
    return {
      by,
      action: place(
        m.id,
        side,
        formatDecimal(BigInt(Math.max(1, price)), market.priceDecimals),
        formatDecimal(BigInt(lots), market.sizeDecimals),
        opts,
      ),
    }
  }

  /** Cancels one of the master's resting orders, by id or by client id; sometimes a stale id. */
  private cancelOne(state: ChainState, master: string): Action | undefined {
    const orders = [...state.accounts.get(master)!.orders.values()]
    if (orders.length === 0) return this.rng.chance(20) ? cancel(1, state.nextOrderId + 5) : undefined
    const o = this.rng.pick(orders)
    return o.clientOrderId !== undefined && this.rng.chance(50) ? cancelByCloid(o.marketId, o.clientOrderId) : cancel(o.marketId, o.id)
  }
}

/** Shuffles a block's envelopes so nonces arrive out of order within the window. */
function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1)
    ;[items[i], items[j]] = [items[j]!, items[i]!]
  }
  return items
}

/** Events of a block as comparable text (bigints as strings). */
describe('incremental state root', () => {
  test(`${BLOCKS} random blocks: root equals the full recomputation, replay agrees, invariants hold`, () => {
    const workload = new Workload(20_260_101)
    const order = new Rng(3)
    const conserved = conservedSum(genesisState())
    const seen = runWorkload({
      genesis: () => new TestChain(),
      blocks: BLOCKS,
      nextBlock: (chain, height) => ({
        envelopes: shuffle(
          order,
          workload.block(chain.state, height).map((tx) => chain.envelope(tx)),
        ),
      }),
      afterBlock: (chain, _result, height) => expect({ height, conserved: conservedSum(chain.state) }).toEqual({ height, conserved }),
      eventKey: (e) => (e.sub_kind === 'Rejected' ? e.reason : e.sub_kind === 'OrderDone' ? `Done:${e.reason}` : e.sub_kind),
    })
    // The workload reached the paths it is meant to exercise.
    expectReached(seen, [
      'Filled',
      'OrderResting',
      'Done:Cancelled',
      'Done:IocExpired',
      'Done:SelfTradeCancelled',
      'Done:Filled',
      'AgentRegistered',
      'FokRejected',
      'PostOnlyWouldCross',
      'ReduceOnlyWouldOpenOrFlip',
      'InsufficientMargin',
      'OrderNotFound',
      'DuplicateClientOrderId',
      'QuoteNotAvailable',
      'MarketNotFound',
      'MarketNotTradable',
      'Unauthorized',
      'DustNotionalFill',
    ])
  })
})
