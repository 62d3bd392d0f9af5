// Symbol resolution (spec §2.2): exact or prefix match, case-insensitive, shortest wins; Delisted
// markets are skipped; among duplicates the smallest market_id wins; market_id beats symbol.
import type { ChainState, Market } from './types.ts'

/** Resolves a symbol or base-asset prefix to a market, or undefined. Bounded by the market count. */
export function resolveSymbol(markets: Iterable<Market>, symbol: string): Market | undefined {
  const wanted = symbol.toUpperCase()
  let best: Market | undefined
  for (const m of markets) {
    if (m.lifecycle === 'Delisted') continue
    const s = m.symbol.toUpperCase()
    if (!s.startsWith(wanted)) continue
    const exact = s === wanted
    const bestExact = best !== undefined && best.symbol.toUpperCase() === wanted
    if (best === undefined
      || (exact && !bestExact)
      || (exact === bestExact && (s.length < best.symbol.length || (s.length === best.symbol.length && m.marketId < best.marketId)))) {
      best = m
    }
  }
  return best
}

/** A market addressed by market_id (which may name a delisted market) or else by symbol. */
export function resolveMarketRef(state: ChainState, ref: { market_id?: number | undefined; symbol?: string | undefined }): Market | undefined {
  if (ref.market_id !== undefined) return state.markets.get(ref.market_id)
  if (ref.symbol !== undefined) return resolveSymbol(state.markets.values(), ref.symbol)
  return undefined
}
