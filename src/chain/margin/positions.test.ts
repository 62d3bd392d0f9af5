// Position accounting: open, increase, reduce, close and flip with exact realized PnL, and the
// conservation of sum(balance - costBasis) by every trade.
import { describe, expect, test } from 'bun:test'
import {
  ALICE,
  BOB,
  BTC,
  CAROL,
  checkInvariants,
  conservedSum,
  DAVE,
  DEV_BALANCE,
  ETH,
  place,
  Rng,
  TestChain,
  type Tx,
} from '../../../test/support/chain/test-chain.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import type { Position } from '../core/types.ts'
import { applyTrade, newPosition } from './positions.ts'

describe('applyTrade', () => {
  // [what, delta lots, notional, realized PnL, size after, cost basis after]; each row applies to the position the previous row left.
  const rows: [string, number, bigint, bigint, number, bigint][] = [
    ['open long', 10, 1000n, 0n, 10, 1000n],
    ['increase', 5, 600n, 0n, 15, 1600n],
    ['reduce: basis 1600 x 5/15 = 533 (toward zero)', -5, 700n, 167n, 10, 1067n],
    ['close', -10, 1200n, 133n, 0, 0n],
    ['open short', -4, 400n, 0n, -4, -400n],
    ['flip: close 4 for floor(900 x 4/10) = 360, open 6 for 540', 10, 900n, 40n, 6, 540n],
    ['flip back: close 6 for floor(71 x 6/7) = 60, open 1 short for 11', -7, 71n, -480n, -1, -11n],
    ['increase short', -2, 1000n, 0n, -3, -1011n],
    ['reduce short: basis -1011 x 1/3 = -337 (toward zero)', 1, 300n, 37n, -2, -674n],
    ['close short at a loss', 2, 700n, -26n, 0, 0n],
  ]
  test('a chain of trades on one position', () => {
    const pos: Position = newPosition(ALICE, BTC, 20)
    let realizedTotal = 0n
    rows.forEach(([what, delta, notional, realized, size, basis]) => {
      const basisBefore = pos.costBasis
      const sizeBefore = pos.sizeLots
      const r = applyTrade(pos, delta, notional)
      expect({ what, realized: r.realizedPnl, size: pos.sizeLots, basis: pos.costBasis, before: r.sizeBefore, after: r.sizeAfter }).toEqual(
        { what, realized, size, basis, before: sizeBefore, after: size },
      )
      // The trade moves balance - basis by exactly the notional: paid when buying, received when selling.
      expect(r.realizedPnl - (pos.costBasis - basisBefore)).toBe(delta > 0 ? -notional : notional)
      realizedTotal += realized
    })
    expect(pos.realizedPnl).toBe(realizedTotal)
  })

  test('conservation holds for random trades, whatever the rounding', () => {
    const rng = new Rng(11)
    const pos = newPosition(ALICE, ETH, 10)
    for (let i = 0; i < 20_000; i++) {
      const delta = (rng.chance(50) ? 1 : -1) * rng.range(1, 1_000)
      const notional = BigInt(rng.range(1, 10_000_000)) * BigInt(rng.range(1, 1_000))
      const basisBefore = pos.costBasis
      const r = applyTrade(pos, delta, notional)
      expect(r.realizedPnl - (pos.costBasis - basisBefore)).toBe(delta > 0 ? -notional : notional)
      expect(Math.sign(pos.sizeLots)).toBe(pos.costBasis > 0n ? 1 : pos.costBasis < 0n ? -1 : 0)
    }
  })
})

describe('positions through fills', () => {
  const usd = (n: number): bigint => BigInt(Math.round(n * 1e6))

  test('open, increase, reduce, close and flip with exact realized PnL', () => {
    const chain = new TestChain()
    const position = () => {
      const p = chain.state.accounts.get(ALICE)!.positions.get(BTC)
      return p === undefined ? null : [p.sizeLots, p.costBasis]
    }
    /** A maker rests, then ALICE takes it with an Ioc; returns ALICE's realized PnL on the fill. */
    const trade = (maker: string, side: 'Bid' | 'Ask', price: string, qty: string) => {
      chain.ok(maker, place(BTC, side === 'Bid' ? 'Ask' : 'Bid', price, qty))
      const fills = chain.ok(ALICE, place(BTC, side, price, qty, { tif: 'Ioc' })).filter((e) => e.sub_kind === 'Filled')
      expect(fills.length).toBe(1)
      return fills[0]!.sub_kind === 'Filled' ? fills[0]!.taker_realized_pnl : null
    }
    expect(trade(BOB, 'Bid', '65000', '1')).toBe(0n)
    expect(position()).toEqual([10000, usd(65_000)])
    expect(trade(BOB, 'Bid', '66000', '1')).toBe(0n)
    expect(position()).toEqual([20000, usd(131_000)])
    // Sells a quarter at 67,000: 33,500 for a quarter of the basis, 32,750.
    expect(trade(CAROL, 'Ask', '67000', '0.5')).toBe(usd(750))
    expect(position()).toEqual([15000, usd(98_250)])
    expect(trade(CAROL, 'Ask', '64000', '1.5')).toBe(usd(96_000 - 98_250))
    expect(position()).toBeNull()
    expect(trade(BOB, 'Bid', '65000', '1')).toBe(0n)
    // Sells 3 at 65,500 while long 1: closes 1 (+500) and opens 2 short at 131,000.
    expect(trade(CAROL, 'Ask', '65500', '3')).toBe(usd(500))
    expect(position()).toEqual([-20000, -usd(131_000)])
    // Closing removed the position, so the new one's realized PnL starts from its own trades.
    expect(chain.state.accounts.get(ALICE)!.positions.get(BTC)!.realizedPnl).toBe(usd(500))
    // Balance: realized 750 - 2,250 + 500, less 5 bps taker fees on 65,000 + 66,000 + 33,500 + 96,000 + 65,000 + 196,500.
    expect(chain.balance(ALICE)).toBe(DEV_BALANCE + usd(-1000 - 261))
    checkInvariants(chain.state)
  })

  test('an order that closes at one fill and opens at the next starts a new position', () => {
    const chain = new TestChain()
    chain.ok(BOB, place(BTC, 'Ask', '65000', '1'))
    chain.ok(ALICE, place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' }))
    chain.ok(CAROL, place(BTC, 'Bid', '66000', '1'))
    chain.ok(DAVE, place(BTC, 'Bid', '64990', '2'))
    const fills = chain.ok(ALICE, place(BTC, 'Ask', '64990', '3', { tif: 'Ioc' })).filter((e) => e.sub_kind === 'Filled')
    expect(fills).toMatchObject([
      { maker: CAROL, taker_size_before: 10000, taker_size_after: 0, taker_realized_pnl: usd(1000) },
      { maker: DAVE, taker_size_before: 0, taker_size_after: -20000, taker_realized_pnl: 0n },
    ])
    // The PnL of the close sits in the balance; the short is a new position with none of its own.
    expect(chain.state.accounts.get(ALICE)!.positions.get(BTC)).toMatchObject({
      sizeLots: -20000,
      costBasis: -usd(129_980),
      realizedPnl: 0n,
      leverage: 20,
    })
    expect(chain.balance(ALICE)).toBe(DEV_BALANCE + usd(1000 - 32.5 - 33 - 64.99))
    checkInvariants(chain.state)
  })

  test('random crossing trades conserve sum(balance - costBasis) in every block', () => {
    const chain = new TestChain()
    const rng = new Rng(5)
    const traders = [ALICE, BOB, CAROL, DAVE]
    const conserved = conservedSum(chain.state)
    let fills = 0
    for (let b = 0; b < 60; b++) {
      const txs: Tx[] = []
      for (let i = 0; i < 40; i++) {
        const ticks = 3_500_00 + rng.range(-300, 300)
        const lots = rng.range(1, 5_000)
        const tif = rng.pick(['Gtc', 'Gtc', 'Ioc', 'Fok'] as const)
        txs.push({
          by: rng.pick(traders),
          action: place(ETH, rng.chance(50) ? 'Bid' : 'Ask', formatDecimal(BigInt(ticks), 2), formatDecimal(BigInt(lots), 3), {
            tif,
            reduceOnly: rng.chance(10),
          }),
        })
      }
      const result = chain.block(txs)
      fills += result.events.filter((e) => e.sub_kind === 'Filled').length
      expect({ height: chain.state.height, conserved: conservedSum(chain.state) }).toEqual({ height: chain.state.height, conserved })
      checkInvariants(chain.state)
    }
    expect(fills).toBeGreaterThan(500)
  })
})
