// The project's WebSocket client on a real node: after a forced disconnect it reconnects,
// resubscribes, re-reads the open orders and ends with exactly the node's order set, including
// orders placed, filled and cancelled while it was away and partial fills after it came back.
import { describe, expect, test } from 'bun:test'
import { placeOrder } from '../../src/client/actions.ts'
import { OpenOrderSet, PerpdWsClient, type WsFrame } from '../../src/client/ws-client.ts'
import { orderIdOf, startDevNodeForFile } from '../support/dev-node.ts'
import { until } from './ws-support.ts'

const ETH = 2

const { node, rpc, client } = await startDevNodeForFile({ blockTimeMs: 50 })
const alice = client(3)
const bob = client(4)

const order = (side: 'Bid' | 'Ask', price: string, qty: string, tif: 'Gtc' | 'Ioc' = 'Gtc', cloid?: string) =>
  placeOrder({ market_id: ETH, side, price, qty, tif, reduce_only: false, ...(cloid === undefined ? {} : { client_order_id: cloid }) })

/** The node's open orders of an address in the set's shape. */
async function nodeOrders(address: string) {
  const r = await rpc.query<Record<string, unknown>[]>('getAccountOrders', { address })
  return r.data.map((o) => {
    const row: Record<string, unknown> = {
      order_id: o.order_id,
      market_id: o.market_id,
      symbol: o.symbol,
      side: o.side,
      price: o.price,
      qty: o.qty,
      remaining: o.remaining,
      tif: o.tif,
      reduce_only: o.reduce_only,
    }
    if (o.client_order_id !== null) row.client_order_id = o.client_order_id
    return row
  })
}
const setRows = (set: OpenOrderSet): Record<string, unknown>[] =>
  [...set.orders.values()].sort((a, b) => a.order_id - b.order_id).map((o) => ({ ...o }))

describe('PerpdWsClient', () => {
  test('keeps an open-order set from orderUpdates and userFills, and recovers it after a forced disconnect', async () => {
    const ws = new PerpdWsClient({ url: node.url, reconnectDelayMs: 400 })
    const set = new OpenOrderSet(ws, rpc, alice.address)
    const frames: WsFrame[] = []
    ws.on('*', (f) => frames.push(f))
    await ws.connect()
    await set.start()
    await set.settled()
    expect(set.orders.size).toBe(0)

    const a = orderIdOf(await alice.send(order('Ask', '3600', '2', 'Gtc', 'a-1')))
    const b = orderIdOf(await alice.send(order('Ask', '3610', '1')))
    orderIdOf(await alice.send(order('Bid', '3300', '1', 'Gtc', 'b-1')))
    // A partial fill of a: its remaining drops through the maker row of userFills.
    orderIdOf(await bob.send(order('Bid', '3600', '0.5', 'Ioc')))
    await until(() => set.orders.get(a)?.remaining === '1.5', 3_000, 'the partial fill')
    expect(setRows(set)).toEqual(await nodeOrders(alice.address))

    // Away: a cancel, a new order, a full fill of b and a partial fill of the new one are all missed.
    ws.forceDisconnect()
    await until(() => !ws.connected, 2_000, 'the disconnect')
    const seenBefore = frames.length
    await alice.send({ CancelOrder: { market_id: ETH, order_id: a } })
    const c = orderIdOf(await alice.send(order('Ask', '3620', '3', 'Gtc', 'c-1')))
    await bob.send(order('Bid', '3620', '1.25', 'Ioc'))
    expect(frames.length).toBe(seenBefore)
    expect(set.orders.has(a)).toBe(true) // stale until the resync

    await until(() => ws.connected && ws.stats.connects === 2, 5_000, 'the reconnect')
    await until(() => !set.orders.has(a) && set.orders.has(c), 5_000, 'the resync')
    await set.settled()
    expect(setRows(set)).toEqual(await nodeOrders(alice.address))
    expect(set.orders.has(b)).toBe(false)
    expect(set.orders.get(c)!.remaining).toBe('2.75') // b took 1 of the 1.25

    // Back live: updates apply again on the new connection, seq restarted at 1 there.
    const d = orderIdOf(await alice.send(order('Bid', '3400', '4', 'Gtc', 'd-1')))
    await bob.send(order('Ask', '3400', '1', 'Ioc'))
    await until(() => set.orders.get(d)?.remaining === '3', 3_000, 'the live update')
    expect(setRows(set)).toEqual(await nodeOrders(alice.address))
    expect(ws.stats.seqGaps + ws.stats.gapFrames).toBe(0)
    ws.close()
  }, 20_000)
})
