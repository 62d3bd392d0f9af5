// The oracle with a venue as its price source (--price-source hl:testnet, --hl-api-url pointing at
// the local implementation of Hyperliquid's API): the real admin service reads the venue's book
// and mid and the quotes land on a real perpd dev node, following the venue's book as it moves.
import { afterAll, describe, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { grantRole } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { eciesEncrypt } from '../../src/wire/ecies.ts'
import { api, eventually, loginToken, removeAdminFiles, startAdmin } from '../support/admin-process.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { startHyperliquidServer } from '../support/hyperliquid/server.ts'
import { DEV_KEYS, removeDir, startNode } from '../support/node-process.ts'

const QUOTER = DEV_KEYS[6] as Hex
const addr = (k: Hex) => privateKeyToAccount(k).address.toLowerCase()

const node = await startNode()
const rpc = new CheckedRpcClient(node.url)
// XAU-USD (the dev network's external-peg market, 2 price decimals) is Hyperliquid's builder-dex coin xyz:XAU here.
const hl = startHyperliquidServer({
  markets: [{ coin: 'BTC', szDecimals: 5 }],
  dexes: [{ name: 'xyz', markets: [{ coin: 'xyz:XAU', szDecimals: 2 }] }],
})
hl.seed('xyz:XAU', 'B', '2400.1', '5')
hl.seed('xyz:XAU', 'A', '2400.5', '5')
const admin = await startAdmin({
  nodeUrl: node.url,
  args: ['--price-source', 'hl:testnet', '--hl-api-url', hl.url, '--oracle-interval-ms', '150', '--quote-refresh-ms', '1000'],
})
const token = await loginToken(admin.url, DEV_KEYS[0] as Hex)

afterAll(async () => {
  await admin.stop()
  await node.stop()
  hl.stop()
  removeAdminFiles(admin)
  removeDir(node.dataDir)
})

interface LatestQuote {
  bid_price: string
  ask_price: string
  mark_price: string
  source_ts_ms: number
}
const latestQuote = async (symbol: string) =>
  (await rpc.query<{ latest_quote: LatestQuote | null }>('getMarket', { symbol })).data.latest_quote

describe('oracle over a venue price source', () => {
  test('the venue’s best bid, best ask and mid become the quote on chain, and follow the venue’s book', async () => {
    const chainAdmin = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[0] })
    const granted = await chainAdmin.send(grantRole({ account: addr(QUOTER), role: 'Quoter' }))
    expect(granted.status === 'accepted' || (granted.status === 'kept-reject' && granted.reason.code === 'RoleAlreadyGranted')).toBe(true)
    const { public_key } = (await api(admin.url, '/api/keys/encryption-key')).body
    const uploaded = await api(admin.url, '/api/keys', {
      method: 'POST',
      token,
      body: { label: 'quoter', address: addr(QUOTER), ...eciesEncrypt(public_key, new TextEncoder().encode(QUOTER)) },
    })
    expect(uploaded.status).toBe(201)
    const before = Date.now()
    const bound = await api(admin.url, '/api/service-config', {
      method: 'PUT',
      token,
      body: { service: 'oracle', key_id: uploaded.body.id, enabled: true },
    })
    expect(bound.status).toBe(200)

    const first = await eventually(
      async () => {
        const q = await latestQuote('XAU-USD')
        return q !== null && q.source_ts_ms >= before ? q : undefined
      },
      20_000,
      'an XAU-USD quote from the venue',
    )
    expect(first).toMatchObject({ bid_price: '2400.1', ask_price: '2400.5', mark_price: '2400.3' })
    // The admin read the venue's book of the builder-dex coin and its dex's mids.
    const infoTypes = hl.requests.filter((r) => r.path === '/info').map((r) => r.body as { type: string; coin?: string; dex?: string })
    expect(infoTypes.some((b) => b.type === 'l2Book' && b.coin === 'xyz:XAU')).toBe(true)
    expect(infoTypes.some((b) => b.type === 'allMids' && b.dex === 'xyz')).toBe(true)

    // A better ask on the venue moves the quote: ask 2400.2, mid 2400.15.
    hl.seed('xyz:XAU', 'A', '2400.2', '1')
    const moved = await eventually(
      async () => {
        const q = await latestQuote('XAU-USD')
        return q?.ask_price === '2400.2' ? q : undefined
      },
      20_000,
      'the quote to follow the venue',
    )
    expect(moved).toMatchObject({ bid_price: '2400.1', ask_price: '2400.2', mark_price: '2400.15' })
    expect(moved.source_ts_ms).toBeGreaterThan(first.source_ts_ms)
    const status = (await api(admin.url, '/api/service-config', { token })).body.services.oracle
    expect(status.status).toMatchObject({ state: 'running', address: addr(QUOTER) })
  }, 60_000)
})
