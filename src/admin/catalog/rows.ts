// SQL over the market_categories and market_catalog tables (schema version 5, store/db.ts), shared
// by the category, catalog, sync, cleanup and classification code. Every function takes the
// handle of the caller's read or write transaction.
import type { Database } from 'bun:sqlite'
import { CATALOG_MAX, CATEGORIES_MAX, type CatalogEntry, type Category, type FixedCategory, type Source } from './model.ts'
import { conflict } from './refusal.ts'

interface CategoryRow {
  id: number
  code: string
  name: string
  parent_id: number | null
  enabled: number
  source: Source
  sort_order: number
  updated_at_ms: number
  updated_by: string
}

const CATEGORY_COLUMNS = 'id, code, name, parent_id, enabled, source, sort_order, updated_at_ms, updated_by'

function categoryOf(r: CategoryRow): Category {
  return { ...r, enabled: r.enabled === 1 }
}

/** Every category, top-level ones and children alike, by sort_order then code. */
export function allCategories(tx: Database): Category[] {
  return (tx.query(`SELECT ${CATEGORY_COLUMNS} FROM market_categories ORDER BY sort_order, code`).all() as CategoryRow[]).map(categoryOf)
}

export function categoryById(tx: Database, id: number): Category | undefined {
  const row = tx.query(`SELECT ${CATEGORY_COLUMNS} FROM market_categories WHERE id = ?`).get(id) as CategoryRow | null
  return row === null ? undefined : categoryOf(row)
}

/** The category of a code (stored lower-case: pass it lower-case). */
export function categoryByCode(tx: Database, code: string): Category | undefined {
  const row = tx.query(`SELECT ${CATEGORY_COLUMNS} FROM market_categories WHERE code = ?`).get(code) as CategoryRow | null
  return row === null ? undefined : categoryOf(row)
}

/** The codes of a category's children. */
export function childCodes(tx: Database, id: number): string[] {
  return (tx.query('SELECT code FROM market_categories WHERE parent_id = ? ORDER BY code').all(id) as { code: string }[]).map((r) => r.code)
}

/** A new category's fields: a category but for its id and who changed it when. */
export type NewCategory = Omit<Category, 'id' | 'updated_at_ms' | 'updated_by'>

/** Inserts a category (409 LIMIT_REACHED past CATEGORIES_MAX); the caller checked code and parent. */
export function insertCategory(tx: Database, c: NewCategory, atMs: number, actor: string): Category {
  const count = (tx.query('SELECT COUNT(*) AS n FROM market_categories').get() as { n: number }).n
  if (count >= CATEGORIES_MAX) throw conflict('LIMIT_REACHED', `${CATEGORIES_MAX} categories are stored; delete some first`)
  const row = tx
    .query(
      `INSERT INTO market_categories (code, name, parent_id, enabled, source, sort_order, updated_at_ms, updated_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${CATEGORY_COLUMNS}`,
    )
    .get(c.code, c.name, c.parent_id, c.enabled ? 1 : 0, c.source, c.sort_order, atMs, actor) as CategoryRow
  return categoryOf(row)
}

/** Writes a category's fields back (by id). */
export function updateCategory(tx: Database, c: Category): void {
  tx.query(
    'UPDATE market_categories SET code = ?, name = ?, parent_id = ?, enabled = ?, source = ?, sort_order = ?, updated_at_ms = ?, updated_by = ? WHERE id = ?',
  ).run(c.code, c.name, c.parent_id, c.enabled ? 1 : 0, c.source, c.sort_order, c.updated_at_ms, c.updated_by, c.id)
}

/** Deletes a category and its catalog entries; returns the symbols removed. The caller checked it has no children. */
export function deleteCategory(tx: Database, id: number): string[] {
  const symbols = (tx.query('SELECT symbol FROM market_catalog WHERE category_id = ? ORDER BY symbol').all(id) as { symbol: string }[]).map(
    (r) => r.symbol,
  )
  tx.query('DELETE FROM market_catalog WHERE category_id = ?').run(id)
  tx.query('DELETE FROM market_categories WHERE id = ?').run(id)
  return symbols
}

/** A fixed top-level category (canonical or the fallback): the stored one, or a new seed one. */
export function ensureTopLevel(tx: Database, fixed: FixedCategory, atMs: number, actor: string): { category: Category; created: boolean } {
  const stored = categoryByCode(tx, fixed.code)
  if (stored !== undefined) return { category: stored, created: false }
  const category = insertCategory(
    tx,
    { code: fixed.code, name: fixed.name, parent_id: null, enabled: true, source: 'seed', sort_order: fixed.sort_order },
    atMs,
    actor,
  )
  return { category, created: true }
}

interface CatalogRow {
  symbol: string
  category: string
  category_id: number
  source: Source
  updated_at_ms: number
  updated_by: string
}

const CATALOG_SELECT = `SELECT e.symbol, c.code AS category, e.category_id, e.source, e.updated_at_ms, e.updated_by
  FROM market_catalog e JOIN market_categories c ON c.id = e.category_id`

/** Catalog entries by symbol, filtered by any of source, category id and symbol (lower-case). */
export function catalogEntries(tx: Database, filter: { source?: Source; categoryId?: number; symbol?: string } = {}): CatalogEntry[] {
  const where: string[] = []
  const args: (string | number)[] = []
  if (filter.source !== undefined) {
    where.push('e.source = ?')
    args.push(filter.source)
  }
  if (filter.categoryId !== undefined) {
    where.push('e.category_id = ?')
    args.push(filter.categoryId)
  }
  if (filter.symbol !== undefined) {
    where.push('e.symbol = ?')
    args.push(filter.symbol)
  }
  const sql = `${CATALOG_SELECT}${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`} ORDER BY e.symbol`
  return tx.query(sql).all(...args) as CatalogRow[]
}

/** The entry of a symbol (lower-case), or undefined. */
export function catalogEntry(tx: Database, symbol: string): CatalogEntry | undefined {
  return (tx.query(`${CATALOG_SELECT} WHERE e.symbol = ?`).get(symbol) as CatalogRow | null) ?? undefined
}

/** Sets a symbol's entry (insert or replace); 409 LIMIT_REACHED when a new one would pass CATALOG_MAX. */
export function putCatalogEntry(
  tx: Database,
  e: { symbol: string; categoryId: number; source: Source },
  atMs: number,
  actor: string,
): void {
  const exists = tx.query('SELECT 1 FROM market_catalog WHERE symbol = ?').get(e.symbol) !== null
  if (!exists) {
    const count = (tx.query('SELECT COUNT(*) AS n FROM market_catalog').get() as { n: number }).n
    if (count >= CATALOG_MAX) throw conflict('LIMIT_REACHED', `the catalog holds ${CATALOG_MAX} symbols; remove some first`)
  }
  tx.query(
    `INSERT INTO market_catalog (symbol, category_id, source, updated_at_ms, updated_by) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(symbol) DO UPDATE SET category_id = excluded.category_id, source = excluded.source,
       updated_at_ms = excluded.updated_at_ms, updated_by = excluded.updated_by`,
  ).run(e.symbol, e.categoryId, e.source, atMs, actor)
}

/** Removes a symbol's entry; whether there was one. */
export function deleteCatalogEntry(tx: Database, symbol: string): boolean {
  return tx.query('DELETE FROM market_catalog WHERE symbol = ?').run(symbol).changes > 0
}

/** How many entries each category holds, by category id. */
export function marketCounts(tx: Database): Map<number, number> {
  const rows = tx.query('SELECT category_id, COUNT(*) AS n FROM market_catalog GROUP BY category_id').all() as {
    category_id: number
    n: number
  }[]
  return new Map(rows.map((r) => [r.category_id, r.n]))
}
