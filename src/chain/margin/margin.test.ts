// Margin modes and leverage: UpdateLeverage, UpdateMarginMode and UpdateIsolatedMargin with every
// reject, isolated margin moving in and out on fills, the account figures of
// docs/liquidation.md#2-where-the-money-sits-and-the-account-figures with Isolated positions, and
// the order margin checks (cross trading, isolated from cross cash, the cross-cash rule of reducing
// orders).
import { describe, expect, test } from 'bun:test'
import {
  checkMarginInvariants,
  conservedWithIsolated,
  EVE,
  LIQ,
  liquidate,
  marginChain,
  moveMark,
  SMALL_BALANCE,
  updateIsolatedMargin,
  updateLeverage,
  updateMarginMode,
} from '../../../test/support/chain/margin.ts'
import {
  ALICE,
  agentAddress,
  BOB,
  BTC,
  cancel,
  checkInvariants,
  DEV_BALANCE,
  ETH,
  ev,
  place,
  type Row,
  registerAgent,
  runRows,
  SOL,
} from '../../../test/support/chain/test-chain.ts'
import { valueAccount } from './margin.ts'

const usd = (n: number): bigint => BigInt(Math.round(n * 1e6))

describe('leverage, margin mode and isolated margin', () => {
  test('settings before the first trade, on an open position, and every reject', () => {
    const chain = marginChain()
    const conserved = conservedWithIsolated(chain.state)
    const rows: Row[] = [
      { by: ALICE, action: updateLeverage(BTC, 51), expect: { reject: 'InvalidLeverage' } },
      { by: ALICE, action: updateLeverage(BTC, 0), expect: { reject: 'InvalidLeverage' } },
      { by: ALICE, action: updateLeverage(99, 5), expect: { reject: 'MarketNotFound' } },
      // Flat: the setting alone changes (default 20x Cross).
      {
        by: ALICE,
        action: updateLeverage(BTC, 10),
        expect: [ev('LeverageUpdated', { market_id: BTC, leverage: 10, previous_leverage: 20, margin_mode: 'Cross' })],
      },
      { by: ALICE, action: updateMarginMode(99, 'Isolated'), expect: { reject: 'MarketNotFound' } },
      {
        by: ALICE,
        action: updateMarginMode(BTC, 'Isolated'),
        expect: [ev('MarginModeUpdated', { market_id: BTC, margin_mode: 'Isolated', leverage: 10 })],
      },
      // An Isolated order holds its margin against the cross cash while it rests: 6000 / 10x.
      { by: ALICE, action: place(BTC, 'Bid', '60000', '0.1'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: ALICE, action: updateMarginMode(BTC, 'Cross'), expect: { reject: 'OpenOrdersExist' } },
      // Filled as a maker: the fill moves its initial margin, 600, into the position.
      { by: BOB, action: place(BTC, 'Ask', '60000', '0.1', { tif: 'Ioc' }), expect: ['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'] },
      { by: ALICE, action: updateMarginMode(BTC, 'Cross'), expect: { reject: 'PositionOpen' } },
      // Raising leverage needs nothing; lowering it needs the isolated margin for the new requirement.
      {
        by: ALICE,
        action: updateLeverage(BTC, 20),
        expect: [ev('LeverageUpdated', { leverage: 20, previous_leverage: 10, margin_mode: 'Isolated' })],
      },
      { by: ALICE, action: updateLeverage(BTC, 5), expect: { reject: 'InsufficientMargin' } },
      {
        by: ALICE,
        action: updateIsolatedMargin(BTC, '600', 'Add'),
        expect: [ev('IsolatedMarginUpdated', { direction: 'Add', amount: usd(600), isolated_margin: usd(1200) })],
      },
      { by: ALICE, action: updateLeverage(BTC, 5), expect: [ev('LeverageUpdated', { leverage: 5, previous_leverage: 20 })] },
      // At 5x the position needs all of its 1200.
      { by: ALICE, action: updateIsolatedMargin(BTC, '0.000001', 'Remove'), expect: { reject: 'InsufficientMargin' } },
      { by: ALICE, action: updateLeverage(BTC, 10), expect: ['LeverageUpdated'] },
      { by: ALICE, action: updateIsolatedMargin(BTC, '600.000001', 'Remove'), expect: { reject: 'InsufficientMargin' } },
      {
        by: ALICE,
        action: updateIsolatedMargin(BTC, '600', 'Remove'),
        expect: [ev('IsolatedMarginUpdated', { direction: 'Remove', amount: usd(600), isolated_margin: usd(600) })],
      },
      { by: ALICE, action: updateIsolatedMargin(99, '1', 'Add'), expect: { reject: 'MarketNotFound' } },
      { by: ALICE, action: updateIsolatedMargin(BTC, '0', 'Add'), expect: { reject: 'InvalidAmount' } },
      { by: ALICE, action: updateIsolatedMargin(BTC, '1.0000001', 'Add'), expect: { reject: 'InvalidAmount' } },
      { by: ALICE, action: updateIsolatedMargin(ETH, '1', 'Add'), expect: { reject: 'NoOpenPosition' } },
      { by: BOB, action: place(SOL, 'Ask', '150', '1'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: ALICE, action: place(SOL, 'Bid', '150', '1', { tif: 'Ioc' }), expect: ['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'] },
      { by: ALICE, action: updateIsolatedMargin(SOL, '1', 'Add'), expect: { reject: 'PositionNotIsolated' } },
      // More than the cross part can spare.
      { by: ALICE, action: updateIsolatedMargin(BTC, '1000000', 'Add'), expect: { reject: 'InsufficientMargin' } },
      // Auth: the kinds need Trader; LiquidatePosition needs Liquidator.
      { by: LIQ, action: registerAgent(agentAddress(1), 'Liquidator'), expect: ['AgentRegistered'] },
      { by: agentAddress(1), action: updateLeverage(BTC, 3), expect: { reject: 'Unauthorized' } },
      { by: ALICE, action: liquidate(BOB, BTC), expect: { reject: 'Unauthorized' } },
    ]
    runRows(chain, rows)
    const alice = chain.state.accounts.get(ALICE)!
    const btc = alice.positions.get(BTC)!
    expect({ mode: btc.marginMode, leverage: btc.leverage, isolated: btc.isolatedMargin, size: btc.sizeLots }).toEqual({
      mode: 'Isolated',
      leverage: 10,
      isolated: usd(600),
      size: 1_000,
    })
    expect(alice.positions.get(SOL)).toMatchObject({ marginMode: 'Cross', leverage: 20, isolatedMargin: 0n })
    // Maker fee 2 bps of 6000 = 1.2; 600 locked; +600 -600 moved; taker fee 5 bps of 150 = 0.075.
    expect(alice.balance).toBe(DEV_BALANCE - usd(1.2) - usd(600) - usd(0.075))
    expect(alice.settings.get(BTC)).toMatchObject({ leverage: 10, marginMode: 'Isolated' })
    expect(conservedWithIsolated(chain.state)).toBe(conserved)
    checkInvariants(chain.state)
    checkMarginInvariants(chain.state)
  })

  test('a new position opens with the setting; a position that goes flat and reopens takes it again', () => {
    const chain = marginChain()
    runRows(chain, [
      { by: ALICE, action: updateLeverage(ETH, 7), expect: ['LeverageUpdated'] },
      { by: BOB, action: place(ETH, 'Ask', '3500', '1'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: ALICE, action: place(ETH, 'Bid', '3500', '0.5', { tif: 'Ioc' }), expect: ['OrderAccepted', 'Filled', 'OrderDone'] },
    ])
    expect(chain.state.accounts.get(ALICE)!.positions.get(ETH)).toMatchObject({ leverage: 7, marginMode: 'Cross' })
    // BOB has no setting: his position opens at the default 20x.
    expect(chain.state.accounts.get(BOB)!.positions.get(ETH)).toMatchObject({ leverage: 20, marginMode: 'Cross' })
    runRows(chain, [
      // A flip in one order: closes 0.5 and opens 0.5 short, still at the setting's 7x.
      { by: ALICE, action: place(ETH, 'Bid', '3400', '2'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: BOB, action: place(ETH, 'Ask', '3400', '1', { tif: 'Ioc' }), expect: ['OrderAccepted', 'Filled', 'OrderDone'] },
    ])
    expect(chain.state.accounts.get(ALICE)!.positions.get(ETH)).toMatchObject({ sizeLots: 1_500, leverage: 7 })
    checkMarginInvariants(chain.state)
  })

  test('isolated fills lock margin at the fill price, reductions release their share, a close releases all', () => {
    const chain = marginChain()
    const conserved = conservedWithIsolated(chain.state)
    chain.ok(ALICE, updateMarginMode(BTC, 'Isolated'))
    chain.ok(ALICE, updateLeverage(BTC, 4))
    chain.ok(BOB, place(BTC, 'Ask', '60000', '0.3'))
    chain.ok(ALICE, place(BTC, 'Bid', '60000', '0.3', { tif: 'Ioc' }))
    const pos = () => chain.state.accounts.get(ALICE)!.positions.get(BTC)
    // 0.3 x 60000 = 18000 notional, 4x: 4500 moved into the position; taker fee 9.
    expect(pos()).toMatchObject({ sizeLots: 3_000, isolatedMargin: usd(4500) })
    expect(chain.balance(ALICE)).toBe(DEV_BALANCE - usd(4500) - usd(9))
    // Sell a third at 61000: realized +100, a third of the margin (1500) back; taker fee 3.05.
    chain.ok(BOB, place(BTC, 'Bid', '61000', '0.3'))
    chain.ok(ALICE, place(BTC, 'Ask', '61000', '0.1', { tif: 'Ioc' }))
    expect(pos()).toMatchObject({ sizeLots: 2_000, isolatedMargin: usd(3000) })
    expect(chain.balance(ALICE)).toBe(DEV_BALANCE - usd(4500) - usd(9) + usd(1500) + usd(100) - usd(3.05))
    // Close the rest: +200 realized, the remaining 3000 back.
    chain.ok(ALICE, place(BTC, 'Ask', '61000', '0.2', { tif: 'Ioc' }))
    expect(pos()).toBeUndefined()
    expect(chain.balance(ALICE)).toBe(DEV_BALANCE - usd(9) + usd(300) - usd(3.05) - usd(6.1))
    expect(conservedWithIsolated(chain.state)).toBe(conserved)
    checkMarginInvariants(chain.state)
  })

  test('account figures with Isolated and Cross positions', () => {
    const chain = marginChain()
    chain.ok(ALICE, updateMarginMode(BTC, 'Isolated'))
    chain.ok(ALICE, updateLeverage(BTC, 10))
    chain.ok(BOB, place(BTC, 'Ask', '60000', '0.1'))
    chain.ok(ALICE, place(BTC, 'Bid', '60000', '0.1', { tif: 'Ioc' }))
    chain.ok(BOB, place(ETH, 'Bid', '3500', '2'))
    chain.ok(ALICE, place(ETH, 'Ask', '3500', '2', { tif: 'Ioc' }))
    // A resting Cross order that adds to the short: 1 ETH at 4000, 20x = 200 held.
    chain.ok(ALICE, place(ETH, 'Ask', '4000', '1'))
    moveMark(chain, BTC, '61000', '0.0001')
    moveMark(chain, ETH, '3600', '0.001')
    const a = chain.state.accounts.get(ALICE)!
    const balance = DEV_BALANCE - usd(600) - usd(3) - usd(3.5)
    expect(a.balance).toBe(balance)
    const v = valueAccount(chain.state, a)
    // BTC Isolated: +100 uPnL, 600 isolated margin. ETH Cross short 2 at 3600: -200 uPnL, margin 7200 / 20 = 360.
    expect(v).toEqual({
      accountValue: balance + usd(600) + usd(100) - usd(200),
      totalMarginUsed: usd(360) + usd(200) + usd(600),
      totalNotional: usd(6100) + usd(7200),
      unrealizedPnl: usd(-100),
      crossUnrealizedPnl: usd(-200),
      isolatedMargin: usd(600),
      crossCashAvailable: balance - usd(360) - usd(200),
      crossTradingAvailable: balance - usd(360) - usd(200) - usd(200),
      withdrawable: balance + usd(600) + usd(100) - usd(200) - usd(360) - usd(200) - usd(600),
    })
  })
})

describe('order margin checks', () => {
  test('Isolated orders take their margin from the cross cash; Cross orders from the trading available', () => {
    const chain = marginChain()
    runRows(chain, [
      { by: EVE, action: updateMarginMode(BTC, 'Isolated'), expect: ['MarginModeUpdated'] },
      { by: EVE, action: updateLeverage(BTC, 10), expect: ['LeverageUpdated'] },
      { by: BOB, action: place(BTC, 'Ask', '60000', '0.2'), expect: ['OrderAccepted', 'OrderResting'] },
      // 600 locked and a 3 fee: the cross cash is 9397.
      { by: EVE, action: place(BTC, 'Bid', '60000', '0.1', { tif: 'Ioc' }), expect: ['OrderAccepted', 'Filled', 'OrderDone'] },
      // 1.6 x 59000 / 10 = 9440 to hold > 9397.
      { by: EVE, action: place(BTC, 'Bid', '59000', '1.6'), expect: { reject: 'InsufficientMargin' } },
      { by: EVE, action: place(BTC, 'Bid', '59000', '1.5'), expect: ['OrderAccepted', 'OrderResting'] },
      // 547 left: another 600 + 3 does not fit.
      { by: EVE, action: place(BTC, 'Bid', '60000', '0.1', { tif: 'Ioc' }), expect: { reject: 'InsufficientMargin' } },
      // Cross ETH at 20x: 0.2 x 3500 / 20 = 35 fits, 3.2 x 3500 / 20 = 560 does not.
      { by: EVE, action: place(ETH, 'Bid', '3500', '3.2'), expect: { reject: 'InsufficientMargin' } },
      { by: EVE, action: place(ETH, 'Bid', '3500', '0.2'), expect: ['OrderAccepted', 'OrderResting'] },
    ])
    const eve = chain.state.accounts.get(EVE)!
    expect(eve.balance).toBe(SMALL_BALANCE - usd(603))
    expect(valueAccount(chain.state, eve).crossCashAvailable).toBe(SMALL_BALANCE - usd(603) - usd(8850) - usd(35))
    checkMarginInvariants(chain.state)
  })

  test('a reducing order must leave the cross cash >= 0 (or not lower it): a bankrupt account cannot close at a loss', () => {
    const chain = marginChain()
    chain.ok(BOB, place(BTC, 'Ask', '60000', '1'))
    chain.ok(EVE, place(BTC, 'Bid', '60000', '1', { tif: 'Ioc' }))
    // Equity 9970 - 10000 < 0 at 50000.
    moveMark(chain, BTC, '50000', '0.0001')
    chain.ok(BOB, place(BTC, 'Bid', '50000', '1'))
    const id = chain.placeOk(EVE, place(BTC, 'Ask', '70000', '1'))
    runRows(chain, [
      // Cash 9970 - 2500 (margin at the mark); closing realizes -10000 and pays 25: -55.
      { by: EVE, action: place(BTC, 'Ask', '50000', '1', { tif: 'Ioc', reduceOnly: true }), expect: { reject: 'InsufficientMargin' } },
      { by: EVE, action: place(BTC, 'Ask', '50000', '1', { tif: 'Ioc' }), expect: { reject: 'InsufficientMargin' } },
      // Half of it keeps the cash >= 0 (9970 - 5000 - 12.5 - 1250 margin): admitted; the position stays liquidatable.
      { by: EVE, action: place(BTC, 'Ask', '50000', '0.5', { tif: 'Ioc' }), expect: ['OrderAccepted', 'Filled', 'OrderDone'] },
      // The other half would leave -55 again.
      { by: EVE, action: place(BTC, 'Ask', '50000', '0.5', { tif: 'Ioc', reduceOnly: true }), expect: { reject: 'InsufficientMargin' } },
      // A resting reducing order holds no margin and is admitted; cancelling is always possible.
      { by: EVE, action: cancel(BTC, id), expect: ['OrderDone'] },
    ])
    expect(chain.state.accounts.get(EVE)!.positions.get(BTC)!.sizeLots).toBe(5_000)
    expect(chain.balance(EVE)).toBe(SMALL_BALANCE - usd(30) - usd(5000) - usd(12.5))
  })

  test('a close that does not lower a negative cross cash is admitted only while a Cross position remains to back it', () => {
    const chain = marginChain()
    chain.ok(BOB, place(BTC, 'Ask', '60000', '1'))
    chain.ok(EVE, place(BTC, 'Bid', '60000', '1', { tif: 'Ioc' }))
    moveMark(chain, BTC, '60020', '0.0001')
    // Test-only: as if losses realized elsewhere had left the balance at -100 (no root is checked here).
    chain.state.accounts.get(EVE)!.balance = usd(-100)
    chain.ok(BOB, place(BTC, 'Bid', '60020', '1'))
    // Closing realizes +20, pays 30.01 and frees 3001 of margin: the cash rises, but nothing would
    // back the -110.01 left.
    runRows(chain, [
      { by: EVE, action: place(BTC, 'Ask', '60020', '1', { tif: 'Ioc', reduceOnly: true }), expect: { reject: 'InsufficientMargin' } },
    ])
    // With another Cross position open, the same close is admitted (the balance stays visible and liquidatable).
    chain.ok(BOB, place(ETH, 'Ask', '3500', '0.01'))
    chain.state.accounts.get(EVE)!.balance = SMALL_BALANCE
    chain.ok(EVE, place(ETH, 'Bid', '3500', '0.01', { tif: 'Ioc' }))
    chain.state.accounts.get(EVE)!.balance = usd(-100)
    // (BOB's bid is filled in full: his OrderDone, then EVE's.)
    runRows(chain, [
      {
        by: EVE,
        action: place(BTC, 'Ask', '60020', '1', { tif: 'Ioc', reduceOnly: true }),
        expect: ['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'],
      },
    ])
  })
})
