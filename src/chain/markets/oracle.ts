// Oracle quotes: SubmitOracleQuote (Quoter role; batches over several markets), and the end-of-block
// check that halts an Active external-peg market whose quote went stale (QuoteStale), resumes one
// that is fresh again, and raises QuoteRejectStorm (docs/markets.md#oracle-quotes).
//
// Each item of a batch has its own rollback point: it is validated without touching state, and
// either applied in full or rejected with BatchItemRejected while the other items stand. Past that
// point a rejected item still counts toward its market's consecutive-reject streak; the streak is
// state (in the market leaf), so even a kept-reject envelope advances it, as it consumes its nonce.
// The envelope is a kept-reject (with the first item's reason) only when every item is rejected.
import { type OracleQuoteItem, QUOTES_PER_BATCH_MAX, type SubmitOracleQuotePayload } from '../../wire/actions.ts'
import { describeRef } from '../../wire/symbols.ts'
import type { BlockContext, Outcome } from '../core/action-context.ts'
import type { EventSink } from '../core/events.ts'
import { type Rejection, reject } from '../core/reasons.ts'
import type { ChainState, Market } from '../core/types.ts'
import { markLeaf } from '../state/state-root.ts'
import { resolveMarketRef } from './market-refs.ts'
import type { OracleQuote } from './market-types.ts'
import { QUOTE_REJECT_STORM_COUNT, validateQuote } from './quote-validation.ts'

/** Milliseconds since the market's staleness clock (its latest quote's source time, or activation). */
export function quoteLagMs(market: Market, timestampMs: number): number {
  return timestampMs - market.oracle.clockMs
}

/** The market's latest quote when it is fresh at timestampMs (lag at most max_quote_lag_ms), else undefined. */
export function freshQuote(market: Market, timestampMs: number): OracleQuote | undefined {
  const q = market.oracle.latest
  return q !== null && quoteLagMs(market, timestampMs) <= market.quoteLimits.maxLagMs ? q : undefined
}

/** Who submits and when: the quoter account and the block. */
export interface QuoteContext {
  readonly account: string
  readonly height: number
  readonly timestampMs: number
}

/** SubmitOracleQuote: applies each item on its own; see the file comment for batch semantics. */
export function submitOracleQuote(state: ChainState, ctx: QuoteContext, p: SubmitOracleQuotePayload, events: EventSink): Outcome {
  let accepted = 0
  let first: Rejection | undefined
  const reasons: string[] = []
  const itemEvents: EventSink = []
  const count = Math.min(p.quotes.length, QUOTES_PER_BATCH_MAX)
  for (let i = 0; i < count; i++) {
    const item = p.quotes[i]!
    const outcome = applyQuoteItem(state, ctx, item, itemEvents)
    if (outcome.ok) {
      accepted++
      continue
    }
    // Past the item's rollback point: nothing of it was applied; the streak still counts it.
    if (outcome.market !== undefined) countRejectedQuote(state, outcome.market)
    first ??= outcome
    reasons.push(`item ${i}: ${outcome.reason} (${outcome.message})`)
    itemEvents.push({
      kind: 'Core',
      sub_kind: 'BatchItemRejected',
      market_id: outcome.market?.marketId ?? null,
      account: ctx.account,
      action_kind: 'SubmitOracleQuote',
      index: i,
      reason: outcome.reason,
      message: outcome.message,
    })
  }
  if (accepted === 0) return reject(first!.reason, count === 1 ? first!.message : reasons.join('; '))
  for (const e of itemEvents) events.push(e)
  return { ok: true }
}

type ItemOutcome = { readonly ok: true } | (Rejection & { readonly market: Market | undefined })

/** Validates one quote and, when it passes, applies it. Touches nothing when it fails. */
function applyQuoteItem(state: ChainState, ctx: QuoteContext, item: OracleQuoteItem, events: EventSink): ItemOutcome {
  const market = resolveMarketRef(state, item)
  if (market === undefined) return { ...reject('MarketNotFound', `market not found: ${describeRef(item)}`), market: undefined }
  if (market.lifecycle === 'Delisted') return { ...reject('MarketDelisted', `${market.symbol} is Delisted`), market: undefined }
  if (market.routing !== 'external_peg')
    return { ...reject('MarketNotExternalPeg', `${market.symbol} is priced by its own book and takes no oracle quotes`), market }
  const checked = validateQuote(market, item, ctx.timestampMs)
  if (!checked.ok) return { ...checked, market }
  // After this point the quote must be accepted.
  const q = checked.quote
  const o = market.oracle
  o.latest = { ...q, acceptedHeight: ctx.height, acceptedAtMs: ctx.timestampMs }
  o.clockMs = q.sourceTsMs
  o.fillsOnQuote = 0
  o.consecutiveRejects = 0
  o.stormRaised = false
  market.markTicks = q.markTicks
  markLeaf(state, market)
  events.push({
    kind: 'Core',
    sub_kind: 'OracleQuoteAccepted',
    market_id: market.marketId,
    account: ctx.account,
    bid_price_ticks: q.bidTicks,
    ask_price_ticks: q.askTicks,
    mark_price_ticks: q.markTicks,
    source_ts_ms: q.sourceTsMs,
  })
  // A market halted for staleness (or with a null reason, which behaves alike) resumes on a fresh
  // quote; an Admin halt needs ResumeMarket. Validation made this quote fresh.
  if (market.lifecycle === 'Halted' && market.haltReason !== 'Admin') {
    market.lifecycle = 'Active'
    market.haltReason = null
    events.push({
      kind: 'Ops',
      sub_kind: 'MarketResumedAfterQuote',
      market_id: market.marketId,
      account: ctx.account,
      source_ts_ms: q.sourceTsMs,
    })
  }
  return { ok: true }
}

function countRejectedQuote(state: ChainState, market: Market): void {
  market.oracle.consecutiveRejects++
  markLeaf(state, market)
}

/**
 * End of block, for every market (bounded by the market count): raise QuoteRejectStorm once per
 * streak of QUOTE_REJECT_STORM_COUNT rejected quotes; halt an Active external-peg market whose
 * quote lag exceeds max_quote_lag_ms (QuoteStale); resume a QuoteStale (or null-reason) halted one
 * whose quote is fresh again. Admin halts are left alone.
 */
export function oracleBlockEnd(state: ChainState, timestampMs: number, events: EventSink): void {
  for (const market of state.markets.values()) {
    const o = market.oracle
    if (o.consecutiveRejects >= QUOTE_REJECT_STORM_COUNT && !o.stormRaised) {
      o.stormRaised = true
      markLeaf(state, market)
      events.push({
        kind: 'Ops',
        sub_kind: 'QuoteRejectStorm',
        market_id: market.marketId,
        account: null,
        consecutive_rejects: o.consecutiveRejects,
      })
    }
    if (market.routing !== 'external_peg') continue
    const lag = quoteLagMs(market, timestampMs)
    const maxLag = market.quoteLimits.maxLagMs
    if (market.lifecycle === 'Active' && lag > maxLag) {
      market.lifecycle = 'Halted'
      market.haltReason = 'QuoteStale'
      markLeaf(state, market)
      events.push({
        kind: 'Ops',
        sub_kind: 'MarketHaltedQuoteStale',
        market_id: market.marketId,
        account: null,
        lag_ms: lag,
        max_quote_lag_ms: maxLag,
        last_source_ts_ms: o.latest?.sourceTsMs ?? null,
      })
    } else if (market.lifecycle === 'Halted' && market.haltReason !== 'Admin' && o.latest !== null && lag <= maxLag) {
      market.lifecycle = 'Active'
      market.haltReason = null
      markLeaf(state, market)
      events.push({
        kind: 'Ops',
        sub_kind: 'MarketResumedAfterQuote',
        market_id: market.marketId,
        account: null,
        source_ts_ms: o.latest.sourceTsMs,
      })
    }
  }
}

/** The end-of-block hook form of oracleBlockEnd. */
export const oracleBlockEndHook = (ctx: BlockContext): void => oracleBlockEnd(ctx.state, ctx.timestampMs, ctx.events)
