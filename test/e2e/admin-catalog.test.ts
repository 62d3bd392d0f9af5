// Market categories and the symbol catalog end to end (docs/admin.md#market-categories-and-catalog):
// the real admin service over a real development node, syncing from the local implementation of
// Hyperliquid's API (test/support/hyperliquid/) as its venue (--venue hl:testnet --hl-api-url).
// The public views without a session, category CRUD and its errors, a sync preview that writes
// nothing, an import that overwrites `ext` and keeps `manual` and `seed`, unknown categories under
// misc, symbols matched in any case, the cleanup's report, preipo never coming back, and the legacy
// classifications against the node's markets.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { CATALOG_RESPONSES } from '../../src/admin/catalog/openapi-docs.ts'
import * as S from '../../src/admin/catalog/schemas.ts'
import { RpcClient } from '../../src/client/rpc-client.ts'
import { jsonSchema } from '../../src/lib/openapi.ts'
import { type AdminProcess, api, loginToken, removeAdminFiles, startAdmin } from '../support/admin-process.ts'
import { startHyperliquidServer } from '../support/hyperliquid/server.ts'
import { DEV_KEYS, removeDir, startNode } from '../support/node-process.ts'

const ADMIN_KEY = DEV_KEYS[0] as Hex
const ADMIN_ADDRESS = privateKeyToAccount(ADMIN_KEY).address.toLowerCase()

// The venue: main-dex crypto coins, a builder dex with stocks, a commodity, a pre-IPO coin, a coin
// of a category we do not know, and one without a category.
const tags: [string, string][] = [
  ['xyz:TSLA', 'stocks'],
  ['xyz:AAPL', 'stocks'],
  ['xyz:GOLD', 'Commodities'],
  ['xyz:SPACEX', 'preipo'],
  ['xyz:FET', 'AI'],
]
const hl = startHyperliquidServer({
  markets: [
    { coin: 'BTC', szDecimals: 5 },
    { coin: 'ETH', szDecimals: 4 },
    { coin: 'DOGE', szDecimals: 0 },
  ],
  dexes: [
    {
      name: 'xyz',
      markets: ['TSLA', 'AAPL', 'GOLD', 'SPACEX', 'FET', 'NEW'].map((c) => ({ coin: `xyz:${c}`, szDecimals: 2 })),
    },
  ],
  categories: tags,
})
const node = await startNode()
const admin: AdminProcess = await startAdmin({ nodeUrl: node.url, args: ['--venue', 'hl:testnet', '--hl-api-url', hl.url] })
const A = admin.url
const token = await loginToken(A, ADMIN_KEY)
afterAll(async () => {
  await admin.stop()
  await node.stop().catch(() => 0)
  hl.stop()
  removeAdminFiles(admin)
  removeDir(node.dataDir)
})

/** A request with the admin's token, or with none (null). */
const get = (path: string, t: string | null = token) => api(A, path, t === null ? {} : { token: t })
const send = (method: string, path: string, body?: unknown, t: string | null = token) =>
  api(A, path, { method, ...(body === undefined ? {} : { body }), ...(t === null ? {} : { token: t }) })
/** Checks a reply's body against its schema and returns it. */
function shaped(schema: TSchema, r: { status: number; body: any; text: string }, status = 200): any {
  if (r.status !== status) throw new Error(`status ${r.status}, expected ${status}: ${r.text}`)
  const errors = [...Value.Errors(schema, r.body)].map((e) => `${e.path || '/'}: ${e.message}`)
  if (errors.length > 0) throw new Error(`reply ${r.text.slice(0, 300)} does not match its schema: ${errors.join('; ')}`)
  return r.body
}
const refused = (r: { status: number; body: any }) => `${r.status} ${r.body?.reason}${r.body?.field ? ` ${r.body.field}` : ''}`

/** The stored tree as `code` or `code<parent`, and the catalog as `symbol:category:source`. */
async function tree(): Promise<string[]> {
  const list = shaped(S.CategoryListReply, await get('/api/market-categories')).categories as {
    id: number
    code: string
    parent_id: number | null
  }[]
  const codeOf = new Map(list.map((c) => [c.id, c.code]))
  return list.map((c) => (c.parent_id === null ? c.code : `${c.code}<${codeOf.get(c.parent_id)}`)).sort()
}
async function entries(query = ''): Promise<string[]> {
  const reply = shaped(S.CatalogReply, await get(`/api/market-catalog${query}`))
  return reply.markets.map((e: { symbol: string; category: string; source: string }) => `${e.symbol}:${e.category}:${e.source}`)
}
async function idOf(code: string): Promise<number> {
  const list = (await get('/api/market-categories')).body.categories as { id: number; code: string }[]
  return list.find((c) => c.code === code)!.id
}
/** What the database holds of categories, the catalog and the audit log (read beside the service). */
function dbSnapshot() {
  const db = new Database(admin.dbFile, { readonly: true })
  try {
    return {
      categories: db.query('SELECT * FROM market_categories ORDER BY id').all(),
      catalog: db.query('SELECT * FROM market_catalog ORDER BY symbol').all(),
      audit: (db.query('SELECT COUNT(*) AS n FROM audit_log').get() as { n: number }).n,
    }
  } finally {
    db.close()
  }
}

describe('public views, no session', () => {
  test('the seeded tree, the catalog and the legacy classifications of the node markets', async () => {
    const categories = shaped(S.PublicTreeReply, await get('/api/public/market-categories', null))
    expect(categories.categories.map((c: { code: string; children: unknown[] }) => [c.code, c.children])).toEqual([
      ['crypto', []],
      ['tradfi', []],
    ])
    const catalog = shaped(S.PublicCatalogReply, await get('/api/public/market-catalog', null))
    expect(catalog.markets).toEqual([
      { symbol: 'btc-usd', category: 'crypto', parent: null },
      { symbol: 'eth-usd', category: 'crypto', parent: null },
      { symbol: 'sol-usd', category: 'crypto', parent: null },
      { symbol: 'xau-usd', category: 'tradfi', parent: null },
    ])
    const markets = (await new RpcClient(node.url).query<{ market_id: number; symbol: string }[]>('getMarkets')).data
    const legacy = shaped(S.PublicClassificationsReply, await get('/api/public/market-classifications', null))
    expect(legacy.classifications).toEqual(
      markets.map((m) => ({ market_id: m.market_id, symbol: m.symbol, categories: [m.symbol === 'XAU-USD' ? 'tradfi' : 'crypto'] })),
    )
    for (const path of ['/api/market-categories', '/api/market-catalog', '/api/market-classifications'])
      expect(refused(await get(path, null))).toBe('401 UNAUTHENTICATED')
  })
})

describe('category CRUD', () => {
  test('create, change, delete, with the errors of each', async () => {
    const tradfi = await idOf('tradfi')
    const created = shaped(
      S.CategoryReply,
      await send('POST', '/api/market-categories', { code: 'Indices', name: 'Indices', parent_id: tradfi }),
      201,
    )
    expect(created).toMatchObject({ code: 'indices', parent_id: tradfi, source: 'manual', enabled: true, updated_by: ADMIN_ADDRESS })
    expect(refused(await send('POST', '/api/market-categories', { code: 'INDICES', name: 'x' }))).toBe('409 CATEGORY_EXISTS')
    expect(refused(await send('POST', '/api/market-categories', { code: 'sub', name: 'x', parent_id: created.id }))).toBe(
      '400 PARENT_NOT_TOP_LEVEL parent_id',
    )
    expect(refused(await send('POST', '/api/market-categories', { code: 'preipo', name: 'Pre-IPO' }))).toBe('400 CATEGORY_REMOVED code')
    const bad = await send('POST', '/api/market-categories', { code: '1x', name: 'x' })
    expect(refused(bad)).toBe('400 INVALID_REQUEST')
    expect(bad.body.error).toContain('code')
    // Fields the schema does not name are ignored; a body of nothing else changes nothing.
    expect(refused(await send('PUT', `/api/market-categories/${created.id}`, { colour: 'red' }))).toBe('400 INVALID_REQUEST')

    const changed = shaped(
      S.CategoryReply,
      await send('PUT', `/api/market-categories/${created.id}`, { name: 'Equity indices', sort_order: 3 }),
    )
    expect(changed).toMatchObject({ name: 'Equity indices', sort_order: 3, code: 'indices' })
    expect(refused(await send('PUT', `/api/market-categories/${created.id}`, {}))).toBe('400 INVALID_REQUEST')
    expect(refused(await send('PUT', `/api/market-categories/${created.id}`, { code: 'preipo' }))).toBe('400 CATEGORY_REMOVED code')
    expect(refused(await send('PUT', '/api/market-categories/999999', { name: 'x' }))).toBe('404 CATEGORY_NOT_FOUND')
    expect(refused(await send('PUT', '/api/market-categories/abc', { name: 'x' }))).toBe('404 CATEGORY_NOT_FOUND')
    expect(refused(await send('DELETE', `/api/market-categories/${tradfi}`))).toBe('409 CATEGORY_HAS_CHILDREN')
    expect(shaped(S.CategoryDeleteReply, await send('DELETE', `/api/market-categories/${created.id}`))).toEqual({
      ok: true,
      markets_deleted: 0,
    })
    expect(refused(await send('DELETE', `/api/market-categories/${created.id}`))).toBe('404 CATEGORY_NOT_FOUND')
    const audit = (await get('/api/audit?limit=10')).body.entries.map((e: { action: string }) => e.action)
    expect(audit.slice(0, 3)).toEqual(['category.delete', 'category.update', 'category.create'])
  })
  test('a JSON body that is not an object is 400 on every route with a body, and changes nothing', async () => {
    const tradfi = await idOf('tradfi')
    const routes = [
      ['POST', '/api/market-categories'],
      ['PUT', `/api/market-categories/${tradfi}`],
      ['POST', `/api/market-categories/${tradfi}/markets`],
      ['POST', '/api/market-categories/sync/import'],
      ['PUT', '/api/market-classifications'],
      ['DELETE', '/api/market-classifications'],
      ['PUT', '/api/market-classifications/0'],
    ] as const
    const before = dbSnapshot()
    const replies: string[] = []
    // Raw JSON texts (send passes a string through as the body).
    for (const [method, path] of routes) {
      for (const text of ['true', '1', '"x"', 'null', '[]']) {
        const r = await send(method, path, text)
        replies.push(`${method} ${path} ${text}: ${r.status} ${r.body?.reason} ${r.body?.error}`)
      }
    }
    expect(replies).toEqual(
      routes.flatMap(([method, path]) =>
        ['true', '1', '"x"', 'null', '[]'].map(
          (text) => `${method} ${path} ${text}: 400 INVALID_REQUEST invalid request: body: must be a JSON object`,
        ),
      ),
    )
    expect(dbSnapshot()).toEqual(before)
  })
})

describe('sync', () => {
  test('preview lists what an import would do and writes nothing', async () => {
    const before = dbSnapshot()
    const preview = shaped(S.SyncPreviewReply, await send('POST', '/api/market-categories/sync/preview'))
    expect(preview.venue).toBe('hyperliquid testnet')
    expect(
      preview.new.map((c: { code: string; parent: string | null; market_count: number }) => [c.code, c.parent, c.market_count]),
    ).toEqual([
      ['ai', 'misc', 1],
      ['commodities', 'tradfi', 1],
      ['misc', null, 1],
      ['stocks', 'tradfi', 2],
    ])
    expect(preview.keep).toEqual([
      { code: 'crypto', name: 'Crypto', parent: null, market_count: 3, protected_count: 2, id: await idOf('crypto'), source: 'seed' },
    ])
    expect(preview.overwrite).toEqual([])
    expect(preview.skip).toEqual([{ code: 'preipo', reason: 'the category preipo was removed', market_count: 1 }])
    expect(dbSnapshot()).toEqual(before)
  })

  test('import overwrites ext, keeps manual and seed; an unknown category goes under misc; preipo is skipped', async () => {
    const tradfi = await idOf('tradfi')
    const manual = shaped(S.MarketsChangeReply, await send('POST', `/api/market-categories/${tradfi}/markets`, { add: ['aapl-USD'] }))
    expect(manual).toEqual({ category: 'tradfi', added: ['aapl-usd'], moved: [], removed: [], not_in_category: [] })

    const report = shaped(
      S.SyncReportReply,
      await send('POST', '/api/market-categories/sync/import', {
        codes: ['crypto', 'Stocks', 'ai', 'misc', 'commodities', 'preipo', 'nope'],
      }),
    )
    expect(report.imported.map((i: any) => [i.code, i.action, i.parent, i.markets_synced])).toEqual([
      ['crypto', 'kept', null, 1],
      ['stocks', 'created', 'tradfi', 1],
      ['ai', 'created', 'misc', 1],
      ['misc', 'kept', null, 1],
      ['commodities', 'created', 'tradfi', 1],
    ])
    expect(report.markets_synced).toBe(5)
    expect(report.kept).toEqual([
      { symbol: 'btc-usd', source: 'seed', category: 'crypto' },
      { symbol: 'eth-usd', source: 'seed', category: 'crypto' },
      { symbol: 'aapl-usd', source: 'manual', category: 'tradfi' },
    ])
    expect(report.skipped).toEqual([{ code: 'preipo', reason: 'the category preipo was removed' }])
    expect(report.not_offered).toEqual(['nope'])
    expect(await tree()).toEqual(['ai<misc', 'commodities<tradfi', 'crypto', 'misc', 'stocks<tradfi', 'tradfi'])
    expect(await entries('?source=ext')).toEqual([
      'doge-usd:crypto:ext',
      'fet-usd:ai:ext',
      'gold-usd:commodities:ext',
      'new-usd:misc:ext',
      'tsla-usd:stocks:ext',
    ])
    expect(await entries('?source=manual')).toEqual(['aapl-usd:tradfi:manual'])
    expect(await entries('?source=seed')).toEqual([
      'btc-usd:crypto:seed',
      'eth-usd:crypto:seed',
      'sol-usd:crypto:seed',
      'xau-usd:tradfi:seed',
    ])
    // Markets not listed on our chain are in the public catalog too.
    const pub = (await get('/api/public/market-catalog', null)).body.markets.map((m: { symbol: string }) => m.symbol)
    expect(pub).toEqual(expect.arrayContaining(['tsla-usd', 'fet-usd', 'gold-usd']))

    // The venue moves TSLA out of stocks: the next preview says stocks is overwritten, the import
    // removes TSLA from it and still keeps the manual AAPL where the admin put it.
    tags.splice(0, 1)
    const preview = shaped(S.SyncPreviewReply, await send('POST', '/api/market-categories/sync/preview'))
    expect(preview.overwrite.map((c: { code: string }) => c.code)).toEqual(['ai', 'commodities', 'stocks'])
    expect(preview.overwrite[2]).toEqual({
      code: 'stocks',
      name: 'Stocks',
      parent: 'tradfi',
      market_count: 1,
      protected_count: 1,
      id: await idOf('stocks'),
      current_market_count: 1,
    })
    const again = shaped(S.SyncReportReply, await send('POST', '/api/market-categories/sync/import', { codes: ['stocks', 'misc'] }))
    expect(again.imported.map((i: any) => [i.code, i.action, i.markets_synced, i.markets_removed])).toEqual([
      ['stocks', 'overwritten', 0, 1],
      ['misc', 'kept', 2, 0],
    ])
    expect(await entries('?category=stocks')).toEqual([])
    expect(await entries('?symbol=TSLA-usd')).toEqual(['tsla-usd:misc:ext'])
    expect(await entries('?symbol=AAPL-USD')).toEqual(['aapl-usd:tradfi:manual'])
  })

  test('symbols are matched in any case', async () => {
    const stocks = await idOf('stocks')
    const moved = shaped(
      S.MarketsChangeReply,
      await send('POST', `/api/market-categories/${stocks}/markets`, { add: ['AAPL-usd', 'Tsla-Usd'] }),
    )
    expect(moved.moved).toEqual([
      { symbol: 'aapl-usd', from: 'tradfi' },
      { symbol: 'tsla-usd', from: 'misc' },
    ])
    expect((await get('/api/public/market-catalog?symbol=TSLA-USD', null)).body.markets).toEqual([
      { symbol: 'tsla-usd', category: 'stocks', parent: 'tradfi' },
    ])
    const removed = shaped(
      S.MarketsChangeReply,
      await send('POST', `/api/market-categories/${stocks}/markets`, { remove: ['TSLA-USD', 'BTC-USD'] }),
    )
    expect([removed.removed, removed.not_in_category]).toEqual([['tsla-usd'], ['btc-usd']])
    expect(refused(await send('POST', `/api/market-categories/${stocks}/markets`, { add: ['x'] }))).toBe('400 INVALID_REQUEST')
    expect(refused(await send('POST', `/api/market-categories/${stocks}/markets`, { add: ['a-b'], remove: ['A-B'] }))).toBe(
      '400 SYMBOL_TWICE remove',
    )
    expect(refused(await send('POST', '/api/market-categories/424242/markets', { add: ['a-b'] }))).toBe('404 CATEGORY_NOT_FOUND')
  })

  test('a venue that does not answer is 503 VENUE_UNAVAILABLE', async () => {
    const down = startHyperliquidServer({ markets: [] })
    down.stop()
    const other = await startAdmin({ nodeUrl: node.url, args: ['--venue', 'hl:testnet', '--hl-api-url', down.url] })
    try {
      const t = await loginToken(other.url, ADMIN_KEY)
      const r = await api(other.url, '/api/market-categories/sync/preview', { method: 'POST', token: t })
      expect(refused(r)).toBe('503 VENUE_UNAVAILABLE')
    } finally {
      await other.stop()
      removeAdminFiles(other)
    }
  })
})

describe('cleanup', () => {
  test('moves, deletes and recreates, with its report; preipo never comes back', async () => {
    // An older tree: stocks made top-level by hand, crypto deleted, and a preipo category with
    // markets that an earlier version stored.
    await send('PUT', `/api/market-categories/${await idOf('stocks')}`, { parent_id: null })
    const crypto = await idOf('crypto')
    expect((await send('DELETE', `/api/market-categories/${crypto}`)).body).toEqual({ ok: true, markets_deleted: 4 })
    const db = new Database(admin.dbFile)
    try {
      db.run(`INSERT INTO market_categories (code, name, parent_id, enabled, source, sort_order, updated_at_ms, updated_by)
        VALUES ('preipo', 'Pre-IPO', (SELECT id FROM market_categories WHERE code = 'misc'), 1, 'ext', 0, 0, 'v1')`)
      db.run(`INSERT INTO market_catalog (symbol, category_id, source, updated_at_ms, updated_by)
        VALUES ('spacex-usd', (SELECT id FROM market_categories WHERE code = 'preipo'), 'ext', 0, 'v1')`)
    } finally {
      db.close()
    }
    const report = shaped(S.CleanupReply, await send('POST', '/api/market-categories/cleanup'))
    expect(report).toEqual({
      moved: [{ code: 'stocks', from: null, to: 'tradfi' }],
      deleted: [{ code: 'preipo', id: expect.any(Number), markets_deleted: 1 }],
      cleaned: ['spacex-usd'],
      recreated: ['crypto'],
    })
    expect(await tree()).toEqual(['ai<misc', 'commodities<tradfi', 'crypto', 'misc', 'stocks<tradfi', 'tradfi'])
    expect(await entries('?symbol=spacex-usd')).toEqual([])
    const audit = (await get('/api/audit?limit=1')).body.entries[0]
    expect(audit).toMatchObject({ action: 'catalog.cleanup', actor: ADMIN_ADDRESS, detail: { recreated: ['crypto'], cleaned_count: 1 } })

    // Neither a sync nor the CRUD routes bring preipo back.
    const imported = shaped(S.SyncReportReply, await send('POST', '/api/market-categories/sync/import', { codes: ['preipo'] }))
    expect([imported.imported, imported.skipped.map((s: { code: string }) => s.code)]).toEqual([[], ['preipo']])
    expect(refused(await send('POST', '/api/market-categories', { code: 'PREIPO', name: 'x' }))).toBe('400 CATEGORY_REMOVED code')
    expect((await tree()).some((c) => c.startsWith('preipo'))).toBe(false)
    expect(shaped(S.CleanupReply, await send('POST', '/api/market-categories/cleanup'))).toEqual({
      moved: [],
      deleted: [],
      cleaned: [],
      recreated: [],
    })
  })
})

describe('legacy classifications', () => {
  test('read from and written to the catalog by the chain symbol of each market', async () => {
    const markets = (await new RpcClient(node.url).query<{ market_id: number; symbol: string }[]>('getMarkets')).data
    const idOfSymbol = (s: string) => markets.find((m) => m.symbol === s)!.market_id
    const sol = idOfSymbol('SOL-USD')
    const btc = idOfSymbol('BTC-USD')
    const all = shaped(S.ClassificationsReply, await get('/api/market-classifications'))
    // crypto was deleted with its entries (cleanup test) and recreated empty; XAU is still seed.
    expect(all.classifications.map((c: any) => [c.symbol, c.categories, c.source])).toEqual(
      markets.map((m) => [m.symbol, m.symbol === 'XAU-USD' ? ['tradfi'] : [], m.symbol === 'XAU-USD' ? 'seed' : null]),
    )
    const one = shaped(S.ClassificationReply, await send('PUT', `/api/market-classifications/${sol}`, { categories: ['stocks', 'TRADFI'] }))
    expect(one).toEqual({ market_id: sol, symbol: 'SOL-USD', categories: ['tradfi', 'stocks'], source: 'manual' })
    expect(await entries('?symbol=sol-usd')).toEqual(['sol-usd:stocks:manual'])
    const pub = (await get('/api/public/market-classifications', null)).body.classifications
    expect(pub.find((c: { market_id: number }) => c.market_id === sol).categories).toEqual(['tradfi', 'stocks'])

    const batch = shaped(
      S.ClassificationsReply,
      await send('PUT', '/api/market-classifications', {
        classifications: [
          { market_id: btc, categories: ['crypto'] },
          { market_id: sol, categories: [] },
        ],
      }),
    )
    expect(batch.classifications.map((c: any) => [c.market_id, c.categories])).toEqual([
      [btc, ['crypto']],
      [sol, []],
    ])
    expect(shaped(S.ClassificationReply, await get(`/api/market-classifications/${btc}`)).categories).toEqual(['crypto'])
    expect(refused(await send('PUT', `/api/market-classifications/${btc}`, { categories: ['crypto', 'stocks'] }))).toBe(
      '400 CATEGORY_LIST categories',
    )
    expect(refused(await send('PUT', '/api/market-classifications/999999', { categories: ['crypto'] }))).toBe('404 MARKET_NOT_FOUND')
    expect(refused(await get('/api/market-classifications/x1'))).toBe('404 MARKET_NOT_FOUND')
    expect(shaped(S.ClassificationsDeleteReply, await send('DELETE', '/api/market-classifications', { market_ids: [btc, sol] }))).toEqual({
      removed: [btc],
      not_classified: [sol],
    })
    expect((await send('DELETE', `/api/market-classifications/${idOfSymbol('XAU-USD')}`)).body).toEqual({ ok: true })
    expect(refused(await send('DELETE', `/api/market-classifications/${idOfSymbol('XAU-USD')}`))).toBe('404 CLASSIFICATION_NOT_FOUND')
    const audit = (await get('/api/audit?limit=3')).body.entries.map((e: { action: string; target: string }) => [e.action, e.target])
    expect(audit).toEqual([
      ['classification.delete', String(idOfSymbol('XAU-USD'))],
      ['classification.delete', String(btc)],
      ['classification.delete', String(sol)],
    ])
  })
})

test('the OpenAPI document lists every category route with its request and reply schemas', async () => {
  const doc = (await get('/api/openapi.json', null)).body as {
    paths: Record<string, Record<string, { requestBody?: unknown; security?: unknown; responses: Record<string, any> }>>
  }
  for (const [key, docs] of Object.entries(CATALOG_RESPONSES)) {
    const [method, path] = key.split(' ') as [string, string]
    const op = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()]
    if (op === undefined) throw new Error(`${key} is not in the document`)
    expect(op.responses[docs.status ?? '200'].content['application/json'].schema).toEqual(jsonSchema(docs.ok))
    expect(op.security !== undefined).toBe(docs.bearer === true)
  }
  const create = doc.paths['/api/market-categories']!.post!.requestBody as { content: Record<string, { schema: { properties: object } }> }
  expect(Object.keys(create.content['application/json']!.schema.properties)).toEqual(['code', 'name', 'parent_id', 'enabled', 'sort_order'])
})
