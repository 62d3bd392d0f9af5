// decimalUnits against parseDecimal, the definition: whenever the fast path answers, parseDecimal
// accepts the same string with the same value.
import { describe, expect, test } from 'bun:test'
import { parseDecimal } from '../../lib/decimal.ts'
import { decimalUnits } from './fast-decimal.ts'
import { Rng } from '../../../test/support/chain/test-chain.ts'

function agree(s: string, decimals: number): number {
  const fast = decimalUnits(s, decimals)
  if (fast !== -1) {
    const slow = parseDecimal(s, decimals)
    expect({ s, decimals, slow: slow.ok ? slow.value : slow.message }).toEqual({ s, decimals, slow: BigInt(fast) })
  }
  return fast
}

describe('decimalUnits', () => {
  test('examples', () => {
    const rows: [string, number, number][] = [
      ['65000', 1, 650000], ['65000.5', 1, 650005], ['65000.50', 1, 650005], ['0.0001', 4, 1], ['1', 0, 1], ['0.5', 3, 500],
      ['123456789012345', 0, 123456789012345], ['1234567890123456', 0, -1], ['12345678901234', 2, -1],
      ['0', 2, -1], ['0.00', 2, -1], ['00.5', 1, -1], ['.5', 1, -1], ['5.', 1, -1], ['-1', 0, -1], ['+1', 0, -1], ['1e3', 0, -1],
      [' 1', 0, -1], ['1 ', 0, -1], ['1.5.5', 2, -1], ['0.05', 1, -1], ['1,5', 1, -1], ['', 0, -1], ['01', 0, -1],
    ]
    for (const [s, decimals, units] of rows) expect({ s, units: agree(s, decimals) }).toEqual({ s, units })
  })

  test('random strings agree with parseDecimal, and plain ones take the fast path', () => {
    const rng = new Rng(9)
    const alphabet = '0123456789.-+e '
    let fast = 0
    for (let i = 0; i < 200_000; i++) {
      const decimals = rng.range(0, 12)
      let s: string
      if (rng.chance(50)) {
        s = Array.from({ length: rng.range(0, 18) }, () => alphabet[rng.int(rng.chance(80) ? 11 : alphabet.length)]).join('')
      } else {
        const int = String(rng.range(0, 10 ** rng.range(0, 9)))
        const frac = rng.chance(70) ? '.' + String(rng.range(0, 10 ** rng.range(1, 8))).padStart(rng.range(1, 8), '0') : ''
        s = int + frac
      }
      if (agree(s, decimals) > 0) fast++
    }
    expect(fast).toBeGreaterThan(40_000)
  })
})
