// The two-part reserved margin against a plain bigint sum, around and beyond 2^53.
import { describe, expect, test } from 'bun:test'
import { mulberry32 } from '../../lib/prng.ts'
import { newAccount } from '../access/accounts.ts'
import { releaseMargin, reservedMarginNumber, reservedMarginOf, reserveMargin } from './reserved-margin.ts'

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)
/** An amount as Order.marginHeldUnits gives it: the exact number, or NaN beyond the safe integers. */
const unitsOf = (x: bigint): number => (x <= MAX_SAFE && x >= -MAX_SAFE ? Number(x) : NaN)

describe('reserved margin', () => {
  test('changes that stay safe integers live in the number part', () => {
    const a = newAccount('0xa', 0n, 0)
    reserveMargin(a, 325_000_000n, unitsOf(325_000_000n))
    reserveMargin(a, 7n, unitsOf(7n))
    releaseMargin(a, 325_000_000n, unitsOf(325_000_000n))
    expect([a.reservedMarginUnits, a.reservedMarginOverflow, reservedMarginOf(a), reservedMarginNumber(a)]).toEqual([7, 0n, 7n, 7])
  })

  test('a change or a sum beyond 2^53 goes to the bigint part, and the value stays exact', () => {
    const a = newAccount('0xa', 0n, 0)
    reserveMargin(a, MAX_SAFE, unitsOf(MAX_SAFE))
    reserveMargin(a, 10n, unitsOf(10n)) // the sum would leave the safe range
    expect([a.reservedMarginUnits, a.reservedMarginOverflow]).toEqual([Number.MAX_SAFE_INTEGER, 10n])
    expect(reservedMarginOf(a)).toBe(MAX_SAFE + 10n)
    expect(reservedMarginNumber(a)).toBeNaN()
    reserveMargin(a, 2n ** 80n, unitsOf(2n ** 80n)) // a change that is no safe integer itself
    expect(reservedMarginOf(a)).toBe(MAX_SAFE + 10n + 2n ** 80n)
    releaseMargin(a, 2n ** 80n, unitsOf(2n ** 80n))
    releaseMargin(a, MAX_SAFE, unitsOf(MAX_SAFE))
    expect(reservedMarginOf(a)).toBe(10n)
    expect(reservedMarginNumber(a)).toBe(10)
    releaseMargin(a, 10n, unitsOf(10n))
    expect(reservedMarginOf(a)).toBe(0n)
    expect(reservedMarginNumber(a)).toBe(0)
  })

  test('random changes of every size agree with a bigint sum', () => {
    const next = mulberry32(11)
    const a = newAccount('0xa', 0n, 0)
    let reference = 0n
    const live: bigint[] = []
    for (let i = 0; i < 20_000; i++) {
      if (live.length > 0 && next() % 3 === 0) {
        // Release a held amount, as an order leaving does.
        const at = next() % live.length
        const held = live[at]!
        live.splice(at, 1)
        releaseMargin(a, held, unitsOf(held))
        reference -= held
      } else {
        // Mostly small margins, some near and far beyond 2^53.
        const r = next() % 100
        const held =
          r < 90
            ? BigInt(next() % 1_000_000_000)
            : r < 97
              ? MAX_SAFE - BigInt(next() % 1000)
              : 2n ** BigInt(53 + (next() % 40)) + BigInt(next())
        live.push(held)
        reserveMargin(a, held, unitsOf(held))
        reference += held
      }
      expect(reservedMarginOf(a)).toBe(reference)
      const n = reservedMarginNumber(a)
      // Exact whenever the bigint part is empty; otherwise exact or NaN (a safe sum of an unsafe
      // bigint part and the number part is left to bigints), and NaN beyond the safe range.
      if (a.reservedMarginOverflow === 0n) expect(n).toBe(Number(reference))
      else if (reference <= MAX_SAFE && reference >= -MAX_SAFE) expect(Number.isNaN(n) || BigInt(n) === reference).toBe(true)
      else expect(n).toBeNaN()
    }
    for (const held of live) releaseMargin(a, held, unitsOf(held))
    expect(reservedMarginOf(a)).toBe(0n)
  })
})
