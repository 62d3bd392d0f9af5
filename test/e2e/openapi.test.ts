// The node's OpenAPI 3.1 document (GET /api/v1/openapi.json, src/api/openapi.ts) on a real node
// with traffic: structurally valid, every route the app serves documented, and real replies of
// every documented GET route, /query and /action checked against the documented schemas.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { createApp } from '../../src/api/app.ts'
import { NODE_ROUTES } from '../../src/api/openapi.ts'
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { jsonSchema, openApiPath } from '../../src/lib/openapi.ts'
import type { ChainNode } from '../../src/node/chain-node.ts'
import { waitIndexed } from '../support/history-client.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode } from '../support/node-process.ts'

const BTC = 1
let node: NodeProcess
let txHash = ''
let height = 0
const actionReplies: { status: number; body: unknown }[] = []

interface Operation {
  operationId: string
  summary: string
  parameters?: { name: string; in: string; required: boolean; schema: unknown }[]
  requestBody?: { content: Record<string, { schema: unknown }> }
  responses: Record<string, { description: string; content?: Record<string, { schema: TSchema }> }>
}
type Doc = { openapi: string; info: { title: string; version: string }; paths: Record<string, Record<string, Operation>> }
let doc: Doc
let aliceAddress = ''

beforeAll(async () => {
  node = await startNode({ blockTimeMs: 40 })
  // Record the raw /action replies the client receives.
  const realFetch = globalThis.fetch
  globalThis.fetch = (async (input: Request | string | URL, init?: RequestInit) => {
    const res = await realFetch(input, init)
    if (String(input instanceof Request ? input.url : input).endsWith('/api/v1/action') && res.status !== 204)
      actionReplies.push({ status: res.status, body: await res.clone().json() })
    return res
  }) as typeof fetch
  try {
    const alice = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1]! })
    const bob = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[2]! })
    aliceAddress = alice.address.toLowerCase()
    await waitIndexed(node.url)
    await alice.send(placeOrder({ market_id: BTC, side: 'Bid', price: '65000', qty: '0.5', tif: 'Gtc', reduce_only: false }))
    const fill = await bob.send(placeOrder({ market_id: BTC, side: 'Ask', price: '64000', qty: '0.2', tif: 'Ioc', reduce_only: false }))
    if (fill.status !== 'accepted') throw new Error(`expected a fill: ${JSON.stringify(fill)}`)
    txHash = fill.tx_hash
    height = fill.height
    await waitIndexed(node.url, height)
  } finally {
    globalThis.fetch = realFetch
  }
  doc = (await (await fetch(`${node.url}/api/v1/openapi.json`)).json()) as Doc
}, 60_000)

afterAll(async () => {
  await node.stop()
  removeDir(node.dataDir)
})

/** The routes the app serves, from an app over a stand-in node (routes are registered without reading it). */
function servedRoutes(): string[] {
  const stub = new Proxy({ isRecovered: false } as Record<string | symbol, unknown>, {
    get: (t, k) => (k in t ? t[k] : k === 'then' ? undefined : () => undefined),
  })
  return createApp(stub as unknown as ChainNode).routes.map(
    (r) => `${r.method === 'WS' ? 'GET' : r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`,
  )
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, op]) => ({ method, path, op })))

/**
 * The TypeBox schema the document's (method, path, status) schema was generated from: the document
 * holds it as plain JSON Schema (checked equal here), the TypeBox value checks the reply.
 */
function typeboxSchema(method: string, path: string, status: number | 'body'): TSchema {
  const op = doc.paths[path]?.[method.toLowerCase()]
  if (op === undefined) throw new Error(`${method} ${path}: not documented`)
  const route = NODE_ROUTES.find((r) => r.method === method && openApiPath(r.path) === path)
  if (route === undefined) throw new Error(`${method} ${path}: not in the route table`)
  const documented =
    status === 'body'
      ? op.requestBody?.content['application/json']?.schema
      : op.responses[String(status)]?.content?.['application/json']?.schema
  const schema = status === 'body' ? route.body : route.responses[String(status)]?.schema
  if (documented === undefined || schema === undefined)
    throw new Error(`${method} ${path}: status ${status} is not documented with a JSON schema`)
  expect(documented).toEqual(jsonSchema(schema) as unknown as TSchema)
  return schema
}

/** Checks a value against the documented schema of (method, path, status); names route and error path on failure. */
function check(method: string, path: string, status: number, value: unknown): void {
  let schema: TSchema
  try {
    schema = typeboxSchema(method, path, status)
  } catch (err) {
    throw new Error(`${(err as Error).message} (body ${JSON.stringify(value).slice(0, 300)})`)
  }
  const errors = [...Value.Errors(schema, value)].slice(0, 5)
  if (errors.length > 0)
    throw new Error(
      `${method} ${path} ${status} does not match its schema:\n${errors.map((e) => `  ${e.path || '/'}: ${e.message} (got ${JSON.stringify(e.value)?.slice(0, 120)})`).join('\n')}`,
    )
}

test('the document is OpenAPI 3.1 with operations and responses; the page renders it without network', async () => {
  expect(doc.openapi).toBe('3.1.0')
  expect(doc.info.title).toBe('perpd node')
  const ids = new Set<string>()
  for (const { method, path, op } of operations()) {
    expect(['get', 'post', 'put', 'patch', 'delete']).toContain(method)
    expect(path.startsWith('/')).toBe(true)
    expect(typeof op.summary).toBe('string')
    expect(Object.keys(op.responses).length).toBeGreaterThan(0)
    for (const [status, r] of Object.entries(op.responses)) {
      expect(status).toMatch(/^[1-5]\d\d$/)
      expect(typeof r.description).toBe('string')
    }
    // Every {name} of the path is a required path parameter, and nothing else is.
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
    expect((op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name)).toEqual(names)
    expect(ids.has(op.operationId)).toBe(false)
    ids.add(op.operationId)
  }
  const page = await fetch(`${node.url}/api/v1/docs`)
  expect(page.status).toBe(200)
  expect(page.headers.get('content-type')).toContain('text/html')
  const html = await page.text()
  expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=["']?https?:/)
  for (const { path } of operations()) expect(html).toContain(path.replace(/&/g, '&#38;'))
})

test('every route the app serves is documented, and nothing else', () => {
  const documented = operations().map(({ method, path }) => `${method.toUpperCase()} ${path}`)
  expect(documented.sort()).toEqual(servedRoutes().sort())
})

test('real replies of every documented GET route match their documented schemas', async () => {
  const sample: Record<string, { params?: Record<string, string>; query?: Record<string, string> }> = {
    '/api/v1/markets/{symbol}': { params: { symbol: 'BTC' } },
    '/api/v1/orderbook/{symbol}': { params: { symbol: 'BTC-USD' }, query: { depth: '5' } },
    '/api/v1/market/orderbook/{symbol}': { params: { symbol: 'BTC' } },
    '/api/v1/market/trades/{symbol}': { params: { symbol: 'BTC' } },
    '/api/v1/markets/{symbol}/summary': { params: { symbol: 'BTC' } },
    '/api/v1/blocks': { query: { include_total: 'true' } },
    '/api/v1/blocks/{id}': { params: { id: String(height) } },
    '/api/v1/blocks/{id}/events': { params: { id: String(height) }, query: { include_total: '1' } },
    '/api/v1/blocks/{id}/envelopes': { params: { id: String(height) } },
    '/api/v1/tx/{hash}': { params: { hash: txHash } },
    '/api/v1/fills': { query: { account: aliceAddress } },
    '/api/v1/orders': { query: { owner: aliceAddress, include_open: 'true' } },
    '/api/v1/fund-flows': { query: { account: aliceAddress } },
    '/api/v1/bridge-flows': { query: { account: aliceAddress } },
    '/api/v1/positions': { query: { account: aliceAddress, symbol: 'BTC' } },
    '/api/v1/referral/events': { query: { account: aliceAddress } },
    '/api/v1/rebate/events': { query: { account: aliceAddress } },
    '/api/v1/account/events': { query: { account: aliceAddress } },
    '/api/v1/account-stats': { query: { account: aliceAddress } },
    '/api/v1/search': { query: { q: aliceAddress } },
    '/api/v1/chain/account': { query: { address: aliceAddress } },
    '/api/v1/chain/open-orders': { query: { address: aliceAddress, include_total: 'true' } },
    '/api/v1/candles': { query: { symbol: 'BTC', interval: '1m' } },
    '/api/v1/replication/blocks': { query: { from: '1' } },
  }
  // The snapshot route answers a binary file (and this node, snapshotting rarely, holds none).
  const skip = new Set(['/api/v1/ws', '/metrics', '/api/v1/docs', '/api/v1/replication/snapshot'])
  // Lists the setup fills: an empty one would check no row against its schema.
  const withRows = new Set([
    '/api/v1/blocks',
    '/api/v1/blocks/{id}/events',
    '/api/v1/blocks/{id}/envelopes',
    '/api/v1/envelopes',
    '/api/v1/fills',
    '/api/v1/orders',
    '/api/v1/positions',
    '/api/v1/search',
  ])
  const failures: string[] = []
  let checked = 0
  for (const { method, path } of operations()) {
    if (method !== 'get' || skip.has(path)) continue
    const s = sample[path] ?? {}
    const url = new URL(node.url + path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(s.params?.[name] ?? '')))
    for (const [k, v] of Object.entries(s.query ?? {})) url.searchParams.set(k, v)
    const res = await fetch(url)
    try {
      expect(res.status).toBe(200)
      const body = (await res.json()) as { data?: unknown }
      check('GET', path, res.status, body)
      if (withRows.has(path)) expect((body.data as unknown[]).length).toBeGreaterThan(0)
      checked++
    } catch (err) {
      failures.push(`GET ${url.pathname}${url.search}: ${(err as Error).message}`)
    }
  }
  expect(failures).toEqual([])
  expect(checked).toBeGreaterThan(25)
  // /metrics is text.
  const metrics = await fetch(`${node.url}/metrics`)
  expect(Object.keys(doc.paths['/metrics']!.get!.responses['200']!.content!)).toEqual(['text/plain'])
  expect(typeof (await metrics.text())).toBe('string')
})

test('documented error replies match their schemas (400, 404, 500)', async () => {
  const cases: [string, string, number][] = [
    ['/api/v1/orderbook/{symbol}', '/api/v1/orderbook/BTC?depth=-1', 400],
    ['/api/v1/markets/{symbol}', '/api/v1/markets/NOSUCH', 404],
    ['/api/v1/market/orderbook/{symbol}', '/api/v1/market/orderbook/NOSUCH', 404],
    ['/api/v1/fills', '/api/v1/fills', 500],
    ['/api/v1/fills', '/api/v1/fills?account=nope', 400],
    ['/api/v1/blocks/{id}/events', '/api/v1/blocks/abc/events', 400],
  ]
  for (const [path, url, status] of cases) {
    const res = await fetch(node.url + url)
    expect(res.status).toBe(status)
    check('GET', path, status, await res.json())
  }
})

test('the documented query parameters are the ones checked: a missing required one is 500, a malformed one 400 naming it', async () => {
  /** A value each required parameter accepts, by name. */
  const good: Record<string, string> = {
    account: aliceAddress,
    owner: aliceAddress,
    address: aliceAddress,
    q: 'x',
    symbol: 'BTC',
    from: '1',
  }
  const pathValues: Record<string, string> = { symbol: 'BTC', id: String(height), hash: txHash }
  const failures: string[] = []
  let checked = 0
  for (const { method, path, op } of operations()) {
    const query = (op.parameters ?? []).filter((p) => p.in === 'query')
    if (method !== 'get' || query.length === 0) continue
    const base = new URL(node.url + path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(pathValues[name]!)))
    for (const p of query.filter((p) => p.required)) base.searchParams.set(p.name, good[p.name]!)
    const expectReply = async (url: URL, status: number, error: (e: string) => boolean) => {
      const res = await fetch(url)
      const body = (await res.json()) as { error?: unknown }
      checked++
      if (res.status !== status || typeof body.error !== 'string' || !error(body.error))
        failures.push(`${url.pathname}${url.search}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`)
    }
    for (const p of query) {
      const schema = p.schema as { type?: string; anyOf?: unknown[] }
      if (p.required) {
        const url = new URL(base)
        url.searchParams.delete(p.name)
        await expectReply(url, 500, (e) => e === `missing required parameter: ${p.name}`)
      }
      if (schema.type === 'integer' || schema.anyOf !== undefined || p.name === 'account' || p.name === 'owner' || p.name === 'address') {
        // Not an integer, not one of the enum's values, not an address (a lenient enum such as interval ignores it).
        if (p.name === 'interval') continue
        const url = new URL(base)
        url.searchParams.set(p.name, 'x-1')
        await expectReply(url, 400, (e) => e.startsWith(`${p.name} `))
      }
    }
  }
  expect(failures).toEqual([])
  expect(checked).toBeGreaterThan(60)
})

test('/query replies (single, batch, error, rpc.discover) and /action replies match their schemas', async () => {
  const post = async (body: unknown) => {
    const res = await fetch(`${node.url}/api/v1/query`, { method: 'POST', body: JSON.stringify(body) })
    return { status: res.status, body: await res.json() }
  }
  const bodySchema = typeboxSchema('POST', '/api/v1/query', 'body')
  const requests = [
    { jsonrpc: '2.0', id: 1, method: 'getMarkets' },
    [
      { jsonrpc: '2.0', id: 'a', method: 'getAccount', params: { address: aliceAddress } },
      { jsonrpc: '2.0', id: 'b', method: 'getBlocks', params: { limit: 2 } },
      { jsonrpc: '2.0', id: 'c', method: 'noSuchMethod' },
    ],
    { jsonrpc: '2.0', id: 2, method: 'rpc.discover' },
    { jsonrpc: '2.0', id: 3, method: 'getMarket', params: { symbol: 'NOSUCH' } },
  ]
  for (const req of requests) {
    expect(Value.Check(bodySchema, req)).toBe(true)
    const r = await post(req)
    check('POST', '/api/v1/query', r.status, r.body)
  }
  // Not JSON: a JSON-RPC parse error.
  const bad = await fetch(`${node.url}/api/v1/query`, { method: 'POST', body: '{' })
  check('POST', '/api/v1/query', bad.status, await bad.json())

  expect(actionReplies.length).toBeGreaterThanOrEqual(2)
  for (const r of actionReplies) check('POST', '/api/v1/action', r.status, r.body)
  const refused = await fetch(`${node.url}/api/v1/action`, {
    method: 'POST',
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'action',
      params: { action: {}, nonce: 0, signature: { r: '0x1', s: '0x1', v: 27 } },
    }),
  })
  check('POST', '/api/v1/action', refused.status, await refused.json())
})

test('POST /info candleSnapshot replies match the documented schema', async () => {
  const body = { type: 'candleSnapshot', req: { coin: 'BTC', interval: '1m', startTime: 0 } }
  expect(Value.Check(typeboxSchema('POST', '/info', 'body'), body)).toBe(true)
  const res = await fetch(`${node.url}/info`, { method: 'POST', body: JSON.stringify(body) })
  const candles = await res.json()
  expect((candles as unknown[]).length).toBeGreaterThan(0)
  check('POST', '/info', res.status, candles)
  const bad = await fetch(`${node.url}/info`, { method: 'POST', body: JSON.stringify({ type: 'other' }) })
  check('POST', '/info', bad.status, await bad.json())
})

test('the route table is the one the document is built from', () => {
  expect(operations().length).toBe(NODE_ROUTES.length)
})
