// The hedger with Hyperliquid as its venue (--venue hl:testnet --hl-api-url, docs/admin.md#hedging):
// our real dev node, the real admin service, and the local implementation of Hyperliquid's API
// (test/support/hyperliquid/; the real one is not reachable from here). Traders on our chain go
// net long XAU-USD; the hedger buys the same size of Hyperliquid's coin XAU with an Ioc at the
// seeded ask, signed with the hedge account's key, and records it filled; then the traders go
// net short and it sells.
import { afterAll, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { eciesEncrypt } from '../../src/wire/ecies.ts'
import { api, eventually, loginToken, removeAdminFiles, startAdmin } from '../support/admin-process.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { accepted } from '../support/dev-node.ts'
import { startHyperliquidServer } from '../support/hyperliquid/server.ts'
import { DEV_KEYS, removeDir, startNode } from '../support/node-process.ts'

const XAU = 4
const HEDGE_KEY = `0x${'47'.repeat(32)}` as Hex
const hedgeAddress = privateKeyToAccount(HEDGE_KEY).address.toLowerCase()

const hl = startHyperliquidServer({ markets: [{ coin: 'XAU', szDecimals: 3, maxLeverage: 20 }], network: 'testnet' })
hl.credit(hedgeAddress, '1000000')
hl.seed('XAU', 'A', '2500', '100')
hl.seed('XAU', 'B', '2300', '100')
const ours = await startNode({ devQuoter: true })
const ourRpc = new CheckedRpcClient(ours.url)
const admin = await startAdmin({ nodeUrl: ours.url, args: ['--venue', 'hl:testnet', '--hl-api-url', hl.url] })
const token = await loginToken(admin.url, DEV_KEYS[0] as Hex)
afterAll(async () => {
  await admin.stop()
  await ours.stop()
  hl.stop()
  removeAdminFiles(admin)
  removeDir(ours.dataDir)
})

const call = (path: string, init: { method?: string; body?: unknown } = {}) => api(admin.url, path, { ...init, token })
const hlPosition = async () => {
  const r = await fetch(`${hl.url}/info`, { method: 'POST', body: JSON.stringify({ type: 'clearinghouseState', user: hedgeAddress }) })
  const state = (await r.json()) as { assetPositions: { position: { coin: string; szi: string } }[] }
  return state.assetPositions.find((p) => p.position.coin === 'XAU')?.position.szi ?? '0'
}
async function trade(key: Hex, side: 'Bid' | 'Ask', qty: string) {
  const mark = Number((await ourRpc.query<{ mark_price: string }>('getMarket', { market_id: XAU })).data.mark_price)
  const price = (side === 'Bid' ? mark * 1.05 : mark * 0.95).toFixed(2)
  accepted(
    await new PerpdClient({ url: ours.url, privateKey: key }).send(
      placeOrder({ market_id: XAU, side, price, qty, tif: 'Ioc', reduce_only: false }),
    ),
  )
}

test('the hedger offsets Book B on Hyperliquid', async () => {
  const { public_key } = (await api(admin.url, '/api/keys/encryption-key')).body
  const added = await call('/api/hedge/accounts', {
    method: 'POST',
    body: { name: 'hl', ciphertext: eciesEncrypt(public_key, new TextEncoder().encode(HEDGE_KEY)) },
  })
  expect(added.status).toBe(200)
  expect(added.body.account.address).toBe(hedgeAddress)
  const hedgerKey = `0x${'48'.repeat(32)}` as Hex
  const up = await call('/api/keys', {
    method: 'POST',
    body: {
      label: 'hedger',
      address: privateKeyToAccount(hedgerKey).address,
      ...eciesEncrypt(public_key, new TextEncoder().encode(hedgerKey)),
    },
  })
  expect(up.status).toBe(201)
  expect(
    (await call('/api/hedge/config', { method: 'PUT', body: { interval_ms: 500, threshold_notional: '1', dry_run: false } })).status,
  ).toBe(200)
  expect(
    (
      await call('/api/hedge/policies', {
        method: 'PUT',
        body: { market_symbol: 'XAU-USD', hedge_ratio: '1', hedge_mode: 'follow', enabled: true },
      })
    ).status,
  ).toBe(200)
  expect(
    (await call('/api/service-config', { method: 'PUT', body: { service: 'hedger', key_id: up.body.id, enabled: true } })).status,
  ).toBe(200)
  // The margin comes from clearinghouseState.
  await eventually(async () => {
    const a = (await call('/api/hedge/accounts')).body.accounts[0]
    return a.margin?.account_value === '1000000' ? true : undefined
  })

  await trade(DEV_KEYS[4] as Hex, 'Bid', '1.5')
  const buy = await eventually(
    async () => (await call('/api/hedge/orders')).body.orders.find((o: { status: string }) => o.status === 'filled'),
    30_000,
    'the buy',
  )
  expect(buy).toMatchObject({ market_symbol: 'XAU-USD', coin: 'XAU', is_buy: true, sz: '1.5', filled_sz: '1.5', delta_before: '1.5' })
  expect(buy.ext_oid).toMatch(/^[0-9]+$/)
  expect(await hlPosition()).toBe('1.5')

  // Net short 0.5: target -0.5, delta -2: a sell of 2 at the seeded bid.
  await trade(DEV_KEYS[5] as Hex, 'Ask', '2')
  const sell = await eventually(
    async () =>
      (await call('/api/hedge/orders')).body.orders.find((o: { status: string; is_buy: boolean }) => o.status === 'filled' && !o.is_buy),
    30_000,
    'the sell',
  )
  expect(sell).toMatchObject({ coin: 'XAU', sz: '2', delta_before: '-2' })
  expect(await hlPosition()).toBe('-0.5')
  // Hyperliquid knows the order by its cloid.
  const status = await fetch(`${hl.url}/info`, {
    method: 'POST',
    body: JSON.stringify({ type: 'orderStatus', user: hedgeAddress, oid: sell.cloid }),
  })
  expect(((await status.json()) as { status: string; order: { status: string } }).order.status).toBe('filled')
}, 90_000)
