// Where the oracle gets prices: a pluggable venue adapter. The hedging issue brings adapters for
// real venues; this build has a configurable HTTP JSON source (--price-source-url).
import { type Static, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { DECIMAL_MAX_LENGTH, decimalPattern } from '../../lib/decimal.ts'

/** One market's prices from a source, as decimal strings at any precision, with when the source observed them. */
export interface SourcePrice {
  readonly bid: string
  readonly ask: string
  readonly mark: string
  readonly last?: string | undefined
  readonly volume?: string | undefined
  /**
   * When the source observed these prices (Unix ms): the price's own `ts_ms`, else the document's.
   * Undefined when the source gave none; the oracle refuses such a price (docs/admin.md#oracle-runner).
   */
  readonly tsMs: number | undefined
}

/** A venue adapter: current prices of the markets asked for (a symbol it does not know is left out). */
export interface PriceSource {
  readonly name: string
  prices(symbols: readonly string[], signal: AbortSignal): Promise<ReadonlyMap<string, SourcePrice>>
}

// The chain's own decimal grammar (lib/decimal.ts, the wire's DecimalString), so a volume the
// source sends passes admission as it is.
const Decimal = Type.String({ pattern: decimalPattern(), maxLength: DECIMAL_MAX_LENGTH })

const TimestampMs = Type.Integer({
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'when the source observed the prices, Unix ms',
})

/**
 * The document the HTTP source reads: `GET <url>?symbols=XAU-USD,...` answers
 * `{"ts_ms": 1795698350000, "prices": {"XAU-USD": {"bid": "2399.5", "ask": "2400.5", "mark": "2400", "last"?: "…", "volume"?: "…", "ts_ms"?: …}}}`.
 * Prices are decimal strings (never JSON numbers, which lose digits); any precision is accepted
 * and the oracle rounds to the market's price_decimals. `ts_ms` (of the document, or of one
 * price, which then wins) is when the source observed the prices: the oracle sends nothing the
 * source cannot date, nor anything older than the market's max_quote_lag_ms.
 */
export const HttpPriceDocument = Type.Object({
  ts_ms: Type.Optional(TimestampMs),
  prices: Type.Record(
    Type.String({ maxLength: 32 }),
    Type.Object({
      bid: Decimal,
      ask: Decimal,
      mark: Decimal,
      last: Type.Optional(Decimal),
      volume: Type.Optional(Decimal),
      ts_ms: Type.Optional(TimestampMs),
    }),
  ),
})
/** The parsed {@link HttpPriceDocument}. */
export type HttpPriceDocument = Static<typeof HttpPriceDocument>

/** Longest a source may take before the cycle gives up on it. */
const FETCH_TIMEOUT_MS = 5_000

/** Reads {@link HttpPriceDocument} over HTTP. Symbols match case-insensitively. */
export class HttpPriceSource implements PriceSource {
  readonly name: string

  constructor(private readonly url: string) {
    this.name = `http ${url}`
  }

  async prices(symbols: readonly string[], signal: AbortSignal): Promise<ReadonlyMap<string, SourcePrice>> {
    const url = new URL(this.url)
    url.searchParams.set('symbols', symbols.join(','))
    const res = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]) })
    if (!res.ok) throw new Error(`price source ${this.url} answered HTTP ${res.status}`)
    const doc: unknown = await res.json()
    if (!Value.Check(HttpPriceDocument, doc)) {
      const first = Value.Errors(HttpPriceDocument, doc).First()
      throw new Error(`price source ${this.url} sent an unexpected document: ${first?.path ?? ''} ${first?.message ?? ''}`)
    }
    const wanted = new Map(symbols.map((s) => [s.toUpperCase(), s]))
    const out = new Map<string, SourcePrice>()
    for (const [symbol, p] of Object.entries(doc.prices)) {
      const ours = wanted.get(symbol.toUpperCase())
      if (ours !== undefined)
        out.set(ours, { bid: p.bid, ask: p.ask, mark: p.mark, last: p.last, volume: p.volume, tsMs: p.ts_ms ?? doc.ts_ms })
    }
    return out
  }
}
