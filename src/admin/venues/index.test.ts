// The venue factory and the oracle's price source over a venue (the local Hyperliquid of test/support).
import { afterAll, describe, expect, test } from 'bun:test'
import { startHyperliquidServer } from '../../../test/support/hyperliquid/server.ts'
import { priceSourceFor, VenuePriceSource } from '../runners/price-source.ts'
import { HyperliquidVenue } from './hyperliquid.ts'
import { createVenue, parseVenueSpec, venueSpecText } from './index.ts'
import { PerpdVenue } from './perpd.ts'

const server = startHyperliquidServer({
  markets: [
    { coin: 'BTC', szDecimals: 5 },
    { coin: 'ETH', szDecimals: 4 },
    { coin: 'SOL', szDecimals: 2 },
  ],
})
afterAll(() => server.stop())

describe('createVenue', () => {
  test('hl:mainnet and hl:testnet use Hyperliquid’s own API unless --hl-api-url says otherwise; perpd:URL a perpd node', () => {
    const main = createVenue({ kind: 'hyperliquid', network: 'mainnet' })
    expect(main).toBeInstanceOf(HyperliquidVenue)
    expect((main as HyperliquidVenue).apiUrl).toBe('https://api.hyperliquid.xyz')
    expect((createVenue({ kind: 'hyperliquid', network: 'testnet' }) as HyperliquidVenue).apiUrl).toBe(
      'https://api.hyperliquid-testnet.xyz',
    )
    const local = createVenue({ kind: 'hyperliquid', network: 'testnet' }, { hlApiUrl: `${server.url}/` })
    expect(local.name).toBe('hyperliquid testnet')
    expect((local as HyperliquidVenue).apiUrl).toBe(server.url)
    expect(createVenue({ kind: 'perpd', url: 'http://127.0.0.1:1' })).toBeInstanceOf(PerpdVenue)
  })

  test('specs read back as they are written', () => {
    for (const text of ['hl:mainnet', 'hl:testnet', 'perpd:http://127.0.0.1:8081']) {
      const parsed = parseVenueSpec(text)
      if (!parsed.ok) throw new Error(parsed.reason)
      expect(venueSpecText(parsed.spec)).toBe(text)
    }
    expect(parseVenueSpec('perpd:ftp://x')).toMatchObject({ ok: false })
    expect(parseVenueSpec('hl:')).toMatchObject({ ok: false })
  })
})

describe('VenuePriceSource', () => {
  test('bid and ask are the venue’s best, the mark its mid, dated by the venue; a one-sided book has no price', async () => {
    server.seed('BTC', 'B', '64999', '1')
    server.seed('BTC', 'A', '65001', '1')
    server.seed('ETH', 'B', '3000', '1')
    const source = priceSourceFor({ kind: 'venue', venue: { kind: 'hyperliquid', network: 'testnet' } }, (spec) =>
      createVenue(spec, { hlApiUrl: server.url }),
    )
    expect(source).toBeInstanceOf(VenuePriceSource)
    expect(source.name).toBe('venue hyperliquid testnet')
    const before = Date.now()
    const prices = await source.prices(['btc-usd', 'ETH-USD', 'SOL-USD', 'XAU-USD'], AbortSignal.timeout(10_000))
    expect([...prices.keys()]).toEqual(['btc-usd'])
    const btc = prices.get('btc-usd')!
    expect(btc).toMatchObject({ bid: '64999.0', ask: '65001.0', mark: '65000.0' })
    expect(btc.tsMs).toBeGreaterThanOrEqual(before)
  })
})
