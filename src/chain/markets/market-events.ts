// Events of the markets area: lifecycle, market configuration, oracle quotes, delisting
// (docs/events.md#markets-and-oracle). Fields named *_ticks are prices and *_lots sizes of the
// event's market (formatted on the wire without the suffix); bigints are SCALE_6 amounts.
// Block-level events (the end-of-block staleness check and reject-storm alarm) have no signer:
// their `account` is the empty string. A rejected SubmitOracleQuote item is the order area's
// BatchItemRejected (order-events.ts).
/** CancelMarket: a Created market withdrawn before it ever traded (docs/markets.md#lifecycle). */
export interface MarketCancelledEvent {
  kind: 'Ops'
  sub_kind: 'MarketCancelled'
  market_id: number
  account: string
  symbol: string
}

/** The end-of-block check halted an Active market whose quote is older than max_quote_lag_ms. */
export interface MarketHaltedQuoteStaleEvent {
  kind: 'Ops'
  sub_kind: 'MarketHaltedQuoteStale'
  /** Raised by the chain itself, about no account. */
  market_id: number
  account: null
  /** Block time minus the staleness clock (the latest quote's source time, or activation). */
  lag_ms: number
  max_quote_lag_ms: number
  last_source_ts_ms: number | null
}

/** A QuoteStale-halted market is fresh again: by an accepted quote, or by the end-of-block check. */
export interface MarketResumedAfterQuoteEvent {
  kind: 'Ops'
  sub_kind: 'MarketResumedAfterQuote'
  /** The quoter whose quote resumed it; null when the end-of-block check did. */
  market_id: number
  account: string | null
  source_ts_ms: number
}

/** An accepted SubmitOracleQuote item. Its mark becomes the market's mark. */
export interface OracleQuoteAcceptedEvent {
  kind: 'Core'
  sub_kind: 'OracleQuoteAccepted'
  market_id: number
  account: string
  bid_price_ticks: number
  ask_price_ticks: number
  mark_price_ticks: number
  source_ts_ms: number
}

/** Alarm: a market's quotes were rejected QUOTE_REJECT_STORM_COUNT times in a row. Once per streak. */
export interface QuoteRejectStormEvent {
  kind: 'Ops'
  sub_kind: 'QuoteRejectStorm'
  /** Raised by the chain itself, about no account. */
  market_id: number
  account: null
  consecutive_rejects: number
}

/** SetEmergencyHalt. */
export interface EmergencyHaltChangedEvent {
  kind: 'Ops'
  sub_kind: 'EmergencyHaltChanged'
  market_id: number
  account: string
  halted: boolean
  was_halted: boolean
}

/** SetFeeRecipient. */
export interface FeeRecipientChangedEvent {
  kind: 'Ops'
  sub_kind: 'FeeRecipientChanged'
  market_id: number
  account: string
  old_recipient: string
  new_recipient: string
}

/** AmendMarketConfig: the amended fields with their new values, in wire form. */
export interface MarketConfigAmendedEvent {
  kind: 'Ops'
  sub_kind: 'MarketConfigAmended'
  market_id: number
  account: string
  changes: Record<string, string | number>
}

/** CompleteDelist closed a residual position at the mark. */
export interface DelistSettlementEvent {
  kind: 'Liquidation'
  sub_kind: 'DelistSettlement'
  market_id: number
  account: string
  /** Signed size closed (long > 0), at the mark. */
  size_lots: number
  price_ticks: number
  realized_pnl: bigint
}

/** CompleteDelist's summary: what it cancelled and settled, and where the rounding dust went. */
export interface DelistCompletedEvent {
  kind: 'Ops'
  sub_kind: 'DelistCompleted'
  market_id: number
  account: string
  orders_cancelled: number
  positions_settled: number
  /** SCALE_6 left over by rounding every settlement against its account; credited to dust_recipient. */
  settlement_dust: bigint
  dust_recipient: string
}

export type MarketEvent =
  | MarketCancelledEvent
  | MarketHaltedQuoteStaleEvent
  | MarketResumedAfterQuoteEvent
  | OracleQuoteAcceptedEvent
  | QuoteRejectStormEvent
  | EmergencyHaltChangedEvent
  | FeeRecipientChangedEvent
  | MarketConfigAmendedEvent
  | DelistSettlementEvent
  | DelistCompletedEvent
