// Symbol and market_id resolution (docs/markets.md#symbol-resolution), the one resolver every
// action, read method, REST path and topic uses:
//   1. a symbol matches exactly or by prefix, case-insensitively; among several matches the
//      shortest symbol wins (an exact match is always the shortest);
//   2. Delisted markets are skipped; among markets with the same symbol the smallest market_id
//      wins; when every match is Delisted, resolution fails;
//   3. DelistPending markets are not skipped;
//   4. a market_id takes precedence over a symbol and may address a Delisted market;
//   5. with neither, read methods apply no market filter (resolveMarketFilter);
//   7. a full symbol's coin is the part before the dash (coinOf).
// The loops are bounded by the number of markets (small: markets are created by an Admin).
// The symbol rule is a wire rule: clients, the feed and the API resolve with it as the chain does.
// Resolution against the chain's state (market_id over symbol, the read methods' filter, the
// clash check of CreateMarket) is src/chain/markets/market-refs.ts.

/** What the resolver reads of a market: any record with these fields (the chain's Market, a feed's market). */
export interface SymbolMarket {
  readonly marketId: number
  readonly symbol: string
  readonly lifecycle: string
}

/** Resolves a symbol or base-asset prefix to a live (non-Delisted) market, or undefined. */
export function resolveSymbol<M extends SymbolMarket>(markets: Iterable<M>, symbol: string): M | undefined {
  const wanted = symbol.toUpperCase()
  let best: M | undefined
  for (const m of markets) {
    if (m.lifecycle === 'Delisted') continue
    if (m.symbol.length < wanted.length || !m.symbol.toUpperCase().startsWith(wanted)) continue
    if (
      best === undefined ||
      m.symbol.length < best.symbol.length ||
      (m.symbol.length === best.symbol.length && m.marketId < best.marketId)
    )
      best = m
  }
  return best
}

/** A reference to a market as payloads and read params carry it. */
export interface MarketRef {
  readonly market_id?: number | undefined
  readonly symbol?: string | undefined
}

/** The coin of a symbol: the part before the dash of a full symbol, else the symbol (rule 7). */
export function coinOf(symbol: string): string {
  const dash = symbol.indexOf('-')
  return dash < 0 ? symbol : symbol.slice(0, dash)
}

/** A human-readable name of a market reference, for reject messages. */
export function describeRef(ref: MarketRef): string {
  if (ref.market_id !== undefined) return `market_id ${ref.market_id}`
  if (ref.symbol !== undefined) return `symbol ${JSON.stringify(ref.symbol)}`
  return 'no market_id or symbol given'
}
