// Where the oracle gets prices (--price-source, docs/admin.md#price-sources): an HTTP JSON
// document (HttpPriceSource), or the quotes of an external venue (VenuePriceSource over the
// adapters of src/admin/venues: Hyperliquid, another perpd node).
import { type Static, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { DECIMAL_MAX_LENGTH, decimalPattern, formatDecimal, parseDecimal } from '../../lib/decimal.ts'
import type { Venue } from '../venues/venue.ts'
import type { VenueSpec } from '../venues/venue-spec.ts'

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

/** What --price-source names: the URL of an HTTP price document, or a venue whose quotes are the prices. */
export type PriceSourceSpec = { readonly kind: 'http'; readonly url: string } | { readonly kind: 'venue'; readonly venue: VenueSpec }

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

/** Digits kept when a mark is the middle of bid and ask (the oracle rounds to the market's price_decimals). */
const MID_DECIMALS = 12

/**
 * Prices from a venue's quotes: bid and ask are the venue's best bid and ask, the mark its mid
 * (the middle of bid and ask when the venue gives none), dated with the venue's own time of the
 * book. A market whose book has an empty side has no price: it is left out, so the oracle sends
 * nothing for it and the chain's stale-quote halt can do its work.
 */
export class VenuePriceSource implements PriceSource {
  readonly name: string

  constructor(private readonly venue: Venue) {
    this.name = `venue ${venue.name}`
  }

  async prices(symbols: readonly string[], signal: AbortSignal): Promise<ReadonlyMap<string, SourcePrice>> {
    const quotes = await this.venue.quotes(symbols, signal)
    const out = new Map<string, SourcePrice>()
    for (const [symbol, q] of quotes) {
      if (q.best_bid === null || q.best_ask === null) continue
      const mark = q.mid ?? middle(q.best_bid, q.best_ask)
      if (mark === undefined) continue
      out.set(symbol, { bid: q.best_bid, ask: q.best_ask, mark, tsMs: q.ts_ms })
    }
    return out
  }
}

/** (bid + ask) / 2 as a decimal string, or undefined when either is not a decimal. */
function middle(bid: string, ask: string): string | undefined {
  const b = parseDecimal(bid, MID_DECIMALS)
  const a = parseDecimal(ask, MID_DECIMALS)
  if (!b.ok || !a.ok) return undefined
  return formatDecimal((b.value + a.value) / 2n, MID_DECIMALS)
}

/** The price source a spec names; `venueFor` makes (or shares) the venue of a venue spec. */
export function priceSourceFor(spec: PriceSourceSpec, venueFor: (venue: VenueSpec) => Venue): PriceSource {
  return spec.kind === 'http' ? new HttpPriceSource(spec.url) : new VenuePriceSource(venueFor(spec.venue))
}
