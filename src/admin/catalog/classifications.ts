// The legacy classification routes (docs/admin.md#legacy-classifications): market_id → category
// codes, as clients of the old market_id link read and wrote it. The link is gone: a market's
// categories are derived from the catalog entry of its chain symbol (matched in any case), as
// [top-level code, sub-category code] or [top-level code]; writing one sets that symbol's catalog
// entry (`manual`), so the classification follows the symbol, not the id.
import type { Database } from 'bun:sqlite'
import { HttpError } from '../http/errors.ts'
import { appendAudit } from '../store/audit.ts'
import type { AdminDb } from '../store/db.ts'
import { categoriesById, categoryPath, visiblePath } from './catalog-store.ts'
import type { ChainMarket } from './chain-markets.ts'
import type { Category, Source } from './model.ts'
import { invalidField } from './refusal.ts'
import { catalogEntries, catalogEntry, categoryByCode, deleteCatalogEntry, putCatalogEntry } from './rows.ts'

/** A market's classification: its categories, top-level first (empty when it has none). */
export interface Classification {
  readonly market_id: number
  readonly symbol: string
  readonly categories: string[]
}

/** The admin view adds the catalog entry's source (null without an entry). */
export type AdminClassification = Classification & { readonly source: Source | null }

/** One market's classification to set: `categories` empty removes it. */
export interface ClassificationInput {
  readonly market_id: number
  readonly categories: readonly string[]
}

const marketNotFound = (id: number | string) =>
  new HttpError(
    404,
    'MARKET_NOT_FOUND',
    `no market with id ${String(id).slice(0, 32)} is listed on chain (delisted markets have no classification)`,
  )

/** Where the chain's markets come from (chain-markets.ts ChainMarkets). */
export interface MarketList {
  list(): Promise<readonly ChainMarket[]>
}

/** Derives and writes classifications through the catalog. */
export class ClassificationStore {
  constructor(
    private readonly db: AdminDb,
    private readonly markets: MarketList,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Every market on chain with its categories, enabled ones only. */
  async listPublic(): Promise<Classification[]> {
    const markets = await this.markets.list()
    return this.db.read((d) => classifyPublic(d, markets))
  }

  /** Every market on chain with its categories and the catalog entry's source. */
  async listAdmin(): Promise<AdminClassification[]> {
    const markets = await this.markets.list()
    return this.db.read((d) => classifyAdmin(d, markets))
  }

  /** One market's (admin view); 404 when it is not on chain. */
  async one(marketId: number): Promise<AdminClassification> {
    const market = (await this.markets.list()).find((m) => m.market_id === marketId)
    if (market === undefined) throw marketNotFound(marketId)
    return this.db.read((d) => classifyAdmin(d, [market])[0]!)
  }

  /** Sets the classifications of several markets, all or none; returns them as they are after. */
  async set(items: readonly ClassificationInput[], actor: string): Promise<AdminClassification[]> {
    const markets = await this.resolve(items.map((i) => i.market_id))
    const now = this.clock()
    return this.db.write((tx) => {
      items.forEach((item, i) => {
        const market = markets[i]!
        const symbol = market.symbol.toLowerCase()
        const before = catalogEntry(tx, symbol)
        const target = leafOf(tx, item.categories, items.length === 1 ? 'categories' : `classifications.${i}.categories`)
        if (target === undefined) {
          if (before === undefined) return
          deleteCatalogEntry(tx, symbol)
        } else putCatalogEntry(tx, { symbol, categoryId: target.id, source: 'manual' }, now, actor)
        appendAudit(tx, {
          atMs: now,
          actor,
          action: target === undefined ? 'classification.delete' : 'classification.set',
          target: String(market.market_id),
          detail: { symbol, from: before?.category ?? null, to: target?.code ?? null },
        })
      })
      return classifyAdmin(tx, markets)
    })
  }

  /** Removes the catalog entries of markets' symbols; which had one and which had none. */
  async remove(marketIds: readonly number[], actor: string): Promise<{ removed: number[]; not_classified: number[] }> {
    const markets = await this.resolve(marketIds)
    const now = this.clock()
    return this.db.write((tx) => {
      const out = { removed: [] as number[], not_classified: [] as number[] }
      for (const market of markets) {
        const symbol = market.symbol.toLowerCase()
        const before = catalogEntry(tx, symbol)
        if (before === undefined || !deleteCatalogEntry(tx, symbol)) {
          out.not_classified.push(market.market_id)
          continue
        }
        appendAudit(tx, {
          atMs: now,
          actor,
          action: 'classification.delete',
          target: String(market.market_id),
          detail: { symbol, from: before.category, to: null },
        })
        out.removed.push(market.market_id)
      }
      return out
    })
  }

  /** The chain markets of these ids, in order (distinct); 404 for the first that is not on chain. */
  private async resolve(ids: readonly number[]): Promise<ChainMarket[]> {
    const seen = new Set<number>()
    for (const id of ids) {
      if (seen.has(id)) throw invalidField('market_id', 'MARKET_TWICE', `market ${id} is named twice`)
      seen.add(id)
    }
    const markets = await this.markets.list()
    return ids.map((id) => {
      const m = markets.find((x) => x.market_id === id)
      if (m === undefined) throw marketNotFound(id)
      return m
    })
  }
}

/** Classifications of chain markets from the catalog: enabled categories only. */
function classifyPublic(tx: Database, markets: readonly ChainMarket[]): Classification[] {
  const byId = categoriesById(tx)
  const entries = new Map(catalogEntries(tx).map((e) => [e.symbol, e]))
  return markets.map((m) => {
    const entry = entries.get(m.symbol.toLowerCase())
    const category = entry === undefined ? undefined : byId.get(entry.category_id)
    return { market_id: m.market_id, symbol: m.symbol, categories: category === undefined ? [] : (visiblePath(category, byId) ?? []) }
  })
}

/** Classifications of chain markets from the catalog, any category, with the entry's source. */
function classifyAdmin(tx: Database, markets: readonly ChainMarket[]): AdminClassification[] {
  const byId = categoriesById(tx)
  const entries = new Map(catalogEntries(tx).map((e) => [e.symbol, e]))
  return markets.map((m) => {
    const entry = entries.get(m.symbol.toLowerCase())
    const category = entry === undefined ? undefined : byId.get(entry.category_id)
    return {
      market_id: m.market_id,
      symbol: m.symbol,
      categories: category === undefined ? [] : categoryPath(category, byId),
      source: entry?.source ?? null,
    }
  })
}

/**
 * The category a legacy code list names: none for [], the category for [code], the sub-category
 * for [parent, sub] in either order. A market has one category in the catalog, so any other list
 * is refused.
 */
function leafOf(tx: Database, codes: readonly string[], field: string): Category | undefined {
  const wanted = [...new Set(codes.map((c) => c.toLowerCase()))]
  if (wanted.length === 0) return undefined
  const found = wanted.map((code) => {
    const c = categoryByCode(tx, code)
    if (c === undefined) throw invalidField(field, 'CATEGORY_NOT_FOUND', `no category with code ${code}`)
    return c
  })
  if (found.length === 1) return found[0]
  const [a, b] = found as [Category, Category]
  if (b.parent_id === a.id) return b
  if (a.parent_id === b.id) return a
  throw invalidField(
    field,
    'CATEGORY_LIST',
    `a market has one category: name it, or a sub-category and its parent (${a.code} and ${b.code} are not parent and child)`,
  )
}
