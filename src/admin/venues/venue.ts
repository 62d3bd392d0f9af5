// One interface for an external trading venue the admin service hedges on, reads prices from and
// syncs market categories from. Adapters: Hyperliquid (hyperliquid.ts, its public /info and
// /exchange API) and another perpd node (perpd.ts, through the project's client).
//
// Amounts cross this interface as decimal strings in the venue's own units (a coin's size in its
// size decimals, a price in quote currency), as they do on the wire of both venues; the hedger
// rounds sizes to `size_decimals` before it asks for an order.

/** A market the venue lists. */
export interface VenueMarket {
  /** The venue's own name of the market (Hyperliquid's coin, e.g. `BTC`; perpd's symbol, e.g. `BTC-USD`). */
  readonly coin: string
  /** Our symbol for it (`BTC-USD`), what hedge policies and the catalog use. */
  readonly symbol: string
  /** Decimals an order size may have on the venue. */
  readonly size_decimals: number
  /** Decimals a price may have on the venue (after any significant-figure rule the adapter applies). */
  readonly price_decimals: number
  /** False when the venue lists it but does not take orders (delisted, halted). */
  readonly tradable: boolean
}

/** A category of markets as the venue groups them (the catalog's external source). */
export interface VenueCategory {
  /** Lower-case code, e.g. `crypto`, `stocks`. */
  readonly code: string
  readonly name: string
  /** Code of the parent category, or null for a top-level one. */
  readonly parent_code: string | null
  /** Our symbols of the markets in it, listed on our chain or not. */
  readonly symbols: readonly string[]
}

/** Best prices of one market; null when that side is empty. */
export interface VenueQuote {
  readonly mid: string | null
  readonly best_bid: string | null
  readonly best_ask: string | null
  /** When the venue observed them, Unix ms. */
  readonly ts_ms: number
}

/** Time in force of a venue order. */
export type VenueTif = 'Ioc' | 'Gtc' | 'Alo'

/** An order to place; `cloid` is the idempotency key (0x + 32 hex, unique per account and never reused). */
export interface VenueOrderRequest {
  readonly coin: string
  readonly is_buy: boolean
  readonly sz: string
  readonly px: string
  readonly tif: VenueTif
  readonly reduce_only: boolean
  readonly cloid: string
}

/** What the venue answered to a placement. */
export type VenuePlaceResult =
  | { readonly status: 'resting'; readonly ext_oid: string }
  | { readonly status: 'filled'; readonly ext_oid: string; readonly filled_sz: string; readonly avg_px: string }
  | { readonly status: 'rejected'; readonly error: string }

/** The state of one order on the venue, looked up by cloid. */
export interface VenueOrderStatus {
  readonly cloid: string
  readonly ext_oid: string
  readonly coin: string
  readonly is_buy: boolean
  readonly status: 'open' | 'filled' | 'partially_filled' | 'cancelled' | 'rejected'
  readonly orig_sz: string
  readonly filled_sz: string
  readonly px: string
}

/** An order still open on the venue. */
export interface VenueOpenOrder {
  readonly coin: string
  readonly ext_oid: string
  readonly cloid: string | null
  readonly is_buy: boolean
  readonly sz: string
  readonly px: string
  readonly ts_ms: number
}

/** One fill of the account. */
export interface VenueFill {
  readonly coin: string
  readonly ext_oid: string
  readonly cloid: string | null
  readonly is_buy: boolean
  readonly sz: string
  readonly px: string
  readonly fee: string
  readonly ts_ms: number
}

/** The account's position in one market: `size` signed (negative is short). */
export interface VenuePosition {
  readonly coin: string
  readonly size: string
  readonly entry_px: string | null
  readonly unrealized_pnl: string
}

/** The account's margin summary. */
export interface VenueMargin {
  readonly account_value: string
  readonly withdrawable: string
}

/** One account on a venue, able to trade (it holds the signing key). */
export interface VenueAccount {
  /** The account's address on the venue (0x, lower-case). */
  readonly address: string
  place(order: VenueOrderRequest, signal?: AbortSignal): Promise<VenuePlaceResult>
  /** Cancels by client order id; false when the venue had no such open order. */
  cancelByCloid(coin: string, cloid: string, signal?: AbortSignal): Promise<boolean>
  /** The order with this cloid, or null when the venue never saw it. */
  orderStatusByCloid(cloid: string, signal?: AbortSignal): Promise<VenueOrderStatus | null>
  openOrders(signal?: AbortSignal): Promise<readonly VenueOpenOrder[]>
  fillsSince(sinceMs: number, signal?: AbortSignal): Promise<readonly VenueFill[]>
  positions(signal?: AbortSignal): Promise<readonly VenuePosition[]>
  margin(signal?: AbortSignal): Promise<VenueMargin>
}

/** A venue: public reads, and accounts made from a private key. */
export interface Venue {
  /** For logs and errors, e.g. `hyperliquid testnet`, `perpd http://10.0.0.5:8080`. */
  readonly name: string
  markets(signal?: AbortSignal): Promise<readonly VenueMarket[]>
  /** Quotes keyed by our symbol, for the symbols asked (an unknown one is left out). */
  quotes(symbols: readonly string[], signal?: AbortSignal): Promise<ReadonlyMap<string, VenueQuote>>
  categories(signal?: AbortSignal): Promise<readonly VenueCategory[]>
  /** An account signing with this private key (0x + 64 hex). */
  account(privateKeyHex: string): VenueAccount
}
