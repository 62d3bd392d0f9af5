// On a real node: 500 actions sent at once from one signer through PerpdClient all land, none is
// refused with NONCE_REPLAY, because the client keeps its nonces in flight inside the node's
// window of 64 (docs/protocol.md#nonces) and queues the rest.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { cancelOrder, placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { RpcCallError } from '../../src/client/rpc-client.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode } from '../support/node-process.ts'

let node: NodeProcess

beforeAll(async () => {
  node = await startNode({ blockTimeMs: 400 })
})

afterAll(async () => {
  await node?.stop()
  removeDir(node.dataDir)
})

test('500 concurrent PlaceOrder/CancelOrder sends from one signer: no NONCE_REPLAY, every nonce consumed once', async () => {
  const client = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[3] })
  const before = (await client.rpc.query<{ nonce: number }>('getNonce', { address: client.address })).data.nonce
  // Read once up front, so all 500 sends ask for their nonce at the same moment. With blocks of
  // 400 ms, far more than 64 actions are signed while the first block is still open: without the
  // window some would go out 64 or more above the node's lowest unused nonce and be refused.
  await client.networkName()
  const sends: Promise<unknown>[] = []
  let maxInFlight = 0
  for (let i = 0; i < 250; i++) {
    const cloid = `nw-${i}`
    // Resting bids far below the mark, then a cancel by client id (a cancel that overtakes its
    // order in the queue is a kept-reject: still a consumed nonce, not a refusal).
    sends.push(
      client.send(
        placeOrder({
          market_id: 1,
          side: 'Bid',
          price: String(50_000 - i),
          qty: '0.001',
          tif: 'Gtc',
          reduce_only: false,
          client_order_id: cloid,
        }),
      ),
    )
    sends.push(client.send(cancelOrder({ market_id: 1, client_order_id: cloid })))
  }
  const watch = setInterval(() => {
    maxInFlight = Math.max(maxInFlight, client.nonces.inFlightCount)
  }, 5)
  const outcomes = await Promise.allSettled(sends)
  clearInterval(watch)

  const refusals = outcomes.flatMap((o) =>
    o.status === 'rejected' ? [o.reason instanceof RpcCallError ? (o.reason.reason ?? String(o.reason.error.code)) : String(o.reason)] : [],
  )
  expect(refusals.filter((r) => r === 'NONCE_REPLAY')).toEqual([])
  expect(refusals).toEqual([])
  // The window was the limit, and it was used.
  expect(maxInFlight).toBeLessThanOrEqual(64)
  expect(maxInFlight).toBeGreaterThan(32)
  const after = (await client.rpc.query<{ nonce: number; used_above: number[] }>('getNonce', { address: client.address })).data
  expect(after.nonce).toBe(before + 500)
  expect(after.used_above).toEqual([])
}, 60_000)
