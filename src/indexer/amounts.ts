// Decimal strings of event bodies <-> integers, for the index. Money (SCALE_6) is stored as INTEGER
// so SQLite can sum it exactly; prices and sizes keep their decimal strings (a market's decimals are
// not needed: comparing and summing them happens at SCALE_12, the most decimals a market may use).
import { assert } from '../lib/assert.ts'
import { formatDecimal, parseDecimal } from '../lib/decimal.ts'

/** The most decimals a market's price or size may have (chain LIMITS.decimalsMax). */
export const FINE_DECIMALS = 12

/** A SCALE_6 decimal string (may be negative) as bigint units. */
export function units6(s: unknown): bigint {
  const r = parseDecimal(String(s), 6, { allowNegative: true })
  assert(r.ok, `not a SCALE_6 amount: ${String(s)}`)
  return r.value
}

/** A price or size decimal string (may be negative) as bigint units of 10^-12. */
export function fine(s: unknown): bigint {
  const r = parseDecimal(String(s), FINE_DECIMALS, { allowNegative: true })
  assert(r.ok, `not a decimal: ${String(s)}`)
  return r.value
}

/** Units of 10^-12 back to the minimal decimal string (the same string the market would print). */
export const fineString = (v: bigint) => formatDecimal(v, FINE_DECIMALS)

/** A SCALE_6 INTEGER read from SQLite as text (CAST(x AS TEXT), exact beyond 2^53) to its decimal string. */
export const money = (text: string | number | bigint | null) => (text === null ? '0' : formatDecimal(BigInt(text), 6))

/** Rounds a/b toward zero at `decimals` places and formats it; "0" when b is 0. */
export function ratioString(a: bigint, b: bigint, decimals: number): string {
  if (b === 0n) return '0'
  return formatDecimal((a * 10n ** BigInt(decimals)) / b, decimals)
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** A bigint as SQLite binds it fastest: a number when exact, else the bigint. */
export const sqlInt = (v: bigint): number | bigint => (v <= SAFE && v >= -SAFE ? Number(v) : v)
