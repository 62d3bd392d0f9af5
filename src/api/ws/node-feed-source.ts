// The hot feed's read API (feed/source.ts) over a running node, through the same public views the
// JSON-RPC read methods use (getMarkets rows, getAccount, getAccountOrders), so the feed never sees
// more of the chain than a client could ask for.

import type { ChainState, Market } from '../../chain/index.ts'
import type { FeedSource, HistoryStatus } from '../../feed/source.ts'
import type { FeedBlock, FeedMarketRow, SeedFill, SeedOrder } from '../../feed/types.ts'
import type { BlockStore } from '../../node/block-store.ts'
import { accountView } from '../views/account-view.ts'
import { bboView, formatPrice, formatSize, marketListItem } from '../views/market-view.ts'

/** The fields of the account push (docs/websocket.md#websocket-protocol), in order; getAccount's extra fields stay out. */
const ACCOUNT_FIELDS = [
  'address',
  'balance',
  'nonce',
  'role_mask',
  'account_value',
  'total_margin_used',
  'total_notional',
  'withdrawable',
  'cross_cash_available',
  'cross_trading_available',
] as const
const POSITION_FIELDS = [
  'symbol',
  'mark_price',
  'size',
  'entry_vwap',
  'margin_mode',
  'leverage',
  'isolated_margin',
  'margin_used',
  'unrealized_pnl',
  'notional',
  'liquidation_price',
  'roe',
] as const

/** Extra reads a process may plug in (the history index status, market stats). */
export interface NodeFeedSourceExtras {
  historyStatus?: () => HistoryStatus | undefined
  marketStats?: (marketId: number) => Record<string, unknown> | undefined
}

/** Blocks back from the tip whose trades may seed the trade rings (the ring of /market/trades, docs/limits.md#hot-read-rest). */
export const TRADE_SEED_BLOCKS = 10_000

/** What the feed reads of the block store: the trade-ring seed and the block of a market's latest quote. */
export type FeedBlockStore = Pick<BlockStore, 'filledEventsBetween' | 'filledEventsNewestFirst' | 'header' | 'envelopesOf' | 'eventsOf'>

/**
 * The read API over a node's live state (`node` is a ChainNode, or anything holding a ChainState;
 * without a block store the trade rings start empty).
 */
export function nodeFeedSource(
  node: { readonly state: ChainState; readonly store?: FeedBlockStore },
  extras: NodeFeedSourceExtras = {},
): FeedSource {
  const state = node.state
  return {
    tip: () => ({ height: state.height, timestampMs: state.timestampMs }),

    markets: (): FeedMarketRow[] => {
      const rows: FeedMarketRow[] = []
      for (const m of state.markets.values()) {
        const item = marketListItem(m)
        rows.push({
          market_id: item.market_id,
          symbol: item.symbol,
          price_decimals: item.price_decimals,
          size_decimals: item.size_decimals,
          lifecycle: item.lifecycle,
          routing: item.routing,
          mark_price: item.mark_price,
          open_interest: item.open_interest,
          open_interest_notional: item.open_interest_notional,
          open_orders: state.books.get(m.marketId)?.size ?? 0,
          ...externalQuotePrices(m),
        })
      }
      return rows
    },

    restingOrders: (marketId?: number): SeedOrder[] => {
      const out: SeedOrder[] = []
      for (const [id, book] of state.books) {
        if (marketId !== undefined && id !== marketId) continue
        const m = state.markets.get(id)
        if (m === undefined) continue
        for (const side of ['Bid', 'Ask'] as const) {
          for (const o of book.ordersOf(side, book.size)) {
            out.push({
              order_id: o.id,
              market_id: id,
              owner: o.owner,
              side,
              price: formatPrice(m, o.priceTicks),
              remaining: formatSize(m, o.remainingLots),
              client_order_id: o.clientOrderId ?? null,
            })
          }
        }
      }
      return out
    },

    fillsBetween: (from: number, to: number, limit: number) => {
      if (node.store === undefined || from > to) return []
      return node.store.filledEventsBetween(from, to, limit).reverse()
    },

    recentFills: (perMarket: number) => {
      if (node.store === undefined || state.height === 0 || perMarket <= 0) return []
      // One newest-first pass over the window: each market takes its newest perMarket fills; the
      // read stops once every market has them all.
      const taken = new Map<number, number>()
      let full = 0
      const out: SeedFill[] = []
      for (const f of node.store.filledEventsNewestFirst(Math.max(1, state.height - TRADE_SEED_BLOCKS + 1), state.height)) {
        if (f.marketId === null) continue
        const n = taken.get(f.marketId) ?? 0
        if (n >= perMarket) continue
        taken.set(f.marketId, n + 1)
        out.push(f)
        if (n + 1 === perMarket && ++full >= state.markets.size) break
      }
      return out
    },

    latestQuoteBlock: (marketId: number): FeedBlock | undefined => {
      const latest = state.markets.get(marketId)?.oracle.latest
      const store = node.store
      if (latest === undefined || latest === null || store === undefined) return undefined
      const header = store.header(latest.acceptedHeight)
      if (header === undefined) return undefined
      return { header, envelopes: store.envelopesOf(header.height), events: store.eventsOf(header.height, 0, header.eventCount) }
    },

    account: (address: string) => {
      const view = accountView(state, address) as unknown as Record<string, unknown>
      const out: Record<string, unknown> = {}
      for (const f of ACCOUNT_FIELDS) out[f] = view[f]
      const positions: Record<string, Record<string, unknown>> = {}
      for (const [id, p] of Object.entries((view.positions ?? {}) as Record<string, Record<string, unknown>>)) {
        const pos: Record<string, unknown> = {}
        for (const f of POSITION_FIELDS) if (p[f] !== undefined) pos[f] = p[f]
        positions[id] = pos
      }
      out.positions = positions
      return out
    },

    marketStats: (marketId: number) => extras.marketStats?.(marketId),

    historyStatus: () => extras.historyStatus?.(),
  }

  function externalQuotePrices(m: Market): { quote_bid: string | null; quote_ask: string | null } {
    if (m.routing !== 'external_peg') return { quote_bid: null, quote_ask: null }
    const bbo = bboView(state, m)
    return { quote_bid: bbo.bid, quote_ask: bbo.ask }
  }
}
