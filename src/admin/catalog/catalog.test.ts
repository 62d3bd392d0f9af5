// The category and catalog stores, the sync, the cleanup and the legacy classifications on a real
// admin database (schema version 5 with its seed rows).
import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HttpError } from '../http/errors.ts'
import { listAudit } from '../store/audit.ts'
import { AdminDb, DatabaseUnavailableError } from '../store/db.ts'
import type { VenueCategory } from '../venues/venue.ts'
import { CatalogStore } from './catalog-store.ts'
import { CategoryStore } from './category-store.ts'
import { ClassificationStore } from './classifications.ts'
import { cleanupCategories } from './cleanup.ts'
import { externalSet, importSync, previewSync } from './sync.ts'

const root = mkdtempSync(join(tmpdir(), 'perpd-catalog-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const ADMIN = '0xadmin'
let n = 0
let db: AdminDb
let categories: CategoryStore
let catalog: CatalogStore
beforeEach(() => {
  db = AdminDb.open(join(root, `db-${n++}`))
  categories = new CategoryStore(db, () => 1_000)
  catalog = new CatalogStore(db, () => 1_000)
})

/** The status and reason of what fn throws. */
function refusal(fn: () => unknown): string {
  try {
    fn()
  } catch (err) {
    if (err instanceof HttpError) return `${err.status} ${err.reason}${err.detail.field ? ` ${err.detail.field}` : ''}`
    throw err
  }
  throw new Error('not refused')
}
const codes = () => categories.list().map((c) => `${c.code}${c.parent_id === null ? '' : `<${categories.get(c.parent_id)!.code}`}`)
const entries = () => catalog.list().map((e) => `${e.symbol}:${e.category}:${e.source}`)
const auditActions = () =>
  listAudit(db, { limit: 500 })
    .reverse()
    .map((e) => e.action)
const idOf = (code: string) => categories.list().find((c) => c.code === code)!.id

describe('seed', () => {
  test('crypto and tradfi, and the development markets, seeded', () => {
    expect(db.schemaVersion()).toBeGreaterThanOrEqual(5)
    expect(categories.list().map((c) => [c.code, c.parent_id, c.source, c.enabled, c.market_count])).toEqual([
      ['crypto', null, 'seed', true, 3],
      ['tradfi', null, 'seed', true, 1],
    ])
    expect(entries()).toEqual(['btc-usd:crypto:seed', 'eth-usd:crypto:seed', 'sol-usd:crypto:seed', 'xau-usd:tradfi:seed'])
  })
})

describe('CategoryStore', () => {
  test('a database that cannot serve is DatabaseUnavailableError (503), for reads and writes', () => {
    db.close()
    expect(() => categories.list()).toThrow(DatabaseUnavailableError)
    expect(() => categories.create({ code: 'x', name: 'x' }, ADMIN)).toThrow(DatabaseUnavailableError)
    expect(() => catalog.publicTree()).toThrow(DatabaseUnavailableError)
  })

  test('create: code stored lower-case, unique in any case; two levels; preipo refused; audited', () => {
    const stocks = categories.create({ code: 'Stocks', name: 'Stocks', parent_id: idOf('tradfi') }, ADMIN)
    expect(stocks).toMatchObject({ code: 'stocks', parent_id: idOf('tradfi'), enabled: true, source: 'manual', sort_order: 0 })
    expect(stocks).toMatchObject({ updated_at_ms: 1_000, updated_by: ADMIN })
    expect(refusal(() => categories.create({ code: 'STOCKS', name: 'x' }, ADMIN))).toBe('409 CATEGORY_EXISTS')
    expect(refusal(() => categories.create({ code: 'us', name: 'x', parent_id: stocks.id }, ADMIN))).toBe(
      '400 PARENT_NOT_TOP_LEVEL parent_id',
    )
    expect(refusal(() => categories.create({ code: 'us', name: 'x', parent_id: 999 }, ADMIN))).toBe('400 PARENT_NOT_FOUND parent_id')
    expect(refusal(() => categories.create({ code: 'PreIPO', name: 'x' }, ADMIN))).toBe('400 CATEGORY_REMOVED code')
    expect(refusal(() => categories.create({ code: 'misc', name: 'x', parent_id: idOf('crypto') }, ADMIN))).toBe(
      '400 PARENT_INVALID parent_id',
    )
    expect(codes()).toEqual(['crypto', 'stocks<tradfi', 'tradfi'])
    expect(auditActions()).toEqual(['category.create'])
  })

  test('update: changes what is given; a changed ext category becomes manual, a seed one stays seed', () => {
    const defi = categories.create({ code: 'defi', name: 'DeFi', parent_id: idOf('crypto') }, ADMIN)
    db.write((d) => d.run("UPDATE market_categories SET source = 'ext' WHERE id = ?", [defi.id]))
    const moved = categories.update(defi.id, { parent_id: null, sort_order: 5, name: 'De-Fi' }, ADMIN)
    expect(moved).toMatchObject({ code: 'defi', name: 'De-Fi', parent_id: null, sort_order: 5, source: 'manual', enabled: true })
    expect(categories.update(idOf('crypto'), { enabled: false }, ADMIN)).toMatchObject({ source: 'seed', enabled: false })
    expect(refusal(() => categories.update(defi.id, { code: 'crypto' }, ADMIN))).toBe('409 CATEGORY_EXISTS')
    expect(refusal(() => categories.update(defi.id, { code: 'preipo' }, ADMIN))).toBe('400 CATEGORY_REMOVED code')
    expect(refusal(() => categories.update(defi.id, { parent_id: defi.id }, ADMIN))).toBe('400 PARENT_INVALID parent_id')
    expect(refusal(() => categories.update(12345, { name: 'x' }, ADMIN))).toBe('404 CATEGORY_NOT_FOUND')
    // A top-level category with children cannot go under another (three levels).
    categories.create({ code: 'lending', name: 'Lending', parent_id: defi.id }, ADMIN)
    expect(refusal(() => categories.update(defi.id, { parent_id: idOf('tradfi') }, ADMIN))).toBe('409 CATEGORY_HAS_CHILDREN')
    expect(auditActions()).toEqual(['category.create', 'category.update', 'category.update', 'category.create'])
  })

  test('delete: 409 with children, else the category goes with its catalog entries', () => {
    expect(refusal(() => categories.delete(idOf('tradfi') + 100, ADMIN))).toBe('404 CATEGORY_NOT_FOUND')
    const fx = categories.create({ code: 'forex', name: 'Forex', parent_id: idOf('tradfi') }, ADMIN)
    expect(refusal(() => categories.delete(idOf('tradfi'), ADMIN))).toBe('409 CATEGORY_HAS_CHILDREN')
    catalog.changeMarkets(fx.id, { add: ['EUR-USD', 'gbp-usd'], remove: [] }, ADMIN)
    expect(categories.delete(fx.id, ADMIN)).toEqual({ markets_deleted: 2 })
    expect(entries()).not.toContain('eur-usd:forex:manual')
    expect(categories.delete(idOf('tradfi'), ADMIN)).toEqual({ markets_deleted: 1 })
    expect(codes()).toEqual(['crypto'])
  })
})

describe('CatalogStore', () => {
  test('add and remove symbols in any case; add takes a symbol from another category; removing elsewhere is reported', () => {
    const fx = categories.create({ code: 'forex', name: 'Forex', parent_id: idOf('tradfi') }, ADMIN)
    const change = catalog.changeMarkets(fx.id, { add: ['EUR-USD', 'eur-usd', 'Xau-Usd'], remove: ['BTC-USD', 'nope-usd'] }, ADMIN)
    expect(change).toEqual({
      category: 'forex',
      added: ['eur-usd'],
      moved: [{ symbol: 'xau-usd', from: 'tradfi' }],
      removed: [],
      not_in_category: ['btc-usd', 'nope-usd'],
    })
    expect(catalog.changeMarkets(fx.id, { add: [], remove: ['EUR-usd'] }, ADMIN).removed).toEqual(['eur-usd'])
    expect(entries()).toEqual(['btc-usd:crypto:seed', 'eth-usd:crypto:seed', 'sol-usd:crypto:seed', 'xau-usd:forex:manual'])
    expect(catalog.list({ symbol: 'XAU-usd' }).map((e) => e.symbol)).toEqual(['xau-usd'])
    expect(catalog.list({ source: 'seed', category: 'CRYPTO' }).length).toBe(3)
    expect(catalog.list({ category: 'nope' })).toEqual([])
    expect(refusal(() => catalog.changeMarkets(fx.id, { add: ['a-b'], remove: ['A-B'] }, ADMIN))).toBe('400 SYMBOL_TWICE remove')
    expect(refusal(() => catalog.changeMarkets(999, { add: ['a-b'], remove: [] }, ADMIN))).toBe('404 CATEGORY_NOT_FOUND')
    // A request that changed nothing writes no audit row.
    catalog.changeMarkets(fx.id, { add: [], remove: ['zzz-usd'] }, ADMIN)
    expect(auditActions()).toEqual(['category.create', 'catalog.markets', 'catalog.markets'])
  })

  test('public views: enabled categories only, a disabled parent hides its children and their symbols', () => {
    const stocks = categories.create({ code: 'stocks', name: 'Stocks', parent_id: idOf('tradfi'), sort_order: 2 }, ADMIN)
    categories.create({ code: 'forex', name: 'Forex', parent_id: idOf('tradfi'), sort_order: 1, enabled: false }, ADMIN)
    catalog.changeMarkets(stocks.id, { add: ['TSLA-USD'], remove: [] }, ADMIN)
    expect(catalog.publicTree()).toEqual([
      { id: idOf('crypto'), code: 'crypto', name: 'Crypto', sort_order: 0, children: [] },
      {
        id: idOf('tradfi'),
        code: 'tradfi',
        name: 'TradFi',
        sort_order: 1,
        children: [{ id: stocks.id, code: 'stocks', name: 'Stocks', sort_order: 2, children: [] }],
      },
    ])
    expect(catalog.publicCatalog('tsla-USD')).toEqual([{ symbol: 'tsla-usd', category: 'stocks', parent: 'tradfi' }])
    categories.update(idOf('tradfi'), { enabled: false }, ADMIN)
    expect(catalog.publicTree().map((c) => c.code)).toEqual(['crypto'])
    expect(catalog.publicCatalog().map((e) => e.symbol)).toEqual(['btc-usd', 'eth-usd', 'sol-usd'])
  })
})

const VENUE: VenueCategory[] = [
  { code: 'crypto', name: 'Crypto', parent_code: null, symbols: ['BTC-USD', 'ETH-USD', 'DOGE-USD'] },
  { code: 'stocks', name: 'Stocks', parent_code: null, symbols: ['TSLA-USD', 'AAPL-USD'] },
  { code: 'AI', name: 'AI tokens', parent_code: null, symbols: ['FET-USD', 'bad symbol'] },
  { code: 'layer2', name: 'L2', parent_code: 'crypto', symbols: ['ARB-USD', 'OP-USD'] },
  { code: 'preipo', name: 'Pre-IPO', parent_code: null, symbols: ['SPACEX-USD'] },
  { code: '2x', name: 'bad code', parent_code: null, symbols: ['X-USD'] },
]

describe('sync', () => {
  test('preview places each external category and writes nothing', () => {
    const before = db.read((d) => d.query('SELECT COUNT(*) AS n FROM audit_log').get())
    const set = externalSet(VENUE)
    const preview = db.read((d) => previewSync(d, set))
    expect(preview.new).toEqual([
      { code: 'stocks', name: 'Stocks', parent: 'tradfi', market_count: 2, protected_count: 0 },
      { code: 'ai', name: 'AI tokens', parent: 'misc', market_count: 1, protected_count: 0 },
      { code: 'layer2', name: 'L2', parent: 'crypto', market_count: 2, protected_count: 0 },
    ])
    expect(preview.keep).toEqual([
      { code: 'crypto', name: 'Crypto', parent: null, market_count: 3, protected_count: 2, id: idOf('crypto'), source: 'seed' },
    ])
    expect(preview.overwrite).toEqual([])
    expect(preview.skip).toEqual([{ code: 'preipo', reason: 'the category preipo was removed', market_count: 1 }])
    expect(preview.invalid_codes).toEqual(['2x'])
    expect(preview.invalid_symbols).toEqual(['bad symbol'])
    expect(codes()).toEqual(['crypto', 'tradfi'])
    expect(db.read((d) => d.query('SELECT COUNT(*) AS n FROM audit_log').get())).toEqual(before)
  })

  test('import: creates and overwrites ext categories, writes ext entries, keeps manual and seed ones; misc for the unknown', () => {
    const set = externalSet(VENUE)
    catalog.changeMarkets(idOf('tradfi'), { add: ['AAPL-usd'], remove: [] }, ADMIN)
    const first = db.write((tx) => importSync(tx, set, ['crypto', 'stocks', 'ai', 'preipo', 'nope'], 2_000, ADMIN))
    expect(first.imported.map((i) => [i.code, i.action, i.parent, i.markets_synced, i.markets_removed])).toEqual([
      ['crypto', 'kept', null, 1, 0],
      ['stocks', 'created', 'tradfi', 1, 0],
      ['ai', 'created', 'misc', 1, 0],
    ])
    expect(first.markets_synced).toBe(3)
    expect(first.kept).toEqual([
      { symbol: 'btc-usd', source: 'seed', category: 'crypto' },
      { symbol: 'eth-usd', source: 'seed', category: 'crypto' },
      { symbol: 'aapl-usd', source: 'manual', category: 'tradfi' },
    ])
    expect(first.skipped).toEqual([{ code: 'preipo', reason: 'the category preipo was removed' }])
    expect(first.not_offered).toEqual(['nope'])
    expect(codes()).toEqual(['ai<misc', 'crypto', 'stocks<tradfi', 'tradfi', 'misc'])
    expect(categories.list().find((c) => c.code === 'misc')).toMatchObject({ source: 'seed', parent_id: null })
    expect(categories.list().find((c) => c.code === 'stocks')).toMatchObject({ source: 'ext', updated_by: ADMIN, updated_at_ms: 2_000 })
    expect(entries()).toEqual([
      'aapl-usd:tradfi:manual',
      'btc-usd:crypto:seed',
      'doge-usd:crypto:ext',
      'eth-usd:crypto:seed',
      'fet-usd:ai:ext',
      'sol-usd:crypto:seed',
      'tsla-usd:stocks:ext',
      'xau-usd:tradfi:seed',
    ])

    // The venue changes: stocks renamed and TSLA gone, NVDA new. A second import overwrites the ext
    // category and its ext entries, still keeping the manual one.
    const changed = externalSet([{ code: 'stocks', name: 'US stocks', parent_code: 'crypto', symbols: ['NVDA-USD', 'AAPL-USD'] }])
    const preview = db.read((d) => previewSync(d, changed))
    expect(preview.overwrite).toEqual([
      {
        code: 'stocks',
        name: 'US stocks',
        parent: 'tradfi',
        market_count: 2,
        protected_count: 1,
        id: idOf('stocks'),
        current_market_count: 1,
      },
    ])
    const second = db.write((tx) => importSync(tx, changed, ['stocks'], 3_000, ADMIN))
    expect(second.imported).toEqual([
      { code: 'stocks', id: idOf('stocks'), action: 'overwritten', parent: 'tradfi', markets_synced: 1, markets_removed: 1 },
    ])
    expect(categories.list().find((c) => c.code === 'stocks')).toMatchObject({ name: 'US stocks', source: 'ext' })
    expect(entries()).toContain('nvda-usd:stocks:ext')
    expect(entries()).toContain('aapl-usd:tradfi:manual')
    expect(entries()).not.toContain('tsla-usd:stocks:ext')

    // An admin's edit makes the category manual: the next import keeps it, writing its symbols only.
    categories.update(idOf('stocks'), { name: 'Equities' }, ADMIN)
    const third = db.write((tx) => importSync(tx, changed, ['stocks'], 4_000, ADMIN))
    expect(third.imported[0]).toMatchObject({ action: 'kept', markets_synced: 1 })
    expect(categories.list().find((c) => c.code === 'stocks')).toMatchObject({ name: 'Equities', source: 'manual' })
  })

  test('a sub-category whose venue parent is ours goes under it; an unknown parent means misc', () => {
    const set = externalSet([
      { code: 'layer2', name: 'L2', parent_code: 'CRYPTO', symbols: ['ARB-USD'] },
      { code: 'memes', name: 'Memes', parent_code: 'fun', symbols: ['WIF-USD'] },
      { code: 'spacs', name: 'SPACs', parent_code: 'preipo', symbols: ['ABC-USD'] },
    ])
    db.write((tx) => importSync(tx, set, ['layer2', 'memes', 'spacs'], 2_000, ADMIN))
    expect(codes()).toEqual(['crypto', 'layer2<crypto', 'memes<misc', 'spacs<misc', 'tradfi', 'misc'])
  })
})

describe('cleanup', () => {
  test('moves tradfi sub-categories under tradfi, deletes preipo with its entries, recreates canonical categories', () => {
    // An older tree: stocks top-level with a child, forex under crypto, preipo with entries, tradfi gone.
    db.write((d) => {
      d.run("UPDATE market_catalog SET category_id = (SELECT id FROM market_categories WHERE code = 'crypto') WHERE symbol = 'xau-usd'")
      d.run("DELETE FROM market_categories WHERE code = 'tradfi'")
      d.run(`INSERT INTO market_categories (code, name, parent_id, enabled, source, sort_order, updated_at_ms, updated_by) VALUES
        ('stocks', 'Stocks', NULL, 1, 'ext', 0, 0, 'x'), ('preipo', 'Pre-IPO', NULL, 1, 'ext', 0, 0, 'x')`)
      d.run(`INSERT INTO market_categories (code, name, parent_id, enabled, source, sort_order, updated_at_ms, updated_by) VALUES
        ('us', 'US', (SELECT id FROM market_categories WHERE code = 'stocks'), 1, 'manual', 0, 0, 'x'),
        ('forex', 'Forex', (SELECT id FROM market_categories WHERE code = 'crypto'), 1, 'ext', 0, 0, 'x'),
        ('late', 'Late', (SELECT id FROM market_categories WHERE code = 'preipo'), 1, 'ext', 0, 0, 'x')`)
      d.run(`INSERT INTO market_catalog (symbol, category_id, source, updated_at_ms, updated_by)
        SELECT s, (SELECT id FROM market_categories WHERE code = 'preipo'), 'ext', 0, 'x' FROM (SELECT 'spacex-usd' AS s UNION ALL SELECT 'openai-usd')`)
    })
    const report = db.write((tx) => cleanupCategories(tx, 5_000, ADMIN))
    expect(report).toEqual({
      moved: [
        { code: 'late', from: 'preipo', to: 'misc' },
        { code: 'us', from: 'stocks', to: 'tradfi' },
        { code: 'stocks', from: null, to: 'tradfi' },
        { code: 'forex', from: 'crypto', to: 'tradfi' },
      ],
      deleted: [{ code: 'preipo', id: expect.any(Number), markets_deleted: 2 }],
      cleaned: ['openai-usd', 'spacex-usd'],
      recreated: ['tradfi'],
    })
    expect(codes()).toEqual(['crypto', 'forex<tradfi', 'late<misc', 'stocks<tradfi', 'us<tradfi', 'tradfi', 'misc'])
    expect(entries().some((e) => e.startsWith('spacex-usd'))).toBe(false)
    // Once clean, a cleanup changes nothing.
    expect(db.write((tx) => cleanupCategories(tx, 6_000, ADMIN))).toEqual({ moved: [], deleted: [], cleaned: [], recreated: [] })
  })
})

describe('ClassificationStore', () => {
  const markets = [
    { market_id: 1, symbol: 'BTC-USD' },
    { market_id: 4, symbol: 'XAU-USD' },
    { market_id: 7, symbol: 'NEW-USD' },
  ]
  const store = () => new ClassificationStore(db, { list: async () => markets }, () => 1_000)
  const refusedAsync = async (p: Promise<unknown>) => {
    try {
      await p
    } catch (err) {
      if (err instanceof HttpError) return `${err.status} ${err.reason}`
      throw err
    }
    throw new Error('not refused')
  }

  test('derived from the catalog by symbol, in any case; set and removed through it', async () => {
    const s = store()
    expect(await s.listAdmin()).toEqual([
      { market_id: 1, symbol: 'BTC-USD', categories: ['crypto'], source: 'seed' },
      { market_id: 4, symbol: 'XAU-USD', categories: ['tradfi'], source: 'seed' },
      { market_id: 7, symbol: 'NEW-USD', categories: [], source: null },
    ])
    categories.create({ code: 'commodities', name: 'Commodities', parent_id: idOf('tradfi') }, ADMIN)
    const set = await s.set(
      [
        { market_id: 4, categories: ['Commodities', 'tradfi'] },
        { market_id: 7, categories: ['crypto'] },
      ],
      ADMIN,
    )
    expect(set.map((c) => [c.market_id, c.categories, c.source])).toEqual([
      [4, ['tradfi', 'commodities'], 'manual'],
      [7, ['crypto'], 'manual'],
    ])
    expect(entries()).toContain('new-usd:crypto:manual')
    expect(await refusedAsync(s.set([{ market_id: 4, categories: ['crypto', 'commodities'] }], ADMIN))).toBe('400 CATEGORY_LIST')
    expect(await refusedAsync(s.set([{ market_id: 4, categories: ['nope'] }], ADMIN))).toBe('400 CATEGORY_NOT_FOUND')
    expect(await refusedAsync(s.set([{ market_id: 99, categories: ['crypto'] }], ADMIN))).toBe('404 MARKET_NOT_FOUND')
    expect(await refusedAsync(s.remove([1, 1], ADMIN))).toBe('400 MARKET_TWICE')
    expect(await s.remove([7, 1], ADMIN)).toEqual({ removed: [7, 1], not_classified: [] })
    expect(await s.remove([7], ADMIN)).toEqual({ removed: [], not_classified: [7] })
    expect((await s.set([{ market_id: 4, categories: [] }], ADMIN))[0]).toMatchObject({ categories: [], source: null })
    categories.update(idOf('crypto'), { enabled: false }, ADMIN)
    await s.set([{ market_id: 1, categories: ['crypto'] }], ADMIN)
    expect((await s.listPublic()).map((c) => c.categories)).toEqual([[], [], []])
    expect((await s.one(1)).categories).toEqual(['crypto'])
    expect(await refusedAsync(s.one(2))).toBe('404 MARKET_NOT_FOUND')
  })
})
