// toUnits reads most values through decimalUnits (no BigInt) and the rest through parseDecimal:
// either way the same units, and a value the chain could not have written still stops the feed.
import { describe, expect, test } from 'bun:test'
import { fromUnits, toUnits } from './units.ts'

describe('toUnits', () => {
  test('positive values, zero and negatives give their units at the precision', () => {
    expect(toUnits('65000.5', 1)).toBe(650_005)
    expect(toUnits('65000.5', 3)).toBe(65_000_500)
    expect(toUnits('0.001', 3)).toBe(1)
    expect(toUnits('0', 6)).toBe(0)
    expect(toUnits('-12.25', 2)).toBe(-1_225)
    expect(toUnits('9007199254740991', 0)).toBe(Number.MAX_SAFE_INTEGER)
  })

  test('every value fromUnits writes reads back', () => {
    for (const decimals of [0, 1, 3, 6, 12])
      for (const units of [0, 1, 7, 10, 999, 1_000_000, 123_456_789, -5, -1_000_001, 2 ** 53 - 1])
        expect(toUnits(fromUnits(units, decimals), decimals)).toBe(units)
  })

  test('a value more precise than the market, beyond the safe integers or not a decimal is a bug upstream', () => {
    expect(() => toUnits('0.0001', 3)).toThrow(/bad decimal/)
    expect(() => toUnits('9007199254740993', 0)).toThrow(/beyond the safe integer range/)
    expect(() => toUnits('1e3', 0)).toThrow(/bad decimal/)
    expect(() => toUnits(7 as unknown as string, 0)).toThrow(/expected a decimal string/)
  })
})
