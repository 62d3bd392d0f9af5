// CompleteDelist with open orders and positions: every order is cancelled and its margin released,
// every position settled at the mark with rounding against the account, the dust goes to the
// insurance fund, and the money sum is conserved exactly.
import { describe, expect, test } from 'bun:test'
import { activate, completeDelist, moneySum, nextBlockMs, QUOTER, quote, requestDelist } from '../../../test/support/chain/markets.ts'
import {
  ADMIN,
  ALICE,
  BOB,
  CAROL,
  checkInvariants,
  createMarket,
  DAVE,
  ev,
  place,
  runRows,
  TestChain,
  XAU,
} from '../../../test/support/chain/test-chain.ts'
import { trig } from '../../../test/support/chain/triggers.ts'
import { reservedMarginOf } from '../margin/reserved-margin.ts'
import { BOOK_B_ADDRESS } from './external-peg.ts'

describe('CompleteDelist', () => {
  test('a native market with resting orders and odd-sized positions: nothing is lost', () => {
    const chain = new TestChain()
    // 4 price and 4 size decimals: a notional is ticks x lots / 100, so settlements round.
    chain.ok(
      ADMIN,
      createMarket({ symbol: 'ODD-USD', price_decimals: 4, size_decimals: 4, mark_price: '1.2345', maintenance_margin_bps: 250 }),
    )
    const M = 5
    chain.ok(ADMIN, activate(M))
    chain.ok(BOB, place(M, 'Ask', '1.2345', '0.0001'))
    chain.ok(CAROL, place(M, 'Ask', '1.2345', '0.0002'))
    chain.ok(ALICE, place(M, 'Bid', '1.2345', '0.0003', { tif: 'Ioc' }))
    const resting = [
      chain.placeOk(DAVE, place(M, 'Bid', '1.2', '1')),
      chain.placeOk(ALICE, place(M, 'Ask', '1.3', '0.5')),
      chain.placeOk(BOB, place(M, 'Bid', '1.1', '2', { cloid: 'b-1' })),
    ]
    // A stop of Alice's long, waiting for the mark to fall: CompleteDelist cancels it first.
    chain.ok(ALICE, trig(M, 'Ask', '0.0003', '1', 'Below', { reduceOnly: true }))
    const market = chain.state.markets.get(M)!
    expect(market.markTicks).toBe(12_345)
    chain.ok(ADMIN, requestDelist(M))
    const before = moneySum(chain.state)
    const fund = chain.state.params.insuranceFund
    const balances = new Map([ALICE, BOB, CAROL, DAVE, fund].map((a) => [a, chain.balance(a)]))

    // Alice long 3 lots: floor(370.35) = 370; Bob short 1: ceil(123.45) = 124; Carol short 2:
    // ceil(246.9) = 247. Each paid 123 per lot (123.45 truncated) when trading.
    runRows(chain, [
      {
        by: ADMIN,
        action: completeDelist('ODD-USD'),
        expect: [
          ev('TriggerCancelled', { account: ALICE, reason: 'MarketDelisted' }),
          ...resting.map(() => ev('OrderDone', { reason: 'MarketDelisted' })),
          ev('DelistSettlement', { account: BOB, size_lots: -1, price_ticks: 12_345, realized_pnl: -1n }),
          ev('DelistSettlement', { account: CAROL, size_lots: -2, realized_pnl: -1n }),
          ev('DelistSettlement', { account: ALICE, size_lots: 3, realized_pnl: 1n }),
          ev('DelistCompleted', { orders_cancelled: 3, positions_settled: 3, settlement_dust: 1n, dust_recipient: fund }),
          ev('MarketLifecycleChanged', { from: 'DelistPending', to: 'Delisted' }),
        ],
      },
    ])
    expect(chain.balance(ALICE) - balances.get(ALICE)!).toBe(1n)
    expect(chain.balance(BOB) - balances.get(BOB)!).toBe(-1n)
    expect(chain.balance(CAROL) - balances.get(CAROL)!).toBe(-1n)
    expect(chain.balance(fund) - balances.get(fund)!).toBe(1n)
    expect(moneySum(chain.state)).toBe(before)
    for (const a of [ALICE, BOB, CAROL, DAVE]) {
      const account = chain.state.accounts.get(a)!
      expect(account.positions.has(M)).toBe(false)
      expect(reservedMarginOf(account)).toBe(0n)
      expect([...account.orders.values()].some((o) => o.marketId === M)).toBe(false)
    }
    expect(chain.state.books.get(M)!.size).toBe(0)
    expect(market.openInterestLots).toBe(0)
    expect(chain.state.positionHolders.get(M)?.size ?? 0).toBe(0)
    checkInvariants(chain.state)
    // Sealed: no more orders, and its symbol is free again.
    runRows(chain, [
      { by: ALICE, action: place(M, 'Bid', '1.2', '1'), expect: { reject: 'MarketNotTradable' } },
      { by: ADMIN, action: createMarket({ symbol: 'ODD-USD' }), expect: [ev('MarketCreated', { market_id: 6 })] },
    ])
  })

  test('an external-peg market: Book B is settled like any account and its PnL lands in the stats', () => {
    const chain = new TestChain()
    chain.ok(QUOTER, quote(XAU, '2399', '2401', '2400', nextBlockMs(chain)))
    chain.ok(ALICE, place(XAU, 'Bid', '2401', '2', { tif: 'Ioc' }))
    chain.ok(QUOTER, quote(XAU, '2419', '2421', '2420', nextBlockMs(chain)))
    chain.ok(ADMIN, requestDelist(XAU))
    const before = moneySum(chain.state)
    const out = chain.send(ADMIN, completeDelist(XAU))
    expect(out.events.map((e) => e.sub_kind)).toEqual(['DelistSettlement', 'DelistSettlement', 'DelistCompleted', 'MarketLifecycleChanged'])
    // Alice bought 2 at 2401 and is settled at the mark 2420: +38; Book B the other side: -38.
    expect(out.events[0]).toMatchObject({ account: ALICE, realized_pnl: 38_000_000n })
    expect(out.events[1]).toMatchObject({ account: BOOK_B_ADDRESS, realized_pnl: -38_000_000n })
    expect(chain.state.markets.get(XAU)!.oracle.counterRealizedPnl).toBe(-38_000_000n)
    expect(moneySum(chain.state)).toBe(before)
    checkInvariants(chain.state)
  })
})
