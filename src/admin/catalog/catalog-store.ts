// The symbol catalog (docs/admin.md#category-routes): one category per symbol, stored lower-case and
// matched in any case; the admin's add and remove of symbols (entries become `manual`), and the
// public read-only views of the tree and the catalog, which show enabled categories only.
import type { Database } from 'bun:sqlite'
import { appendAudit } from '../store/audit.ts'
import type { AdminDb } from '../store/db.ts'
import type { CatalogEntry, Category, Source } from './model.ts'
import { categoryNotFound, invalidField } from './refusal.ts'
import { allCategories, catalogEntries, catalogEntry, categoryById, deleteCatalogEntry, putCatalogEntry } from './rows.ts'

/** What POST /api/market-categories/{id}/markets did. */
export interface MarketsChange {
  readonly category: string
  /** Symbols now in the category as `manual` entries that were not in another category before. */
  readonly added: string[]
  /** Symbols taken from another category into this one. */
  readonly moved: { symbol: string; from: string }[]
  readonly removed: string[]
  /** Symbols asked to be removed that are not in this category (left as they are). */
  readonly not_in_category: string[]
}

/** A public category: enabled, with its enabled sub-categories. */
export interface PublicCategory {
  readonly id: number
  readonly code: string
  readonly name: string
  readonly sort_order: number
  readonly children: PublicCategory[]
}

/** A public catalog entry: the symbol, its category and that category's parent (null at the top). */
export interface PublicCatalogEntry {
  readonly symbol: string
  readonly category: string
  readonly parent: string | null
}

/** The codes of a category and its parent, top-level first, when both are enabled; undefined when hidden. */
export function visiblePath(c: Category, byId: ReadonlyMap<number, Category>): string[] | undefined {
  if (!c.enabled) return undefined
  if (c.parent_id === null) return [c.code]
  const parent = byId.get(c.parent_id)
  return parent?.enabled ? [parent.code, c.code] : undefined
}

/** The codes of a category and its parent, top-level first, enabled or not. */
export function categoryPath(c: Category, byId: ReadonlyMap<number, Category>): string[] {
  const parent = c.parent_id === null ? undefined : byId.get(c.parent_id)
  return parent === undefined ? [c.code] : [parent.code, c.code]
}

/** Categories by id. */
export function categoriesById(tx: Database): Map<number, Category> {
  return new Map(allCategories(tx).map((c) => [c.id, c]))
}

/** The market_catalog table through the API. */
export class CatalogStore {
  constructor(
    private readonly db: AdminDb,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The admin view, filtered by source, category code and symbol (any case). */
  list(filter: { source?: Source; category?: string; symbol?: string } = {}): CatalogEntry[] {
    return this.db.read((d) => {
      let categoryId: number | undefined
      if (filter.category !== undefined) {
        const c = allCategories(d).find((x) => x.code === filter.category!.toLowerCase())
        if (c === undefined) return []
        categoryId = c.id
      }
      return catalogEntries(d, {
        ...(filter.source === undefined ? {} : { source: filter.source }),
        ...(categoryId === undefined ? {} : { categoryId }),
        ...(filter.symbol === undefined ? {} : { symbol: filter.symbol.toLowerCase() }),
      })
    })
  }

  /** Adds symbols to a category (as `manual`, taking them from any other) and removes symbols from it. */
  changeMarkets(categoryId: number, change: { add: readonly string[]; remove: readonly string[] }, actor: string): MarketsChange {
    const add = [...new Set(change.add.map((s) => s.toLowerCase()))]
    const remove = [...new Set(change.remove.map((s) => s.toLowerCase()))]
    const both = add.filter((s) => remove.includes(s))
    if (both.length > 0)
      throw invalidField('remove', 'SYMBOL_TWICE', `${both.join(', ')} ${both.length === 1 ? 'is' : 'are'} in both add and remove`, {
        symbols: both,
      })
    const now = this.clock()
    return this.db.write((tx) => {
      const category = categoryById(tx, categoryId)
      if (category === undefined) throw categoryNotFound(categoryId)
      const out: MarketsChange = { category: category.code, added: [], moved: [], removed: [], not_in_category: [] }
      for (const symbol of add) {
        const before = catalogEntry(tx, symbol)
        putCatalogEntry(tx, { symbol, categoryId, source: 'manual' }, now, actor)
        if (before === undefined || before.category_id === categoryId) out.added.push(symbol)
        else out.moved.push({ symbol, from: before.category })
      }
      for (const symbol of remove) {
        const before = catalogEntry(tx, symbol)
        if (before?.category_id === categoryId && deleteCatalogEntry(tx, symbol)) out.removed.push(symbol)
        else out.not_in_category.push(symbol)
      }
      if (out.added.length + out.moved.length + out.removed.length > 0)
        appendAudit(tx, {
          atMs: now,
          actor,
          action: 'catalog.markets',
          target: String(categoryId),
          detail: { category: out.category, added: out.added, moved: out.moved, removed: out.removed },
        })
      return out
    })
  }

  /** The enabled categories as a two-level tree; a disabled top-level category hides its children. */
  publicTree(): PublicCategory[] {
    const all = this.db.read((d) => allCategories(d))
    const node = (c: Category): PublicCategory => ({ id: c.id, code: c.code, name: c.name, sort_order: c.sort_order, children: [] })
    const top = all.filter((c) => c.parent_id === null && c.enabled).map((c) => ({ id: c.id, tree: node(c) }))
    for (const c of all) {
      if (c.parent_id === null || !c.enabled) continue
      top.find((t) => t.id === c.parent_id)?.tree.children.push(node(c))
    }
    return top.map((t) => t.tree)
  }

  /** The catalog entries of enabled categories (optionally one symbol, any case). */
  publicCatalog(symbol?: string): PublicCatalogEntry[] {
    return this.db.read((d) => {
      const byId = categoriesById(d)
      const out: PublicCatalogEntry[] = []
      for (const e of catalogEntries(d, symbol === undefined ? {} : { symbol: symbol.toLowerCase() })) {
        const path = visiblePath(byId.get(e.category_id)!, byId)
        if (path !== undefined) out.push({ symbol: e.symbol, category: e.category, parent: path.length === 2 ? path[0]! : null })
      }
      return out
    })
  }
}
