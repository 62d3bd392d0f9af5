// The oracle quote service (docs/admin.md#oracle-runner): for every external-peg market, reads
// prices from the price source and submits SubmitOracleQuote batches with source_ts_ms = the
// current time in ms. A market's quote is "pushed" only once the chain accepted it; a rejected item
// stays due, its reason is logged, and the next cycle sends it again with a newer timestamp.
import { submitOracleQuote, type OracleQuoteInput } from '../../client/actions.ts'
import { QUOTES_PER_BATCH_MAX } from '../../wire/actions.ts'
import type { PriceSource, SourcePrice } from './price-source.ts'
import type { Component, ComponentContext, ComponentSpec, CycleReport } from './component.ts'
import { roundDecimal, roundQuote } from './price-rounding.ts'
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
  readonly atMs: number
}

interface Rejection {
  readonly reason: string
  readonly message: string
  readonly source_ts_ms: number
  readonly at_ms: number
}

/** Batches one cycle sends at most (each of up to QUOTES_PER_BATCH_MAX items). */
const BATCHES_PER_CYCLE_MAX = 16

/** How the oracle is configured. */
export interface OracleOptions {
  readonly priceSource: PriceSource | undefined
  readonly intervalMs: number
  /** A quote is sent again after this long even when its prices did not change (keeps it fresh). */
  readonly refreshMs: number
}

/** The oracle's ComponentSpec. */
export function oracleSpec(options: OracleOptions): ComponentSpec {
  return {
    service: 'oracle', role: 'Quoter', actions: ['SubmitOracleQuote'], intervalMs: options.intervalMs,
    create(ctx) {
      if (options.priceSource === undefined) throw new Error('no price source is configured; start perpd-admin with --price-source-url URL')
      return new OracleComponent(ctx, options.priceSource, options.refreshMs)
    },
  }
}

/** Quotes every external-peg market from one price source; see the file comment. */
export class OracleComponent implements Component {
  private readonly pushed = new Map<number, Pushed>()
  private readonly lastAttemptTs = new Map<number, number>()
  private readonly rejections = new Map<number, Rejection>()
  private readonly symbols = new Map<number, string>()
  private batches = 0
  private accepted = 0
  private rejected = 0
  private lastSourceProblems = ''

  constructor(
    private readonly ctx: ComponentContext,
    private readonly source: PriceSource,
    private readonly refreshMs: number,
  ) {}

  async cycle(signal: AbortSignal): Promise<CycleReport> {
    const rpc = this.ctx.client.rpc
    const markets = (await rpc.query<MarketRow[]>('getMarkets')).data.filter((m) => m.routing === 'external_peg')
    for (const m of markets) this.symbols.set(m.market_id, m.symbol)
    if (markets.length === 0) return { problems: [] }
    const prices = await this.source.prices(markets.map((m) => m.symbol), signal)
    const problems: string[] = []
    const due: { market: MarketRow; price: SourcePrice; rounded: { bid: string; ask: string; mark: string } }[] = []
    for (const market of markets) {
      const price = prices.get(market.symbol)
      if (price === undefined) {
        problems.push(`${this.source.name} has no price for ${market.symbol}`)
        continue
      }
      const rounded = roundQuote(price, market.price_decimals)
      if (rounded === undefined) {
        problems.push(`${this.source.name} sent a malformed price for ${market.symbol}`)
        continue
      }
      if (this.isDue(market.market_id, rounded)) due.push({ market, price, rounded })
    }
    // Source trouble is logged when it changes, not every cycle.
    const sourceProblems = problems.join('; ')
    if (sourceProblems !== this.lastSourceProblems && sourceProblems !== '') this.ctx.log.warn(sourceProblems)
    this.lastSourceProblems = sourceProblems
    for (let start = 0, batch = 0; start < due.length && batch < BATCHES_PER_CYCLE_MAX && !signal.aborted; start += QUOTES_PER_BATCH_MAX, batch++) {
      problems.push(...(await this.send(due.slice(start, start + QUOTES_PER_BATCH_MAX))))
    }
    return { problems }
  }

  detail(): Record<string, unknown> {
    const markets = [...this.symbols].map(([marketId, symbol]) => {
      const p = this.pushed.get(marketId)
      return {
        market_id: marketId, symbol,
        pushed_source_ts_ms: p?.sourceTsMs ?? null, pushed_mark_price: p?.mark ?? null,
        last_rejection: this.rejections.get(marketId) ?? null,
      }
    })
    return { price_source: this.source.name, batches_sent: this.batches, items_accepted: this.accepted, items_rejected: this.rejected, markets }
  }

  /** Never pushed, rejected last time, changed, or older than refreshMs. */
  private isDue(marketId: number, q: { bid: string; ask: string; mark: string }): boolean {
    const p = this.pushed.get(marketId)
    if (p === undefined) return true
    if (p.bid !== q.bid || p.ask !== q.ask || p.mark !== q.mark) return true
    return this.ctx.clock() - p.atMs >= this.refreshMs
  }

  private async send(items: { market: MarketRow; price: SourcePrice; rounded: { bid: string; ask: string; mark: string } }[]): Promise<string[]> {
    const now = this.ctx.clock()
    // The current time, but never a time an earlier attempt for the market already used: a retry
    // always carries a newer timestamp, even if the clock stepped back.
    const sourceTsMs = Math.max(now, ...items.map((i) => (this.lastAttemptTs.get(i.market.market_id) ?? 0) + 1))
    const quotes: OracleQuoteInput[] = items.map(({ market, price, rounded }) => ({
      market_id: market.market_id, bid_price: rounded.bid, ask_price: rounded.ask, mark_price: rounded.mark, source_ts_ms: sourceTsMs,
      last_price: price.last === undefined ? undefined : roundDecimal(price.last, market.price_decimals, 'nearest'),
      volume: price.volume,
    }))
    for (const i of items) this.lastAttemptTs.set(i.market.market_id, sourceTsMs)
    this.batches++
    const reply = await this.ctx.client.send(submitOracleQuote(quotes))
    const problems: string[] = []
    for (const outcome of quoteItemOutcomes(reply, items.length)) {
      const { market, rounded } = items[outcome.index]!
      if (outcome.accepted) {
        this.accepted++
        this.pushed.set(market.market_id, { ...rounded, sourceTsMs, atMs: now })
        this.rejections.delete(market.market_id)
        continue
      }
      // Not marked pushed: the market stays due and goes again next cycle with a newer time.
      this.rejected++
      this.pushed.delete(market.market_id)
      this.rejections.set(market.market_id, { reason: outcome.reason, message: outcome.message, source_ts_ms: sourceTsMs, at_ms: now })
      const line = `quote ${market.symbol} (source_ts_ms ${sourceTsMs}) rejected: ${outcome.reason} (${outcome.message}); retrying next cycle with a newer timestamp`
      this.ctx.log.warn(line)
      problems.push(line)
    }
    return problems
  }
}
