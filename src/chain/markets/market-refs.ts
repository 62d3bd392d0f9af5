// A market reference (market_id or symbol) resolved against the chain's state, by the symbol rule
// of docs/markets.md#symbol-resolution (src/wire/symbols.ts): a market_id takes precedence over a
// symbol and may address a Delisted market (rule 4); with neither, read methods apply no market
// filter (rule 5).
import { type MarketRef, resolveSymbol } from '../../wire/symbols.ts'
import type { ChainState, Market } from '../core/types.ts'

/** A market addressed by market_id (which may name a Delisted market) or else by symbol. */
export function resolveMarketRef(state: ChainState, ref: MarketRef): Market | undefined {
  if (ref.market_id !== undefined) return state.markets.get(ref.market_id)
  if (ref.symbol !== undefined) return resolveSymbol(state.markets.values(), ref.symbol)
  return undefined
}

/**
 * The market filter of a read method: `all` when the request names no market (rule 5), the
 * market when it resolves, `missing` when it names one that does not resolve.
 */
export function resolveMarketFilter(
  state: ChainState,
  ref: MarketRef,
): { readonly kind: 'all' } | { readonly kind: 'market'; readonly market: Market } | { readonly kind: 'missing' } {
  if (ref.market_id === undefined && ref.symbol === undefined) return { kind: 'all' }
  const market = resolveMarketRef(state, ref)
  return market === undefined ? { kind: 'missing' } : { kind: 'market', market }
}

/** The live market whose symbol is exactly `symbol` (case-insensitive), if any: CreateMarket's clash check. */
export function liveMarketWithSymbol(state: ChainState, symbol: string): Market | undefined {
  const wanted = symbol.toUpperCase()
  let found: Market | undefined
  for (const m of state.markets.values()) {
    if (m.lifecycle !== 'Delisted' && m.symbol.toUpperCase() === wanted && (found === undefined || m.marketId < found.marketId)) found = m
  }
  return found
}
