// Market state beyond the foundation's fields: oracle quote limits and the oracle state of a market
// (its latest accepted quote, the quote's fill budget, the reject streak, Book B's realized PnL).
// types.ts holds them on Market; market-leaf.ts encodes them into the market's state-root leaf.

/**
 * Oracle quote limits of a market (docs/markets.md#validation-in-precedence-order). Prices are in
 * ticks of the market; a price bound of 0 means "no bound on that side". Amended by
 * AmendMarketConfig.
 */
export interface QuoteLimits {
  /** A market whose latest quote is older than this (block time - source_ts_ms) is stale: an
   * Active market halts with QuoteStale at block end, and its orders get QuoteNotAvailable. */
  maxLagMs: number
  /** Least source-time distance between two accepted quotes of the market. */
  minIntervalMs: number
  /** Largest move of the mark against the last accepted quote, in bps of that quote's mark. */
  maxChangeBps: number
  /** Bounds of bid, ask and mark; maxPriceTicks 0 = unbounded above. */
  minPriceTicks: number
  maxPriceTicks: number
  /** Largest ask - bid, in bps of the bid. */
  maxSpreadBps: number
}

/** An accepted oracle quote. */
export interface OracleQuote {
  readonly bidTicks: number
  readonly askTicks: number
  readonly markTicks: number
  /** The quoter's source time; quotes are time-monotonic per market (equal allowed). */
  readonly sourceTsMs: number
  readonly acceptedHeight: number
  readonly acceptedAtMs: number
}

/** The oracle side of a market. Every external-peg market has one; native markets keep it empty. */
export interface OracleState {
  latest: OracleQuote | null
  /**
   * The time staleness is measured from: the latest quote's source_ts_ms, or, before any quote,
   * the block time at which the market became Active (a grace period for the first quote).
   */
  clockMs: number
  /** Fills made against the latest quote (at most the market's maxFillsPerQuote). */
  fillsOnQuote: number
  /** Rejected quotes since the last accepted one (counted past each item's rollback point). */
  consecutiveRejects: number
  /** Whether QuoteRejectStorm was already raised for the current streak. */
  stormRaised: boolean
  /** Cumulative realized PnL of Book B (the exchange's counterparty account) in this market. */
  counterRealizedPnl: bigint
}

/** A fresh, empty oracle state whose staleness clock starts at clockMs. */
export function newOracleState(clockMs: number): OracleState {
  return { latest: null, clockMs, fillsOnQuote: 0, consecutiveRejects: 0, stormRaised: false, counterRealizedPnl: 0n }
}
