import { describe, expect, test } from 'bun:test'
import { roundDecimal, roundQuote } from './price-rounding.ts'

describe('roundDecimal', () => {
  test.each([
    ['2400.104', 2, 'down', '2400.1'],
    ['2400.104', 2, 'up', '2400.11'],
    ['2400.105', 2, 'nearest', '2400.11'],
    ['2400.1049', 2, 'nearest', '2400.1'],
    ['2400.1', 2, 'up', '2400.1'],
    ['2400.100000', 2, 'up', '2400.1'],
    ['0.00001', 3, 'up', '0.001'],
    ['0.00001', 3, 'down', '0'],
    ['75', 3, 'nearest', '75'],
    ['99.999', 2, 'up', '100'],
  ] as const)('%s at %d decimals, %s -> %s', (value, decimals, rounding, expected) => {
    expect(roundDecimal(value, decimals, rounding)).toBe(expected)
  })

  test('refuses what is not a plain decimal', () => {
    for (const v of ['', '-1', '1e5', '+1', '01', '1.', 'abc']) expect(roundDecimal(v, 2, 'down')).toBeUndefined()
  })
})

describe('roundQuote', () => {
  test('widens the spread, never narrows it, and keeps the mark inside', () => {
    expect(roundQuote({ bid: '2400.109', ask: '2400.101', mark: '2400.105' }, 2)).toEqual({
      bid: '2400.1',
      ask: '2400.11',
      mark: '2400.11',
    })
  })
})
