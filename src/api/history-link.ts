// Wires the history index to a running node: starts it at the node's tip, hands it every committed
// block (its trades and closed orders for the in-memory parts, its height for the indexer), keeps
// its market table current, and makes it findable from the node for the routes and methods.
import type { Market } from '../chain/index.ts'
import { FINE_DECIMALS } from '../indexer/amounts.ts'
import type { LiveTrade } from '../indexer/candles/live-candles.ts'
import { HistoryIndex, type HistoryIndexOptions, type LiveBlock } from '../indexer/history-index.ts'
import type { ClosedOrder } from '../indexer/order-hot-cache.ts'
import type { MarketRef } from '../indexer/symbols.ts'
import { formatDecimal } from '../lib/decimal.ts'
import type { ChainNode, CommittedBlock } from '../node/chain-node.ts'

const indexes = new WeakMap<ChainNode, HistoryIndex>()

/** The history index running for node, if any. */
export function historyOf(node: ChainNode): HistoryIndex | undefined {
  return indexes.get(node)
}

/** Every market, delisted included (history shows their symbols), as the readers' market table. */
export function marketRefs(node: ChainNode): MarketRef[] {
  return [...node.state.markets.values()].map((m) => ({
    market_id: m.marketId,
    symbol: m.symbol,
    lifecycle: m.lifecycle,
    routing: m.routing,
  }))
}

/** Starts the history index for node (after its replay) and subscribes it to committed blocks. */
export async function startHistory(node: ChainNode, options: HistoryIndexOptions): Promise<HistoryIndex> {
  const index = await HistoryIndex.start(options, node.state.height, marketRefs(node))
  attachHistory(node, index)
  node.onBlock((block) => {
    const live = liveBlock(node, block)
    index.notifyBlock(live.block)
    if (live.marketsChanged) index.setMarkets(marketRefs(node))
  })
  return index
}

/** Ticks/lots of a market as 10^-12 units. */
const fineOf = (units: number, decimals: number) => BigInt(units) * 10n ** BigInt(FINE_DECIMALS - decimals)

/** The parts of a committed block the index keeps in memory, read from its typed events. */
function liveBlock(node: ChainNode, block: CommittedBlock): { block: LiveBlock; marketsChanged: boolean } {
  const { height, timestampMs } = block.stored.header
  const trades: LiveTrade[] = []
  const closedOrders: ClosedOrder[] = []
  let marketsChanged = false
  const events = block.result.events
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!
    if (e.kind === 'Ops' && e.market_id !== null) marketsChanged = true
    if (e.sub_kind === 'Filled') {
      const m = node.state.markets.get(e.market_id)
      if (m !== undefined)
        trades.push({
          marketId: e.market_id,
          timestampMs,
          price: fineOf(e.price_ticks, m.priceDecimals),
          qty: fineOf(e.qty_lots, m.sizeDecimals),
        })
    } else if (e.sub_kind === 'OrderDone' || e.sub_kind === 'OrderExpired') {
      // The sizes as the event's body has them when the producer made the bodies (the same
      // formatting): each closed order's two decimals were a few percent of the block thread
      // under 50-order IOC batches, whose every order closes in its block.
      const body = block.bodies?.[i]
      const formatted = body?.sub_kind === e.sub_kind ? body : undefined
      const m: Market | undefined = formatted === undefined ? node.state.markets.get(e.market_id) : undefined
      const size = (lots: number) => (m === undefined ? String(lots) : formatDecimal(BigInt(lots), m.sizeDecimals))
      closedOrders.push({
        orderId: e.order_id,
        owner: e.account,
        marketId: e.market_id,
        reason: e.reason,
        remaining: formatted?.remaining ?? size(e.remaining_lots),
        filled: formatted?.filled ?? size(e.filled_lots),
        clientOrderId: e.client_order_id ?? null,
        height,
        timestampMs,
      })
    }
  }
  return { block: { height, timestampMs, trades, closedOrders }, marketsChanged }
}

/** Makes index the node's history index (startHistory does it; benchmarks and tests wire their own). */
export function attachHistory(node: ChainNode, index: HistoryIndex): void {
  indexes.set(node, index)
}
