// The external sync (docs/admin.md#sync-and-cleanup): the venue's categories placed in our
// two-level tree, previewed without a write, and imported by code. Placement of an external category:
//   - a removed code (`preipo`) is skipped, whatever the venue says;
//   - crypto, tradfi and misc are top-level; stocks, forex, commodities and indices go under tradfi;
//   - any other goes under its venue parent when that is one of our top-level categories, else under
//     the fallback `misc` (created when first needed).
// Import overwrites a stored `ext` category by code (name and parent), keeps a `manual` or `seed` one
// as it is, and writes each of the category's external symbols as an `ext` catalog entry, except
// where a `manual` or `seed` entry exists: those are kept. `ext` entries of the category that the
// venue no longer lists in it are removed.
import type { Database } from 'bun:sqlite'
import { isPrintableLabel } from '../store/key-store.ts'
import type { VenueCategory } from '../venues/venue.ts'
import {
  CANONICAL_CATEGORIES,
  CATEGORY_NAME_MAX,
  type Category,
  FALLBACK_CATEGORY,
  normalizeCode,
  normalizeSymbol,
  REMOVED_CATEGORY_CODES,
  type Source,
  TOP_LEVEL_CODES,
  TRADFI_SUBCATEGORIES,
} from './model.ts'
import { conflict } from './refusal.ts'
import {
  catalogEntries,
  catalogEntry,
  categoryByCode,
  deleteCatalogEntry,
  ensureTopLevel,
  insertCategory,
  marketCounts,
  putCatalogEntry,
  updateCategory,
} from './rows.ts'

/** An external category checked and in our forms: lower-case code and symbols. */
export interface ExternalCategory {
  readonly code: string
  readonly name: string
  readonly parent_code: string | null
  readonly symbols: readonly string[]
}

/** The venue's categories in our forms; codes and symbols that are not ours are set aside. */
export interface ExternalSet {
  readonly categories: ReadonlyMap<string, ExternalCategory>
  /** Venue codes that are not category codes (left out). */
  readonly invalid_codes: string[]
  /** Venue symbols that are not BASE-QUOTE symbols (left out), at most 100. */
  readonly invalid_symbols: string[]
}

const INVALID_LISTED_MAX = 100

/** Normalizes what a venue listed; a code listed twice has its symbols merged. */
export function externalSet(venue: readonly VenueCategory[]): ExternalSet {
  const categories = new Map<string, { code: string; name: string; parent_code: string | null; symbols: Set<string> }>()
  const invalidCodes: string[] = []
  const invalidSymbols: string[] = []
  for (const v of venue) {
    const code = normalizeCode(v.code)
    if (code === undefined) {
      if (invalidCodes.length < INVALID_LISTED_MAX) invalidCodes.push(v.code.slice(0, 64))
      continue
    }
    let c = categories.get(code)
    if (c === undefined) {
      const parent = v.parent_code === null ? null : (normalizeCode(v.parent_code) ?? null)
      c = { code, name: displayName(v.name, code), parent_code: parent, symbols: new Set() }
      categories.set(code, c)
    }
    for (const s of v.symbols) {
      const symbol = normalizeSymbol(s)
      if (symbol !== undefined) c.symbols.add(symbol)
      else if (invalidSymbols.length < INVALID_LISTED_MAX) invalidSymbols.push(s.slice(0, 64))
    }
  }
  return {
    categories: new Map([...categories].map(([k, c]) => [k, { ...c, symbols: [...c.symbols].sort() }])),
    invalid_codes: invalidCodes,
    invalid_symbols: invalidSymbols,
  }
}

/** A venue's name as ours: printable, at most CATEGORY_NAME_MAX long, else the code. */
function displayName(name: string, code: string): string {
  const cut = name.trim().slice(0, CATEGORY_NAME_MAX)
  return isPrintableLabel(cut) ? cut : code
}

/** What a sync does with one external category. */
export type Placement =
  | { readonly action: 'skip'; readonly reason: string }
  /** Not stored: created (as `ext`, or `seed` for a top-level code) under `parent`. */
  | { readonly action: 'create'; readonly parent: string | null }
  /** Stored as `ext`: name and parent overwritten. */
  | { readonly action: 'overwrite'; readonly category: Category; readonly parent: string | null }
  /** Stored as `manual` or `seed`: the category is kept, its symbols are written. */
  | { readonly action: 'keep'; readonly category: Category }

/** Where an external category goes in our tree (see the file comment). */
export function placement(tx: Database, ext: ExternalCategory): Placement {
  if (REMOVED_CATEGORY_CODES.includes(ext.code)) return { action: 'skip', reason: `the category ${ext.code} was removed` }
  const stored = categoryByCode(tx, ext.code)
  const parent = parentCode(tx, ext)
  if (stored === undefined) return { action: 'create', parent }
  if (stored.source === 'ext') return { action: 'overwrite', category: stored, parent }
  return { action: 'keep', category: stored }
}

function parentCode(tx: Database, ext: ExternalCategory): string | null {
  if (TOP_LEVEL_CODES.includes(ext.code)) return null
  if (TRADFI_SUBCATEGORIES.includes(ext.code)) return 'tradfi'
  const p = ext.parent_code
  if (p === null || p === ext.code || REMOVED_CATEGORY_CODES.includes(p)) return FALLBACK_CATEGORY.code
  if (TOP_LEVEL_CODES.includes(p)) return p
  return categoryByCode(tx, p)?.parent_id === null ? p : FALLBACK_CATEGORY.code
}

/** One external category in a preview. */
export interface PreviewItem {
  readonly code: string
  readonly name: string
  /** Our parent it would go under (null: top-level); for a kept category, its stored parent's code. */
  readonly parent: string | null
  /** The symbols the venue lists in it. */
  readonly market_count: number
  /** Of those, how many have a `manual` or `seed` entry, which the import keeps. */
  readonly protected_count: number
}

/** POST /api/market-categories/sync/preview: what an import of each external category would do. */
export interface SyncPreview {
  readonly new: PreviewItem[]
  readonly overwrite: (PreviewItem & { readonly id: number; readonly current_market_count: number })[]
  readonly keep: (PreviewItem & { readonly id: number; readonly source: Source })[]
  readonly skip: { readonly code: string; readonly reason: string; readonly market_count: number }[]
  readonly invalid_codes: string[]
  readonly invalid_symbols: string[]
}

/** The preview of a sync; reads only. */
export function previewSync(tx: Database, set: ExternalSet): SyncPreview {
  const counts = marketCounts(tx)
  const protectedSymbols = new Set(catalogEntries(tx).flatMap((e) => (e.source === 'ext' ? [] : [e.symbol])))
  const out: SyncPreview = {
    new: [],
    overwrite: [],
    keep: [],
    skip: [],
    invalid_codes: set.invalid_codes,
    invalid_symbols: set.invalid_symbols,
  }
  for (const ext of set.categories.values()) {
    const item = {
      code: ext.code,
      name: ext.name,
      market_count: ext.symbols.length,
      protected_count: ext.symbols.filter((s) => protectedSymbols.has(s)).length,
    }
    const p = placement(tx, ext)
    if (p.action === 'skip') out.skip.push({ code: ext.code, reason: p.reason, market_count: ext.symbols.length })
    else if (p.action === 'create') out.new.push({ ...item, parent: p.parent })
    else if (p.action === 'overwrite')
      out.overwrite.push({ ...item, parent: p.parent, id: p.category.id, current_market_count: counts.get(p.category.id) ?? 0 })
    else {
      const parent = p.category.parent_id === null ? null : (storedCode(tx, p.category.parent_id) ?? null)
      out.keep.push({ ...item, parent, id: p.category.id, source: p.category.source })
    }
  }
  return out
}

function storedCode(tx: Database, id: number): string | undefined {
  return (tx.query('SELECT code FROM market_categories WHERE id = ?').get(id) as { code: string } | null)?.code
}

/** One category of an import report. */
export interface ImportedCategory {
  readonly code: string
  readonly id: number
  readonly action: 'created' | 'overwritten' | 'kept'
  readonly parent: string | null
  /** `ext` entries written for it. */
  readonly markets_synced: number
  /** Its `ext` entries the venue no longer lists in it, removed. */
  readonly markets_removed: number
}

/** POST /api/market-categories/sync/import's report. */
export interface SyncReport {
  readonly imported: ImportedCategory[]
  readonly markets_synced: number
  readonly markets_removed: number
  /** Entries the venue lists that stayed as they are because they are `manual` or `seed`. */
  readonly kept: { readonly symbol: string; readonly source: Source; readonly category: string }[]
  readonly skipped: { readonly code: string; readonly reason: string }[]
  /** Codes asked for that the venue does not list. */
  readonly not_offered: string[]
  readonly invalid_symbols: string[]
}

/**
 * Imports the listed codes (lower-case, in order: a symbol the venue lists in two of them ends in
 * the later one); runs inside the caller's write transaction.
 */
export function importSync(tx: Database, set: ExternalSet, codes: readonly string[], atMs: number, actor: string): SyncReport {
  const imported: ImportedCategory[] = []
  const kept: SyncReport['kept'][number][] = []
  const skipped: SyncReport['skipped'][number][] = []
  const notOffered: string[] = []
  for (const code of [...new Set(codes)]) {
    const ext = set.categories.get(code)
    if (ext === undefined) {
      notOffered.push(code)
      continue
    }
    const p = placement(tx, ext)
    if (p.action === 'skip') {
      skipped.push({ code, reason: p.reason })
      continue
    }
    let category: Category
    let action: ImportedCategory['action']
    if (p.action === 'keep') {
      category = p.category
      action = 'kept'
    } else {
      const parent = p.parent === null ? null : topLevel(tx, p.parent, atMs, actor)
      if (p.action === 'create') {
        category =
          parent === null
            ? ensureTopLevel(tx, fixedTopLevel(code), atMs, actor).category
            : insertCategory(tx, { code, name: ext.name, parent_id: parent.id, enabled: true, source: 'ext', sort_order: 0 }, atMs, actor)
        action = 'created'
      } else {
        category = { ...p.category, name: ext.name, parent_id: parent?.id ?? null, updated_at_ms: atMs, updated_by: actor }
        updateCategory(tx, category)
        action = 'overwritten'
      }
    }
    const listed = new Set(ext.symbols)
    let synced = 0
    for (const symbol of ext.symbols) {
      const before = catalogEntry(tx, symbol)
      if (before !== undefined && before.source !== 'ext') {
        kept.push({ symbol, source: before.source, category: before.category })
        continue
      }
      putCatalogEntry(tx, { symbol, categoryId: category.id, source: 'ext' }, atMs, actor)
      synced++
    }
    let removed = 0
    for (const e of catalogEntries(tx, { categoryId: category.id, source: 'ext' }))
      if (!listed.has(e.symbol) && deleteCatalogEntry(tx, e.symbol)) removed++
    const parentCodeOf = category.parent_id === null ? null : (storedCode(tx, category.parent_id) ?? null)
    imported.push({ code, id: category.id, action, parent: parentCodeOf, markets_synced: synced, markets_removed: removed })
  }
  return {
    imported,
    markets_synced: imported.reduce((n, i) => n + i.markets_synced, 0),
    markets_removed: imported.reduce((n, i) => n + i.markets_removed, 0),
    kept,
    skipped,
    not_offered: notOffered,
    invalid_symbols: set.invalid_symbols,
  }
}

/** The top-level category a placement names, created when it is a fixed one and missing; misc when it is not top-level. */
function topLevel(tx: Database, code: string, atMs: number, actor: string): Category {
  const stored = TOP_LEVEL_CODES.includes(code) ? ensureTopLevel(tx, fixedTopLevel(code), atMs, actor).category : categoryByCode(tx, code)
  if (stored !== undefined && stored.parent_id === null) return stored
  const misc = ensureTopLevel(tx, FALLBACK_CATEGORY, atMs, actor).category
  if (misc.parent_id !== null) throw conflict('CATEGORY_TREE', `the fallback category ${misc.code} is not top-level; run cleanup first`)
  return misc
}

function fixedTopLevel(code: string) {
  return CANONICAL_CATEGORIES.find((c) => c.code === code) ?? FALLBACK_CATEGORY
}
