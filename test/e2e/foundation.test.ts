// End to end on a real node: two development accounts trade BTC-USD; fills move positions,
// balances and fees exactly; bad input gets clear errors; a restart returns the same state.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cancelOrder, placeOrder, registerAgent } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { bodyAs, type RpcClient } from '../../src/client/rpc-client.ts'
import { Signer } from '../../src/client/signer.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { accepted, getAccount, refusal } from '../support/dev-node.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode } from '../support/node-process.ts'

const BTC = 1
const STRANGER_KEY = '0x1b2c3d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccddeeff001'

let node: NodeProcess
let rpc: RpcClient
let alice: PerpdClient
let bob: PerpdClient
let admin: PerpdClient

beforeAll(async () => {
  node = await startNode({ blockTimeMs: 40 })
  rpc = new CheckedRpcClient(node.url)
  admin = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[0] })
  alice = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] })
  bob = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[2] })
})

afterAll(async () => {
  await node?.stop()
  removeDir(node.dataDir)
})

interface AccountData {
  nonce: number
  balance: string
  positions: Record<string, { size: string; entry_vwap: string; realized_pnl: string; unrealized_pnl: string }>
  open_orders: number
}
const account = (address: string) => getAccount<AccountData>(rpc, address)

async function rawAction(body: string) {
  const res = await fetch(`${node.url}/api/v1/action`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return {
    status: res.status,
    json: (await res.json()) as { error?: { code: number; message: string; data?: Record<string, unknown> }; result?: unknown },
  }
}

describe('trading on a real node', () => {
  test('a resting bid and a crossing IOC ask fill at the maker price with exact fees', async () => {
    const bid = accepted(
      await alice.send(
        placeOrder({ market_id: BTC, side: 'Bid', price: '65000', qty: '0.5', tif: 'Gtc', reduce_only: false, client_order_id: 'a-1' }),
      ),
    )
    expect(bid.events.map((e) => e.sub_kind)).toEqual(['OrderAccepted', 'OrderResting'])
    const orderId = bodyAs(bid.events[0]!, 'OrderAccepted').order_id

    const ask = accepted(
      await bob.send(placeOrder({ market_id: BTC, side: 'Ask', price: '64000', qty: '0.2', tif: 'Ioc', reduce_only: false })),
    )
    expect(ask.events.map((e) => e.sub_kind)).toEqual(['OrderAccepted', 'Filled', 'OrderDone'])
    const fill = ask.events[1]!.body
    expect(fill).toMatchObject({
      price: '65000',
      qty: '0.2',
      notional: '13000',
      maker_fee: '2.6',
      taker_fee: '6.5',
      maker_order_id: orderId,
      taker_side: 'Ask',
    })
    expect(ask.events[2]!.body).toMatchObject({ reason: 'Filled', remaining: '0' })

    const a = await account(alice.address)
    const b = await account(bob.address)
    expect(a.balance).toBe('999997.4')
    expect(b.balance).toBe('999993.5')
    expect(a.positions[String(BTC)]).toMatchObject({ size: '0.2', entry_vwap: '65000' })
    expect(b.positions[String(BTC)]).toMatchObject({ size: '-0.2', entry_vwap: '65000' })
    expect((await account(admin.address)).balance).toBe('1000009.1')

    const orders = (
      await rpc.query<{ order_id: number; remaining: string; client_order_id: string }[]>('getAccountOrders', { address: alice.address })
    ).data
    expect(orders).toEqual([expect.objectContaining({ order_id: orderId, remaining: '0.3', client_order_id: 'a-1' })])
    const book = (await rpc.query<{ bids: { price: string; qty: string }[]; asks: unknown[] }>('getOrderbook', { symbol: 'btc' })).data
    expect(book.bids).toEqual([{ price: '65000', qty: '0.3', cumulative_qty: '0.3', orders: 1 } as never])
    expect(book.asks).toEqual([])
  })

  test('closing both positions realizes PnL and conserves money', async () => {
    accepted(await bob.send(placeOrder({ market_id: BTC, side: 'Bid', price: '66000', qty: '0.2', tif: 'Gtc', reduce_only: true })))
    const close = accepted(
      await alice.send(placeOrder({ market_id: BTC, side: 'Ask', price: '66000', qty: '0.2', tif: 'Ioc', reduce_only: true })),
    )
    const fill = close.events.find((e) => e.sub_kind === 'Filled')!.body
    expect(fill).toMatchObject({
      price: '66000',
      taker_realized_pnl: '200',
      maker_realized_pnl: '-200',
      taker_fee: '6.6',
      maker_fee: '2.64',
    })
    const [a, b, adm] = await Promise.all([account(alice.address), account(bob.address), account(admin.address)])
    expect(a.balance).toBe('1000190.8')
    expect(b.balance).toBe('999790.86')
    expect(adm.balance).toBe('1000018.34')
    expect(a.positions).toEqual({})
    expect(b.positions).toEqual({})
    const total = [a, b, adm].reduce((sum, x) => sum + Math.round(Number(x.balance) * 100), 0)
    expect(total).toBe(300_000_000)
  })

  test('cancel by client_order_id, then an unknown order is a kept-reject that consumes its nonce', async () => {
    const cancelled = accepted(await alice.send(cancelOrder({ market_id: BTC, client_order_id: 'a-1' })))
    expect(cancelled.events[0]).toMatchObject({ sub_kind: 'OrderDone', body: { reason: 'Cancelled', remaining: '0.3' } })
    const before = (await account(alice.address)).nonce
    const missing = await alice.send(cancelOrder({ market_id: BTC, order_id: 999_999 }))
    expect(missing).toMatchObject({ status: 'kept-reject', reason: { code: 'OrderNotFound' } })
    expect((await account(alice.address)).nonce).toBe(before + 1)
  })

  test('an unknown market is a kept-reject MarketNotFound', async () => {
    const r = await alice.send(placeOrder({ market_id: 777, side: 'Bid', price: '1', qty: '1', tif: 'Gtc', reduce_only: false }))
    expect(r).toMatchObject({ status: 'kept-reject', reason: { code: 'MarketNotFound' } })
    const tx = (
      await rpc.query<{ status: string; reason: { code: string }; events: { sub_kind: string }[] }>('getTx', { tx_hash: r.tx_hash })
    ).data
    expect(tx).toMatchObject({ status: 'kept-reject', reason: { code: 'MarketNotFound' }, events: [{ sub_kind: 'Rejected' }] })
  })

  test('an order beyond the margin the balance allows is rejected InsufficientMargin', async () => {
    // 1,000,000 USD at 20x buys at most 20,000,000 USD of BTC: 400 BTC at 65,000 is 26,000,000.
    const r = await bob.send(placeOrder({ market_id: BTC, side: 'Bid', price: '65000', qty: '400', tif: 'Gtc', reduce_only: false }))
    expect(r).toMatchObject({ status: 'kept-reject', reason: { code: 'InsufficientMargin' } })
  })
})

describe('refusals at admission consume no nonce', () => {
  test('a replayed nonce gets NONCE_REPLAY', async () => {
    const signer = new Signer(DEV_KEYS[3])
    const nonce = (await account(signer.address)).nonce
    const signed = signer.sign(
      placeOrder({ market_id: BTC, side: 'Bid', price: '60000', qty: '0.01', tif: 'Gtc', reduce_only: false }),
      nonce,
      'dev',
    )
    expect((await rpc.action(signed.params)).status).toBe('accepted')
    const again = await refusal(rpc.action(signed.params))
    expect(again.reason).toBe('NONCE_REPLAY')
    expect(again.error.data).toMatchObject({ lowest_unused: nonce + 1, window: 64 })
    const far = signer.sign(cancelOrder({ market_id: BTC, order_id: 1 }), nonce + 1 + 64, 'dev')
    expect((await refusal(rpc.action(far.params))).reason).toBe('NONCE_REPLAY')
    expect((await account(signer.address)).nonce).toBe(nonce + 1)
  })

  test('nonces inside the window may arrive out of order, once each', async () => {
    const signer = new Signer(DEV_KEYS[4])
    const base = (await account(signer.address)).nonce
    const order = (n: number) =>
      signer.sign(
        placeOrder({ market_id: BTC, side: 'Bid', price: String(50000 + n), qty: '0.01', tif: 'Gtc', reduce_only: false }),
        n,
        'dev',
      )
    const replies = await Promise.all([base + 2, base, base + 1].map((n) => rpc.action(order(n).params)))
    expect(replies.map((r) => r.status)).toEqual(['accepted', 'accepted', 'accepted'])
    expect((await account(signer.address)).nonce).toBe(base + 3)
  })

  test('a signature from an unknown key names the recovered address', async () => {
    const stranger = new Signer(STRANGER_KEY)
    const signed = stranger.sign(
      placeOrder({ market_id: BTC, side: 'Bid', price: '65000', qty: '0.01', tif: 'Gtc', reduce_only: false }),
      0,
      'dev',
    )
    const err = await refusal(rpc.action(signed.params))
    expect(err.reason).toBe('UNKNOWN_SIGNER')
    expect(err.error.data?.recovered_address).toBe(stranger.address)
  })

  test('a signature for another network recovers to a stranger', async () => {
    const signed = new Signer(DEV_KEYS[1]).sign(cancelOrder({ market_id: BTC, order_id: 1 }), 60, 'mainnet')
    expect((await refusal(rpc.action(signed.params))).reason).toBe('UNKNOWN_SIGNER')
  })

  test('a high-s signature is refused', async () => {
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
    const signer = new Signer(DEV_KEYS[5])
    const good = signer.sign(cancelOrder({ market_id: BTC, order_id: 5 }), 0, 'dev')
    const s = BigInt(good.params.signature.s)
    const highS = {
      ...good.params,
      signature: { r: good.params.signature.r, s: `0x${(n - s).toString(16)}`, v: good.params.signature.v === 27 ? 28 : 27 },
    }
    expect((await refusal(rpc.action(highS))).reason).toBe('HIGH_S')
  })

  test('a price with too many decimals names the field', async () => {
    const err = await refusal(
      alice.send(placeOrder({ market_id: BTC, side: 'Bid', price: '65000.25', qty: '0.01', tif: 'Gtc', reduce_only: false })),
    )
    expect(err.error.code).toBe(-32602)
    expect(err.error.data?.field).toBe('params.action.PlaceOrder.price')
    expect(err.message).toContain('more than 1 decimal')
  })

  test('malformed and mistyped bodies get JSON-RPC errors', async () => {
    const parse = await rawAction('{"jsonrpc":"2.0",')
    expect(parse.status).toBe(200)
    expect(parse.json.error?.code).toBe(-32700)
    const batch = await rawAction('[]')
    expect(batch.json.error?.code).toBe(-32600)
    const wrongType = await rawAction(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'action',
        params: { action: { PlaceOrder: { market_id: '1' } }, nonce: 0, signature: { r: '0x1', s: '0x1', v: 27 } },
      }),
    )
    expect(wrongType.json.error).toMatchObject({ code: -32602, data: { field: 'params.action.PlaceOrder.market_id' } })
    const unknownKind = await rawAction(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'action',
        params: { action: { Teleport: {} }, nonce: 0, signature: { r: '0x1', s: '0x1', v: 27 } },
      }),
    )
    expect(unknownKind.json.error?.message).toContain('unknown action kind')
    const twoKinds = await rawAction(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'action',
        params: { action: { A: {}, B: {} }, nonce: 0, signature: { r: '0x1', s: '0x1', v: 27 } },
      }),
    )
    expect(twoKinds.json.error?.code).toBe(-32602)
    const negative = await rawAction(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'action',
        params: {
          action: { PlaceOrder: { market_id: 1, side: 'Bid', price: '-1', qty: '1', tif: 'Gtc', reduce_only: false } },
          nonce: 0,
          signature: { r: '0x1', s: '0x1', v: 27 },
        },
      }),
    )
    expect(negative.json.error).toMatchObject({ code: -32602, data: { field: 'params.action.PlaceOrder.price' } })
    const notRpc = await rawAction(JSON.stringify({ hello: 'world' }))
    expect(notRpc.json.error?.code).toBe(-32600)
    const oversized = await rawAction(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'action', params: { pad: 'x'.repeat(400_000) } }))
    expect(oversized.status).toBe(200)
    expect(oversized.json.error).toMatchObject({ code: -32600, data: { reason: 'REQUEST_TOO_LARGE' } })
  })
})

describe('agents', () => {
  test('a registered agent trades for its master with its own nonces', async () => {
    const agentKey = `0x${'42'.repeat(32)}`
    const agent = new PerpdClient({ url: node.url, privateKey: agentKey })
    const reg = accepted(
      await alice.send((nonce, network) => registerAgent({ network, agent: agent.address, role: 'Trader', name: 'bot-1', nonce })),
    )
    expect(reg.events[0]).toMatchObject({ sub_kind: 'AgentRegistered', body: { agent: agent.address, role: 'Trader' } })
    const placed = accepted(
      await agent.send(
        placeOrder({
          market_id: BTC,
          side: 'Bid',
          price: '61000',
          qty: '0.01',
          tif: 'Gtc',
          reduce_only: false,
          client_order_id: 'via-agent',
        }),
      ),
    )
    expect(placed.events[0]!.account).toBe(alice.address)
    const a = (await rpc.query<{ agents: { address: string }[] }>('getAccount', { address: alice.address })).data
    expect(a.agents).toEqual([{ address: agent.address, role: 'Trader', name: 'bot-1' } as never])
    expect((await account(agent.address)).nonce).toBe(1)
  })
})

describe('queries', () => {
  test('wrapper, unknown method, bad params and batch limits', async () => {
    const health = await rpc.query<{ status: string; height: number }>('getHealth')
    expect(health.data.status).toBe('ok')
    expect(health.stale).toBe(false)
    expect(health.height).toBe(health.chain_height)
    expect((await refusal(rpc.query('getNothing'))).error.code).toBe(-32601)
    const bad = await refusal(rpc.query('getAccount', { address: 'nope' }))
    expect(bad.error).toMatchObject({ code: -32602, data: { field: 'params.address' } })
    const twenty = await rpc.batch(Array.from({ length: 20 }, () => ({ method: 'getHealth' })))
    expect(twenty).toHaveLength(20)
    await expect(rpc.batch(Array.from({ length: 21 }, () => ({ method: 'getHealth' })))).rejects.toMatchObject({ error: { code: -32600 } })
    const meta = (
      await rpc.query<{ actions: { name: string; auth: string; role: string | null; master_only: boolean }[] }>('getActionsMeta')
    ).data
    expect(meta.actions.find((a) => a.name === 'RegisterAgent')).toMatchObject({
      auth: 'user_signed_master',
      role: null,
      master_only: true,
    })
    expect(meta.actions.find((a) => a.name === 'PlaceOrder')).toMatchObject({ auth: 'master_or_agent_with_role', role: 'Trader' })
  })

  test('health probes answer 200 with the height', async () => {
    for (const path of ['/api/v1/health', '/api/v1/health/live']) {
      const res = await fetch(node.url + path)
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ status: 'ok', store_dirty: false })
    }
  })
})

describe('restart', () => {
  test('a stopped node restarts into the same state_root, balances and open orders, and goes on', async () => {
    const addresses = [alice.address, bob.address, admin.address]
    const snapshot = async (url: string) => {
      const r = new CheckedRpcClient(url)
      const tip = await r.query<{ height: number; state_root: string }>('getBlock', {})
      const accounts = await Promise.all(addresses.map(async (address) => (await r.query('getAccount', { address })).data))
      const orders = await Promise.all(addresses.map(async (address) => (await r.query('getAccountOrders', { address })).data))
      const book = (await r.query('getOrderbook', { market_id: BTC })).data
      return { tip: tip.data, accounts, orders, book }
    }
    // Stop block production between the snapshot and the stop: a SIGTERM right after reading.
    const before = await snapshot(node.url)
    const code = await node.stop()
    expect(code).toBe(0)
    const stoppedAt = await new CheckedRpcClient('http://127.0.0.1:1').query('getHealth').catch(() => null) // nothing listens
    expect(stoppedAt).toBeNull()

    node = await startNode({ dataDir: node.dataDir, blockTimeMs: 40 })
    rpc = new CheckedRpcClient(node.url)
    const r = new CheckedRpcClient(node.url)
    const oldTip = (await r.query<{ state_root: string; height: number }>('getBlock', { height: before.tip.height })).data
    expect(oldTip.state_root).toBe(before.tip.state_root)
    // The stop wrote a snapshot at its last block: the restart restores it and replays nothing.
    const restoredAt = Number(/restored the state at height (\d+) from /.exec(node.output())?.[1])
    expect(restoredAt).toBeGreaterThanOrEqual(before.tip.height)
    expect(node.output()).not.toMatch(/replayed \d+ blocks/)
    const after = await snapshot(node.url)
    expect(after.accounts).toEqual(before.accounts)
    expect(after.orders).toEqual(before.orders)
    expect(after.book).toEqual({ ...(before.book as object), height: (after.book as { height: number }).height } as never)
    // The node goes on producing, and trading works after the restart with fresh nonces.
    await Bun.sleep(200)
    expect((await r.query('getHealth')).height).toBeGreaterThan(before.tip.height)
    const again = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] })
    expect(
      (await again.send(placeOrder({ market_id: BTC, side: 'Ask', price: '70000', qty: '0.01', tif: 'Gtc', reduce_only: false }))).status,
    ).toBe('accepted')
  })
})
