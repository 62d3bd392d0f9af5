// Hedging end to end (docs/admin.md#hedging) with two real perpd dev nodes, ours and a second one as
// the venue (--venue perpd:URL), and the real admin service: traders on our chain move Book B's net
// position in XAU-USD (an external-peg market: Book B is every taker's counterparty); the hedger
// places the offsetting Ioc on the venue node with the right side and size, rotating over two
// hedge accounts; dry_run records and sends nothing; a halted market is not hedged; a SIGKILL
// between recording an order and sending it does not hedge twice; a reconciliation fixes a record
// whose venue order was cancelled behind its back.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { HEDGE_RESPONSES } from '../../src/admin/hedge/schemas.ts'
import { cancelOrder, placeOrder, setEmergencyHalt } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { eciesEncrypt } from '../../src/wire/ecies.ts'
import { type AdminProcess, api, eventually, loginToken, removeAdminFiles, startAdmin } from '../support/admin-process.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { accepted } from '../support/dev-node.ts'
import { startLossyProxy } from '../support/lossy-proxy.ts'
import { DEV_KEYS, removeDir, startNode } from '../support/node-process.ts'

const XAU = 4
const BTC = 1
const ADMIN_KEY = DEV_KEYS[0] as Hex
const HEDGE_KEYS = [DEV_KEYS[1] as Hex, DEV_KEYS[2] as Hex]
const addr = (k: Hex) => privateKeyToAccount(k).address.toLowerCase()

const ours = await startNode({ devQuoter: true })
const venueNode = await startNode({ devQuoter: true })
const ourRpc = new CheckedRpcClient(ours.url)
const venueRpc = new CheckedRpcClient(venueNode.url)
// The admin service reaches the venue through a proxy that can lose replies (the order is placed, its answer never comes).
const proxy = startLossyProxy(venueNode.url)
const adminArgs = ['--venue', `perpd:${proxy.url}`]
let admin: AdminProcess = await startAdmin({ nodeUrl: ours.url, args: adminArgs })
let token = await loginToken(admin.url, ADMIN_KEY)

afterAll(async () => {
  await admin.stop('SIGKILL')
  proxy.stop()
  await Promise.all([ours.stop(), venueNode.stop()])
  removeAdminFiles(admin)
  removeDir(ours.dataDir)
  removeDir(venueNode.dataDir)
})

const call = (path: string, init: { method?: string; body?: unknown } = {}) => api(admin.url, path, { ...init, token })
const accountIds: string[] = []

/** The XAU-USD position size of an address on the venue node ('0' when flat). */
async function venuePosition(address: string): Promise<string> {
  const a = (await venueRpc.query<{ positions: Record<string, { size: string }> }>('getAccount', { address })).data
  return a.positions[String(XAU)]?.size ?? '0'
}

/** Our chain's traders' net XAU-USD size. */
const netSize = async () => (await ourRpc.query<{ net_size: string }>('getMarketStats', { market_id: XAU })).data.net_size

/** A taker order on our XAU-USD against Book B at the quote. */
async function trade(key: Hex, side: 'Bid' | 'Ask', qty: string): Promise<void> {
  const mark = Number((await ourRpc.query<{ mark_price: string }>('getMarket', { market_id: XAU })).data.mark_price)
  const price = (side === 'Bid' ? mark * 1.05 : mark * 0.95).toFixed(2)
  const r = accepted(
    await new PerpdClient({ url: ours.url, privateKey: key }).send(
      placeOrder({ market_id: XAU, side, price, qty, tif: 'Ioc', reduce_only: false }),
    ),
  )
  expect(r.events.some((e) => e.sub_kind === 'Filled')).toBe(true)
}

async function orders(query = ''): Promise<{ orders: any[]; total: number; limit: number; offset: number }> {
  const r = await call(`/api/hedge/orders${query}`)
  expect(r.status).toBe(200)
  return r.body
}

/** The hedger's status, for its cycle count. */
const hedgerStatus = async () => (await call('/api/service-config')).body.services.hedger.status

/** Waits until the hedger has run `n` more cycles. */
async function cycles(n: number): Promise<void> {
  const start = (await hedgerStatus()).cycles as number
  await eventually(async () => (((await hedgerStatus()).cycles as number) >= start + n ? true : undefined), 30_000, `${n} hedger cycles`)
}

async function encrypted(key: Hex) {
  const { public_key } = (await api(admin.url, '/api/keys/encryption-key')).body
  return eciesEncrypt(public_key, new TextEncoder().encode(key))
}

describe('hedging on a perpd venue', () => {
  test('setup: hedge accounts (default policies seeded), the hedger bound, config and policy', async () => {
    for (const [i, key] of HEDGE_KEYS.entries()) {
      const r = await call('/api/hedge/accounts', { method: 'POST', body: { name: `hedge ${i}`, ciphertext: await encrypted(key) } })
      expect(r.status).toBe(200)
      expect(r.body.ok).toBe(true)
      expect(r.body.account.address).toBe(addr(key))
      expect(r.body.account.margin).toBeNull()
      expect(JSON.stringify(r.body)).not.toContain(key.slice(2))
      // The first account seeds the default policy of every external-peg market (XAU-USD); the second finds it there.
      expect(r.body.seeded_policies).toEqual(i === 0 ? ['XAU-USD'] : [])
      accountIds.push(r.body.account.id)
    }
    const dup = await call('/api/hedge/accounts', { method: 'POST', body: { name: 'again', ciphertext: await encrypted(HEDGE_KEYS[0]!) } })
    expect(dup.status).toBe(400)
    expect(dup.body.reason).toBe('DUPLICATE_ADDRESS')
    const policies = (await call('/api/hedge/policies')).body.policies
    expect(policies).toEqual([
      expect.objectContaining({
        market_symbol: 'XAU-USD',
        hedge_ratio: '1',
        hedge_mode: 'follow',
        enabled: false,
        account_id: accountIds[0],
      }),
    ])
    // The hedger's binding: a key with no role on our chain (the hedger signs nothing there).
    const hedgerKey = generatePrivateKey()
    const { public_key } = (await api(admin.url, '/api/keys/encryption-key')).body
    const up = await call('/api/keys', {
      method: 'POST',
      body: { label: 'hedger', address: addr(hedgerKey), ...eciesEncrypt(public_key, new TextEncoder().encode(hedgerKey)) },
    })
    expect(up.status).toBe(201)
    expect(
      (
        await call('/api/hedge/config', {
          method: 'PUT',
          body: { interval_ms: 500, threshold_notional: '1', dry_run: true, max_slippage_bps: 100 },
        })
      ).status,
    ).toBe(200)
    expect((await call('/api/hedge/config')).body).toEqual(
      expect.objectContaining({
        interval_ms: 500,
        threshold_notional: '1',
        min_order_sz: '0',
        dry_run: true,
        max_slippage_bps: 100,
        ext_network: 'mainnet',
      }),
    )
    const bind = await call('/api/service-config', { method: 'PUT', body: { service: 'hedger', key_id: up.body.id, enabled: true } })
    expect(bind.status).toBe(200)
    await eventually(async () => ((await hedgerStatus()).state === 'running' ? true : undefined), 30_000, 'the hedger running')
    // Margins are read every cycle.
    await eventually(async () => {
      const list = (await call('/api/hedge/accounts')).body.accounts as { margin: { account_value: string } | null }[]
      return list.every((a) => a.margin !== null && Number(a.margin.account_value) > 0) ? true : undefined
    })
    expect(
      (
        await call('/api/hedge/policies', {
          method: 'PUT',
          body: { market_symbol: 'xau-usd', hedge_ratio: '1', hedge_mode: 'follow', enabled: true },
        })
      ).status,
    ).toBe(200)
  }, 90_000)

  test('dry_run records the offsetting order and sends nothing; one record for an unchanged order', async () => {
    expect(await netSize()).toBe('0')
    await trade(DEV_KEYS[4] as Hex, 'Bid', '2')
    expect(await netSize()).toBe('2')
    const record = await eventually(async () => (await orders()).orders.find((o) => o.status === 'dry_run'), 30_000, 'a dry_run record')
    expect(record).toEqual(
      expect.objectContaining({
        market_symbol: 'XAU-USD',
        coin: 'XAU-USD',
        is_buy: true,
        sz: '2',
        delta_before: '2',
        ext_oid: null,
        error: null,
      }),
    )
    expect(record.cloid).toMatch(/^0x[0-9a-f]{32}$/)
    await cycles(3)
    expect((await orders()).total).toBe(1)
    for (const key of HEDGE_KEYS) expect(await venuePosition(addr(key))).toBe('0')
    const status = await venueRpc.query<{ status: string }>('getOrderStatus', {
      address: addr(HEDGE_KEYS[0]!),
      market_id: XAU,
      client_order_id: record.cloid,
    })
    expect(status.data.status).toBe('unknown')
  }, 90_000)

  test('live: the offsetting buy on the venue, then a sell through the other account', async () => {
    const dryRunAccount = (await orders()).orders[0].account_id
    expect((await call('/api/hedge/config', { method: 'PUT', body: { dry_run: false } })).status).toBe(200)
    const buy = await eventually(async () => (await orders()).orders.find((o) => o.status === 'filled'), 30_000, 'a filled hedge')
    expect(buy).toEqual(expect.objectContaining({ is_buy: true, sz: '2', filled_sz: '2', delta_before: '2' }))
    // Rotation: the dry-run record used one account, the live order the other.
    expect(buy.account_id).not.toBe(dryRunAccount)
    const buyer = HEDGE_KEYS[accountIds.indexOf(buy.account_id)]!
    const other = HEDGE_KEYS[1 - accountIds.indexOf(buy.account_id)]!
    expect(await venuePosition(addr(buyer))).toBe('2')
    expect(await venuePosition(addr(other))).toBe('0')
    const onVenue = await venueRpc.query<{ status: string; filled: string; close_reason: string }>('getOrderStatus', {
      address: addr(buyer),
      market_id: XAU,
      client_order_id: buy.cloid,
    })
    expect(onVenue.data).toEqual(expect.objectContaining({ status: 'closed', filled: '2', close_reason: 'filled' }))
    await cycles(3)
    expect((await orders('?symbol=XAU-USD')).orders.filter((o) => o.status === 'filled').length).toBe(1)

    // Traders turn net short 1: target -1, delta -3: a sell of 3 through the other account.
    await trade(DEV_KEYS[5] as Hex, 'Ask', '3')
    expect(await netSize()).toBe('-1')
    const sell = await eventually(
      async () => (await orders()).orders.find((o) => o.status === 'filled' && !o.is_buy),
      30_000,
      'a filled sell',
    )
    expect(sell).toEqual(expect.objectContaining({ sz: '3', delta_before: '-3', account_id: accountIds[HEDGE_KEYS.indexOf(other)] }))
    expect(await venuePosition(addr(other))).toBe('-3')
    expect(await venuePosition(addr(buyer))).toBe('2')
    const page = await orders(`?account_id=${sell.account_id}&limit=1`)
    expect(page.orders.map((o) => o.id)).toEqual([sell.id])
    expect(page.limit).toBe(1)
  }, 90_000)

  test('a market halted on our chain is not hedged', async () => {
    const chainAdmin = new PerpdClient({ url: ours.url, privateKey: ADMIN_KEY })
    accepted(await chainAdmin.send(setEmergencyHalt({ market_id: XAU, halted: true })))
    const before = (await orders()).total
    // Ratio 2: target -2, delta -1 — but the market is halted.
    expect(
      (
        await call('/api/hedge/policies', {
          method: 'PUT',
          body: { market_symbol: 'XAU-USD', hedge_ratio: '2', hedge_mode: 'follow', enabled: true },
        })
      ).status,
    ).toBe(200)
    await cycles(4)
    expect((await orders()).total).toBe(before)
    expect((await hedgerStatus()).detail.last_cycle.skipped['XAU-USD']).toContain('emergency halt')
    // A status read while a cycle waits for the venue's quotes shows the last finished cycle, not
    // the waiting one's summary with its skipped markets still to be filled in.
    const held = proxy.holdReplies('getAllBBOs')
    await held.reached
    expect((await hedgerStatus()).detail.last_cycle.skipped['XAU-USD']).toContain('emergency halt')
    held.release()
    accepted(await chainAdmin.send(setEmergencyHalt({ market_id: XAU, halted: false })))
    const sell = await eventually(
      async () => (await orders()).orders.find((o) => o.status === 'filled' && o.sz === '1'),
      30_000,
      'the hedge after the halt',
    )
    expect(sell.is_buy).toBe(false)
    const total = Number(await venuePosition(addr(HEDGE_KEYS[0]!))) + Number(await venuePosition(addr(HEDGE_KEYS[1]!)))
    expect(total).toBe(-2)
  }, 90_000)

  test('a lost reply leaves the record unknown; it is resolved by cloid and the order is not sent again', async () => {
    const before = (await orders()).orders[0].id as number
    proxy.loseReplies('PlaceOrder', 1)
    // Ratio 2.5: target -2.5, delta -0.5; the venue fills the order but its reply is lost.
    expect(
      (
        await call('/api/hedge/policies', {
          method: 'PUT',
          body: { market_symbol: 'XAU-USD', hedge_ratio: '2.5', hedge_mode: 'follow', enabled: true },
        })
      ).status,
    ).toBe(200)
    const settled = await eventually(
      async () => (await orders()).orders.find((o) => o.id > before && o.status === 'filled'),
      30_000,
      'the lost order resolved by cloid',
    )
    expect(proxy.lost).toBe(1)
    expect(settled).toMatchObject({ is_buy: false, sz: '0.5', filled_sz: '0.5' })
    expect(settled.error).toContain('no reply')
    await cycles(3)
    expect((await orders()).orders.filter((o) => o.id > before).map((o) => o.id)).toEqual([settled.id])
    const total = Number(await venuePosition(addr(HEDGE_KEYS[0]!))) + Number(await venuePosition(addr(HEDGE_KEYS[1]!)))
    expect(total).toBe(-2.5)
  }, 90_000)

  test('a SIGKILL between recording and sending does not hedge twice', async () => {
    await admin.stop('SIGTERM')
    admin = await startAdmin({
      nodeUrl: ours.url,
      dataDir: admin.dataDir,
      args: adminArgs,
      env: { PERPD_ADMIN_TEST_HEDGE_PAUSE_MS: '120000' },
    })
    token = await loginToken(admin.url, ADMIN_KEY)
    // Ratio 3: target -3, delta -0.5. The hedger records the order and pauses before sending it.
    expect(
      (
        await call('/api/hedge/policies', {
          method: 'PUT',
          body: { market_symbol: 'XAU-USD', hedge_ratio: '3', hedge_mode: 'follow', enabled: true },
        })
      ).status,
    ).toBe(200)
    const pending = await eventually(async () => (await orders()).orders.find((o) => o.status === 'pending'), 30_000, 'a pending record')
    await admin.stop('SIGKILL')
    admin = await startAdmin({ nodeUrl: ours.url, dataDir: admin.dataDir, args: adminArgs })
    token = await loginToken(admin.url, ADMIN_KEY)
    const failed = await eventually(
      async () => (await orders()).orders.find((o) => o.id === pending.id && o.status === 'failed'),
      30_000,
      'the pending record failed',
    )
    expect(failed.error).toContain('never sent')
    const redo = await eventually(
      async () => (await orders()).orders.find((o) => o.id > pending.id && o.status === 'filled'),
      30_000,
      'the order placed again',
    )
    expect(redo).toEqual(expect.objectContaining({ is_buy: false, sz: '0.5' }))
    expect(redo.cloid).not.toBe(pending.cloid)
    await cycles(3)
    const total = Number(await venuePosition(addr(HEDGE_KEYS[0]!))) + Number(await venuePosition(addr(HEDGE_KEYS[1]!)))
    expect(total).toBe(-3)
    // The venue never saw the first cloid.
    for (const key of HEDGE_KEYS) {
      const s = await venueRpc.query<{ status: string }>('getOrderStatus', {
        address: addr(key),
        market_id: XAU,
        client_order_id: pending.cloid,
      })
      expect(s.data.status).toBe('unknown')
    }
    expect((await orders('?limit=500')).orders.filter((o) => o.status === 'pending' || o.status === 'sent')).toEqual([])
  }, 120_000)

  test('reconcile fixes a record whose venue order was cancelled behind its back, and reports an unknown one', async () => {
    // The hedger stops, so only the reconciliation settles the record.
    const hedgerKeyId = (await call('/api/service-config')).body.services.hedger.key_id
    expect(
      (await call('/api/service-config', { method: 'PUT', body: { service: 'hedger', key_id: hedgerKeyId, enabled: false } })).status,
    ).toBe(200)
    const accountIndex = 0
    const venueClient = new PerpdClient({ url: venueNode.url, privateKey: HEDGE_KEYS[accountIndex]! })
    const cloid = `0x${'ab'.repeat(16)}`
    // A resting order as the hedger's record says (BTC-USD is native on the venue: it rests).
    const placed = accepted(
      await venueClient.send(
        placeOrder({ market_id: BTC, side: 'Bid', price: '1000', qty: '0.01', tif: 'Gtc', reduce_only: false, client_order_id: cloid }),
      ),
    )
    const oid = placed.events.find((e) => e.sub_kind === 'OrderAccepted')!.body.order_id as number
    const db = new Database(admin.dbFile)
    const now = Date.now()
    const id = (
      db
        .query(
          `INSERT INTO hedge_orders (account_id, market_symbol, coin, is_buy, sz, px, delta_before, ext_oid, cloid, status, created_at_ms, updated_at_ms)
           VALUES (?, 'BTC-USD', 'BTC-USD', 1, '0.01', '1000', '0.01', ?, ?, 'open', ?, ?) RETURNING id`,
        )
        .get(accountIds[accountIndex]!, String(oid), cloid, now, now) as { id: number }
    ).id
    db.close()
    // An order of the same account the records do not know.
    accepted(
      await venueClient.send(
        placeOrder({
          market_id: BTC,
          side: 'Bid',
          price: '1001',
          qty: '0.01',
          tif: 'Gtc',
          reduce_only: false,
          client_order_id: 'manual-1',
        }),
      ),
    )
    // Behind the service's back.
    accepted(await venueClient.send(cancelOrder({ market_id: BTC, client_order_id: cloid })))
    const r = await call('/api/hedge/orders/reconcile', { method: 'POST' })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ ok: true, triggered: true })
    const fixed = await eventually(
      async () => (await orders()).orders.find((o) => o.id === id && o.status === 'cancelled'),
      30_000,
      'the record cancelled',
    )
    expect(fixed).toEqual(expect.objectContaining({ ext_oid: String(oid), filled_sz: '0', error: 'cancelled on the venue' }))
    const audit = await eventually(async () => {
      const entries = (await call('/api/audit?limit=20')).body.entries as { action: string; detail: any }[]
      return entries.find((e) => e.action === 'hedge.reconcile')
    })
    expect(audit.detail.resolved).toEqual([{ id, from: 'open', to: 'cancelled' }])
    expect(audit.detail.unknown_open_orders).toEqual([
      expect.objectContaining({ cloid: 'manual-1', coin: 'BTC-USD', account_id: accountIds[accountIndex] }),
    ])
  }, 90_000)

  test('the routes answer in their documented shapes; Book B stats; accounts change and go; a policy is deleted once', async () => {
    const documented = async (method: string, path: string) => {
      const r = await call(path, { method })
      expect(r.status).toBe(200)
      const errors = [...Value.Errors(HEDGE_RESPONSES[`${method} ${path.split('?')[0]}`]!.ok, r.body)].map((e) => `${e.path}: ${e.message}`)
      expect(errors).toEqual([])
      return r.body
    }
    for (const path of ['/api/hedge/accounts', '/api/hedge/policies', '/api/hedge/config', '/api/hedge/orders?limit=500'])
      await documented('GET', path)
    const stats = await documented('GET', '/api/hedge/book-b-stats')
    const xau = stats.markets.find((m: { symbol: string }) => m.symbol === 'XAU-USD')
    expect(xau).toMatchObject({ market_id: XAU, lifecycle: 'Active', emergency_halt: false, detail_error: null })
    expect(xau.stats.net_size).toBe(await netSize())
    expect(xau.stats).toMatchObject({ long_size: '2', short_size: '3', net_size: '-1' })
    expect(stats.markets.find((m: { symbol: string }) => m.symbol === 'BTC-USD').stats.net_size).toBe('0')
    expect(stats.totals).toEqual({ markets_with_stats: stats.markets.length, markets_failed: 0 })

    // /metrics counts the records by status.
    const all = (await orders('?limit=500')).orders
    const metrics = await (await fetch(`${admin.url}/metrics`)).text()
    for (const status of ['filled', 'failed', 'dry_run', 'cancelled', 'pending']) {
      const line = metrics.split('\n').find((l) => l.startsWith(`perpd_admin_hedge_orders{status="${status}"} `))
      expect(`${status} ${Number(line?.split(' ')[1])}`).toBe(`${status} ${all.filter((o) => o.status === status).length}`)
    }

    const [first, second] = accountIds as [string, string]
    expect((await call(`/api/hedge/accounts/${first}`, { method: 'PUT', body: { name: 'renamed', enabled: false } })).status).toBe(200)
    expect((await call('/api/hedge/accounts')).body.accounts.find((a: { id: string }) => a.id === first)).toMatchObject({
      name: 'renamed',
      enabled: false,
    })
    expect((await call(`/api/hedge/accounts/${first}`, { method: 'PUT', body: {} })).body.reason).toBe('INVALID_REQUEST')
    const missing = await call(`/api/hedge/accounts/${crypto.randomUUID()}`, { method: 'PUT', body: { enabled: true } })
    expect([missing.status, missing.body.reason]).toEqual([404, 'HEDGE_ACCOUNT_NOT_FOUND'])
    const bad = await call('/api/hedge/policies', {
      method: 'PUT',
      body: { market_symbol: 'XAU-USD', hedge_ratio: '1', hedge_mode: 'sideways', enabled: true },
    })
    expect([bad.status, bad.body.reason]).toEqual([400, 'INVALID_REQUEST'])
    expect(bad.body.error).toContain('hedge_mode')

    expect(await call('/api/hedge/policies/xau-usd', { method: 'DELETE' })).toMatchObject({ status: 200, body: { ok: true } })
    expect(await call('/api/hedge/policies/XAU-USD', { method: 'DELETE' })).toMatchObject({
      status: 404,
      body: { reason: 'POLICY_NOT_FOUND' },
    })

    // An account with an order in flight is kept until it settles.
    const db = new Database(admin.dbFile)
    const now = Date.now()
    db.query(
      `INSERT INTO hedge_orders (account_id, market_symbol, coin, is_buy, sz, px, delta_before, cloid, status, created_at_ms, updated_at_ms)
       VALUES (?, 'XAU-USD', 'XAU-USD', 1, '1', '1', '1', ?, 'sent', ?, ?)`,
    ).run(second, `0x${'cd'.repeat(16)}`, now, now)
    db.close()
    expect(await call(`/api/hedge/accounts/${second}`, { method: 'DELETE' })).toMatchObject({
      status: 409,
      body: { reason: 'ORDERS_IN_FLIGHT' },
    })
    const filledByFirst = (await orders(`?account_id=${first}`)).total
    expect(filledByFirst).toBeGreaterThan(0)
    expect(await call(`/api/hedge/accounts/${first}`, { method: 'DELETE' })).toMatchObject({ status: 200, body: { ok: true } })
    expect(await call(`/api/hedge/accounts/${first}`, { method: 'DELETE' })).toMatchObject({
      status: 404,
      body: { reason: 'HEDGE_ACCOUNT_NOT_FOUND' },
    })
    // Its records stay.
    expect((await orders(`?account_id=${first}`)).total).toBe(filledByFirst)
    const actions = ((await call('/api/audit?limit=100')).body.entries as { action: string }[]).map((e) => e.action)
    for (const a of [
      'hedge.account.create',
      'hedge.account.update',
      'hedge.account.delete',
      'hedge.policy.upsert',
      'hedge.policy.delete',
      'hedge.config.update',
    ])
      expect(actions).toContain(a)
    const text = JSON.stringify((await call('/api/audit?limit=500')).body)
    for (const key of HEDGE_KEYS) expect(text).not.toContain(key.slice(2))
  }, 60_000)
})
