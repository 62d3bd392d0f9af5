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
    if (!/^-?\d+$/.test(text)) assert(false, `not a decimal: ${text}`)
    return BigInt(text + ZEROS.slice(0, decimals))
  }
  const fracLength = text.length - dot - 1
  if (fracLength <= 0 || fracLength > decimals) assert(false, `not a decimal at ${decimals} places: ${text}`)
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

/**
 * Compares two decimal strings of the chain's making (optional '-', digits, optional fraction,
 * no leading zeros, no trailing fractional zeros) without parsing them: -1, 0 or 1.
 */
export function compareDecimals(a: string, b: string): number {
  const negA = a.charCodeAt(0) === 45
  const negB = b.charCodeAt(0) === 45
  if (negA !== negB) return negA ? -1 : 1
  const m = compareMagnitudes(negA ? a.slice(1) : a, negB ? b.slice(1) : b)
  return negA ? -m : m
}

function compareMagnitudes(a: string, b: string): number {
  const dotA = a.indexOf('.')
  const dotB = b.indexOf('.')
  const intA = dotA < 0 ? a.length : dotA
  const intB = dotB < 0 ? b.length : dotB
  if (intA !== intB) return intA < intB ? -1 : 1
  // Same integer length: digit strings compare like numbers once the shorter fraction is padded.
  const fracA = dotA < 0 ? '' : a.slice(dotA + 1)
  const fracB = dotB < 0 ? '' : b.slice(dotB + 1)
  const width = Math.max(fracA.length, fracB.length)
  const x = a.slice(0, intA) + fracA.padEnd(width, '0')
  const y = b.slice(0, intB) + fracB.padEnd(width, '0')
  return x === y ? 0 : x < y ? -1 : 1
}

/** The sign of a decimal string of the chain's making: -1, 0 or 1. */
export const signOf = (a: string): number => (a.charCodeAt(0) === 45 ? -1 : a === '0' ? 0 : 1)
