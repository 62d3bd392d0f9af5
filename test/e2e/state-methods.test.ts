// The read methods of state-methods.ts (signers, orders, positions, blocks, chain info), on a real node with real activity.
import { beforeAll, expect, test } from 'bun:test'
import { placeOrder, placeTriggerOrder, registerAgent, scheduleCancel, updateLeverage, withdrawRequest } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { type ActionReply, bodyAs } from '../../src/client/rpc-client.ts'
import { DEV_ADMIN } from '../../src/node/dev-genesis.ts'
import { startDevNodeForFile } from '../support/dev-node.ts'

const { node, rpc, client } = await startDevNodeForFile({ blockTimeMs: 40 })
const alice = client(1)
const bob = client(2)
let orderId = 0
let triggerId = 0
const agentKey = `0x${'17'.repeat(32)}`

beforeAll(async () => {
  const bid = await alice.send(placeOrder({ market_id: 1, side: 'Bid', price: '64000', qty: '0.5', tif: 'Gtc', reduce_only: false }))
  if (bid.status !== 'accepted') throw new Error(JSON.stringify(bid))
  orderId = bodyAs(bid.events[0]!, 'OrderAccepted').order_id
  await bob.send(placeOrder({ market_id: 1, side: 'Ask', price: '64000', qty: '0.1', tif: 'Ioc', reduce_only: false }))
  const trig = await alice.send(
    placeTriggerOrder({
      market_id: 1,
      side: 'Ask',
      qty: '0.1',
      trigger_price: '60000',
      trigger_direction: 'Below',
      order_type: 'market',
      reduce_only: true,
    }),
  )
  if (trig.status !== 'accepted') throw new Error(JSON.stringify(trig))
  triggerId = bodyAs(trig.events[0]!, 'TriggerPlaced').trigger_id
  await alice.send((nonce, network) =>
    registerAgent({
      network,
      agent: new PerpdClient({ url: node.url, privateKey: agentKey }).address,
      role: 'Trader',
      name: 'desk',
      nonce,
    }),
  )
  await bob.send((nonce, network) =>
    withdrawRequest({ network, destination: '0x000000000000000000000000000000000000dead', amount: '125.5', nonce }),
  )
})

const q = async <T>(method: string, params: Record<string, unknown> = {}) => (await rpc.query<T>(method, params)).data

function accepted(r: ActionReply) {
  if (r.status !== 'accepted') throw new Error(`expected accepted, got ${JSON.stringify(r)}`)
  return r
}

test('getNonce, getAgents, getRoles and getRoleHolders describe signers', async () => {
  const nonce = await q<{ nonce: number; window: number; used_above: number[] }>('getNonce', { address: alice.address })
  expect(nonce).toEqual({ address: alice.address, nonce: 3, window: 64, used_above: [] } as never)
  const agent = new PerpdClient({ url: node.url, privateKey: agentKey }).address
  expect(await q('getAgents', { address: alice.address })).toMatchObject({
    agent_of: null,
    agents: [{ address: agent, role: 'Trader', name: 'desk' }],
  })
  expect(await q('getAgents', { address: agent })).toMatchObject({ agent_of: { master: alice.address, role: 'Trader' }, agents: [] })
  expect((await q<{ accounts: string[] }>('getRoleHolders', { role: 'Admin' })).accounts).toEqual([DEV_ADMIN])
  expect(await q('getRoles', { address: DEV_ADMIN })).toMatchObject({ roles: expect.arrayContaining(['Admin', 'Trader']) })
  expect(await q('getRoles', { address: bob.address })).toMatchObject({ roles: ['Trader'] })
})

test('getOrder, getTrigger, getPositions and getPosition', async () => {
  expect(await q('getOrder', { order_id: orderId })).toMatchObject({
    order_id: orderId,
    owner: alice.address,
    remaining: '0.4',
    price: '64000',
  })
  expect(await q('getOrder', { order_id: 987654 })).toBeNull()
  expect(await q('getTrigger', { trigger_id: triggerId })).toMatchObject({ trigger_id: triggerId, trigger_price: '60000' })
  const positions = await q<{ market_id: number; size: string }[]>('getPositions', { address: alice.address })
  expect(positions).toEqual([expect.objectContaining({ market_id: 1, size: '0.1' })])
  expect(await q('getPosition', { address: bob.address, symbol: 'BTC' })).toMatchObject({ size: '-0.1' })
  expect(await q('getPosition', { address: bob.address, symbol: 'ETH-USD' })).toBeNull()
})

test('getFeeSchedule, getInsuranceFund, getPendingWithdrawals', async () => {
  const fees = await q<{ markets: { symbol: string; maker_fee_bps: number; taker_fee_bps: number }[] }>('getFeeSchedule', {
    symbol: 'BTC-USD',
  })
  expect(fees.markets).toEqual([expect.objectContaining({ symbol: 'BTC-USD', maker_fee_bps: 2, taker_fee_bps: 5 })])
  const fund = await q<{ address: string; balance: string }>('getInsuranceFund')
  expect(fund.address).toMatch(/^0x[0-9a-f]{40}$/)
  const pending = await rpc.query<{ account: string; amount: string }[]>('getPendingWithdrawals', { limit: 10 })
  expect(pending.data).toEqual([expect.objectContaining({ account: bob.address, amount: '125.5' })])
  expect(pending.page).toMatchObject({ has_more: false })
})

test('getBlocks pages newest first, getBlockEvents and getChainInfo', async () => {
  const page = await rpc.query<{ height: number }[]>('getBlocks', { limit: 3 })
  expect(page.data.map((b) => b.height)).toEqual([page.data[0]!.height, page.data[0]!.height - 1, page.data[0]!.height - 2])
  const older = await rpc.query<{ height: number }[]>('getBlocks', { limit: 3, before_height: page.data[2]!.height })
  expect(older.data[0]!.height).toBe(page.data[2]!.height - 1)
  const tx = await rpc.query<{ height: number }>('getTx', {
    tx_hash: (await alice.send(placeOrder({ market_id: 1, side: 'Bid', price: '63000', qty: '0.01', tif: 'Gtc', reduce_only: false })))
      .tx_hash,
  })
  const events = await q<{ sub_kind: string }[]>('getBlockEvents', { height: tx.data.height })
  expect(events.map((e) => e.sub_kind)).toContain('OrderResting')
  const info = await q<{ network: string; genesis_digest: string; height: number }>('getChainInfo')
  expect(info).toMatchObject({ network: 'dev', genesis_digest: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
})

// rpc checks every reply against the method's result schema: these reads reach the optional and
// nullable fields (expiry, client ids, margin settings, the dead man's switch, limit triggers).
test('getExchangeStats, getAccount, getAccountOrders, getOrder and getTrigger with every optional field', async () => {
  const carol = client(3)
  const expiresAtMs = Date.now() + 3_600_000
  accepted(await carol.send(updateLeverage({ market_id: 2, leverage: 10 })))
  accepted(await carol.send(scheduleCancel(expiresAtMs)))
  const placed = accepted(
    await carol.send(
      placeOrder({
        market_id: 2,
        side: 'Bid',
        price: '3000',
        qty: '0.5',
        tif: 'Gtc',
        reduce_only: false,
        client_order_id: 'carol-1',
        expires_at_ms: expiresAtMs,
      }),
    ),
  )
  const stop = accepted(
    await carol.send(
      placeTriggerOrder({
        market_id: 2,
        side: 'Bid',
        qty: '0.1',
        trigger_price: '4000',
        trigger_direction: 'Above',
        order_type: 'limit',
        limit_price: '4010',
        tif: 'Gtc',
        reduce_only: false,
        client_order_id: 'carol-stop',
        expires_at_ms: expiresAtMs,
      }),
    ),
  )

  expect(await q('getAccount', { address: carol.address })).toMatchObject({
    exists: true,
    open_orders: 1,
    margin_settings: { '2': { leverage: 10, margin_mode: 'Cross' } },
    dms_deadline_ms: expiresAtMs,
    positions: {},
  })
  expect(await q('getAccount', { address: alice.address })).toMatchObject({
    positions: { '1': { size: '0.1', margin_mode: 'Cross' } },
    agents: [{ name: 'desk', role: 'Trader' }],
  })
  expect(await q('getAccountOrders', { address: carol.address, symbol: 'ETH' })).toEqual([
    expect.objectContaining({ market_id: 2, client_order_id: 'carol-1', expires_at_ms: expiresAtMs, remaining: '0.5', filled: '0' }),
  ])
  const orderId = bodyAs(placed.events[0]!, 'OrderAccepted').order_id
  expect(await q('getOrder', { order_id: orderId })).toMatchObject({
    owner: carol.address,
    client_order_id: 'carol-1',
    expires_at_ms: expiresAtMs,
  })
  expect(await q('getTrigger', { trigger_id: bodyAs(stop.events[0]!, 'TriggerPlaced').trigger_id })).toMatchObject({
    order_type: 'limit',
    limit_price: '4010',
    client_order_id: 'carol-stop',
    expires_at_ms: expiresAtMs,
    pair_id: null,
  })
  expect(await q('getTrigger', { trigger_id: 987654 })).toBeNull()
  expect(await q('getTx', { tx_hash: `0x${'00'.repeat(32)}` })).toBeNull()

  const stats = await q<{ market_count: number; markets: { symbol: string; open_interest: string; open_orders: number }[] }>(
    'getExchangeStats',
  )
  expect(stats.market_count).toBe(4)
  expect(stats.markets.find((m) => m.symbol === 'BTC-USD')).toMatchObject({ lifecycle: 'Active', open_interest: '0.1' })
  expect(stats.markets.find((m) => m.symbol === 'ETH-USD')).toMatchObject({ open_orders: 1 })
})
