// End to end on a real node, over HTTP with the project's client: order expiry, BatchPlaceOrder,
// BatchModify, MassCancel, the dead man's switch (ScheduleCancel, shown by getAccount) and Noop.
import { describe, expect, test } from 'bun:test'
import { batchModify, batchPlaceOrder, massCancel, noop, placeOrder, scheduleCancel } from '../../src/client/actions.ts'
import { bodyAs, RpcCallError } from '../../src/client/rpc-client.ts'
import { accepted, getAccount, startDevNodeForFile } from '../support/dev-node.ts'

const BTC = 1

const { rpc, client } = await startDevNodeForFile({ blockTimeMs: 40 })
const alice = client(5)
const bob = client(6)

interface OpenOrder {
  order_id: number
  price: string
  qty: string
  remaining: string
  client_order_id: string | null
  expires_at_ms?: number
}
const openOrders = async (address: string) => (await rpc.query<OpenOrder[]>('getAccountOrders', { address })).data
const accountOf = (address: string) => getAccount<{ nonce: number; dms_deadline_ms: number | null; open_orders: number }>(rpc, address)

/** Polls until check() is true, at most timeoutMs. */
async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await Bun.sleep(50)
  }
  throw new Error(`condition not met in ${timeoutMs} ms`)
}

const gtc = (price: string, qty: string, extra: { client_order_id?: string; expires_at_ms?: number; side?: 'Bid' | 'Ask' } = {}) => ({
  market_id: BTC,
  side: extra.side ?? ('Bid' as const),
  price,
  qty,
  tif: 'Gtc' as const,
  reduce_only: false,
  ...extra,
})

describe('orders on a real node', () => {
  test('getActionsMeta lists the order kinds for Traders, master or agent', async () => {
    const meta = (await rpc.query<{ actions: { name: string; auth: string; role: string; master_only: boolean }[] }>('getActionsMeta')).data
      .actions
    for (const name of ['BatchPlaceOrder', 'BatchModify', 'MassCancel', 'ScheduleCancel', 'Noop']) {
      expect(meta.find((a) => a.name === name)).toMatchObject({ auth: 'master_or_agent_with_role', role: 'Trader', master_only: false })
    }
  })

  test('an order with expires_at_ms shows it, then expires; a passed expiry is a kept-reject', async () => {
    const past = await alice.send(placeOrder(gtc('50000', '0.01', { expires_at_ms: Date.now() - 1_000 })))
    expect(past).toMatchObject({ status: 'kept-reject', reason: { code: 'OrderExpired' } })
    // Margins of seconds: block production on a loaded machine may lag the wall clock.
    const expiresAt = Date.now() + 2_500
    const r = accepted(await alice.send(placeOrder(gtc('50000', '0.01', { expires_at_ms: expiresAt }))))
    const id = bodyAs(r.events[0]!, 'OrderAccepted').order_id
    expect(await openOrders(alice.address)).toEqual([expect.objectContaining({ order_id: id, expires_at_ms: expiresAt })])
    await eventually(async () => (await openOrders(alice.address)).length === 0, 8_000)
  }, 15_000)

  test('BatchPlaceOrder: items apply in order, a bad item is reported by index, a malformed batch is refused', async () => {
    const r = accepted(
      await alice.send(
        batchPlaceOrder([
          gtc('60000', '0.01', { client_order_id: 'q1' }),
          gtc('60000', '0.01', { client_order_id: 'q1' }),
          gtc('59000', '0.02'),
        ]),
      ),
    )
    expect(r.events.map((e) => e.sub_kind)).toEqual(['OrderAccepted', 'OrderResting', 'BatchItemRejected', 'OrderAccepted', 'OrderResting'])
    expect(r.events[2]!.body).toMatchObject({ index: 1, reason: 'DuplicateClientOrderId', action_kind: 'BatchPlaceOrder' })
    // 5 decimals on a 1-decimal market: refused at admission, naming the item.
    const err = await alice.send(batchPlaceOrder([gtc('60000', '0.01'), gtc('60000.12345', '0.01')])).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RpcCallError)
    expect((err as RpcCallError).error.message).toContain('params.action.BatchPlaceOrder.orders.1.price')
  })

  test('the node packs decimals itself: a signed edge_price is refused, trailing zeros land at the ticks they name', async () => {
    const err = await alice.send({ PlaceOrder: { ...gtc('61000', '0.01'), edge_price: 16 } } as never).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RpcCallError)
    expect((err as RpcCallError).error.message).toContain('edge_price')
    const r = accepted(await alice.send(batchPlaceOrder([gtc('61000.50', '0.0100', { client_order_id: 'edge-1' }), gtc('61001', '2')])))
    expect(r.events.filter((e) => e.sub_kind === 'OrderResting').map((e) => [e.body.price, e.body.remaining])).toEqual([
      ['61000.5', '0.01'],
      ['61001', '2'],
    ])
    const ids = r.events.filter((e) => e.sub_kind === 'OrderAccepted').map((e) => e.body.order_id as number)
    accepted(await alice.send(massCancel({ by: 'Ids', order_ids: ids })))
  })

  test('BatchModify: lower qty in place, price change under a new id that keeps the client id', async () => {
    const before = await openOrders(alice.address)
    const q1 = before.find((o) => o.client_order_id === 'q1')!
    const r = accepted(
      await alice.send(
        batchModify([
          { market_id: BTC, client_order_id: 'q1', qty: '0.005' },
          { market_id: BTC, order_id: 999_999, price: '1' },
        ]),
      ),
    )
    expect(r.events.map((e) => e.sub_kind)).toEqual(['OrderAccepted', 'OrderResting', 'BatchItemRejected'])
    expect(r.events[1]!.body).toMatchObject({ order_id: q1.order_id, qty: '0.005', remaining: '0.005' })
    expect(r.events[2]!.body).toMatchObject({ index: 1, reason: 'OrderNotFound' })
    const moved = accepted(await alice.send(batchModify([{ market_id: BTC, client_order_id: 'q1', price: '60100' }])))
    expect(moved.events.map((e) => [e.sub_kind, 'reason' in e.body ? e.body.reason : null])).toEqual([
      ['OrderDone', 'Replaced'],
      ['OrderAccepted', null],
      ['OrderResting', null],
    ])
    const after = await openOrders(alice.address)
    expect(after.find((o) => o.client_order_id === 'q1')).toMatchObject({ price: '60100', qty: '0.005' })
    expect(after.find((o) => o.order_id === q1.order_id)).toBeUndefined()
  })

  test('MassCancel by Side, then by Owner', async () => {
    accepted(await alice.send(placeOrder(gtc('80000', '0.01', { side: 'Ask' }))))
    const bids = accepted(await alice.send(massCancel({ market_id: BTC, by: 'Side', side: 'Bid' })))
    expect(bids.events.at(-1)).toMatchObject({ sub_kind: 'MassCancelDone', body: { cancelled: 2, by: 'Side' } })
    expect((await openOrders(alice.address)).length).toBe(1)
    const all = accepted(await alice.send(massCancel({ by: 'Owner' })))
    expect(all.events.map((e) => e.sub_kind)).toEqual(['OrderDone', 'MassCancelDone'])
    expect(await openOrders(alice.address)).toEqual([])
  })

  test('ScheduleCancel: getAccount shows the deadline; at the first block past it the orders go', async () => {
    const tooSoon = await bob.send(scheduleCancel(Date.now() + 1_000))
    expect(tooSoon).toMatchObject({ status: 'kept-reject', reason: { code: 'InvalidDeadline' } })
    accepted(await bob.send(batchPlaceOrder([gtc('55000', '0.01'), gtc('56000', '0.01')])))
    const deadline = Date.now() + 6_500
    accepted(await bob.send(scheduleCancel(deadline)))
    expect((await accountOf(bob.address)).dms_deadline_ms).toBe(deadline)
    await eventually(async () => (await accountOf(bob.address)).open_orders === 0, 12_000)
    expect(Date.now()).toBeGreaterThan(deadline)
    expect((await accountOf(bob.address)).dms_deadline_ms).toBeNull()
    // Set and cleared.
    accepted(await bob.send(scheduleCancel(Date.now() + 60_000)))
    accepted(await bob.send(scheduleCancel(null)))
    expect((await accountOf(bob.address)).dms_deadline_ms).toBeNull()
  }, 20_000)

  test('Noop consumes the nonce and does nothing', async () => {
    const before = await accountOf(alice.address)
    const r = accepted(await alice.send(noop()))
    expect(r.events).toEqual([])
    expect((await accountOf(alice.address)).nonce).toBe(before.nonce + 1)
  })
})
