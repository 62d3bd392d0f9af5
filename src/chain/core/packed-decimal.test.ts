import { describe, expect, test } from 'bun:test'
import { parseDecimal } from '../../lib/decimal.ts'
import { mulberry32 } from '../../lib/prng.ts'
import { decimalUnits } from './fast-decimal.ts'
import { NOT_PACKED, packDecimal, unitsFromPacked } from './packed-decimal.ts'

/** What the chain's own parser makes of s at decimals: the units, or undefined when it rejects. */
function chainUnits(s: string, decimals: number): number | undefined {
  const fast = decimalUnits(s, decimals)
  if (fast > 0) return fast
  const v = parseDecimal(s, decimals)
  if (!v.ok || v.value <= 0n || v.value > BigInt(Number.MAX_SAFE_INTEGER)) return undefined
  return Number(v.value)
}

/** Strings near the grammar's edges: leading zeros, points, trailing zeros, long digit runs, junk. */
function randomDecimal(next: () => number): string {
  const pieces = ['0', '00', '1', '9', '65000', '123456789012345', '9007199254740993', '.', '.', '5', '50', '000', '0001', '-', 'e3', ' ', '1e', '٣']
  let s = ''
  const n = 1 + (next() % 5)
  for (let i = 0; i < n; i++) s += pieces[next() % pieces.length]
  return s
}

describe('decimals packed at the edge', () => {
  test('give the units the chain parses, or leave the string to it', () => {
    const next = mulberry32(5)
    let packedUsed = 0
    for (let i = 0; i < 200_000; i++) {
      const s = randomDecimal(next)
      const decimals = next() % 13
      const fromEdge = unitsFromPacked(packDecimal(s), decimals)
      if (fromEdge > 0) {
        packedUsed++
        expect({ s, decimals, units: fromEdge }).toEqual({ s, decimals, units: chainUnits(s, decimals)! })
      } else {
        expect(fromEdge).toBe(-1)
      }
      // What the chain's fast path takes, the edge takes too (so the common case never re-reads the
      // string), up to the 2^49 digits that pack exactly.
      const fast = decimalUnits(s, decimals)
      if (fast > 0 && fast < 2 ** 49) expect({ s, decimals, units: fromEdge }).toEqual({ s, decimals, units: decimalUnits(s, decimals) })
    }
    expect(packedUsed).toBeGreaterThan(10_000)
  })

  test('pack the plain decimals of orders, trailing zeros dropped', () => {
    expect(packDecimal('65000.5')).toBe(650005 * 16 + 1)
    expect(packDecimal('65000.50')).toBe(650005 * 16 + 1)
    expect(packDecimal('65000')).toBe(65000 * 16)
    expect(packDecimal('0.001')).toBe(1 * 16 + 3)
    expect(unitsFromPacked(packDecimal('65000.5'), 1)).toBe(650005)
    expect(unitsFromPacked(packDecimal('65000.5'), 3)).toBe(65000500)
    // More precise than the market: the chain's parser words the rejection.
    expect(unitsFromPacked(packDecimal('65000.55'), 1)).toBe(-1)
    for (const s of ['0', '0.000', '', '01', '1.', '.5', '-1', '1e3', ' 1', '1.5.5', '1234567890123456', '0.0000000000001']) {
      expect({ s, packed: packDecimal(s) }).toEqual({ s, packed: NOT_PACKED })
    }
    expect(packDecimal(12)).toBe(NOT_PACKED)
    expect(unitsFromPacked(undefined, 2)).toBe(-1)
  })
})
