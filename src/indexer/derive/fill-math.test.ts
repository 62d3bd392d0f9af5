import { describe, expect, test } from 'bun:test'
import { compareDecimals, signOf } from '../amounts.ts'
import { positionAction, realizedPnlPct } from './fill-math.ts'

describe('compareDecimals', () => {
  test.each([
    ['0', '0', 0],
    ['1', '0.5', 1],
    ['-0.5', '0', -1],
    ['-1.25', '-1.3', 1],
    ['10', '9.99', 1],
    ['0.1', '0.10', 0],
    ['123.456', '123.45', 1],
    ['-123.456', '-123.45', -1],
    ['0.000000000001', '0', 1],
    ['99999999', '100000000', -1],
  ] as const)('%s vs %s', (a, b, want) => {
    expect(compareDecimals(a, b)).toBe(want)
    expect(compareDecimals(b, a)).toBe(-want || 0)
  })
  test('signOf', () => {
    expect([signOf('-0.1'), signOf('0'), signOf('0.1')]).toEqual([-1, 0, 1])
  })
})

describe('position_action from the sizes before and after a fill', () => {
  test.each([
    ['0', '0.2', 'open_long'],
    ['0.2', '0.5', 'open_long'],
    ['0', '-0.2', 'open_short'],
    ['-0.2', '-0.3', 'open_short'],
    ['0.5', '0.2', 'close_long'],
    ['0.5', '0', 'close_long'],
    ['0.5', '-0.1', 'close_long'],
    ['-0.5', '-0.2', 'close_short'],
    ['-0.5', '0.3', 'close_short'],
    ['0.1', '0.1', null],
  ] as const)('%s -> %s is %s', (before, after, want) => {
    expect(positionAction(before, after)).toBe(want)
  })
})

describe('realized_pnl_pct: PnL over the cost basis of the closed part, 4 decimals toward zero', () => {
  test.each([
    // long 0.2 at 65000 (basis 13000), sells 0.1 at 66000: +100 on a 6500 basis
    { buying: false, sizeBefore: '0.2', qty: '0.1', notional: 6_600_000_000n, realizedPnl: 100_000_000n, want: '1.5384' },
    // short 0.2 at 65000, buys 0.1 at 66000: -100 on 6500
    { buying: true, sizeBefore: '-0.2', qty: '0.1', notional: 6_600_000_000n, realizedPnl: -100_000_000n, want: '-1.5384' },
    // a flip: long 0.1 at 100 (basis 10) sells 0.3 at 110 (notional 33): closes 0.1 for 11, +1 on 10
    { buying: false, sizeBefore: '0.1', qty: '0.3', notional: 33_000_000n, realizedPnl: 1_000_000n, want: '10' },
    // opening: nothing realized
    { buying: true, sizeBefore: '0', qty: '0.3', notional: 33_000_000n, realizedPnl: 0n, want: '0' },
    { buying: true, sizeBefore: '0.5', qty: '0.3', notional: 33_000_000n, realizedPnl: 0n, want: '0' },
  ])('$sizeBefore, buying $buying, pnl $realizedPnl -> $want', (a) => {
    expect(realizedPnlPct(a)).toBe(a.want)
  })
})
