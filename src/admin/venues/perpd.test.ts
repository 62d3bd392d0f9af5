// The perpd venue adapter against a real perpd dev node (with its development quoter keeping
// XAU-USD, an external-peg market, quoted): markets, quotes, no categories, orders by cloid (placed,
// resting, looked up, cancelled), an Ioc that fills against Book B, fills, positions and margin.
import { describe, expect, test } from 'bun:test'
import { startDevNodeForFile } from '../../../test/support/dev-node.ts'
import { DEV_KEYS } from '../../../test/support/node-process.ts'
import { addressOfPrivateKey } from '../../wire/signing.ts'
import { createVenue } from './index.ts'
import { orderStatusOf, PerpdVenue } from './perpd.ts'

const dev = await startDevNodeForFile({ devQuoter: true })
const venue = new PerpdVenue(dev.node.url)
const KEY = DEV_KEYS[2]!
const cloid = (n: number) => `0x${n.toString(16).padStart(32, '0')}`

/** The XAU-USD quote once the dev quoter has posted one. */
async function xauQuote() {
  for (let i = 0; i < 100; i++) {
    const q = (await venue.quotes(['XAU-USD'])).get('XAU-USD')
    if (q?.best_ask != null) return q
    await Bun.sleep(100)
  }
  throw new Error('XAU-USD was never quoted')
}

describe('PerpdVenue', () => {
  test('the factory makes it from perpd:URL', () => {
    expect(createVenue({ kind: 'perpd', url: dev.node.url })).toBeInstanceOf(PerpdVenue)
    expect(venue.name).toBe(`perpd ${dev.node.url}`)
  })

  test('markets: every listed market, coin = symbol, with its decimals; no categories', async () => {
    await xauQuote() // XAU-USD is Halted until its first quote
    const markets = await venue.markets()
    expect(markets).toContainEqual({ coin: 'BTC-USD', symbol: 'BTC-USD', size_decimals: 4, price_decimals: 1, tradable: true })
    expect(markets).toContainEqual({ coin: 'XAU-USD', symbol: 'XAU-USD', size_decimals: 3, price_decimals: 2, tradable: true })
    expect(await venue.categories()).toEqual([])
  })

  test('quotes: best bid and ask with their mid; the mark when a side is empty; unknown symbols left out', async () => {
    const xau = await xauQuote()
    expect(Number(xau.mid)).toBeCloseTo((Number(xau.best_bid) + Number(xau.best_ask)) / 2, 6)
    const quotes = await venue.quotes(['BTC-USD', 'NOPE-USD'])
    expect(quotes.get('BTC-USD')).toMatchObject({ mid: '65000', best_bid: null, best_ask: null })
    expect(quotes.has('NOPE-USD')).toBe(false)
  })

  test('a Gtc rests, is found by cloid and among the open orders, and is cancelled by cloid once', async () => {
    const account = venue.account(KEY)
    expect(account.address).toBe(addressOfPrivateKey(Uint8Array.from(Buffer.from(KEY.slice(2), 'hex'))))
    const c = cloid(1)
    const placed = await account.place({ coin: 'BTC-USD', is_buy: true, sz: '0.01', px: '1000', tif: 'Gtc', reduce_only: false, cloid: c })
    expect(placed).toMatchObject({ status: 'resting' })
    const oid = (placed as { ext_oid: string }).ext_oid
    expect(await account.openOrders()).toContainEqual(
      expect.objectContaining({ coin: 'BTC-USD', ext_oid: oid, cloid: c, is_buy: true, sz: '0.01', px: '1000' }),
    )
    // A fresh account object (no memory of where the cloid went) finds it too.
    expect(await venue.account(KEY).orderStatusByCloid(c)).toMatchObject({
      status: 'open',
      ext_oid: oid,
      coin: 'BTC-USD',
      filled_sz: '0',
      orig_sz: '0.01',
    })
    expect(await account.cancelByCloid('BTC-USD', c)).toBe(true)
    expect(await account.cancelByCloid('BTC-USD', c)).toBe(false)
    expect(await account.orderStatusByCloid(c)).toMatchObject({ status: 'cancelled', ext_oid: oid, filled_sz: '0' })
    expect(await account.orderStatusByCloid(cloid(999))).toBeNull()
  })

  test('an Ioc fills against Book B; its fill, position and margin show; an Ioc that meets nothing and a refused one are rejected', async () => {
    const account = venue.account(KEY)
    const q = await xauQuote()
    const px = (Number(q.best_ask) * 1.02).toFixed(2)
    const c = cloid(2)
    const placed = await account.place({ coin: 'XAU-USD', is_buy: true, sz: '0.5', px, tif: 'Ioc', reduce_only: false, cloid: c })
    expect(placed).toMatchObject({ status: 'filled', filled_sz: '0.5' })
    expect(Number((placed as { avg_px: string }).avg_px)).toBeLessThanOrEqual(Number(px))
    expect(await venue.account(KEY).orderStatusByCloid(c)).toMatchObject({ status: 'filled', filled_sz: '0.5', coin: 'XAU-USD' })
    expect(await account.positions()).toContainEqual(expect.objectContaining({ coin: 'XAU-USD', size: '0.5' }))
    const margin = await account.margin()
    expect(Number(margin.account_value)).toBeGreaterThan(0)
    expect(Number(margin.withdrawable)).toBeGreaterThan(0)
    let fills: Awaited<ReturnType<typeof account.fillsSince>> = []
    for (let i = 0; i < 50 && fills.length === 0; i++) {
      fills = (await account.fillsSince(0)).filter((f) => f.cloid === c)
      if (fills.length === 0) await Bun.sleep(100)
    }
    expect(fills).toEqual([expect.objectContaining({ coin: 'XAU-USD', is_buy: true, sz: '0.5' })])
    // BTC-USD's book is empty: an Ioc fills nothing.
    expect(
      await account.place({ coin: 'BTC-USD', is_buy: true, sz: '0.01', px: '70000', tif: 'Ioc', reduce_only: false, cloid: cloid(3) }),
    ).toEqual({
      status: 'rejected',
      error: 'IocExpired: nothing filled',
    })
    // A price finer than the market's decimals is refused at admission: nothing was placed.
    const refused = await account.place({
      coin: 'BTC-USD',
      is_buy: true,
      sz: '0.01',
      px: '1000.55',
      tif: 'Gtc',
      reduce_only: false,
      cloid: cloid(4),
    })
    expect(refused.status).toBe('rejected')
    await expect(
      account.place({ coin: 'NOPE-USD', is_buy: true, sz: '1', px: '1', tif: 'Ioc', reduce_only: false, cloid: cloid(5) }),
    ).rejects.toThrow('lists no market NOPE-USD')
  })

  test('orderStatusOf: a close with part filled is partially_filled; unknown is null', () => {
    const closed = {
      status: 'closed',
      source: 'hot_cache',
      owner: '0x1',
      order_id: 7,
      market_id: 1,
      symbol: 'BTC-USD',
      side: null,
      price: null,
      qty: null,
      remaining: '0.3',
      filled: '0.2',
      tif: null,
      reduce_only: null,
      client_order_id: 'c',
      trigger_id: null,
      placed_height: null,
      close_reason: 'cancelled',
      closed_height: 9,
      closed_timestamp_ms: 1,
    } as const
    expect(orderStatusOf(closed as never, 'c')).toMatchObject({
      status: 'partially_filled',
      orig_sz: '0.5',
      filled_sz: '0.2',
      ext_oid: '7',
    })
    expect(orderStatusOf({ status: 'unknown', source: null, order_id: null } as never, 'c')).toBeNull()
  })
})
