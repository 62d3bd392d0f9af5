// Symbols are resolved at read time from the node's market table
// (docs/markets.md#symbol-resolution): the readers get it from the main thread, so a renamed or
// reused symbol shows as the chain has it now.

/** market_id -> symbol; null for a market the cache does not know. */
export type SymbolOf = (marketId: number | null) => string | null

export interface MarketRef {
  readonly market_id: number
  readonly symbol: string
  readonly lifecycle: string
  readonly routing: string
}

export function symbolLookup(markets: readonly MarketRef[]): SymbolOf {
  const byId = new Map(markets.map((m) => [m.market_id, m.symbol]))
  return (id) => (id === null ? null : (byId.get(id) ?? null))
}
