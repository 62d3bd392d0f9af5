// The Hyperliquid adapter against the local implementation of Hyperliquid's API
// (test/support/hyperliquid/): metadata, quotes, categories, orders by cloid, fills, positions
// and margin, and the venue's refusals (reused cloid, wrong network, nonces).
import { afterAll, describe, expect, test } from 'bun:test'
import { SEED_MAKER, startHyperliquidServer } from '../../../test/support/hyperliquid/server.ts'
import { addressOfPrivateKey } from '../../wire/signing.ts'
import { HyperliquidVenue } from './hyperliquid.ts'
import { CloidGenerator } from './hyperliquid-cloid.ts'
import { fixed } from './hyperliquid-numbers.ts'
import { orderAction, orderWire, signL1Action } from './hyperliquid-signing.ts'
import { createVenue } from './index.ts'
import type { VenueOrderRequest } from './venue.ts'

const TRADER = `0x${'11'.repeat(32)}`
const OTHER = `0x${'22'.repeat(32)}`
const NEVER_CREDITED = `0x${'33'.repeat(32)}`

const server = startHyperliquidServer({
  markets: [
    { coin: 'BTC', szDecimals: 5, maxLeverage: 40 },
    { coin: 'ETH', szDecimals: 4, maxLeverage: 25 },
    { coin: 'OLD', szDecimals: 2, isDelisted: true },
  ],
  dexes: [
    {
      name: 'xyz',
      fullName: 'XYZ',
      markets: [
        { coin: 'xyz:TSLA', szDecimals: 3 },
        { coin: 'xyz:GOLD', szDecimals: 4 },
        { coin: 'xyz:BTC', szDecimals: 5 },
        { coin: 'xyz:NEW', szDecimals: 1 },
      ],
    },
  ],
  categories: [
    ['xyz:TSLA', 'stocks'],
    ['xyz:GOLD', 'Commodities'],
  ],
})
afterAll(() => server.stop())
server.credit(addressOfPrivateKey(TRADER), '100000')
server.credit(addressOfPrivateKey(OTHER), '50')

const venue = createVenue({ kind: 'hyperliquid', network: 'testnet' }, { hlApiUrl: server.url })
const trader = venue.account(TRADER)
const cloids = new CloidGenerator()
const order = (o: Partial<VenueOrderRequest>): VenueOrderRequest => ({
  coin: 'BTC',
  is_buy: true,
  sz: '0.01',
  px: '50000',
  tif: 'Gtc',
  reduce_only: false,
  cloid: cloids.next(),
  ...o,
})
const exchangeRequests = () => server.requests.filter((r) => r.path === '/exchange').length

describe('metadata', () => {
  test('markets: main dex tradable unless delisted, builder-dex markets listed but not traded, first symbol wins', async () => {
    expect(venue.name).toBe('hyperliquid testnet')
    expect(await venue.markets()).toEqual([
      { coin: 'BTC', symbol: 'BTC-USD', size_decimals: 5, price_decimals: 1, tradable: true },
      { coin: 'ETH', symbol: 'ETH-USD', size_decimals: 4, price_decimals: 2, tradable: true },
      { coin: 'OLD', symbol: 'OLD-USD', size_decimals: 2, price_decimals: 4, tradable: false },
      { coin: 'xyz:TSLA', symbol: 'TSLA-USD', size_decimals: 3, price_decimals: 3, tradable: false },
      { coin: 'xyz:GOLD', symbol: 'GOLD-USD', size_decimals: 4, price_decimals: 2, tradable: false },
      { coin: 'xyz:NEW', symbol: 'NEW-USD', size_decimals: 1, price_decimals: 5, tradable: false },
    ])
  })

  test('categories: perpCategories where given, the rest of the main dex crypto, of a builder dex misc', async () => {
    expect(await venue.categories()).toEqual([
      { code: 'commodities', name: 'Commodities', parent_code: null, symbols: ['GOLD-USD'] },
      { code: 'crypto', name: 'Crypto', parent_code: null, symbols: ['BTC-USD', 'ETH-USD'] },
      { code: 'misc', name: 'Misc', parent_code: null, symbols: ['NEW-USD'] },
      { code: 'stocks', name: 'Stocks', parent_code: null, symbols: ['TSLA-USD'] },
    ])
  })

  test('quotes: best bid and ask from l2Book, mid from allMids, the time from the book; unknown symbols left out', async () => {
    server.seed('BTC', 'A', '50000', '0.1')
    server.seed('BTC', 'A', '50010', '0.2')
    server.seed('BTC', 'B', '49990', '0.3')
    server.seed('xyz:TSLA', 'B', '250.5', '10')
    server.seed('xyz:TSLA', 'A', '251.5', '10')
    const before = Date.now()
    const q = await venue.quotes(['BTC-USD', 'eth-usd', 'tsla-USD', 'NOPE-USD', 'OLD-USD'])
    expect([...q.keys()]).toEqual(['BTC-USD', 'eth-usd', 'tsla-USD'])
    expect(q.get('BTC-USD')).toMatchObject({ mid: '49995.0', best_bid: '49990.0', best_ask: '50000.0' })
    expect(q.get('BTC-USD')!.ts_ms).toBeGreaterThanOrEqual(before)
    expect(q.get('eth-usd')).toMatchObject({ mid: null, best_bid: null, best_ask: null })
    expect(q.get('tsla-USD')).toMatchObject({ mid: '251.0', best_bid: '250.5', best_ask: '251.5' })
  })
})

describe('trading by cloid', () => {
  const ioc = order({ tif: 'Ioc', sz: '0.15', px: '50009.6' })
  const resting = order({ sz: '0.01', px: '49000.55' })

  test('an IOC order fills against resting liquidity at the resting prices (price rounded to the venue tick)', async () => {
    const r = await trader.place(ioc)
    expect(r).toMatchObject({ status: 'filled', filled_sz: '0.15' })
    if (r.status !== 'filled') throw new Error('not filled')
    // 0.1 at 50000 and 0.05 at 50010 (the order's 50009.6 was sent as 50010).
    expect(Number(r.avg_px)).toBeCloseTo(50003.3333, 3)
    const sent = server.requests.at(-1)!.body as { action: { orders: { p: string; s: string; c: string }[] } }
    expect(sent.action.orders[0]).toMatchObject({ p: '50010', s: '0.15', c: ioc.cloid })
  })

  test('a GTC order below the ask rests and is listed among the open orders with its cloid', async () => {
    const r = await trader.place(resting)
    expect(r.status).toBe('resting')
    const open = await trader.openOrders()
    expect(open).toHaveLength(1)
    expect(open[0]).toMatchObject({ coin: 'BTC', cloid: resting.cloid, is_buy: true, sz: '0.01', px: '49001' })
    expect(open[0]!.ext_oid).toBe((r as { ext_oid: string }).ext_oid)
  })

  test('a reused cloid is refused by the venue, filled or resting', async () => {
    for (const again of [ioc, resting]) {
      const r = await trader.place({ ...again, px: '49000' })
      expect(r).toMatchObject({ status: 'rejected' })
      expect((r as { error: string }).error).toContain('Duplicate cloid')
    }
    expect(await trader.openOrders()).toHaveLength(1)
  })

  test('order status round trip by cloid: filled, open, then cancelled by cloid; unknown cloid is null', async () => {
    expect(await trader.orderStatusByCloid(ioc.cloid)).toMatchObject({
      cloid: ioc.cloid,
      coin: 'BTC',
      is_buy: true,
      status: 'filled',
      orig_sz: '0.15',
      filled_sz: '0.15',
      px: '50010',
    })
    expect(await trader.orderStatusByCloid(resting.cloid.toUpperCase().replace('0X', '0x'))).toMatchObject({
      status: 'open',
      orig_sz: '0.01',
      filled_sz: '0',
    })
    expect(await trader.cancelByCloid('BTC', resting.cloid)).toBe(true)
    expect(await trader.cancelByCloid('BTC', resting.cloid)).toBe(false)
    expect(await trader.orderStatusByCloid(resting.cloid)).toMatchObject({ status: 'cancelled', filled_sz: '0' })
    expect(await trader.openOrders()).toEqual([])
    expect(await trader.orderStatusByCloid(cloids.next())).toBeNull()
  })

  test('an IOC order with nothing to match is rejected, and its status says so', async () => {
    const o = order({ tif: 'Ioc', is_buy: false, px: '60000', sz: '0.01' })
    const r = await trader.place(o)
    expect(r).toMatchObject({ status: 'rejected' })
    expect((r as { error: string }).error).toContain('could not immediately match')
    expect(await trader.orderStatusByCloid(o.cloid)).toMatchObject({ status: 'rejected' })
  })

  test('a partially filled IOC order ends partially_filled', async () => {
    server.seed('ETH', 'A', '3000', '0.5')
    const o = order({ coin: 'ETH', tif: 'Ioc', sz: '0.8', px: '3001' })
    expect(await trader.place(o)).toMatchObject({ status: 'filled', filled_sz: '0.5', avg_px: '3000' })
    expect(await trader.orderStatusByCloid(o.cloid)).toMatchObject({ status: 'partially_filled', orig_sz: '0.8', filled_sz: '0.5' })
  })

  test('orders on delisted or builder-dex markets, or of a zero size, are refused without reaching the venue', async () => {
    const before = exchangeRequests()
    for (const o of [order({ coin: 'OLD' }), order({ coin: 'xyz:TSLA', px: '250' }), order({ coin: 'NOPE' }), order({ sz: '0.000001' })])
      expect(await trader.place(o)).toMatchObject({ status: 'rejected' })
    expect(exchangeRequests()).toBe(before)
    await expect(trader.place(order({ cloid: '0x1234' }))).rejects.toThrow('cloid must be 0x followed by 32 hex digits')
  })

  test('fills since a time, positions and margin', async () => {
    const fills = await trader.fillsSince(0)
    expect(fills.map((f) => [f.coin, f.cloid, f.is_buy, f.sz, f.px])).toEqual([
      ['BTC', ioc.cloid, true, '0.1', '50000'],
      ['BTC', ioc.cloid, true, '0.05', '50010'],
      ['ETH', expect.any(String), true, '0.5', '3000'],
    ])
    expect(fills.every((f) => fixed(f.fee, 'fee') > 0n)).toBe(true)
    expect(await trader.fillsSince(Date.now() + 60_000)).toEqual([])
    const positions = await trader.positions()
    expect(positions.map((p) => [p.coin, p.size])).toEqual([
      ['BTC', '0.15'],
      ['ETH', '0.5'],
    ])
    const margin = await trader.margin()
    // 100000 deposited, minus taker fees (0.045% of 9000.5 notional), plus unrealized PnL.
    const value = Number(margin.account_value)
    expect(value).toBeGreaterThan(99990)
    expect(value).toBeLessThan(100000)
    expect(Number(margin.withdrawable)).toBeLessThan(value)
    expect(Number(margin.withdrawable)).toBeGreaterThan(value - 9000.5 / 20 - 1)
  })

  test('a reduce-only order that would increase the position is rejected; one that reduces it fills', async () => {
    server.seed('BTC', 'B', '49995', '0.05')
    const up = await trader.place(order({ tif: 'Ioc', px: '50010', sz: '0.01', reduce_only: true }))
    expect((up as { error: string }).error).toContain('Reduce only order would increase position')
    expect(await trader.place(order({ tif: 'Ioc', is_buy: false, px: '49990', sz: '0.05', reduce_only: true }))).toMatchObject({
      status: 'filled',
      filled_sz: '0.05',
    })
    expect((await trader.positions()).find((p) => p.coin === 'BTC')?.size).toBe('0.1')
  })

  test('an account without the margin for an order is refused', async () => {
    const poor = venue.account(OTHER)
    const r = await poor.place(order({ sz: '0.1', px: '49000' }))
    expect((r as { error: string }).error).toContain('Insufficient margin')
    expect(await poor.margin()).toEqual({ account_value: '50', withdrawable: '50' })
    expect(await poor.positions()).toEqual([])
  })
})

describe('the venue checks who signed, and nonces', () => {
  test('a signature for the other network recovers another address, which does not exist on the venue', async () => {
    const mainnetVenue = new HyperliquidVenue({ network: 'mainnet', apiUrl: server.url })
    const r = await mainnetVenue.account(TRADER).place(order({}))
    expect(r).toMatchObject({ status: 'rejected' })
    expect((r as { error: string }).error).toMatch(/User or API Wallet 0x[0-9a-f]{40} does not exist/)
    const stranger = await venue.account(NEVER_CREDITED).place(order({}))
    expect((stranger as { error: string }).error).toContain(`User or API Wallet ${addressOfPrivateKey(NEVER_CREDITED)} does not exist`)
  })

  test('a repeated nonce, or one days old, is refused', async () => {
    const action = orderAction([orderWire({ asset: 0, isBuy: true, px: '40000', sz: '0.001', reduceOnly: false, tif: 'Gtc' })])
    const send = async (nonce: number) => {
      const res = await fetch(`${server.url}/exchange`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action, nonce, signature: signL1Action(TRADER, action, nonce, 'testnet'), vaultAddress: null }),
      })
      return (await res.json()) as { status: string; response: unknown }
    }
    const nonce = Date.now() + 1_000
    expect((await send(nonce)).status).toBe('ok')
    expect(await send(nonce)).toEqual({ status: 'err', response: `Invalid nonce: duplicate nonce ${nonce}` })
    expect((await send(Date.now() - 3 * 24 * 3600_000)).status).toBe('err')
  })

  test('malformed bodies are HTTP 422; the seeded maker is never the trader', async () => {
    const res = await fetch(`${server.url}/info`, {
      method: 'POST',
      body: '{"type":"nope"}',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(422)
    expect(SEED_MAKER).not.toBe(addressOfPrivateKey(TRADER))
  })
})
