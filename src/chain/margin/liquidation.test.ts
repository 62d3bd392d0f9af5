// LiquidatePosition with exact numbers: Isolated and Cross positions closed at the mark against the
// insurance fund (the dev admin), the penalty and the liquidator's share, bad debt absorbed by the
// fund, the liquidation price boundary, the liquidatable scan, every reject, and the end-of-block
// bad-debt sweep. BTC-USD: 1 price and 4 size decimals, maintenance 100 bps, penalty 50 bps,
// taker 5 bps, maker 2 bps.
import { describe, expect, test } from 'bun:test'
import {
  checkMarginInvariants,
  conservedWithIsolated,
  EVE,
  FRED,
  GINA,
  LIQ,
  liquidate,
  marginChain,
  moveMark,
  SMALL_BALANCE,
  updateLeverage,
  updateMarginMode,
} from '../../../test/support/chain/margin.ts'
import type { TestChain } from '../../../test/support/chain/test-chain.ts'
import {
  ADMIN,
  ALICE,
  agentAddress,
  BOB,
  BTC,
  blockLevelEvents,
  checkInvariants,
  ETH,
  ev,
  place,
  registerAgent,
  runRows,
} from '../../../test/support/chain/test-chain.ts'
import { liquidatablePositions } from './liquidatable.ts'
import { liquidationPriceTicks } from './maintenance.ts'
import { reservedMarginOf } from './reserved-margin.ts'

const usd = (n: number): bigint => BigInt(Math.round(n * 1e6))
const BTC_MIN = '0.0001'
const ETH_MIN = '0.001'

/** `by` buys (or sells) qty of market at price from BOB, who rests the other side first. */
function open(chain: TestChain, by: string, marketId: number, side: 'Bid' | 'Ask', price: string, qty: string): void {
  chain.ok(BOB, place(marketId, side === 'Bid' ? 'Ask' : 'Bid', price, qty))
  chain.ok(by, place(marketId, side, price, qty, { tif: 'Ioc' }))
}

function liquidatable(chain: TestChain): string[] {
  const s = chain.state
  return liquidatablePositions(s, [...s.markets.values()], 100).entries.map((e) => `${e.account.address}:${e.market.marketId}`)
}

function verify(chain: TestChain, conserved: bigint): void {
  expect(conservedWithIsolated(chain.state)).toBe(conserved)
  checkInvariants(chain.state)
  checkMarginInvariants(chain.state)
}

describe('Isolated liquidation', () => {
  test('at the liquidation price: closed at the mark, penalty 50 bps, 20% to the liquidator, the rest to the fund', () => {
    const chain = marginChain()
    const conserved = conservedWithIsolated(chain.state)
    chain.ok(ALICE, updateMarginMode(BTC, 'Isolated'))
    chain.ok(ALICE, updateLeverage(BTC, 10))
    // 1 BTC at 60000, 10x: 6000 into the position, fee 30.
    open(chain, ALICE, BTC, 'Bid', '60000', '1')
    chain.ok(ALICE, place(BTC, 'Bid', '40000', '0.1'))
    chain.ok(ALICE, place(ETH, 'Bid', '3000', '0.1'))
    const pos = chain.state.accounts.get(ALICE)!.positions.get(BTC)!
    expect(pos).toMatchObject({ isolatedMargin: usd(6000), marginMode: 'Isolated' })
    // (60000 - 6000) / (1 - 1%) = 54545.45..., rounded down for a long.
    expect(liquidationPriceTicks(chain.state, chain.state.accounts.get(ALICE)!, chain.state.markets.get(BTC)!, pos)).toBe(545_454n)
    runRows(chain, [{ by: LIQ, action: liquidate(ALICE, BTC), expect: { reject: 'NotLiquidatable' } }])
    // At 54545.5: equity 545.5 >= maintenance 545.455.
    moveMark(chain, BTC, '54545.5', BTC_MIN)
    runRows(chain, [{ by: LIQ, action: liquidate(ALICE, BTC), expect: { reject: 'NotLiquidatable' } }])
    expect(liquidatable(chain)).toEqual([])
    // At 54545.4: equity 545.4 < maintenance 545.454.
    moveMark(chain, BTC, '54545.4', BTC_MIN)
    expect(liquidatable(chain)).toEqual([`${ALICE}:${BTC}`])
    const before = { alice: chain.balance(ALICE), liq: chain.balance(LIQ), fund: chain.balance(ADMIN) }
    runRows(chain, [
      {
        by: LIQ,
        action: liquidate(ALICE, BTC),
        expect: [
          ev('OrderDone', { account: ALICE, market_id: BTC, reason: 'Liquidated' }),
          ev('PositionLiquidated', {
            kind: 'Liquidation',
            account: ALICE,
            market_id: BTC,
            liquidator: LIQ,
            insurance_fund: ADMIN,
            margin_mode: 'Isolated',
            size_lots: 10_000,
            price_ticks: 545_454,
            notional: 54_545_400_000n,
            realized_pnl: -5_454_600_000n,
            penalty: 272_727_000n,
            liquidator_reward: 54_545_400n,
            bad_debt: 0n,
            fund_size_before_lots: 0,
            fund_size_after_lots: 10_000,
          }),
        ],
      },
    ])
    // ALICE gets the isolated margin plus the realized loss (6000 - 5454.6 = 545.4), less the penalty.
    expect(chain.balance(ALICE) - before.alice).toBe(545_400_000n - 272_727_000n)
    expect(chain.balance(LIQ) - before.liq).toBe(54_545_400n)
    expect(chain.balance(ADMIN) - before.fund).toBe(272_727_000n - 54_545_400n)
    const alice = chain.state.accounts.get(ALICE)!
    expect(alice.positions.get(BTC)).toBeUndefined()
    // The Cross ETH order stays; the BTC one went.
    expect([...alice.orders.values()].map((o) => o.marketId)).toEqual([ETH])
    expect(reservedMarginOf(alice)).toBe(usd(15))
    expect(chain.state.accounts.get(ADMIN)!.positions.get(BTC)).toMatchObject({
      sizeLots: 10_000,
      costBasis: 54_545_400_000n,
      marginMode: 'Cross',
    })
    expect(liquidatable(chain)).toEqual([])
    verify(chain, conserved)
  })

  test('below its bankruptcy price: no penalty, the fund absorbs the shortfall and the cross balance is untouched', () => {
    const chain = marginChain()
    const conserved = conservedWithIsolated(chain.state)
    chain.ok(ALICE, updateMarginMode(BTC, 'Isolated'))
    chain.ok(ALICE, updateLeverage(BTC, 10))
    open(chain, ALICE, BTC, 'Bid', '60000', '1')
    moveMark(chain, BTC, '50000', BTC_MIN)
    const before = { alice: chain.balance(ALICE), fund: chain.balance(ADMIN) }
    runRows(chain, [
      {
        by: LIQ,
        action: liquidate(ALICE, BTC),
        expect: [
          ev('PositionLiquidated', {
            notional: 50_000_000_000n,
            realized_pnl: -10_000_000_000n,
            penalty: 0n,
            liquidator_reward: 0n,
            bad_debt: 4_000_000_000n,
          }),
          ev('BadDebt', { kind: 'Liquidation', account: ALICE, market_id: BTC, insurance_fund: ADMIN, amount: 4_000_000_000n }),
        ],
      },
    ])
    expect(chain.balance(ALICE)).toBe(before.alice)
    expect(chain.balance(ADMIN) - before.fund).toBe(-4_000_000_000n)
    verify(chain, conserved)
  })
})

describe('Cross liquidation', () => {
  test('the cross equity against the cross maintenance; all resting orders are cancelled first', () => {
    const chain = marginChain()
    const conserved = conservedWithIsolated(chain.state)
    // EVE (10000): 1 BTC at 60000 Cross 20x, fee 30; and a Cross ETH order.
    open(chain, EVE, BTC, 'Bid', '60000', '1')
    chain.ok(EVE, place(ETH, 'Bid', '3000', '0.1'))
    const eve = chain.state.accounts.get(EVE)!
    // (60000 - 9970) / 0.99 = 50535.35...
    expect(liquidationPriceTicks(chain.state, eve, chain.state.markets.get(BTC)!, eve.positions.get(BTC)!)).toBe(505_353n)
    moveMark(chain, BTC, '50535.4', BTC_MIN)
    runRows(chain, [{ by: LIQ, action: liquidate(EVE, BTC), expect: { reject: 'NotLiquidatable' } }])
    moveMark(chain, BTC, '50535.3', BTC_MIN)
    runRows(chain, [
      {
        by: LIQ,
        action: liquidate(EVE, BTC),
        expect: [
          ev('OrderDone', { account: EVE, market_id: ETH, reason: 'Liquidated' }),
          ev('PositionLiquidated', {
            margin_mode: 'Cross',
            size_lots: 10_000,
            price_ticks: 505_353,
            notional: 50_535_300_000n,
            realized_pnl: -9_464_700_000n,
            penalty: 252_676_500n,
            liquidator_reward: 50_535_300n,
            bad_debt: 0n,
          }),
        ],
      },
    ])
    expect(chain.balance(EVE)).toBe(SMALL_BALANCE - usd(30) - 9_464_700_000n - 252_676_500n)
    expect(eve.orders.size).toBe(0)
    expect(reservedMarginOf(eve)).toBe(0n)
    verify(chain, conserved)
  })

  test('the last Cross position closed below bankruptcy: the negative balance becomes bad debt', () => {
    const chain = marginChain()
    const conserved = conservedWithIsolated(chain.state)
    open(chain, FRED, BTC, 'Bid', '60000', '1')
    moveMark(chain, BTC, '49000', BTC_MIN)
    const fund = chain.balance(ADMIN)
    runRows(chain, [
      {
        by: LIQ,
        action: liquidate(FRED, BTC),
        expect: [
          ev('PositionLiquidated', { realized_pnl: -11_000_000_000n, penalty: 0n, liquidator_reward: 0n, bad_debt: 1_030_000_000n }),
          ev('BadDebt', { account: FRED, amount: 1_030_000_000n }),
        ],
      },
    ])
    expect(chain.balance(FRED)).toBe(0n)
    expect(chain.balance(ADMIN) - fund).toBe(-1_030_000_000n)
    verify(chain, conserved)
  })

  test('two Cross positions: each is liquidatable while the cross part is, the penalty is capped by what is left', () => {
    const chain = marginChain()
    const conserved = conservedWithIsolated(chain.state)
    // GINA: long 1 BTC at 60000 (fee 30), short 1 ETH at 3500 (fee 1.75): balance 9968.25.
    open(chain, GINA, BTC, 'Bid', '60000', '1')
    open(chain, GINA, ETH, 'Ask', '3500', '1')
    moveMark(chain, BTC, '51000', BTC_MIN)
    // Equity 9968.25 - 9000 = 968.25 >= maintenance 510 + 35.
    expect(liquidatable(chain)).toEqual([])
    moveMark(chain, ETH, '4000', ETH_MIN)
    // Equity 468.25 < 510 + 40: both positions are listed.
    expect(liquidatable(chain)).toEqual([`${GINA}:${BTC}`, `${GINA}:${ETH}`])
    const gina = chain.state.accounts.get(GINA)!
    // BTC with ETH held at 4000: (60000 - (9968.25 - 500 - 40)) / 0.99 = 51082.57...
    expect(liquidationPriceTicks(chain.state, gina, chain.state.markets.get(BTC)!, gina.positions.get(BTC)!)).toBe(510_825n)
    // ETH short with BTC at 51000: (3500 + 9968.25 - 9000 - 510) / 1.01 = 3919.05..., rounded up for a short.
    expect(liquidationPriceTicks(chain.state, gina, chain.state.markets.get(ETH)!, gina.positions.get(ETH)!)).toBe(391_906n)
    runRows(chain, [
      {
        by: LIQ,
        action: liquidate(GINA, ETH),
        expect: [
          ev('PositionLiquidated', { realized_pnl: -500_000_000n, penalty: 20_000_000n, liquidator_reward: 4_000_000n, bad_debt: 0n }),
        ],
      },
      // Still under: 9448.25 - 9000 = 448.25 < 510.
      {
        by: LIQ,
        action: liquidate(GINA, BTC),
        expect: [
          ev('PositionLiquidated', { realized_pnl: -9_000_000_000n, penalty: 255_000_000n, liquidator_reward: 51_000_000n, bad_debt: 0n }),
        ],
      },
    ])
    expect(chain.balance(GINA)).toBe(usd(9968.25) - usd(500) - usd(20) - usd(9000) - usd(255))
    verify(chain, conserved)
  })
})

describe('LiquidatePosition rejects and the bad-debt sweep', () => {
  test('every reject, and an agent with the Liquidator role acting for its master', () => {
    const chain = marginChain()
    open(chain, ALICE, BTC, 'Bid', '60000', '0.1')
    open(chain, LIQ, BTC, 'Bid', '60000', '0.1')
    open(chain, EVE, BTC, 'Bid', '60000', '1')
    // EVE: equity 9970 - 9500 = 470 < maintenance 505.
    moveMark(chain, BTC, '50500', BTC_MIN)
    const liqBalance = chain.balance(LIQ)
    runRows(chain, [
      { by: LIQ, action: liquidate('0x00000000000000000000000000000000000000ff', BTC), expect: { reject: 'AccountNotFound' } },
      { by: LIQ, action: liquidate(ALICE, 99), expect: { reject: 'MarketNotFound' } },
      { by: LIQ, action: liquidate(ALICE, ETH), expect: { reject: 'NoOpenPosition' } },
      { by: LIQ, action: liquidate(LIQ, BTC), expect: { reject: 'CannotLiquidateSelf' } },
      { by: LIQ, action: liquidate(ALICE, BTC), expect: { reject: 'NotLiquidatable' } },
      { by: ALICE, action: liquidate(EVE, BTC), expect: { reject: 'Unauthorized' } },
      { by: LIQ, action: registerAgent(agentAddress(7), 'Liquidator'), expect: ['AgentRegistered'] },
      // Any address case; the reward (20% of 252.5) goes to the agent's master.
      {
        by: agentAddress(7),
        action: liquidate(EVE.toUpperCase().replace('0X', '0x'), BTC),
        expect: [ev('PositionLiquidated', { liquidator: LIQ, penalty: 252_500_000n, liquidator_reward: 50_500_000n })],
      },
      // The fund took EVE's long over; it is the backstop and is never liquidated.
      { by: LIQ, action: liquidate(ADMIN, BTC), expect: { reject: 'NotLiquidatable' } },
    ])
    expect(chain.balance(LIQ) - liqBalance).toBe(50_500_000n)
  })

  test('a bankrupt account whose maker order closes its last Cross position: the block-end sweep absorbs the shortfall', () => {
    const chain = marginChain()
    const conserved = conservedWithIsolated(chain.state)
    open(chain, EVE, BTC, 'Bid', '60000', '1')
    // A resting order that only reduces holds no margin and is admitted.
    chain.ok(EVE, place(BTC, 'Ask', '50000', '1'))
    moveMark(chain, BTC, '49000', BTC_MIN)
    const fund = chain.balance(ADMIN)
    // BOB lifts EVE's ask: she realizes -10000 and pays a 10 maker fee from 9970: -40.
    const r = chain.block([{ by: BOB, action: place(BTC, 'Bid', '50000', '1', { tif: 'Ioc' }) }])
    const sweep = blockLevelEvents(r)
    expect(sweep).toMatchObject([
      { kind: 'Liquidation', sub_kind: 'BadDebt', account: EVE, market_id: BTC, insurance_fund: ADMIN, amount: 40_000_000n },
    ])
    expect(chain.balance(EVE)).toBe(0n)
    // The fund paid 40 and earned BOB's 25 taker fee and EVE's 10 maker fee (it is also the fee recipient).
    expect(chain.balance(ADMIN) - fund).toBe(-40_000_000n + 25_000_000n + 10_000_000n)
    verify(chain, conserved)
  })

  test("a cross deficit is covered by the account's own isolated margin before the fund pays", () => {
    const chain = marginChain()
    const conserved = conservedWithIsolated(chain.state)
    // EVE: Isolated 10x 0.1 BTC at 60000 (600 in the position, fee 3); Cross 20x 50 ETH at 3500 (fee 87.5).
    chain.ok(EVE, updateMarginMode(BTC, 'Isolated'))
    chain.ok(EVE, updateLeverage(BTC, 10))
    open(chain, EVE, BTC, 'Bid', '60000', '0.1')
    open(chain, EVE, ETH, 'Bid', '3500', '50')
    expect(chain.balance(EVE)).toBe(SMALL_BALANCE - usd(600) - usd(3) - usd(87.5))
    chain.ok(EVE, place(ETH, 'Ask', '3300', '50'))
    moveMark(chain, ETH, '3200', ETH_MIN)
    const fund = chain.balance(ADMIN)
    // BOB lifts the ask: -10000 realized and a 33 maker fee leave -723.5; 600 comes back from BTC, the fund pays 123.5.
    const r = chain.block([{ by: BOB, action: place(ETH, 'Bid', '3300', '50', { tif: 'Ioc' }) }])
    expect(blockLevelEvents(r)).toMatchObject([
      {
        sub_kind: 'IsolatedMarginUpdated',
        account: EVE,
        market_id: BTC,
        direction: 'Remove',
        cause: 'CrossDeficit',
        amount: usd(600),
        isolated_margin: 0n,
        balance: usd(-123.5),
      },
      { sub_kind: 'BadDebt', account: EVE, market_id: ETH, amount: usd(123.5) },
    ])
    expect(chain.balance(EVE)).toBe(0n)
    expect(chain.balance(ADMIN) - fund).toBe(-usd(123.5) + usd(82.5) + usd(33))
    // The BTC position, left without margin, is now liquidatable.
    expect(liquidatable(chain)).toEqual([`${EVE}:${BTC}`])
    verify(chain, conserved)
  })
})
