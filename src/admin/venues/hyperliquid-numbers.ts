// Hyperliquid's number rules for perpetuals: prices and sizes travel as decimal strings with no
// trailing zeros (the SDK's float_to_wire: "100", never "100.0"), a size has at most the coin's
// szDecimals decimals, and a price at most 5 significant figures (an integer price is always
// valid) and at most 6 - szDecimals decimals. The arithmetic is exact: a string becomes a bigint
// count of 10^-18, never a float, so rounding happens once and where we say.

/** Decimals of the fixed-point values here: finer than any price, size or notional Hyperliquid sends. */
export const FIXED_DECIMALS = 18
const ONE = 10n ** BigInt(FIXED_DECIMALS)
/** Decimals a perpetual's price may have before szDecimals is taken off. */
export const PERP_MAX_DECIMALS = 6
/** Significant figures a non-integer price may have. */
export const PRICE_SIG_FIGS = 5

const NUMBER = /^(-?)(\d{1,30})(?:\.(\d{1,30}))?$/

/** A decimal string (Hyperliquid's `"29792.0"`, ours `"0.5"`) as a count of 10^-18, or undefined when it is not one. */
export function parseFixed(s: string): bigint | undefined {
  if (typeof s !== 'string') return undefined
  const m = NUMBER.exec(s)
  if (m === null) return undefined
  const fraction = m[3] ?? ''
  if (fraction.length > FIXED_DECIMALS) return undefined
  const v = BigInt(m[2]!) * ONE + BigInt(fraction.padEnd(FIXED_DECIMALS, '0') || '0')
  return m[1] === '-' ? -v : v
}

/** Like {@link parseFixed}, throwing a message naming `what` for anything else. */
export function fixed(s: string, what: string): bigint {
  const v = parseFixed(s)
  if (v === undefined) throw new Error(`${what} is not a decimal number: ${JSON.stringify(String(s).slice(0, 40))}`)
  return v
}

/** The wire form of a fixed-point value: no trailing zeros, no bare point, no "-0" (float_to_wire's output). */
export function formatFixed(v: bigint): string {
  const negative = v < 0n
  const abs = negative ? -v : v
  const int = abs / ONE
  let frac = (abs % ONE).toString().padStart(FIXED_DECIMALS, '0')
  frac = frac.replace(/0+$/, '')
  const body = frac === '' ? int.toString() : `${int}.${frac}`
  return negative && abs !== 0n ? `-${body}` : body
}

/** A decimal string in wire form ("100.0" → "100", "0.01470" → "0.0147"); throws for anything else. */
export function toWire(s: string, what = 'number'): string {
  return formatFixed(fixed(s, what))
}

/** Products and quotients of fixed-point values, truncated toward zero. */
export const mulFixed = (a: bigint, b: bigint): bigint => (a * b) / ONE
export const divFixed = (a: bigint, b: bigint): bigint => (a * ONE) / b

/** Rounds a non-negative value to `decimals` places: half up, or down when `down`. */
function roundTo(v: bigint, decimals: number, down: boolean): bigint {
  const step = 10n ** BigInt(FIXED_DECIMALS - decimals)
  const rest = v % step
  if (rest === 0n) return v
  const floor = v - rest
  return !down && rest * 2n >= step ? floor + step : floor
}

/** Places that keep `sigFigs` significant figures of a positive value (may be negative: whole tens). */
function placesForSigFigs(v: bigint, sigFigs: number): number {
  const intDigits = v >= ONE ? (v / ONE).toString().length : 0
  if (intDigits > 0) return sigFigs - intDigits
  // Below 1: count the leading fractional zeros.
  const frac = v.toString().padStart(FIXED_DECIMALS, '0')
  const zeros = frac.length - frac.replace(/^0+/, '').length
  return zeros + sigFigs
}

/**
 * The price Hyperliquid accepts nearest to `px` (half up): 5 significant figures, at most
 * 6 - szDecimals decimals, an integer price kept as it is. Undefined when it rounds to zero.
 */
export function roundPrice(px: string, szDecimals: number): string | undefined {
  const v = fixed(px, 'price')
  if (v <= 0n) return undefined
  const maxDecimals = Math.max(0, PERP_MAX_DECIMALS - szDecimals)
  let out: bigint
  if (v % ONE === 0n) out = v
  else {
    const sig = placesForSigFigs(v, PRICE_SIG_FIGS)
    // A price of 5 or more integer digits keeps its integer part (whole prices are always valid).
    out = roundTo(v, Math.min(maxDecimals, Math.max(0, sig)), false)
    // Rounding up may add a digit (99999.5 → 100000): still valid, an integer.
  }
  return out > 0n ? formatFixed(out) : undefined
}

/** Whether Hyperliquid accepts `px` as the price of a coin with `szDecimals` (what the venue checks). */
export function isValidPrice(px: string, szDecimals: number): boolean {
  const v = parseFixed(px)
  if (v === undefined || v <= 0n) return false
  if (v % ONE === 0n) return true
  const places = formatFixed(v).split('.')[1]?.length ?? 0
  if (places > Math.max(0, PERP_MAX_DECIMALS - szDecimals)) return false
  return significantFigures(v) <= PRICE_SIG_FIGS
}

function significantFigures(v: bigint): number {
  return formatFixed(v).replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length
}

/** A size rounded toward zero to szDecimals places (never more than asked); undefined when that is zero. */
export function roundSize(sz: string, szDecimals: number): string | undefined {
  const v = fixed(sz, 'size')
  if (v <= 0n) return undefined
  const out = roundTo(v, szDecimals, true)
  return out > 0n ? formatFixed(out) : undefined
}

/** Whether `sz` is a positive size with at most szDecimals decimals. */
export function isValidSize(sz: string, szDecimals: number): boolean {
  const v = parseFixed(sz)
  return v !== undefined && v > 0n && roundTo(v, szDecimals, true) === v
}
