import { describe, expect, test } from 'bun:test'
import type { VenueMarket } from '../venues/venue.ts'
import { fmt, fx, type PlanInput, plan, targetPosition } from './plan.ts'

const market: VenueMarket = { coin: 'XAU', symbol: 'XAU-USD', size_decimals: 3, price_decimals: 2, tradable: true }
const base: PlanInput = {
  netSize: '2',
  ratio: '1',
  mode: 'follow',
  venuePosition: '0',
  market,
  quote: { mid: '2400', best_bid: '2399.5', best_ask: '2400.5', ts_ms: 0 },
  ourMark: '2400',
  thresholdNotional: '10',
  minOrderSz: '0',
  maxOrderSz: null,
  maxSlippageBps: 100,
}

describe('hedge plan', () => {
  test('fixed-point helpers round-trip and cut extra places toward zero', () => {
    expect(fmt(fx('-12.5'))).toBe('-12.5')
    expect(fmt(fx('0'))).toBe('0')
    expect(fmt(fx('1.0000000000000000019'))).toBe('1.000000000000000001')
    expect(() => fx('1e3')).toThrow('not a decimal')
  })

  test('follow: traders net long is Book B short; the hedge buys (the venue position follows the traders)', () => {
    expect(fmt(targetPosition('2', '1', 'follow'))).toBe('2')
    expect(fmt(targetPosition('-3', '0.5', 'follow'))).toBe('-1.5')
    const p = plan(base)
    expect(p).toEqual({ kind: 'order', is_buy: true, sz: '2', px: '2424.5', target: '2', delta: '2' })
  })

  test('reverse: the venue position takes Book B side (traders net long 2: a sell of 2)', () => {
    expect(fmt(targetPosition('2', '1', 'reverse'))).toBe('-2')
    const p = plan({ ...base, mode: 'reverse' })
    expect(p).toMatchObject({ kind: 'order', is_buy: false, sz: '2', target: '-2', delta: '-2' })
    // The sell's limit: best bid 2399.5 less 1 %, rounded up to the cent.
    expect(p.kind === 'order' && p.px).toBe('2375.51')
  })

  test('delta is target minus the venue position; hedged is a skip', () => {
    expect(plan({ ...base, venuePosition: '2' })).toMatchObject({ kind: 'skip', reason: expect.stringContaining('hedged') })
    expect(plan({ ...base, venuePosition: '5' })).toMatchObject({ kind: 'order', is_buy: false, sz: '3', delta: '-3' })
    expect(plan({ ...base, ratio: '0.5', venuePosition: '-1' })).toMatchObject({ kind: 'order', is_buy: true, sz: '2', delta: '2' })
  })

  test('under the notional threshold: skipped (|delta| x mid, else our mark)', () => {
    expect(plan({ ...base, netSize: '0.004', thresholdNotional: '10' })).toMatchObject({
      kind: 'skip',
      reason: expect.stringContaining('threshold'),
    })
    expect(plan({ ...base, netSize: '0.005', thresholdNotional: '10' })).toMatchObject({ kind: 'order', sz: '0.005' })
    const noMid = { ...base, quote: { mid: null, best_bid: null, best_ask: '2400.5', ts_ms: 0 } }
    expect(plan({ ...noMid, netSize: '0.005', ourMark: '1000' })).toMatchObject({
      kind: 'skip',
      reason: expect.stringContaining('threshold'),
    })
    expect(plan({ ...noMid, ourMark: '0' })).toMatchObject({ kind: 'skip', reason: expect.stringContaining('no price') })
  })

  test("rounds to the venue's size decimals, half away from zero", () => {
    expect(plan({ ...base, netSize: '1.2345', thresholdNotional: '0' })).toMatchObject({ kind: 'order', sz: '1.235' })
    expect(plan({ ...base, netSize: '-1.2344', thresholdNotional: '0' })).toMatchObject({ kind: 'order', is_buy: false, sz: '1.234' })
    expect(plan({ ...base, netSize: '0.0004', thresholdNotional: '0' })).toMatchObject({
      kind: 'skip',
      reason: expect.stringContaining('rounds to 0'),
    })
  })

  test('under min_order_sz: not sent; over max_order_sz: cut to it', () => {
    expect(plan({ ...base, minOrderSz: '2.5' })).toMatchObject({ kind: 'skip', reason: expect.stringContaining('min_order_sz') })
    expect(plan({ ...base, minOrderSz: '2' })).toMatchObject({ kind: 'order', sz: '2' })
    expect(plan({ ...base, maxOrderSz: '0.75' })).toMatchObject({ kind: 'order', sz: '0.75', delta: '2' })
    expect(plan({ ...base, maxOrderSz: '0.0001' })).toMatchObject({ kind: 'skip', reason: expect.stringContaining('max_order_sz') })
  })

  test('the limit price: the best price moved by the slippage bound, toward the order, at the price decimals', () => {
    expect(plan({ ...base, maxSlippageBps: 0 })).toMatchObject({ px: '2400.5' })
    expect(plan({ ...base, quote: { mid: '100', best_bid: '99.99', best_ask: '100.01', ts_ms: 0 }, maxSlippageBps: 33 })).toMatchObject({
      px: '100.34', // 100.01 x 1.0033 = 100.340033, rounded down
    })
    expect(
      plan({ ...base, mode: 'reverse', quote: { mid: '100', best_bid: '99.99', best_ask: '100.01', ts_ms: 0 }, maxSlippageBps: 33 }),
    ).toMatchObject({ px: '99.67' }) // 99.99 x 0.9967 = 99.660033, rounded up
    expect(plan({ ...base, quote: { mid: '2400', best_bid: '2399', best_ask: null, ts_ms: 0 } })).toMatchObject({
      kind: 'skip',
      reason: expect.stringContaining('no ask'),
    })
  })
})
