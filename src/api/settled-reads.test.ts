// The API shows committed blocks only: while the node's state holds a block executed ahead of its
// tick (ChainNode.whenSettled), a /query waits for the tick and answers with that block committed,
// and /action does not wait (it is what fills the open block).
import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEV_KEYS } from '../../test/support/node-process.ts'
import { Signer } from '../client/signer.ts'
import { ChainNode } from '../node/chain-node.ts'
import { devGenesis } from '../node/dev-genesis.ts'
import { createApp } from './app.ts'

const dirs: string[] = []
const nodes: ChainNode[] = []
afterEach(() => {
  for (const node of nodes.splice(0)) node.stop()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const post = (path: string, body: unknown) =>
  new Request(`http://127.0.0.1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

test('a /query sent while a block is open is answered once the block is committed, and shows it', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'perpd-settled-'))
  dirs.push(dataDir)
  const node = new ChainNode({ dataDir, genesis: devGenesis(), blockTimeMs: 100, log: () => {} })
  nodes.push(node)
  node.start()
  const app = createApp(node)
  const signer = new Signer(DEV_KEYS[1]!)
  const order = {
    PlaceOrder: { market_id: 1, side: 'Bid', price: '60000', qty: '0.01', tif: 'Gtc', reduce_only: false, client_order_id: 'open' },
  }
  const action = app.handle(
    post('/api/v1/action', { jsonrpc: '2.0', id: 1, method: 'action', params: signer.sign(order, 0, 'dev').params }),
  )
  const deadline = performance.now() + 2_000
  while (node.isSettled() && performance.now() < deadline) await Bun.sleep(1)
  expect(node.isSettled()).toBe(false)
  const open = node.state.height
  // The state holds the order already; the store does not.
  expect(node.store.tipHeight()).toBe(open - 1)
  let storedWhenAnswered = -1
  const query = app
    .handle(post('/api/v1/query', { jsonrpc: '2.0', id: 1, method: 'getAccountOrders', params: { address: signer.address } }))
    .then((res) => {
      storedWhenAnswered = node.store.tipHeight()
      return res.json() as Promise<{ result: { height: number; chain_height: number; data: { client_order_id: string | null }[] } }>
    })
  const reply = (await query).result
  expect(storedWhenAnswered).toBe(open)
  expect(reply.chain_height).toBe(open)
  expect(reply.data.map((o) => o.client_order_id)).toEqual(['open'])
  const placed = (await (await action).json()) as { result: { status: string; height: number } }
  expect(placed.result).toMatchObject({ status: 'accepted', height: open })
})
