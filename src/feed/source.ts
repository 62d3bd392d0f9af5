// The small read API through which the hot feed and the WebSocket hub look at the chain. Market
// data comes from committed blocks and their events; this interface covers only what events do not
// carry: the initial seeding (books, markets), the per-block market list the marks are
// refreshed from (getAllMarks / getMarkets), account aggregates (getAccount) and the history index
// status. The node implements it over its public read views (api/ws/node-feed-source.ts).
import type { FeedBlock, FeedMarketRow, SeedFill, SeedOrder } from './types.ts'

/** The history index progress as /api/v1/status reports it (docs/history-api.md#status), for `blocks.live`. */
export interface HistoryStatus {
  readonly watermark: number | null
  readonly block_count: number
  readonly node_tip: number | null
  readonly behind: number | null
}

export interface FeedSource {
  /** Height and block time of the state the other reads see. */
  tip(): { readonly height: number; readonly timestampMs: number }
  /** Every market, Delisted included, as getMarkets reports it plus open_orders. */
  markets(): readonly FeedMarketRow[]
  /** Resting orders of one market (or of all markets), in no particular order. */
  restingOrders(marketId?: number): readonly SeedOrder[]
  /** The newest Filled events of the chain's recent blocks, newest first, at most `perMarket` of
   * each market: the trade rings start from them, so a restarted node still shows its recent trades
   * (a busy market does not crowd out a quiet one). */
  recentFills(perMarket: number): readonly SeedFill[]
  /** The stored block in which a market's latest accepted oracle quote was accepted (undefined
   * without one, or without a block store): the feed reads the quote back from it at start-up. */
  latestQuoteBlock(marketId: number): FeedBlock | undefined
  /** The Filled events of blocks from..to, oldest first, at most `limit` (the newest when there are
   * more): a restart counts those after its saved day state (day-state.ts). */
  fillsBetween(from: number, to: number, limit: number): readonly SeedFill[]
  /** The account push fields (docs/websocket.md#websocket-protocol; without topic, height, timestamp_ms). */
  account(address: string): Record<string, unknown>
  /** MarketStatsResponse fields of a market for the `external_quote` push, when available. */
  marketStats(marketId: number): Record<string, unknown> | undefined
  /** The history index status, or undefined when no index runs in this process. */
  historyStatus(): HistoryStatus | undefined
}
