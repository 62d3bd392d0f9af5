// Shapes the hot feed works with. The feed sees the chain only through committed blocks (header,
// envelopes, events with decimal-string bodies) and the small read API of source.ts, so these are
// wire shapes (snake_case, decimal strings), not chain records.
import type { EventBody } from '../wire/events/index.ts'
import type { StoredBlockHeader, StoredEnvelope, StoredEvent } from '../wire/stored-block.ts'

/** Markets the feed tracks at most: a bound on every per-market loop (and on the saved day state). */
export const FEED_MARKETS_MAX = 10_000

/** Routing of a market, and so its readiness slot (hot_feed.native_ready / ext_ready, docs/history-api.md#status). */
export type Slot = 'native' | 'external_peg'

/** Market lifecycle states (docs/markets.md#lifecycle). */
export type FeedLifecycle = 'Created' | 'Active' | 'Halted' | 'DelistPending' | 'Delisted'

/** A market as the chain's getMarkets reports it, read once per block (docs/rpc.md#getmarkets). */
export interface FeedMarketRow {
  readonly market_id: number
  readonly symbol: string
  readonly price_decimals: number
  readonly size_decimals: number
  readonly lifecycle: FeedLifecycle
  readonly routing: Slot
  /** Mark price, px precision. */
  readonly mark_price: string
  readonly open_interest: string
  readonly open_interest_notional: string
  /** Resting orders on chain; the feed's own count must match it (a drift canary). */
  readonly open_orders: number
  /** External-peg markets: the fresh quote's bid and ask, the prices a taker meets (null otherwise). */
  readonly quote_bid: string | null
  readonly quote_ask: string | null
}

/** A resting order, for seeding a book (read once at start, or on a drift resync). */
export interface SeedOrder {
  readonly order_id: number
  readonly market_id: number
  readonly owner: string
  readonly side: 'Bid' | 'Ask'
  readonly price: string
  readonly remaining: string
  readonly client_order_id: string | null
}

/** A committed block as the feed consumes it: the node's StoredBlock without the envelopes' signatures. */
export interface FeedBlock {
  readonly header: StoredBlockHeader
  readonly envelopes: readonly FeedEnvelope[]
  readonly events: readonly StoredEvent[]
}

/** A stored envelope as the feed reads it (the signature is not needed). */
export type FeedEnvelope = Omit<StoredEnvelope, 'signatureJson'>

/** A stored event with its body parsed once per block (decodeEventBody: switch on body.sub_kind to read its fields). */
export type ParsedEvent = Omit<StoredEvent, 'height' | 'bodyJson'> & { readonly body: EventBody }

/** One level of a book snapshot (docs/websocket.md#hot-read-rest). */
export interface LevelJson {
  price: string
  qty: string
  cumulative_qty: string
}

/** RecentTrade (docs/websocket.md#hot-read-rest); the WebSocket trades rows are the same without `symbol`. */
export interface RecentTrade {
  block_height: number
  event_seq: number
  timestamp_ms: number
  market_id: number
  symbol: string
  price: string
  qty: string
  notional: string
  side: 'Bid' | 'Ask'
}

/** A Filled event of a committed block, newest first, that seeds the trade rings at start-up. */
export interface SeedFill {
  readonly height: number
  readonly seq: number
  readonly marketId: number | null
  readonly timestampMs: number
  /** EventView body JSON (decimal strings). */
  readonly bodyJson: string
}

/** A candle (docs/history-api.md#candles), short keys. */
export interface CandleJson {
  t: number
  T: number
  s: string
  i: string
  o: string
  c: string
  h: string
  l: string
  v: string
  n: number
}
