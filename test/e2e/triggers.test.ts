// End to end on a real node: trigger orders and OCO pairs over HTTP with the project's client. A
// stop fires when trading moves the mark, the fills of promoted orders name their trigger and its
// placing transaction (seen in the block's events from the history REST and in a later taker's
// reply), the triggerUpdates WebSocket topic reports the lifecycle, and the read methods list what
// is active.
import { beforeAll, describe, expect, test } from 'bun:test'
import {
  amendTriggerOrder,
  cancelOcoPair,
  cancelTriggerOrder,
  placeOcoPair,
  placeOrder,
  placeTriggerOrder,
} from '../../src/client/actions.ts'
import { bodyAs } from '../../src/client/rpc-client.ts'
import { accepted, startDevNodeForFile } from '../support/dev-node.ts'

const ETH = 2
const WAIT_MS = 10_000

const { node, rpc, client } = await startDevNodeForFile({ blockTimeMs: 40 })
const alice = client(5)
const bob = client(6)
const carol = client(7)
const dave = client(8)

beforeAll(async () => {
  accepted(await dave.send(placeOrder({ market_id: ETH, side: 'Bid', price: '3000', qty: '0.01', tif: 'Gtc', reduce_only: false })))
  accepted(await dave.send(placeOrder({ market_id: ETH, side: 'Ask', price: '4000', qty: '0.01', tif: 'Gtc', reduce_only: false })))
})

interface TriggerRow {
  trigger_id: number
  trigger_price: string
  qty: string
  tx_hash: string
  pair_id: number | null
  client_order_id: string | null
}
const triggersOf = async (address: string) => (await rpc.query<TriggerRow[]>('getTriggerOrders', { address, symbol: 'ETH' })).data

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS
  while (Date.now() < deadline) {
    const v = await probe()
    if (v !== undefined) return v
    await Bun.sleep(20)
  }
  throw new Error(`timed out waiting for ${what}`)
}

/**
 * Trades 0.01 at price between dave (maker) and carol (taker). With dave's far quotes on both sides
 * (3000 / 4000) the mark becomes the median of best bid, best ask and the trade: the price.
 */
async function moveMark(price: string) {
  accepted(await dave.send(placeOrder({ market_id: ETH, side: 'Ask', price, qty: '0.01', tif: 'Gtc', reduce_only: false })))
  const taker = accepted(await carol.send(placeOrder({ market_id: ETH, side: 'Bid', price, qty: '0.01', tif: 'Ioc', reduce_only: false })))
  expect(taker.events.map((e) => e.sub_kind)).toContain('Filled')
}

/** Collects triggerUpdates rows of one address from the WebSocket. */
async function triggerUpdates(address: string) {
  const rows: Record<string, unknown>[] = []
  const ws = new WebSocket(`${node.url.replace('http', 'ws')}/api/v1/ws`)
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => ws.send(JSON.stringify({ op: 'subscribe', topics: [`triggerUpdates.${address}`] }))
    ws.onerror = () => reject(new Error('websocket error'))
    ws.onmessage = (m) => {
      const frame = JSON.parse(String(m.data)) as { op?: string; topic?: string; updates?: Record<string, unknown>[] }
      if (frame.op === 'subscribed') resolve()
      if (frame.topic?.startsWith('triggerUpdates.') === true) rows.push(...(frame.updates ?? []))
    }
  })
  return { rows, close: () => ws.close() }
}

describe('trigger orders on a real node', () => {
  test('a stop fires when trading moves the mark past it; triggerUpdates reports placed and activated', async () => {
    const updates = await triggerUpdates(alice.address)
    const mark = (await rpc.query<{ mark_price: string }>('getMarket', { market_id: ETH })).data.mark_price
    expect(mark).toBe('3500')
    // Liquidity for the stop's sweep.
    accepted(await bob.send(placeOrder({ market_id: ETH, side: 'Ask', price: '3560', qty: '5', tif: 'Gtc', reduce_only: false })))

    const tooLate = await alice.send(
      placeTriggerOrder({
        market_id: ETH,
        side: 'Bid',
        qty: '1',
        trigger_price: '3500',
        trigger_direction: 'Above',
        order_type: 'market',
        reduce_only: false,
      }),
    )
    expect(tooLate).toMatchObject({ status: 'kept-reject', reason: { code: 'TriggerWouldFireImmediately' } })

    const placed = accepted(
      await alice.send(
        placeTriggerOrder({
          market_id: ETH,
          side: 'Bid',
          qty: '1',
          trigger_price: '3550',
          trigger_direction: 'Above',
          order_type: 'market',
          reduce_only: false,
          client_order_id: 'stop-1',
          expires_at_ms: null,
        }),
      ),
    )
    expect(placed.events[0]).toMatchObject({
      kind: 'Trigger',
      sub_kind: 'TriggerPlaced',
      body: { kind_label: 'placed', trigger_price: '3550', qty: '1', order_type: 'market', tif: 'Ioc', expires_at_ms: null },
    })
    const triggerId = bodyAs(placed.events[0]!, 'TriggerPlaced').trigger_id
    expect(await triggersOf(alice.address)).toEqual([
      expect.objectContaining({
        trigger_id: triggerId,
        trigger_price: '3550',
        qty: '1',
        tx_hash: placed.tx_hash,
        client_order_id: 'stop-1',
      }),
    ])

    const amended = accepted(await alice.send(amendTriggerOrder({ market_id: ETH, trigger_id: triggerId, trigger_price: '3540' })))
    expect(amended.events[0]).toMatchObject({ sub_kind: 'TriggerAmended', body: { trigger_price: '3540', kind_label: 'amended' } })

    await moveMark('3530')
    expect((await triggersOf(alice.address)).length).toBe(1)
    await moveMark('3545')
    await until('the stop to fire', async () => ((await triggersOf(alice.address)).length === 0 ? true : undefined))
    const position = (
      await rpc.query<{ positions: Record<string, { size: string; entry_vwap: string }> }>('getAccount', { address: alice.address })
    ).data.positions[String(ETH)]
    expect(position).toMatchObject({ size: '1', entry_vwap: '3560' })

    const activated = await until('the activated update', async () => updates.rows.find((r) => r.kind === 'activated'))
    expect(activated).toMatchObject({ kind: 'activated', trigger_id: triggerId, market_id: ETH, symbol: 'ETH-USD' })
    expect(updates.rows.map((r) => r.kind)).toEqual(['placed', 'amended', 'activated'])
    expect(updates.rows[0]).toMatchObject({
      trigger_id: triggerId,
      side: 'Bid',
      order_type: 'market',
      qty: '1',
      trigger_price: '3550',
      trigger_direction: 'Above',
      tif: 'Ioc',
      reduce_only: false,
      client_order_id: 'stop-1',
      expires_at_ms: null,
    })
    updates.close()

    // The block's events (history REST): the fire is block-level work, after the envelopes.
    const height = activated.block_height as number
    const events = await until('the firing block in the history index', async () => {
      const res = await fetch(`${node.url}/api/v1/blocks/${height}/events?limit=2000`)
      return res.status === 200
        ? ((await res.json()) as { data: { envelope_idx: number; sub_kind: string; body: Record<string, unknown> }[] }).data
        : undefined
    })
    // Events of the block itself carry the block's envelope_count: after the last envelope.
    const { envelope_count: blockLevel } = (
      (await (await fetch(`${node.url}/api/v1/blocks/${height}`)).json()) as { data: { envelope_count: number } }
    ).data
    const at = events.findIndex((e) => e.envelope_idx === blockLevel && e.sub_kind === 'TriggerActivated')
    const fill = events.findIndex(
      (e) => e.envelope_idx === blockLevel && e.sub_kind === 'Filled' && e.body.taker === alice.address.toLowerCase(),
    )
    expect(at >= 0 && fill > at).toBe(true)
    expect(events[at]!.body).toMatchObject({ trigger_id: triggerId, mark_price: '3545', order_price: '3899.5' })
    expect(events[fill]!.body).toMatchObject({
      taker: alice.address.toLowerCase(),
      maker: bob.address.toLowerCase(),
      price: '3560',
      qty: '1',
      taker_source_trigger_id: triggerId,
      taker_source_tx_hash: placed.tx_hash,
      maker_source_trigger_id: null,
    })
  })

  test("a promoted limit order rests; the fill against it carries the trigger id and the trigger's tx hash", async () => {
    const placed = accepted(
      await alice.send(
        placeTriggerOrder({
          market_id: ETH,
          side: 'Ask',
          qty: '0.5',
          trigger_price: '3520',
          trigger_direction: 'Below',
          order_type: 'limit',
          limit_price: '3555',
          reduce_only: true,
        }),
      ),
    )
    const triggerId = bodyAs(placed.events[0]!, 'TriggerPlaced').trigger_id
    await moveMark('3510')
    await until('the trigger to rest as an order', async () => ((await triggersOf(alice.address)).length === 0 ? true : undefined))
    const orders = (
      await rpc.query<{ order_id: number; price: string; reduce_only: boolean }[]>('getAccountOrders', {
        address: alice.address,
        market_id: ETH,
      })
    ).data
    expect(orders).toEqual([expect.objectContaining({ price: '3555', reduce_only: true })])

    const take = accepted(
      await carol.send(placeOrder({ market_id: ETH, side: 'Bid', price: '3555', qty: '0.5', tif: 'Ioc', reduce_only: false })),
    )
    const fill = take.events.find((e) => e.sub_kind === 'Filled')!
    expect(fill.body).toMatchObject({
      maker: alice.address.toLowerCase(),
      maker_order_id: orders[0]!.order_id,
      price: '3555',
      qty: '0.5',
      maker_source_trigger_id: triggerId,
      maker_source_tx_hash: placed.tx_hash,
      taker_source_trigger_id: null,
      taker_source_tx_hash: take.tx_hash,
    })
  })

  test('an OCO pair: placing shows both legs, cancelling it removes both', async () => {
    const pair = accepted(
      await alice.send(
        placeOcoPair({
          market_id: ETH,
          side: 'Ask',
          qty: '0.5',
          limit_price: '3900',
          stop: { trigger_price: '3300', trigger_direction: 'Below', order_type: 'market' },
          reduce_only: true,
          client_pair_id: 42,
        }),
      ),
    )
    expect(pair.events.map((e) => e.sub_kind)).toEqual(['OcoPlaced', 'TriggerPlaced', 'OrderAccepted', 'OrderResting'])
    expect(pair.events[0]!.body).toMatchObject({
      kind_label: 'oco_placed',
      client_pair_id: 42,
      limit_price: '3900',
      stop_trigger_price: '3300',
    })
    const pairs = (
      await rpc.query<{ pair_id: number; status: string; stop_trigger_id: number; limit_order_id: number }[]>('getOcoPairs', {
        address: alice.address,
      })
    ).data
    expect(pairs).toEqual([expect.objectContaining({ client_pair_id: 42, status: 'armed', qty: '0.5' })])
    expect((await triggersOf(alice.address)).map((t) => t.pair_id)).toEqual([pairs[0]!.pair_id])

    const leg = await alice.send(cancelTriggerOrder({ market_id: ETH, trigger_id: 999_999 }))
    expect(leg).toMatchObject({ status: 'kept-reject', reason: { code: 'TriggerNotFound' } })
    const cancelled = accepted(await alice.send(cancelOcoPair({ market_id: ETH, client_pair_id: 42 })))
    expect(cancelled.events.map((e) => [e.sub_kind, 'reason' in e.body ? e.body.reason : undefined])).toEqual([
      ['TriggerCancelled', 'ByOwner'],
      ['OrderDone', 'Cancelled'],
      ['OcoResolved', 'ManualCancel'],
    ])
    expect((await rpc.query<unknown[]>('getOcoPairs', { address: alice.address })).data).toEqual([])
    expect(await triggersOf(alice.address)).toEqual([])
  })

  test('the trigger kinds are in getActionsMeta for master or Trader agent', async () => {
    const meta = (
      await rpc.query<{ actions: { name: string; auth: string; role: string | null; master_only: boolean }[] }>('getActionsMeta')
    ).data
    const mine = meta.actions.filter((a) =>
      ['PlaceTriggerOrder', 'AmendTriggerOrder', 'CancelTriggerOrder', 'PlaceOcoPair', 'CancelOcoPair'].includes(a.name),
    )
    expect(mine.map((a) => [a.name, a.auth, a.role, a.master_only])).toEqual([
      ['PlaceTriggerOrder', 'master_or_agent_with_role', 'Trader', false],
      ['AmendTriggerOrder', 'master_or_agent_with_role', 'Trader', false],
      ['CancelTriggerOrder', 'master_or_agent_with_role', 'Trader', false],
      ['PlaceOcoPair', 'master_or_agent_with_role', 'Trader', false],
      ['CancelOcoPair', 'master_or_agent_with_role', 'Trader', false],
    ])
  })
})
