// Validation of one oracle quote against its market
// (docs/markets.md#validation-in-precedence-order). Pure: reads the market's quote limits and
// latest accepted quote, returns the decoded quote or the first failing check, in this precedence
// order:
//   InvalidPrice            a price that is not a positive decimal at the market's price_decimals
//   QuoteTimeNotMonotonic   source_ts_ms earlier than the last accepted quote's (equal is allowed)
//   QuoteSourceTooFuture    source_ts_ms more than MAX_QUOTE_AHEAD_MS ahead of block time
//   QuoteSourceTooOld       source_ts_ms already older than max_quote_lag_ms (stale on arrival)
//   QuoteTooFrequent        less than min_quote_interval_ms after the last accepted quote
//   QuotePriceOutOfBounds   bid, ask or mark outside [min_quote_price, max_quote_price]
//   QuoteCrossed            bid above ask
//   QuoteMarkOutsideSpread  mark outside [bid, ask]
//   QuoteSpreadTooWide      ask - bid above max_quote_spread_bps of the bid
//   QuoteChangeTooLarge     mark moved more than max_quote_change_bps from the last accepted
//                           quote's mark, when that quote is itself within max_quote_lag_ms of
//                           this one (after a gap the feed may restart at a new level)
import { decimalUnits, parseDecimal } from '../../lib/decimal.ts'
import type { OracleQuoteItem } from '../../wire/actions.ts'
import { type Rejection, reject } from '../core/reasons.ts'
import { BPS_DENOMINATOR, type Market } from '../core/types.ts'

/** How far a quote's source time may lead block time (docs/limits.md#oracle-quotes). */
export const MAX_QUOTE_AHEAD_MS = 13_000

/** Consecutive rejected quotes of a market that raise QuoteRejectStorm. */
export const QUOTE_REJECT_STORM_COUNT = 5

/** A quote's prices in ticks and its source time. */
export interface DecodedQuote {
  readonly bidTicks: number
  readonly askTicks: number
  readonly markTicks: number
  readonly sourceTsMs: number
}

/** A positive price at the market's precision, in ticks. */
function priceTicks(market: Market, raw: string, field: string): number | Rejection {
  const fast = decimalUnits(raw, market.priceDecimals)
  if (fast > 0) return fast
  const v = parseDecimal(raw, market.priceDecimals)
  if (!v.ok) return reject('InvalidPrice', `${field} ${raw} ${v.message} (${market.symbol} price_decimals ${market.priceDecimals})`)
  if (v.value <= 0n || v.value > BigInt(Number.MAX_SAFE_INTEGER)) return reject('InvalidPrice', `${field} ${raw} out of range`)
  return Number(v.value)
}

/** Decodes and validates one quote item for market at block time; see the file comment for the order. */
export function validateQuote(
  market: Market,
  item: OracleQuoteItem,
  blockTimeMs: number,
): { readonly ok: true; readonly quote: DecodedQuote } | Rejection {
  const bid = priceTicks(market, item.bid_price, 'bid_price')
  if (typeof bid !== 'number') return bid
  const ask = priceTicks(market, item.ask_price, 'ask_price')
  if (typeof ask !== 'number') return ask
  const mark = priceTicks(market, item.mark_price, 'mark_price')
  if (typeof mark !== 'number') return mark
  const ts = item.source_ts_ms
  const limits = market.quoteLimits
  const last = market.oracle.latest
  if (last !== null && ts < last.sourceTsMs)
    return reject('QuoteTimeNotMonotonic', `source_ts_ms ${ts} is earlier than the last accepted quote's ${last.sourceTsMs}`)
  if (ts > blockTimeMs + MAX_QUOTE_AHEAD_MS) {
    return reject(
      'QuoteSourceTooFuture',
      `source_ts_ms ${ts} is ${ts - blockTimeMs} ms ahead of block time ${blockTimeMs} ` + `(at most ${MAX_QUOTE_AHEAD_MS})`,
    )
  }
  if (blockTimeMs - ts > limits.maxLagMs)
    return reject('QuoteSourceTooOld', `source_ts_ms ${ts} is ${blockTimeMs - ts} ms old (max_quote_lag_ms ${limits.maxLagMs})`)
  if (last !== null && ts - last.sourceTsMs < limits.minIntervalMs) {
    return reject(
      'QuoteTooFrequent',
      `${ts - last.sourceTsMs} ms after the last accepted quote ` + `(min_quote_interval_ms ${limits.minIntervalMs})`,
    )
  }
  for (const [field, p] of [
    ['bid', bid],
    ['ask', ask],
    ['mark', mark],
  ] as const) {
    if (p < limits.minPriceTicks || (limits.maxPriceTicks !== 0 && p > limits.maxPriceTicks)) {
      return reject(
        'QuotePriceOutOfBounds',
        `${field} ${p} ticks outside ` + `[${limits.minPriceTicks}, ${limits.maxPriceTicks === 0 ? 'unbounded' : limits.maxPriceTicks}]`,
      )
    }
  }
  if (bid > ask) return reject('QuoteCrossed', `bid ${item.bid_price} is above ask ${item.ask_price}`)
  if (mark < bid || mark > ask)
    return reject('QuoteMarkOutsideSpread', `mark ${item.mark_price} is outside [${item.bid_price}, ${item.ask_price}]`)
  // Exact in bigints: ticks are safe integers but ticks x 10^4 need not be.
  if (BigInt(ask - bid) * BPS_DENOMINATOR > BigInt(limits.maxSpreadBps) * BigInt(bid)) {
    return reject('QuoteSpreadTooWide', `spread ${ask - bid} ticks is above ${limits.maxSpreadBps} bps of bid ${bid}`)
  }
  if (last !== null && ts - last.sourceTsMs <= limits.maxLagMs) {
    const move = BigInt(Math.abs(mark - last.markTicks))
    if (move * BPS_DENOMINATOR > BigInt(limits.maxChangeBps) * BigInt(last.markTicks)) {
      return reject('QuoteChangeTooLarge', `mark moved ${move} ticks from ${last.markTicks}, above ${limits.maxChangeBps} bps`)
    }
  }
  return { ok: true, quote: { bidTicks: bid, askTicks: ask, markTicks: mark, sourceTsMs: ts } }
}
