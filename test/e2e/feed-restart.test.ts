// A restarted node still shows its recent trades: the hot feed's trade rings are seeded from the
// Filled events of the stored chain, so /market/trades answers the same rows before and after. The
// node starts several times: each test has a generous timeout, for a loaded machine.
import { afterAll, expect, test } from 'bun:test'
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { RpcClient } from '../../src/client/rpc-client.ts'
import { accepted } from '../support/dev-node.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode, tempDataDir } from '../support/node-process.ts'
import { until } from '../support/poll.ts'

const dataDir = tempDataDir()
let node: NodeProcess | undefined

afterAll(async () => {
  await node?.stop()
  removeDir(dataDir)
})

const trades = async (url: string, symbol: string) =>
  ((await (await fetch(`${url}/api/v1/market/trades/${symbol}`)).json()) as { data: Record<string, unknown>[] }).data

test('trade rings are seeded from the stored chain on restart, per market, newest first', async () => {
  node = await startNode({ dataDir, blockTimeMs: 40 })
  const alice = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] })
  const bob = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[2] })
  for (const [market, price, qty] of [
    [1, '65000', '0.1'],
    [2, '3500', '1'],
    [1, '65010', '0.2'],
  ] as const) {
    accepted(await alice.send(placeOrder({ market_id: market, side: 'Ask', price, qty, tif: 'Gtc', reduce_only: false })))
    accepted(await bob.send(placeOrder({ market_id: market, side: 'Bid', price, qty, tif: 'Ioc', reduce_only: false })))
  }
  const btc = await trades(node.url, 'BTC-USD')
  const eth = await trades(node.url, 'ETH-USD')
  expect(btc.map((t) => [t.price, t.qty, t.side])).toEqual([
    ['65010', '0.2', 'Bid'],
    ['65000', '0.1', 'Bid'],
  ])
  expect(eth.map((t) => [t.price, t.qty])).toEqual([['3500', '1']])

  await node.stop()
  node = await startNode({ dataDir, blockTimeMs: 40 })
  expect(await trades(node.url, 'BTC-USD')).toEqual(btc)
  expect(await trades(node.url, 'ETH-USD')).toEqual(eth)
  expect(await trades(node.url, 'SOL-USD')).toEqual([])

  // New trades go on top of the seeded ones.
  const carol = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[3] })
  const alice2 = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] })
  accepted(await alice2.send(placeOrder({ market_id: 1, side: 'Ask', price: '65020', qty: '0.1', tif: 'Gtc', reduce_only: false })))
  accepted(await carol.send(placeOrder({ market_id: 1, side: 'Bid', price: '65020', qty: '0.1', tif: 'Ioc', reduce_only: false })))
  expect((await trades(node.url, 'BTC')).map((t) => t.price)).toEqual(['65020', '65010', '65000'])
}, 120_000)

const summary = async (url: string, symbol: string) => {
  const body = (await (await fetch(`${url}/api/v1/markets/${symbol}/summary`)).json()) as { data: Record<string, unknown> }
  const { day_ntl_volume, day_base_volume, prev_day_price } = body.data
  return { day_ntl_volume, day_base_volume, prev_day_price }
}

test('the UTC-day volumes go on across a restart: from the stop, and after a kill -9 (saved day state plus the blocks after it)', async () => {
  // The test before leaves its node running for afterAll; this one starts its own.
  await node?.stop()
  node = undefined
  const dir = tempDataDir()
  try {
    node = await startNode({ dataDir: dir, blockTimeMs: 20 })
    const alice = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] })
    const bob = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[2] })
    const trade = async (price: string, qty: string) => {
      accepted(await alice.send(placeOrder({ market_id: 1, side: 'Ask', price, qty, tif: 'Gtc', reduce_only: false })))
      accepted(await bob.send(placeOrder({ market_id: 1, side: 'Bid', price, qty, tif: 'Ioc', reduce_only: false })))
    }
    await trade('65000', '0.1')
    await trade('65010', '0.2')
    const before = await summary(node.url, 'BTC-USD')
    expect(before).toMatchObject({ day_base_volume: '0.3', day_ntl_volume: '19502' })
    expect(await node.stop()).toBe(0)

    node = await startNode({ dataDir: dir, blockTimeMs: 20 })
    expect(node.output()).toMatch(/hot feed: day counters and open candles resumed from height \d+ and 0 fills after it/)
    expect(await summary(node.url, 'BTC-USD')).toEqual(before)

    // A trade right before a kill -9, just after a day-state save (every 25 blocks): its fill is
    // after the saved state, so the restart counts it from the stored blocks.
    const rpc = new RpcClient(node.url)
    await until(
      'a height just past a save',
      async () => (await rpc.query('getHealth')).height,
      (h) => h % 25 >= 1 && h % 25 <= 4,
    )
    const alice2 = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] })
    const bob2 = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[2] })
    accepted(await alice2.send(placeOrder({ market_id: 1, side: 'Ask', price: '65000', qty: '0.05', tif: 'Gtc', reduce_only: false })))
    accepted(await bob2.send(placeOrder({ market_id: 1, side: 'Bid', price: '65000', qty: '0.05', tif: 'Ioc', reduce_only: false })))
    const beforeKill = await summary(node.url, 'BTC-USD')
    expect(beforeKill).toMatchObject({ day_base_volume: '0.35', day_ntl_volume: '22752' })
    await node.stop('SIGKILL')
    node = await startNode({ dataDir: dir, blockTimeMs: 20 })
    expect(node.output()).toMatch(/hot feed: day counters and open candles resumed from height \d+ and 1 fills after it/)
    expect(await summary(node.url, 'BTC-USD')).toEqual(beforeKill)
  } finally {
    await node?.stop()
    node = undefined
    removeDir(dir)
  }
}, 120_000)
