// Decimal strings of event bodies <-> integers, for the index. Money (SCALE_6) is stored as INTEGER
// so SQLite can sum it exactly; prices and sizes keep their decimal strings (a market's decimals are
// not needed: comparing and summing them happens at SCALE_12, the most decimals a market may use).
import { assert } from '../lib/assert.ts'
import { formatDecimal } from '../lib/decimal.ts'

/** The most decimals a market's price or size may have (chain LIMITS.decimalsMax). */
export const FINE_DECIMALS = 12

const ZEROS = '000000000000'

/**
 * A decimal string of the chain's own making (formatDecimal: optional '-', digits, optional
 * fraction) as bigint units of 10^-decimals. The index reads only what the node wrote, so this
 * is the fast path: no regex, one BigInt; anything else is a bug and fails loudly.
 */
function scaled(s: unknown, decimals: number): bigint {
  const text = String(s)
  const dot = text.indexOf('.')
  if (dot < 0) {
    assert(/^-?\d+$/.test(text), `not a decimal: ${text}`)
    return BigInt(text + ZEROS.slice(0, decimals))
  }
  const fracLength = text.length - dot - 1
  assert(fracLength > 0 && fracLength <= decimals, `not a decimal at ${decimals} places: ${text}`)
  return BigInt(text.slice(0, dot) + text.slice(dot + 1) + ZEROS.slice(0, decimals - fracLength))
}

/** A SCALE_6 decimal string (may be negative) as bigint units. */
export const units6 = (s: unknown): bigint => scaled(s, 6)

/** A price or size decimal string (may be negative) as bigint units of 10^-12. */
export const fine = (s: unknown): bigint => scaled(s, FINE_DECIMALS)

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
