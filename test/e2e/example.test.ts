// The README quickstart end to end: a real dev node (which prints its development accounts), and
// examples/place-order.ts run as a subprocess against it, the way a user runs it.
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../support/child-process.ts'
import { startDevNodeForFile } from '../support/dev-node.ts'
import { DEV_KEYS } from '../support/node-process.ts'

const { node, rpc } = await startDevNodeForFile()
const SIGNER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' // development account #1, the example's default

/** Runs the example against the node (address as the argument) and returns its exit code and output. */
async function runExample(): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env }
  for (const name of ['PERPD_URL', 'PERPD_PRIVATE_KEY', 'PERPD_SYMBOL']) delete env[name]
  const proc = Bun.spawn([process.execPath, join(PROJECT_ROOT, 'examples/place-order.ts'), node.url], {
    cwd: PROJECT_ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
    env,
  })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, stdout, stderr }
}

test('the dev node logs its development accounts and keys, with a warning (one JSON line: its stdout is no terminal)', () => {
  const line = node
    .output()
    .split('\n')
    .find((l) => l.includes('"development accounts"'))
  expect(line).toBeDefined()
  const logged = JSON.parse(line!) as {
    warning: string
    accounts: { index: number; address: string; privateKey: string; balance: string; roles: string[] }[]
  }
  expect(logged.warning).toContain('WARNING')
  expect(logged.accounts[1]).toEqual({
    index: 1,
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    privateKey: DEV_KEYS[1],
    balance: '1000000',
    roles: ['Trader'],
  })
  expect(logged.accounts[0]!.privateKey).toBe('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
})

test('the example places a resting bid and shows it from getAccountOrders and the hot-read book', async () => {
  const r = await runExample()
  if (r.code !== 0) throw new Error(`example exited with ${r.code}:\n${r.stdout}\n${r.stderr}`)
  expect(r.stdout).toContain(`signer   ${SIGNER}`)
  expect(r.stdout).toMatch(/accepted: tx_hash 0x[0-9a-f]{64}, block \d+, order_id 1\n/)
  expect(r.stdout).toMatch(
    /getAccountOrders \(POST \/api\/v1\/query\):\n {2}order_id 1 BTC-USD Bid price 58500 qty 0\.01 remaining 0\.01 Gtc client_order_id example-/,
  )
  expect(r.stdout).toContain('order book (GET /api/v1/market/orderbook/BTC-USD)')
  expect(r.stdout).toContain('  bids: 0.01 @ 58500\n')
  expect(r.stdout).toContain('  our level: bid 0.01 @ 58500\n')
  expect(r.stdout).toContain(`curl -s ${node.url}/api/v1/market/orderbook/BTC-USD`)
  // The order really rests on the chain.
  const open = (await rpc.query<{ order_id: number; price: string }[]>('getAccountOrders', { address: SIGNER })).data
  expect(open.map((o) => [o.order_id, o.price])).toEqual([[1, '58500']])
})

test('running it again places a second order with the next nonce', async () => {
  const r = await runExample()
  if (r.code !== 0) throw new Error(`example exited with ${r.code}:\n${r.stdout}\n${r.stderr}`)
  expect(r.stdout).toMatch(/order_id 2\n/)
  expect(r.stdout).toContain('  our level: bid 0.02 @ 58500\n')
})

test('the curl lines it prints answer the same', async () => {
  const r = await runExample()
  const curls = r.stdout.split('\n').filter((l) => l.trim().startsWith('curl -s '))
  expect(curls.length).toBe(3)
  const book = (await (await fetch(`${node.url}/api/v1/market/orderbook/BTC-USD`)).json()) as {
    data: { bids: { price: string; qty: string }[] }
  }
  expect(book.data.bids).toEqual([{ price: '58500', qty: '0.03', cumulative_qty: '0.03' }] as never)
  const txHash = /\/api\/v1\/tx\/(0x[0-9a-f]{64})/.exec(r.stdout)![1]!
  // The history index is asynchronous: the transaction shows once it has ingested the block.
  let status = 0
  for (let i = 0; i < 50 && status !== 200; i++) {
    status = (await fetch(`${node.url}/api/v1/tx/${txHash}`)).status
    if (status !== 200) await Bun.sleep(100)
  }
  expect(status).toBe(200)
})
