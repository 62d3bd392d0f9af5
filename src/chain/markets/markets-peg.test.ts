// External-peg markets: taker orders fill against the fresh oracle quote with Book B as the
// counterparty, at most max_fills_per_quote per quote; the market stats of
// docs/markets.md#market-stats-getmarketstats.
import { describe, expect, test } from 'bun:test'
import { amend, haltMarket, moneySum, nextBlockMs, QUOTER, quote } from '../../../test/support/chain/markets.ts'
import { ADMIN, ALICE, BOB, checkInvariants, ev, place, runRows, TestChain, XAU } from '../../../test/support/chain/test-chain.ts'
import { BOOK_B_ADDRESS } from './external-peg.ts'
import { marketStats } from './market-stats.ts'

/** A dev chain with one accepted XAU quote: bid 2399, ask 2401, mark 2400. */
function quoted(): TestChain {
  const chain = new TestChain()
  chain.ok(QUOTER, quote(XAU, '2399', '2401', '2400', nextBlockMs(chain)))
  return chain
}

describe('external-peg orders', () => {
  test('fill at the quote against Book B; no fill when the limit does not reach it; nothing rests', () => {
    const chain = new TestChain()
    const before = moneySum(chain.state)
    runRows(chain, [
      { by: ALICE, action: place(XAU, 'Bid', '2402', '1', { tif: 'Ioc' }), expect: { reject: 'QuoteNotAvailable' } },
      { by: QUOTER, action: quote(XAU, '2399', '2401', '2400', nextBlockMs(chain) + 1_000), expect: ['OracleQuoteAccepted'] },
      {
        by: ALICE,
        action: place(XAU, 'Bid', '2402', '1', { tif: 'Ioc', cloid: 'peg-1' }),
        expect: [
          ev('OrderAccepted', { price_ticks: 240_200, qty_lots: 1_000 }),
          ev('Filled', {
            taker: ALICE,
            maker: BOOK_B_ADDRESS,
            maker_order_id: 0,
            price_ticks: 240_100,
            qty_lots: 1_000,
            notional: 2_401_000_000n,
            taker_fee: 720_300n,
            maker_fee: 0n,
            taker_size_after: 1_000,
            maker_size_after: -1_000,
          }),
          ev('OrderDone', { reason: 'Filled', filled_lots: 1_000, remaining_lots: 0, client_order_id: 'peg-1' }),
        ],
      },
      {
        by: BOB,
        action: place(XAU, 'Ask', '2399', '2'),
        expect: [
          'OrderAccepted',
          ev('Filled', { price_ticks: 239_900, qty_lots: 2_000, maker: BOOK_B_ADDRESS, maker_realized_pnl: 2_000_000n }),
          ev('OrderDone', { reason: 'Filled' }),
        ],
      },
      // Not reaching the quote: Ioc and Gtc end unfilled (nothing rests), Fok is refused, PostOnly never applies.
      {
        by: ALICE,
        action: place(XAU, 'Bid', '2400', '1', { tif: 'Ioc' }),
        expect: ['OrderAccepted', ev('OrderDone', { reason: 'IocExpired', filled_lots: 0, remaining_lots: 1_000 })],
      },
      {
        by: ALICE,
        action: place(XAU, 'Bid', '2400', '1'),
        expect: ['OrderAccepted', ev('OrderDone', { reason: 'IocExpired', filled_lots: 0 })],
      },
      { by: ALICE, action: place(XAU, 'Ask', '2400', '1', { tif: 'Fok' }), expect: { reject: 'FokRejected' } },
      { by: ALICE, action: place(XAU, 'Bid', '2300', '1', { tif: 'PostOnly' }), expect: { reject: 'PegMarketTakerOnly' } },
      { by: ALICE, action: place(XAU, 'Bid', '2402', '100000', { tif: 'Ioc' }), expect: { reject: 'InsufficientMargin' } },
      { by: ALICE, action: place(XAU, 'Bid', '2402', '0.0001', { tif: 'Ioc' }), expect: { reject: 'InvalidQuantity' } },
      // Reduce-only clamps to the position (Alice is long 1).
      {
        by: ALICE,
        action: place(XAU, 'Ask', '2000', '5', { reduceOnly: true, tif: 'Ioc' }),
        expect: [
          'OrderAccepted',
          ev('Filled', { qty_lots: 1_000, price_ticks: 239_900 }),
          ev('OrderDone', { reason: 'ReduceOnlyClamped', filled_lots: 1_000, remaining_lots: 4_000 }),
        ],
      },
      {
        by: ALICE,
        action: place(XAU, 'Ask', '2000', '1', { reduceOnly: true, tif: 'Ioc' }),
        expect: { reject: 'ReduceOnlyWouldOpenOrFlip' },
      },
    ])
    expect(chain.state.books.get(XAU)!.size).toBe(0)
    expect(chain.state.accounts.get(ALICE)!.positions.get(XAU)).toBeUndefined()
    expect(chain.state.accounts.get(BOB)!.positions.get(XAU)!.sizeLots).toBe(-2_000)
    expect(chain.state.accounts.get(BOOK_B_ADDRESS)!.positions.get(XAU)!.sizeLots).toBe(2_000)
    expect(moneySum(chain.state)).toBe(before)
    checkInvariants(chain.state)
  })

  test('at most max_fills_per_quote fills per quote; the next quote allows more', () => {
    const chain = quoted()
    chain.ok(ADMIN, amend(XAU, { max_fills_per_quote: 2 }))
    const buy = place(XAU, 'Bid', '2401', '0.1', { tif: 'Ioc' })
    runRows(chain, [
      { by: ALICE, action: buy, expect: ['OrderAccepted', 'Filled', 'OrderDone'] },
      { by: BOB, action: buy, expect: ['OrderAccepted', 'Filled', 'OrderDone'] },
      { by: ALICE, action: buy, expect: { reject: 'QuoteNotAvailable' } },
      { by: ADMIN, action: amend(XAU, { max_fills_per_quote: 0 }), expect: { reject: 'InvalidMaxFillsPerQuote' } },
    ])
    const next = chain.state.markets.get(XAU)!.oracle.latest!.sourceTsMs + 1_000
    chain.ok(QUOTER, quote(XAU, '2399', '2401', '2400', next))
    runRows(chain, [{ by: ALICE, action: buy, expect: ['OrderAccepted', 'Filled', 'OrderDone'] }])
    expect(chain.state.markets.get(XAU)!.oracle.fillsOnQuote).toBe(1)
  })

  test('a quote past max_quote_lag_ms is not available even before the end-of-block check halts the market', () => {
    const chain = quoted()
    const ts = chain.state.markets.get(XAU)!.oracle.latest!.sourceTsMs
    while (nextBlockMs(chain) - ts <= 10_000) chain.block([])
    expect(chain.state.markets.get(XAU)!.lifecycle).toBe('Active')
    runRows(chain, [{ by: ALICE, action: place(XAU, 'Bid', '2402', '1', { tif: 'Ioc' }), expect: { reject: 'QuoteNotAvailable' } }])
    expect(chain.state.markets.get(XAU)!.lifecycle).toBe('Halted')
  })

  test('an Admin-halted external-peg market takes quotes (its mark follows) but no orders', () => {
    const chain = quoted()
    chain.ok(ADMIN, haltMarket(XAU))
    chain.ok(QUOTER, quote(XAU, '2409', '2411', '2410', nextBlockMs(chain)))
    const m = chain.state.markets.get(XAU)!
    expect([m.lifecycle, m.markTicks]).toEqual(['Halted', 241_000])
    runRows(chain, [{ by: ALICE, action: place(XAU, 'Bid', '2412', '1', { tif: 'Ioc' }), expect: { reject: 'MarketNotTradable' } }])
  })
})

describe('market stats', () => {
  test("traders' long, short and net size, Book B's PnL, open interest", () => {
    const chain = quoted()
    chain.ok(ALICE, place(XAU, 'Bid', '2401', '1', { tif: 'Ioc' }))
    chain.ok(BOB, place(XAU, 'Ask', '2399', '2', { tif: 'Ioc' }))
    const m = chain.state.markets.get(XAU)!
    // Book B sold 1 at 2401 and bought 2 at 2399: realized 2 on the closed lot, long 1 at 2399,
    // worth 1 more at the mark 2400.
    expect(marketStats(chain.state, m)).toEqual({
      longLots: 1_000,
      shortLots: 2_000,
      netLots: -1_000,
      oracleCounterPnl: 3_000_000n,
      openInterestLots: 2_000,
      openInterestNotional: 4_800_000_000n,
    })
    // On a native market Book B holds nothing: both sides are the open interest.
    chain.ok(BOB, place(1, 'Ask', '65000', '0.5'))
    chain.ok(ALICE, place(1, 'Bid', '65000', '0.5', { tif: 'Ioc' }))
    expect(marketStats(chain.state, chain.state.markets.get(1)!)).toMatchObject({
      longLots: 5_000,
      shortLots: 5_000,
      netLots: 0,
      oracleCounterPnl: 0n,
      openInterestLots: 5_000,
    })
  })
})
