// The @perpd/client package (packages/client/README.md) as an application gets it: built with
// scripts/build-client.ts, packed with npm pack, installed with npm into a new project outside the
// repository, imported by a plain Node script that places an order on a real node and reads it back
// with the typed query; tsc checks in that project that the package's types resolve and type the
// query results. Also: the typed method table (src/client/query-methods.ts) is complete and current.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildClient, CLIENT_PACKAGE_DIR } from '../../scripts/build-client.ts'
import { generateQueryMethods, QUERY_METHODS_FILE } from '../../scripts/gen-client-queries.ts'
import { ALL_METHODS } from '../../src/api/methods/index.ts'
import { QUERY_METHOD_NAMES } from '../../src/client/query-methods.ts'
import { PROJECT_ROOT } from '../support/child-process.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode } from '../support/node-process.ts'

const TIMEOUT_MS = 300_000

let node: NodeProcess | undefined
let project = ''

/** Runs a command; returns its output, or throws with it when the exit code is not 0. */
function run(cmd: string[], cwd: string, env: Record<string, string> = {}): string {
  const r = Bun.spawnSync(cmd, { cwd, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } })
  const out = r.stdout.toString() + r.stderr.toString()
  if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')} exited ${r.exitCode}:\n${out}`)
  return out
}

beforeAll(async () => {
  node = await startNode({ blockTimeMs: 50 })
  await buildClient()
  project = mkdtempSync(join(tmpdir(), 'perpd-client-app-'))
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'client-app', private: true, type: 'module' }, null, 2))
  // A packed tarball, as from a registry (a directory install would only symlink the package).
  const tarball = run(['npm', 'pack', CLIENT_PACKAGE_DIR, '--pack-destination', project, '--silent'], project).trim().split('\n').pop()!
  const install = ['npm', 'install', `./${tarball}`, '--no-audit', '--no-fund']
  // The dependencies are usually in the npm cache; otherwise from the registry.
  try {
    run([...install, '--offline'], project)
  } catch {
    run(install, project)
  }
}, TIMEOUT_MS)

afterAll(async () => {
  if (node !== undefined) {
    await node.stop()
    removeDir(node.dataDir)
  }
  if (project !== '') rmSync(project, { recursive: true, force: true })
})

test('the typed method table has every /query method of the node, and is current', async () => {
  expect([...QUERY_METHOD_NAMES].sort() as string[]).toEqual(ALL_METHODS.map((m) => m.name).sort())
  expect(QUERY_METHOD_NAMES.length).toBe(46)
  expect(readFileSync(QUERY_METHODS_FILE, 'utf8')).toBe(await generateQueryMethods())
})

test('the package declares its version, exports and dependencies', () => {
  const pkg = JSON.parse(readFileSync(join(CLIENT_PACKAGE_DIR, 'package.json'), 'utf8'))
  const root = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'))
  expect(pkg.name).toBe('@perpd/client')
  expect(pkg.version).toBe(root.version)
  expect(pkg.type).toBe('module')
  expect(pkg.exports['.']).toEqual({ types: './dist/types/client/index.d.ts', import: './dist/index.js', default: './dist/index.js' })
  for (const dep of ['@noble/curves', '@noble/hashes', '@sinclair/typebox']) expect(pkg.dependencies[dep]).toBe(root.dependencies[dep])
})

/** The application: an order placed, then read back with the typed query, printed as JSON. */
const APP = `
import { PerpdClient, placeOrder, RpcCallError } from '@perpd/client'

const client = new PerpdClient({ url: process.env.PERPD_URL, privateKey: process.env.PERPD_PRIVATE_KEY })
const market = (await client.query('getMarket', { symbol: 'BTC-USD' })).data
const reply = await client.send(placeOrder({
  market_id: market.market_id, side: 'Bid', price: '30000.5', qty: '0.0010', tif: 'Gtc', reduce_only: false, client_order_id: 'pkg-test-1',
}))
const accepted = reply.events.find((e) => e.sub_kind === 'OrderAccepted')
const orderId = accepted.body.order_id
const order = (await client.query('getOrder', { order_id: orderId })).data
const open = (await client.query('getAccountOrders', { address: client.address, market_id: market.market_id })).data
let refused = null
try {
  await client.query('getAccount', { address: 'not-an-address' })
} catch (err) {
  refused = err instanceof RpcCallError ? err.error.code : String(err)
}
console.log(JSON.stringify({ address: client.address, status: reply.status, orderId, order, open: open.map((o) => o.order_id), refused }))
`

/** The same in TypeScript, for tsc: the query results must be typed (a wrong field does not compile). */
const APP_TS = `
import { PerpdClient, placeOrder, type QueryData } from '@perpd/client'

const client = new PerpdClient({ url: 'http://127.0.0.1:8080', privateKey: '0x01' })
export async function main(): Promise<string> {
  const market = (await client.query('getMarket', { symbol: 'BTC-USD' })).data
  const marketId: number = market.market_id
  await client.send(placeOrder({ market_id: marketId, side: 'Bid', price: '1', qty: '1', tif: 'Gtc', reduce_only: false }))
  const account: QueryData<'getAccount'> = (await client.query('getAccount', { address: client.address })).data
  const health = await client.query('getHealth')
  const order = (await client.query('getOrder', { order_id: 1 })).data
  return \`\${account.address} \${health.height} \${order?.owner ?? 'none'}\`
}
`

const APP_TS_WRONG = `
import { PerpdClient } from '@perpd/client'

const client = new PerpdClient({ url: 'http://127.0.0.1:8080', privateKey: '0x01' })
export async function main(): Promise<number> {
  // @ts-expect-error getAccount requires address
  await client.query('getAccount', {})
  // @ts-expect-error no such method
  await client.query('getNothing')
  const market = (await client.query('getMarket', { symbol: 'BTC-USD' })).data
  // @ts-expect-error symbol is a string
  const n: number = market.symbol
  return n
}
`

test(
  'an application installs @perpd/client, places an order on a real node with Node and reads it back with the typed query',
  () => {
    writeFileSync(join(project, 'app.mjs'), APP)
    const out = run(['node', 'app.mjs'], project, { PERPD_URL: node!.url, PERPD_PRIVATE_KEY: DEV_KEYS[1]! })
    const result = JSON.parse(out.trim().split('\n').pop()!)
    expect(result.address).toBe('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')
    expect(result.status).toBe('accepted')
    expect(typeof result.orderId).toBe('number')
    expect(result.order).toMatchObject({
      order_id: result.orderId,
      owner: result.address,
      price: '30000.5',
      side: 'Bid',
      client_order_id: 'pkg-test-1',
    })
    expect(result.open).toContain(result.orderId)
    expect(result.refused).toBe(-32602)
  },
  TIMEOUT_MS,
)

test(
  "the package's types resolve in the application (tsc)",
  () => {
    writeFileSync(join(project, 'app.ts'), APP_TS)
    writeFileSync(join(project, 'wrong.ts'), APP_TS_WRONG)
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['app.ts', 'wrong.ts'],
      }),
    )
    run([join(PROJECT_ROOT, 'node_modules/.bin/tsc'), '-p', 'tsconfig.json'], project)
  },
  TIMEOUT_MS,
)
