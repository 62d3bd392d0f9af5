// Start-up seeding of the hot feed from a real block store (test/support/history.ts IndexedChain):
// each market's trade ring takes that market's newest trades, so a busy market does not crowd a
// quiet one out (docs/websocket.md#design-decisions), and an external-peg market's latest quote is
// read back from the block that accepted it, last_price and volume included.
import { afterEach, describe, expect, test } from 'bun:test'
import { ALICE, BOB, BTC, ETH, place, XAU } from '../../test/support/chain/test-chain.ts'
import { IndexedChain } from '../../test/support/history.ts'
import { nodeFeedSource } from '../api/ws/node-feed-source.ts'
import { DEV_QUOTER } from '../node/dev-genesis.ts'
import { HotFeed } from './hot-feed.ts'

let chains: IndexedChain[] = []
afterEach(() => {
  for (const c of chains) c.close()
  chains = []
})

/** A block with `n` trades in a market: Alice rests asks, Bob takes each with an IOC bid. */
function trades(c: IndexedChain, market: number, n: number, price: (i: number) => string, qty: string): void {
  for (let i = 0; i < n; i++) {
    c.block([
      { by: ALICE, action: place(market, 'Ask', price(i), qty) },
      { by: BOB, action: place(market, 'Bid', price(i), qty, { tif: 'Ioc' }) },
    ])
  }
}

const seeded = (c: IndexedChain, tradeRingSize?: number) => {
  const feed = new HotFeed(nodeFeedSource({ state: c.chain.state, store: c.store }), {
    log: () => {},
    ...(tradeRingSize === undefined ? {} : { tradeRingSize }),
  })
  feed.seed()
  return feed
}

describe('hot feed seeding from the block store', () => {
  test('each market keeps its own newest trades: a quiet market older than a busy one still has its trades', () => {
    const c = new IndexedChain()
    chains.push(c)
    trades(c, ETH, 2, (i) => String(3_500 + i), '0.5')
    // 30 newer BTC trades: more than ring size x markets (5 x 4), which once crowded ETH out.
    trades(c, BTC, 30, (i) => String(65_000 + i), '0.01')
    const feed = seeded(c, 5)
    const eth = feed.market(ETH)!.trades.page(0, 100)
    expect(eth.map((t) => [t.price, t.qty])).toEqual([
      ['3501', '0.5'],
      ['3500', '0.5'],
    ])
    const btc = feed.market(BTC)!.trades.page(0, 100)
    expect(btc.map((t) => t.price)).toEqual(['65029', '65028', '65027', '65026', '65025'])
    // The default ring (10,000 per market) holds every trade, newest first.
    const all = seeded(c)
    expect(all.market(BTC)!.trades.page(0, 100)).toHaveLength(30)
    expect(
      all
        .market(ETH)!
        .trades.page(0, 100)
        .map((t) => t.price),
    ).toEqual(['3501', '3500'])
    expect(all.market(BTC)!.trades.page(0, 1)[0]).toMatchObject({
      symbol: 'BTC-USD',
      market_id: BTC,
      price: '65029',
      qty: '0.01',
      side: 'Bid',
    })
  })

  test('the latest accepted quote of an external-peg market is read back from its block', () => {
    const c = new IndexedChain()
    chains.push(c)
    const quote = (ts: number, bid: string) => ({
      by: DEV_QUOTER,
      action: {
        SubmitOracleQuote: {
          quotes: [
            {
              market_id: XAU,
              bid_price: bid,
              ask_price: '2400.5',
              mark_price: '2400.3',
              source_ts_ms: ts,
              last_price: '2400.2',
              volume: '7.5',
            },
          ],
        },
      },
    })
    expect(seeded(c).market(XAU)!.lastQuote).toBeNull()
    c.block([quote(c.chain.state.timestampMs + 1_000, '2400')])
    const ts = c.chain.state.timestampMs + 1_000
    c.block([quote(ts, '2400.1')])
    c.block([])
    expect(seeded(c).market(XAU)!.lastQuote).toEqual({
      bid_price: '2400.1',
      ask_price: '2400.5',
      mark_price: '2400.3',
      source_ts_ms: ts,
      quoter: DEV_QUOTER,
      last_price: '2400.2',
      volume: '7.5',
    })
    expect(seeded(c).market(BTC)!.lastQuote).toBeNull()
  })
})
