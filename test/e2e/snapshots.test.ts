// Restarts of the real node with state snapshots: after a kill -9 it restores the newest periodic
// snapshot and replays only the blocks after it; after a SIGTERM it restores the snapshot the stop
// wrote and replays nothing. Either way the accounts, orders and book are what they were, the old
// blocks keep their roots, and trading goes on.
import { afterAll, describe, expect, test } from 'bun:test'
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode } from '../support/node-process.ts'
import { until } from '../support/poll.ts'

const BTC = 1
const EVERY = 10
const args = { blockTimeMs: 20, extraArgs: ['--snapshot-every-blocks', String(EVERY)] }

let node: NodeProcess | undefined
afterAll(async () => {
  await node?.stop('SIGKILL')
  if (node !== undefined) removeDir(node.dataDir)
})

/** What a trader sees of the chain: tip, accounts, open orders, the book. */
async function view(url: string, addresses: string[]) {
  const rpc = new CheckedRpcClient(url)
  const tip = (await rpc.query<{ height: number; state_root: string }>('getBlock', {})).data
  const accounts = await Promise.all(addresses.map(async (address) => (await rpc.query('getAccount', { address })).data))
  const orders = await Promise.all(addresses.map(async (address) => (await rpc.query('getAccountOrders', { address })).data))
  const book = (await rpc.query<{ bids: unknown; asks: unknown }>('getOrderbook', { market_id: BTC })).data
  return { tip, accounts, orders, book: { bids: book.bids, asks: book.asks } }
}

describe('restarts from snapshots', () => {
  test('kill -9: the newest periodic snapshot plus the tail; SIGTERM: the stop snapshot alone', async () => {
    node = await startNode(args)
    const alice = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] })
    const bob = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[2] })
    for (let i = 0; i < 6; i++) {
      expect(
        (
          await alice.send(
            placeOrder({
              market_id: BTC,
              side: 'Bid',
              price: String(64_000 + i),
              qty: '0.01',
              tif: 'Gtc',
              reduce_only: false,
              client_order_id: `a${i}`,
            }),
          )
        ).status,
      ).toBe('accepted')
      expect(
        (
          await bob.send(
            placeOrder({ market_id: BTC, side: 'Ask', price: String(64_003 + i), qty: '0.004', tif: 'Gtc', reduce_only: false }),
          )
        ).status,
      ).toBe('accepted')
    }
    const rpc = new CheckedRpcClient(node.url)
    await until(
      'three snapshots',
      async () => (await rpc.query<{ height: number }>('getHealth')).height,
      (h) => h >= 3 * EVERY + 2,
    )
    const addresses = [alice.address, bob.address]
    const before = await view(node.url, addresses)
    expect(await node.stop('SIGKILL')).not.toBe(0)

    node = await startNode({ ...args, dataDir: node.dataDir })
    const restored = /restored the state at height (\d+) from [^\n]*\n[^\n]*replayed (\d+) blocks \((\d+) to (\d+)\)/.exec(node.output())
    expect(restored).not.toBeNull()
    const [at, count, from, to] = restored!.slice(1).map(Number)
    expect(at! % EVERY).toBe(0)
    expect(at).toBeGreaterThanOrEqual(3 * EVERY)
    expect({ count, from, to }).toEqual({ count: to! - at!, from: at! + 1, to: to! })
    const afterKill = await view(node.url, addresses)
    expect(afterKill.accounts).toEqual(before.accounts)
    expect(afterKill.orders).toEqual(before.orders)
    expect(afterKill.book).toEqual(before.book)
    const r = new CheckedRpcClient(node.url)
    expect((await r.query<{ state_root: string }>('getBlock', { height: before.tip.height })).data.state_root).toBe(before.tip.state_root)

    // Trading goes on, then a clean stop writes a snapshot at the last block.
    const again = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] })
    expect(
      (await again.send(placeOrder({ market_id: BTC, side: 'Ask', price: '64001', qty: '0.01', tif: 'Ioc', reduce_only: false }))).status,
    ).toBe('accepted')
    const beforeStop = await view(node.url, addresses)
    expect(await node.stop()).toBe(0)
    node = await startNode({ ...args, dataDir: node.dataDir })
    const stopAt = Number(/restored the state at height (\d+) from /.exec(node.output())?.[1])
    expect(stopAt).toBeGreaterThanOrEqual(beforeStop.tip.height)
    expect(node.output()).not.toMatch(/replayed \d+ blocks/)
    const afterStop = await view(node.url, addresses)
    expect(afterStop.accounts).toEqual(beforeStop.accounts)
    expect(afterStop.orders).toEqual(beforeStop.orders)
    expect((await new CheckedRpcClient(node.url).query<{ state_root: string }>('getBlock', { height: stopAt })).data.state_root).toMatch(
      /^0x[0-9a-f]{64}$/,
    )
  })
})
