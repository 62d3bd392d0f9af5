// End to end: the node is killed (SIGKILL) while trades are in flight and restarted on the same data
// directory; the index catches up from the block store with no fill missing or doubled, and its
// fills, orders and candles are identical to an index rebuilt from nothing.
import { afterAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import type { ActionReply } from '../../src/client/rpc-client.ts'
import { CANDLE_INTERVALS } from '../../src/wire/candles.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { getJson, waitIndexed, walkCursor } from '../support/history-client.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode, tempDataDir } from '../support/node-process.ts'

const dataDir = tempDataDir()
const ARGS = ['--rate-limit-signer', '0', '--rate-limit-ip', '0']
let node: NodeProcess | undefined

afterAll(async () => {
  await node?.stop()
  removeDir(dataDir)
})

/** One round: Alice rests a bid, Bob sells into it with an IOC; one fill at a price of the round. */
async function round(url: string, i: number): Promise<ActionReply> {
  const alice = new PerpdClient({ url, privateKey: DEV_KEYS[1] })
  const bob = new PerpdClient({ url, privateKey: DEV_KEYS[2] })
  const price = String(65_000 + (i % 7) * 10)
  await alice.send(placeOrder({ market_id: 1, side: 'Bid', price, qty: '0.01', tif: 'Gtc', reduce_only: false }))
  return bob.send(placeOrder({ market_id: 1, side: 'Ask', price, qty: '0.01', tif: 'Ioc', reduce_only: false }))
}

/** Filled events in blocks 1..tip, counted from the chain's own read methods. */
async function chainFillCount(url: string, tip: number): Promise<number> {
  const rpc = new CheckedRpcClient(url)
  const hashes: string[] = []
  for (let from = 1; from <= tip; from += 20) {
    const replies = await rpc.batch(
      Array.from({ length: Math.min(20, tip - from + 1) }, (_, i) => ({ method: 'getBlock', params: { height: from + i } })),
    )
    for (const r of replies) {
      if (!('result' in r)) throw new Error(JSON.stringify(r))
      for (const e of (r.result.data as { envelopes: { tx_hash: string }[] }).envelopes) hashes.push(e.tx_hash)
    }
  }
  let fills = 0
  for (let i = 0; i < hashes.length; i += 20) {
    const replies = await rpc.batch(hashes.slice(i, i + 20).map((tx_hash) => ({ method: 'getTx', params: { tx_hash } })))
    for (const r of replies) {
      if (!('result' in r)) throw new Error(JSON.stringify(r))
      fills += (r.result.data as { events: { sub_kind: string }[] }).events.filter((e) => e.sub_kind === 'Filled').length
    }
  }
  return fills
}

const key = (f: { height: number; seq: number; is_taker: boolean }) => `${f.height}.${f.seq}.${f.is_taker}`

async function snapshot(url: string) {
  const alice = new PerpdClient({ url, privateKey: DEV_KEYS[1] }).address
  const bob = new PerpdClient({ url, privateKey: DEV_KEYS[2] }).address
  const candles: Record<string, unknown> = {}
  for (const interval of CANDLE_INTERVALS)
    candles[interval] = (await getJson(url, `/api/v1/candles?symbol=BTC-USD&interval=${interval}&limit=2000`)).body
  return {
    fills: [
      ...(await walkCursor<any>(url, `/api/v1/fills?account=${alice}`, 7)),
      ...(await walkCursor<any>(url, `/api/v1/fills?account=${bob}`, 7)),
    ],
    orders: await walkCursor(url, `/api/v1/orders?owner=${alice}&include_open=true`, 9),
    candles,
  }
}

test('killed mid-way and restarted: no fill missing or doubled; everything equals a clean rebuild', async () => {
  node = await startNode({ dataDir, blockTimeMs: 40, extraArgs: ARGS })
  const landed: ActionReply[] = []
  for (let i = 0; i < 4; i++) landed.push(await round(node.url, i))
  // Rounds in flight when the node dies: whatever committed before the kill is in the block store.
  const inflight = [round(node.url, 4), round(node.url, 5)].map((p) => p.catch(() => undefined))
  await Bun.sleep(60)
  await node.stop('SIGKILL')
  await Promise.all(inflight)

  node = await startNode({ dataDir, blockTimeMs: 40, extraArgs: ARGS })
  for (let i = 6; i < 10; i++) landed.push(await round(node.url, i))
  const status = await waitIndexed(node.url)
  expect(status.derive_lag_blocks).toBe(0)
  const after = await snapshot(node.url)

  // No row doubled; every fill a reply reported is there, with its taker and maker rows.
  const keys = after.fills.map(key)
  expect(new Set(keys).size).toBe(keys.length)
  for (const reply of landed) {
    if (reply.status !== 'accepted') throw new Error(`round rejected: ${JSON.stringify(reply)}`)
    const fill = reply.events.find((e) => e.sub_kind === 'Filled')!
    expect(keys).toContain(`${fill.height}.${fill.seq}.true`)
    expect(keys).toContain(`${fill.height}.${fill.seq}.false`)
  }
  // Every Filled event the chain holds (read from the block store through getBlock and getTx, not
  // from the index) has exactly its two rows.
  expect(after.fills.length).toBe(2 * (await chainFillCount(node.url, status.watermark!)))

  // A clean rebuild from the block store gives identical fills, orders and candles.
  await node.stop()
  for (const f of ['history.sqlite', 'history.sqlite-wal', 'history.sqlite-shm']) rmSync(join(dataDir, f), { force: true })
  node = await startNode({ dataDir, blockTimeMs: 40, extraArgs: ARGS })
  await waitIndexed(node.url, status.node_tip!)
  const rebuilt = await snapshot(node.url)
  expect(rebuilt).toEqual(after)
  // The restarted node's 24 h hot cache is empty: a closed order comes from the permanent archive.
  const first = (landed[0] as Extract<ActionReply, { status: 'accepted' }>).events.find((e) => e.sub_kind === 'Filled')!
  const status0 = (
    await new CheckedRpcClient(node.url).query<Record<string, unknown>>('getOrderStatus', { order_id: first.body.maker_order_id as number })
  ).data
  expect(status0).toMatchObject({
    status: 'closed',
    source: 'archive',
    order_id: first.body.maker_order_id,
    close_reason: 'filled',
    filled: '0.01',
    remaining: '0',
  })
  expect((after.candles['1m'] as { n: number }[]).reduce((n, c) => n + c.n, 0)).toBe(after.fills.length / 2)
})
