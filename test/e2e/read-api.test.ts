// The read API's framing on a real node: rpc.discover, REST aliases with the chain wrapper.
import { expect, test } from 'bun:test'
import { queryMethodTable } from '../../src/api/routes/query-routes.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { startDevNodeForFile } from '../support/dev-node.ts'

const { node } = await startDevNodeForFile()

interface DiscoveredMethod {
  name: string
  params: { name: string; required: boolean }[]
  result: { name: string; schema: { required: string[]; properties: Record<string, unknown> } }
  examples: { params: { name: string; value: unknown }[] }[]
}

test('rpc.discover lists every method of the table with its params, result schema and example', async () => {
  const res = await fetch(`${node.url}/api/v1/query`, {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'rpc.discover' }),
  })
  const doc = (await res.json()) as { result: { openrpc: string; methods: DiscoveredMethod[] } }
  expect(doc.result.openrpc).toBe('1.2.6')
  expect(doc.result.methods.map((m) => m.name).sort()).toEqual([...queryMethodTable.keys()].sort())
  expect(doc.result.methods.find((m) => m.name === 'getAccount')!.params).toEqual([
    expect.objectContaining({ name: 'address', required: true }),
  ])
  for (const d of doc.result.methods) {
    const m = queryMethodTable.get(d.name)!
    // The wrapper around the method's own result schema (as JSON), with page where the method pages.
    const paged = m.paged === true
    expect(d.result.schema.required).toEqual(['height', 'chain_height', 'stale', 'data', ...(paged ? ['page'] : [])])
    expect(d.result.schema.properties.data).toEqual(JSON.parse(JSON.stringify(m.result)))
    expect('page' in d.result.schema.properties).toBe(paged)
    expect(d.examples[0]!.params).toEqual(Object.entries(m.example ?? {}).map(([name, value]) => ({ name, value })))
  }
})

test('REST aliases carry the chain wrapper and mirror their methods', async () => {
  const rpc = new CheckedRpcClient(node.url)
  const market = (await (await fetch(`${node.url}/api/v1/markets/btc`)).json()) as { height: number; data: { symbol: string } }
  expect(market.data.symbol).toBe('BTC-USD')
  expect(market.height).toBeGreaterThanOrEqual(0)
  const book = (await (await fetch(`${node.url}/api/v1/orderbook/ETH-USD?depth=5`)).json()) as { data: { symbol: string; bids: unknown[] } }
  expect(book.data).toMatchObject({ symbol: 'ETH-USD', bids: [] })
  const stats = (await (await fetch(`${node.url}/api/v1/stats`)).json()) as { data: { market_count: number } }
  expect(stats.data.market_count).toBe((await rpc.query<unknown[]>('getMarkets')).data.length)
  const missing = await fetch(`${node.url}/api/v1/markets/NOSUCH`)
  expect(missing.status).toBe(404)
  expect((await fetch(`${node.url}/api/v1/orderbook/BTC-USD?depth=-1`)).status).toBe(400)
})
