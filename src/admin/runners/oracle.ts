// The oracle quote service (docs/admin.md#oracle-runner): for every external-peg market, reads
// prices from the price source and submits SubmitOracleQuote batches with source_ts_ms = the
// current time in ms. A market's quote is "pushed" only once the chain accepted it; a rejected item
// stays due, its reason is logged (once per change), and it is retried with a newer timestamp,
// after a backoff that grows while the same prices keep being rejected.
//
// The current time stands for the source's own observation only while that observation is fresh:
// a price the source does not date (`ts_ms`), or dates further back than the market's
// max_quote_lag_ms, is not sent, and an unchanged price is refreshed only when the source dated it
// anew. So a frozen upstream lets the chain's stale-quote halt (QuoteStale) happen, instead of
// being re-sent as fresh.
import { type OracleQuoteInput, submitOracleQuote } from '../../client/actions.ts'
import { QUOTES_PER_BATCH_MAX } from '../../wire/actions.ts'
import type { Component, ComponentContext, ComponentSpec, CycleReport } from './component.ts'
import { roundDecimal, roundQuote } from './price-rounding.ts'
import type { PriceSource, SourcePrice } from './price-source.ts'
import { quoteItemOutcomes } from './quote-outcome.ts'

/** The getMarkets fields the oracle reads. */
interface MarketRow {
  readonly market_id: number
  readonly symbol: string
  readonly price_decimals: number
  readonly routing: string
}

interface Pushed {
  readonly bid: string
  readonly ask: string
  readonly mark: string
  readonly sourceTsMs: number
  /** The source's observation time of the prices pushed. */
  readonly observedAtMs: number
  readonly atMs: number
}

interface Rejection {
  readonly reason: string
  readonly message: string
  readonly source_ts_ms: number
  readonly at_ms: number
}

/** A market the chain keeps rejecting: how often in a row, for which prices, and when to try again. */
interface Backoff {
  readonly count: number
  /** The rounded prices rejected (bid/ask/mark); other prices are tried at once. */
  readonly prices: string
  readonly retryAtMs: number
  /** The reason last logged, so the same rejection is logged once. */
  readonly logged: string
}

type Rounded = { bid: string; ask: string; mark: string }

/** Batches one cycle sends at most (each of up to QUOTES_PER_BATCH_MAX items). */
const BATCHES_PER_CYCLE_MAX = 16
/** Longest wait before retrying a market whose same prices keep being rejected. */
export const REJECT_BACKOFF_MAX_MS = 30_000
/** getMarketSettings reads per JSON-RPC batch (the node's batch limit). */
const READ_BATCH_MAX = 20

/** How the oracle is configured. */
export interface OracleOptions {
  readonly priceSource: PriceSource | undefined
  readonly intervalMs: number
  /** A quote is sent again after this long even when its prices did not change (keeps it fresh), if the source dated it anew. */
  readonly refreshMs: number
}

/** The oracle's ComponentSpec. */
export function oracleSpec(options: OracleOptions): ComponentSpec {
  return {
    service: 'oracle',
    role: 'Quoter',
    actions: ['SubmitOracleQuote'],
    intervalMs: options.intervalMs,
    create(ctx) {
      if (options.priceSource === undefined) throw new Error('no price source is configured; start perpd-admin with --price-source SPEC')
      return new OracleComponent(ctx, options.priceSource, options.refreshMs, options.intervalMs)
    },
  }
}

const pricesKey = (q: Rounded) => `${q.bid}/${q.ask}/${q.mark}`

/** Quotes every external-peg market from one price source; see the file comment. */
export class OracleComponent implements Component {
  private readonly pushed = new Map<number, Pushed>()
  private readonly lastAttemptTs = new Map<number, number>()
  private readonly rejections = new Map<number, Rejection>()
  private readonly backoffs = new Map<number, Backoff>()
  private readonly symbols = new Map<number, string>()
  private readonly observed = new Map<number, number>()
  private batches = 0
  private accepted = 0
  private rejected = 0
  private lastSourceProblems = ''

  constructor(
    private readonly ctx: ComponentContext,
    private readonly source: PriceSource,
    private readonly refreshMs: number,
    private readonly intervalMs: number = 1_000,
  ) {}

  async cycle(signal: AbortSignal): Promise<CycleReport> {
    const rpc = this.ctx.client.rpc
    const markets = (await rpc.query<MarketRow[]>('getMarkets')).data.filter((m) => m.routing === 'external_peg')
    for (const m of markets) this.symbols.set(m.market_id, m.symbol)
    if (markets.length === 0) return { problems: [] }
    const maxLag = await this.maxQuoteLags(markets)
    const prices = await this.source.prices(
      markets.map((m) => m.symbol),
      signal,
    )
    const now = this.ctx.clock()
    // Problems of the source, worded so that a state that persists reads the same every cycle
    // (logged once per change); problems of the backoff (status only, logged when they happen).
    const sourceProblems: string[] = []
    const waiting: string[] = []
    const due: { market: MarketRow; price: SourcePrice; rounded: Rounded }[] = []
    for (const market of markets) {
      const price = prices.get(market.symbol)
      if (price === undefined) {
        sourceProblems.push(`${this.source.name} has no price for ${market.symbol}`)
        continue
      }
      const lag = maxLag.get(market.market_id)
      if (lag === undefined) {
        sourceProblems.push(`${market.symbol}: the node did not give its max_quote_lag_ms (getMarketSettings); not sent`)
        continue
      }
      if (price.tsMs === undefined) {
        sourceProblems.push(
          `${this.source.name} gives no source timestamp (ts_ms) for ${market.symbol}; a price that cannot be dated is not sent`,
        )
        continue
      }
      this.observed.set(market.market_id, price.tsMs)
      if (now - price.tsMs > lag) {
        sourceProblems.push(
          `${this.source.name} last observed ${market.symbol} at ts_ms ${price.tsMs}, longer ago than its max_quote_lag_ms ${lag}; not sent (a frozen source must not look fresh)`,
        )
        continue
      }
      if (price.tsMs - now > lag) {
        sourceProblems.push(
          `${this.source.name} dates ${market.symbol} at ts_ms ${price.tsMs}, more than max_quote_lag_ms ${lag} ahead of this clock; not sent (check both clocks)`,
        )
        continue
      }
      const rounded = roundQuote(price, market.price_decimals)
      if (rounded === undefined) {
        sourceProblems.push(`${this.source.name} sent a malformed price for ${market.symbol}`)
        continue
      }
      const backoff = this.backoffs.get(market.market_id)
      if (backoff !== undefined && backoff.prices === pricesKey(rounded) && now < backoff.retryAtMs) {
        waiting.push(
          `quote ${market.symbol} rejected ${backoff.count} times in a row (${backoff.logged}); next try in ${backoff.retryAtMs - now} ms`,
        )
        continue
      }
      if (this.isDue(market.market_id, rounded, price.tsMs, now)) due.push({ market, price, rounded })
    }
    const text = sourceProblems.join('; ')
    if (text !== this.lastSourceProblems && text !== '') this.ctx.log.warn(text)
    this.lastSourceProblems = text
    const problems = [...sourceProblems, ...waiting]
    for (
      let start = 0, batch = 0;
      start < due.length && batch < BATCHES_PER_CYCLE_MAX && !signal.aborted;
      start += QUOTES_PER_BATCH_MAX, batch++
    ) {
      problems.push(...(await this.send(due.slice(start, start + QUOTES_PER_BATCH_MAX))))
    }
    return { problems }
  }

  detail(): Record<string, unknown> {
    const markets = [...this.symbols].map(([marketId, symbol]) => {
      const p = this.pushed.get(marketId)
      const b = this.backoffs.get(marketId)
      return {
        market_id: marketId,
        symbol,
        pushed_source_ts_ms: p?.sourceTsMs ?? null,
        pushed_mark_price: p?.mark ?? null,
        source_observed_ms: this.observed.get(marketId) ?? null,
        last_rejection: this.rejections.get(marketId) ?? null,
        rejections_in_a_row: b?.count ?? 0,
        next_attempt_ms: b?.retryAtMs ?? null,
      }
    })
    return {
      price_source: this.source.name,
      batches_sent: this.batches,
      items_accepted: this.accepted,
      items_rejected: this.rejected,
      markets,
    }
  }

  /** max_quote_lag_ms of each market (getMarketSettings, read every cycle: an UpdateMarketConfig takes effect at once). */
  private async maxQuoteLags(markets: readonly MarketRow[]): Promise<Map<number, number>> {
    const out = new Map<number, number>()
    for (let start = 0; start < markets.length; start += READ_BATCH_MAX) {
      const chunk = markets.slice(start, start + READ_BATCH_MAX)
      const replies = await this.ctx.client.rpc.batch(
        chunk.map((m) => ({ method: 'getMarketSettings', params: { market_id: m.market_id } })),
      )
      for (const [i, r] of replies.entries()) {
        const lag = 'result' in r ? (r.result.data as { max_quote_lag_ms?: unknown })?.max_quote_lag_ms : undefined
        if (typeof lag === 'number' && Number.isFinite(lag)) out.set(chunk[i]!.market_id, lag)
      }
    }
    return out
  }

  /** Never pushed, rejected last time, changed, or older than refreshMs and observed anew by the source. */
  private isDue(marketId: number, q: Rounded, observedAtMs: number, now: number): boolean {
    const p = this.pushed.get(marketId)
    if (p === undefined) return true
    if (p.bid !== q.bid || p.ask !== q.ask || p.mark !== q.mark) return true
    return now - p.atMs >= this.refreshMs && observedAtMs > p.observedAtMs
  }

  private async send(items: { market: MarketRow; price: SourcePrice; rounded: Rounded }[]): Promise<string[]> {
    const now = this.ctx.clock()
    // The current time, but never a time an earlier attempt for the market already used: a retry
    // always carries a newer timestamp, even if the clock stepped back.
    const sourceTsMs = Math.max(now, ...items.map((i) => (this.lastAttemptTs.get(i.market.market_id) ?? 0) + 1))
    const quotes: OracleQuoteInput[] = items.map(({ market, price, rounded }) => ({
      market_id: market.market_id,
      bid_price: rounded.bid,
      ask_price: rounded.ask,
      mark_price: rounded.mark,
      source_ts_ms: sourceTsMs,
      last_price: price.last === undefined ? undefined : roundDecimal(price.last, market.price_decimals, 'nearest'),
      volume: price.volume,
    }))
    for (const i of items) this.lastAttemptTs.set(i.market.market_id, sourceTsMs)
    this.batches++
    const reply = await this.ctx.client.send(submitOracleQuote(quotes))
    const problems: string[] = []
    for (const outcome of quoteItemOutcomes(reply, items.length)) {
      const { market, price, rounded } = items[outcome.index]!
      if (outcome.accepted) {
        this.accepted++
        this.pushed.set(market.market_id, { ...rounded, sourceTsMs, observedAtMs: price.tsMs ?? 0, atMs: now })
        this.rejections.delete(market.market_id)
        const was = this.backoffs.get(market.market_id)
        if (was !== undefined) this.ctx.log.info(`quote ${market.symbol} accepted again after ${was.count} rejections`)
        this.backoffs.delete(market.market_id)
        continue
      }
      // Not marked pushed: the market stays due and goes again with a newer time, after a backoff
      // while the same prices keep being rejected (new prices go at once).
      this.rejected++
      this.pushed.delete(market.market_id)
      this.rejections.set(market.market_id, { reason: outcome.reason, message: outcome.message, source_ts_ms: sourceTsMs, at_ms: now })
      const prev = this.backoffs.get(market.market_id)
      const key = pricesKey(rounded)
      const count = prev !== undefined && prev.prices === key ? prev.count + 1 : 1
      const delay = Math.min(this.intervalMs * 2 ** (count - 1), REJECT_BACKOFF_MAX_MS)
      const line = `quote ${market.symbol} (source_ts_ms ${sourceTsMs}) rejected: ${outcome.reason} (${outcome.message}); retrying with a newer timestamp in ${delay} ms`
      // Logged once per change of reason or prices; the status carries every attempt.
      const logged = `${outcome.reason} ${key}`
      if (prev?.logged !== logged) this.ctx.log.warn(line)
      this.backoffs.set(market.market_id, { count, prices: key, retryAtMs: now + delay, logged })
      problems.push(line)
    }
    return problems
  }
}
