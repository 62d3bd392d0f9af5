// POST /api/market-categories/cleanup (docs/admin.md#sync-and-cleanup): puts the tree back in its
// canonical shape, in one transaction:
//   1. the canonical top-level categories (crypto, tradfi) are recreated when missing, and made
//      top-level again when one sits under another category;
//   2. the removed categories (preipo) are deleted with their catalog entries; a sub-category of one
//      moves under misc;
//   3. stocks, forex, commodities and indices move under tradfi; a sub-category of one of them
//      (which would make a third level) moves under tradfi beside it.
import type { Database } from 'bun:sqlite'
import { CANONICAL_CATEGORIES, type Category, FALLBACK_CATEGORY, REMOVED_CATEGORY_CODES, TRADFI_SUBCATEGORIES } from './model.ts'
import { categoryByCode, categoryById, deleteCategory, ensureTopLevel, updateCategory } from './rows.ts'

/** What a cleanup did. */
export interface CleanupReport {
  /** Categories put under another parent (`from`, `to`: parent codes, null at the top). */
  readonly moved: { readonly code: string; readonly from: string | null; readonly to: string | null }[]
  /** Removed categories deleted, with how many catalog entries went with each. */
  readonly deleted: { readonly code: string; readonly id: number; readonly markets_deleted: number }[]
  /** The catalog symbols deleted with them. */
  readonly cleaned: string[]
  /** Canonical top-level categories that were missing and were created again. */
  readonly recreated: string[]
}

/** Runs the cleanup inside the caller's write transaction. */
export function cleanupCategories(tx: Database, atMs: number, actor: string): CleanupReport {
  const report: CleanupReport = { moved: [], deleted: [], cleaned: [], recreated: [] }
  const codeOf = (id: number | null) => (id === null ? null : (categoryById(tx, id)?.code ?? null))
  const move = (c: Category, to: Category | null) => {
    const from = codeOf(c.parent_id)
    updateCategory(tx, { ...c, parent_id: to?.id ?? null, updated_at_ms: atMs, updated_by: actor })
    report.moved.push({ code: c.code, from, to: to?.code ?? null })
  }
  const children = (id: number) =>
    (tx.query('SELECT id FROM market_categories WHERE parent_id = ? ORDER BY code').all(id) as { id: number }[]).map(
      (r) => categoryById(tx, r.id)!,
    )

  for (const fixed of CANONICAL_CATEGORIES) {
    const { category, created } = ensureTopLevel(tx, fixed, atMs, actor)
    if (created) report.recreated.push(fixed.code)
    else if (category.parent_id !== null) move(category, null)
  }
  for (const code of REMOVED_CATEGORY_CODES) {
    const removed = categoryByCode(tx, code)
    if (removed === undefined) continue
    const kids = children(removed.id)
    if (kids.length > 0) {
      const misc = ensureTopLevel(tx, FALLBACK_CATEGORY, atMs, actor).category
      for (const kid of kids) move(kid, misc)
    }
    const symbols = deleteCategory(tx, removed.id)
    report.deleted.push({ code, id: removed.id, markets_deleted: symbols.length })
    report.cleaned.push(...symbols)
  }
  const tradfi = categoryByCode(tx, 'tradfi')!
  for (const code of TRADFI_SUBCATEGORIES) {
    const sub = categoryByCode(tx, code)
    if (sub === undefined || sub.parent_id === tradfi.id) continue
    for (const kid of children(sub.id)) move(kid, tradfi)
    move(sub, tradfi)
  }
  return report
}
