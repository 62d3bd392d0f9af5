// Integer money math. Every division names its rounding; fees round against the payer.
import { BPS_DENOMINATOR, type Market } from './types.ts'

/** Floor division for bigints (toward negative infinity). */
export function divFloor(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q
}

/** Ceiling division for bigints (toward positive infinity). */
export function divCeil(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a < 0n === b < 0n ? q + 1n : q
}

export const absBig = (a: bigint): bigint => (a < 0n ? -a : a)

/** The divisor and multiplier that turn ticks x lots into SCALE_6 notional for given decimals. */
export function notionalScale(priceDecimals: number, sizeDecimals: number): { divisor: bigint; multiplier: bigint } {
  const exponent = priceDecimals + sizeDecimals - 6
  return exponent >= 0 ? { divisor: 10n ** BigInt(exponent), multiplier: 1n } : { divisor: 1n, multiplier: 10n ** BigInt(-exponent) }
}

// Fast paths. Bigint arithmetic allocates, and the order path does a lot of it, so the functions
// below compute in doubles when every operand and result is a safe integer (below 2^53), where
// double arithmetic on integers is exact: products and sums are exact, and for |a| < 2^53 and an
// integer b >= 1, floor, ceil and trunc of the rounded quotient a / b equal those of the exact one
// (a non-integer quotient is at least 1/b from the nearest integer, more than half an ulp of a / b).
// math.test.ts checks each function against bigint arithmetic around the 2^53 boundary.
// Otherwise they fall back to bigints; the results are the same either way. A bigint is tested by
// converting it: Number(x) is exact when |x| < 2^53 and rounds to at least 2^53 in magnitude
// otherwise, so `isSafe(Number(x))` holds exactly when x is a safe integer.

const MAX_SAFE = Number.MAX_SAFE_INTEGER
/** Whether x is within the safe-integer range (NaN is not): where integer double arithmetic is exact. */
export const isSafe = (x: number): boolean => x <= MAX_SAFE && x >= -MAX_SAFE

/** price x qty in SCALE_6 as a number when that is a safe integer, else -1 (use notionalOf). */
export function notionalNumber(market: Market, priceTicks: number, lots: number): number {
  const p = priceTicks * lots
  if (p > MAX_SAFE) return -1
  // notionalDivisorNumber and notionalMultiplierNumber are powers of ten of at most 10^12: exact.
  const n = market.notionalDivisorNumber === 1 ? p * market.notionalMultiplierNumber : Math.floor(p / market.notionalDivisorNumber)
  return n <= MAX_SAFE ? n : -1
}

/** price x qty in SCALE_6, truncated toward zero (a fill whose notional truncates to 0 is dust). */
export function notionalOf(market: Market, priceTicks: number, lots: number): bigint {
  const n = notionalNumber(market, priceTicks, lots)
  if (n >= 0) return BigInt(n)
  return (BigInt(priceTicks) * BigInt(lots) * market.notionalMultiplier) / market.notionalDivisor
}

/** floor(a x m / d) for integers m >= 0, d >= 1. */
export function mulDivFloor(a: bigint, m: number, d: number): bigint {
  const p = Number(a) * m
  if (isSafe(p) && isSafe(Number(a))) return BigInt(Math.floor(p / d))
  return divFloor(a * BigInt(m), BigInt(d))
}

/** (a x m / d) rounded toward zero, for integers m >= 0, d >= 1; the sign of a. */
export function mulDivTrunc(a: bigint, m: number, d: number): bigint {
  const p = Number(a) * m
  if (isSafe(p) && isSafe(Number(a))) return BigInt(Math.trunc(p / d))
  return (a * BigInt(m)) / BigInt(d)
}

/** Whether price x qty truncates to a zero notional (dust). */
export function isDustNotional(market: Market, priceTicks: number, lots: number): boolean {
  const n = notionalNumber(market, priceTicks, lots)
  return n >= 0 ? n === 0 : notionalOf(market, priceTicks, lots) === 0n
}

/** Fee in SCALE_6 for a notional at a rate in bps, rounded up (against the payer). */
export function feeOf(notional: bigint, bps: number): bigint {
  if (bps === 0) return 0n
  const n = Number(notional)
  const p = n * bps
  if (isSafe(p) && isSafe(n)) return BigInt(Math.ceil(p / 10_000))
  return divCeil(notional * BigInt(bps), BPS_DENOMINATOR)
}

/** Margin for a notional at a leverage, rounded up (against the account). */
export function marginOf(notional: bigint, leverage: number): bigint {
  const n = Number(notional)
  if (isSafe(n)) return BigInt(Math.ceil(n / leverage))
  return divCeil(notional, BigInt(leverage))
}

/** marginOf for a notional given as a safe integer >= 0. */
export function marginOfNumber(notional: number, leverage: number): bigint {
  return BigInt(Math.ceil(notional / leverage))
}
