// Market categories and the symbol catalog (docs/admin.md#market-categories-and-catalog): the
// records as the API shows them, the fixed parts of the tree (canonical top-level categories, the
// fallback, the sub-categories that belong under tradfi, the removed ones) and the limits.

/** Who made a category or catalog entry: the system (`seed`), an admin (`manual`) or a venue sync (`ext`). */
export const SOURCES = ['seed', 'manual', 'ext'] as const
export type Source = (typeof SOURCES)[number]

/** A category as the API shows it. */
export interface Category {
  readonly id: number
  readonly code: string
  readonly name: string
  /** null for a top-level category; else a top-level category's id (two levels at most). */
  readonly parent_id: number | null
  readonly enabled: boolean
  readonly source: Source
  readonly sort_order: number
  readonly updated_at_ms: number
  readonly updated_by: string
}

/** A catalog entry as the admin view shows it: one category per symbol. */
export interface CatalogEntry {
  /** Lower-case; requests match it in any case. */
  readonly symbol: string
  /** The category's code. */
  readonly category: string
  readonly category_id: number
  readonly source: Source
  readonly updated_at_ms: number
  readonly updated_by: string
}

/** A top-level category the service keeps (seeded, recreated by cleanup): code, name, sort order. */
export interface FixedCategory {
  readonly code: string
  readonly name: string
  readonly sort_order: number
}

/** The canonical top-level categories. */
export const CANONICAL_CATEGORIES: readonly FixedCategory[] = [
  { code: 'crypto', name: 'Crypto', sort_order: 0 },
  { code: 'tradfi', name: 'TradFi', sort_order: 1 },
]

/** Where a sync puts an external category it cannot place: created when first needed. */
export const FALLBACK_CATEGORY: FixedCategory = { code: 'misc', name: 'Misc', sort_order: 100 }

/** Sub-categories that belong under tradfi, wherever a venue or an admin put them. */
export const TRADFI_SUBCATEGORIES: readonly string[] = ['stocks', 'forex', 'commodities', 'indices']

/** Category codes removed for good: never created, by a sync or an admin; cleanup deletes them. */
export const REMOVED_CATEGORY_CODES: readonly string[] = ['preipo']

/** The codes sync and cleanup treat as top-level whatever a venue says. */
export const TOP_LEVEL_CODES: readonly string[] = [...CANONICAL_CATEGORIES.map((c) => c.code), FALLBACK_CATEGORY.code]

/** A category code as requests may write it (stored lower-case). */
export const CATEGORY_CODE_PATTERN = '^[A-Za-z][A-Za-z0-9_-]{0,31}$'
/** A catalog symbol: the chain's BASE-QUOTE form in any case (stored lower-case). */
export const CATALOG_SYMBOL_PATTERN = '^[A-Za-z0-9]{1,10}-[A-Za-z0-9]{1,9}$'

const CODE = new RegExp(CATEGORY_CODE_PATTERN)
const SYMBOL = new RegExp(CATALOG_SYMBOL_PATTERN)

/** The stored form of a code, or undefined when it is not one. */
export function normalizeCode(code: string): string | undefined {
  return CODE.test(code) ? code.toLowerCase() : undefined
}

/** The stored form of a symbol, or undefined when it is not one. */
export function normalizeSymbol(symbol: string): string | undefined {
  return SYMBOL.test(symbol) ? symbol.toLowerCase() : undefined
}

/** Longest category name, in UTF-16 code units. */
export const CATEGORY_NAME_MAX = 64
/** Categories stored at most. */
export const CATEGORIES_MAX = 500
/** Catalog entries stored at most. */
export const CATALOG_MAX = 20_000
/** Symbols one add/remove request names at most (each list). */
export const SYMBOLS_PER_REQUEST_MAX = 500
/** Codes one sync import names at most. */
export const CODES_PER_IMPORT_MAX = 100
/** Markets one legacy classification request names at most. */
export const CLASSIFICATIONS_PER_REQUEST_MAX = 500
/** Bounds of sort_order. */
export const SORT_ORDER_MAX = 1_000_000
