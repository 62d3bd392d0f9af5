// What the adapter makes of Hyperliquid's market metadata (docs/admin.md#venues): our symbols, the
// asset ids orders carry, which markets we trade, and the categories the catalog syncs from.
//
// - A main-dex coin `BTC` is our `BTC-USD`; a builder-deployed dex's coin `xyz:TSLA` is `TSLA-USD`.
//   When two coins map to the same symbol the first wins: the main dex, then the builder dexes in
//   the order perpDexs lists them.
// - Asset ids: a main-dex coin's index in `meta.universe`; a builder dex's coin
//   100000 + dex index in perpDexs × 10000 + its index in that dex's universe.
// - Only main-dex markets that are not delisted are tradable: positions and margin are read from
//   the main dex's clearinghouse, and builder dexes have their own collateral and clearinghouse.
// - Categories: `perpCategories` is the only category data Hyperliquid publishes, [coin, category]
//   pairs (today only builder-dex coins carry one). A coin with a category is in that category
//   (its code lower-cased); any other main-dex coin is `crypto` (the main dex lists crypto assets
//   only); any other builder-dex coin is `misc`. Delisted markets are in none.
import type { HlMeta, HlPerpCategories, HlPerpDexs } from './hyperliquid-info.ts'
import { PERP_MAX_DECIMALS } from './hyperliquid-numbers.ts'
import type { VenueCategory, VenueMarket } from './venue.ts'

/** A market with what orders and quotes need besides the interface's fields. */
export interface HlMarket extends VenueMarket {
  /** The asset id orders and cancels carry. */
  readonly asset: number
  /** The dex that lists it: "" for the main dex, else the builder dex's name. */
  readonly dex: string
  readonly delisted: boolean
}

/** Asset ids of builder-dex coins start here. */
const BUILDER_ASSET_BASE = 100_000
const BUILDER_DEX_STRIDE = 10_000

/** Our symbol of a Hyperliquid coin: the name without its dex prefix, upper-cased, with `-USD`. */
export function symbolOfCoin(coin: string): string {
  const colon = coin.indexOf(':')
  return `${(colon < 0 ? coin : coin.slice(colon + 1)).toUpperCase()}-USD`
}

/** The markets of every dex, main dex first; `metas[i]` is the meta of `dexes[i]` (index 0: the main dex). */
export function marketsOf(dexes: HlPerpDexs, metas: readonly HlMeta[]): HlMarket[] {
  const out: HlMarket[] = []
  const taken = new Set<string>()
  dexes.forEach((dex, dexIndex) => {
    const meta = metas[dexIndex]
    if (meta === undefined) return
    const dexName = dexIndex === 0 || dex === null ? '' : dex.name
    meta.universe.forEach((u, i) => {
      const symbol = symbolOfCoin(u.name)
      if (taken.has(symbol) || i >= BUILDER_DEX_STRIDE) return
      taken.add(symbol)
      const delisted = u.isDelisted === true
      out.push({
        coin: u.name,
        symbol,
        size_decimals: u.szDecimals,
        price_decimals: Math.max(0, PERP_MAX_DECIMALS - u.szDecimals),
        tradable: dexName === '' && !delisted,
        asset: dexName === '' ? i : BUILDER_ASSET_BASE + dexIndex * BUILDER_DEX_STRIDE + i,
        dex: dexName,
        delisted,
      })
    })
  })
  return out
}

const CATEGORY_CODE = /^[a-z0-9][a-z0-9_-]{0,31}$/

/** The display name of a category code: `stocks` → `Stocks`. */
function categoryName(code: string): string {
  return code.charAt(0).toUpperCase() + code.slice(1)
}

/** The categories of the markets (see the file comment); sorted by code, symbols sorted. */
export function categoriesOf(markets: readonly HlMarket[], tags: HlPerpCategories): VenueCategory[] {
  const tagOf = new Map<string, string>()
  for (const [coin, category] of tags) {
    const code = category.trim().toLowerCase().replace(/\s+/g, '-')
    if (CATEGORY_CODE.test(code)) tagOf.set(coin, code)
  }
  const byCode = new Map<string, string[]>()
  for (const m of markets) {
    if (m.delisted) continue
    const code = tagOf.get(m.coin) ?? (m.dex === '' ? 'crypto' : 'misc')
    const list = byCode.get(code)
    if (list === undefined) byCode.set(code, [m.symbol])
    else list.push(m.symbol)
  }
  return [...byCode.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, symbols]) => ({ code, name: categoryName(code), parent_code: null, symbols: symbols.sort() }))
}
