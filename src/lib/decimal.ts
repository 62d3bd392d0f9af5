/**
 * Decimal strings: the one grammar of prices, sizes and amounts (docs/protocol.md#decimal-strings),
 * and every reading and writing of it. They travel as strings of the form
 *
 *     -? ( "0" | [1-9][0-9]* ) ( "." [0-9]+ )?      at most 40 characters, the sign only where allowed
 *
 * and become fixed-point integers here. Anything ambiguous (exponents, a leading `+`, stray
 * whitespace, leading zeros, a bare point) or more precise than the field allows is refused with a
 * clear error instead of being rounded, because a silent rounding changes what the user signed.
 * Trailing fractional zeros change nothing: "65000.50" is 65000.5.
 *
 * decimalPoint below is the grammar, and everything else reads through it:
 *  - parseDecimal: a string to an integer count of 10^-decimals units (a bigint), or the error;
 *  - packDecimal: a positive decimal packed into one number (digits and places) without knowing the
 *    field's precision, which the node's edge does for the busy order actions so the chain reads
 *    those decimals with one multiplication (decimalUnits) instead of the string
 *    (src/node/edge-envelope.ts); the chain's number path for any other string packs it on the spot;
 *  - decimalPattern: the grammar as the wire schemas' JSON Schema pattern (decimal.test.ts holds the
 *    pattern to decimalPoint).
 * formatDecimal writes the normal form (no trailing fractional zeros, no bare point, no "-0"), the
 * one NORMAL_DECIMAL_PATTERN and SIGNED_NORMAL_DECIMAL_PATTERN describe.
 */

/** Outcome of {@link parseDecimal}: the fixed-point value, or why the string was refused. */
export type DecimalResult = { ok: true; value: bigint } | { ok: false; error: 'syntax' | 'precision' | 'range'; message: string }

/** Longest accepted string; bounds the work done on untrusted input before any bigint math. */
export const DECIMAL_MAX_LENGTH = 40

/** Fixed-point results must fit a signed 64-bit integer (|value| < 2^63). */
const LIMIT = 1n << 63n

/** decimalPoint's answer for a string outside the grammar. */
const NOT_DECIMAL = -1

const isDigit = (c: number): boolean => c >= 48 && c <= 57 // '0'..'9'

/**
 * The grammar: where the integer digits of s end (the index of its point, or its length when it has
 * none) when s is a decimal string, else NOT_DECIMAL. A leading "-" is read only if allowNegative.
 */
function decimalPoint(s: string, allowNegative: boolean): number {
  const len = s.length
  if (len > DECIMAL_MAX_LENGTH) return NOT_DECIMAL
  let i = allowNegative && s.charCodeAt(0) === 45 ? 1 : 0 // '-'
  if (i === len) return NOT_DECIMAL // empty, or a bare sign
  const first = s.charCodeAt(i++)
  // "0" stands alone before the point; any other integer part starts with 1-9.
  if (first !== 48) {
    if (first < 49 || first > 57) return NOT_DECIMAL
    while (i < len && isDigit(s.charCodeAt(i))) i++
  }
  if (i === len) return len
  if (s.charCodeAt(i) !== 46) return NOT_DECIMAL // '.'
  const point = i++
  if (i === len) return NOT_DECIMAL // "1." has no fraction digits
  for (; i < len; i++) if (!isDigit(s.charCodeAt(i))) return NOT_DECIMAL
  return point
}

/** The places a decimal string needs: its fraction digits up to the last non-zero one. */
function placesOf(s: string, point: number): number {
  let end = s.length
  while (end > point + 1 && s.charCodeAt(end - 1) === 48) end--
  return end > point ? end - point - 1 : 0
}

/** Short, printable rendering of untrusted input for an error message. */
function quote(s: string): string {
  return JSON.stringify(s.length > DECIMAL_MAX_LENGTH ? `${s.slice(0, DECIMAL_MAX_LENGTH)}…` : s)
}

/**
 * Parses a decimal string into an integer count of 10^-`decimals` units: ("65000.5", 1) -> 650005n.
 * Extra fractional digits are accepted only when they are zeros ("65000.50" at 1 decimal).
 */
export function parseDecimal(s: string, decimals: number, opts?: { allowNegative?: boolean }): DecimalResult {
  if (!Number.isSafeInteger(decimals) || decimals < 0) throw new RangeError(`parseDecimal: invalid decimals ${decimals}`)
  if (typeof s !== 'string') return { ok: false, error: 'syntax', message: 'expected a decimal string' }
  if (s.length === 0) return { ok: false, error: 'syntax', message: 'empty decimal string' }
  if (s.length > DECIMAL_MAX_LENGTH) {
    return { ok: false, error: 'syntax', message: `${quote(s)} is longer than ${DECIMAL_MAX_LENGTH} characters` }
  }
  const allowNegative = opts?.allowNegative === true
  const point = decimalPoint(s, allowNegative)
  if (point === NOT_DECIMAL) {
    const what = !allowNegative && s.startsWith('-') ? 'must not be negative' : 'is not a plain decimal number'
    return { ok: false, error: 'syntax', message: `${quote(s)} ${what}` }
  }
  // Digits past the precision are tolerated only as trailing zeros, which change nothing.
  const places = placesOf(s, point)
  if (places > decimals) {
    return { ok: false, error: 'precision', message: `${quote(s)} has more than ${decimals} decimal places` }
  }
  const negative = s.charCodeAt(0) === 45
  const digits = s.slice(negative ? 1 : 0, point) + s.slice(point + 1, point + 1 + places)
  const magnitude = BigInt(digits + '0'.repeat(decimals - places))
  if (magnitude >= LIMIT) {
    return { ok: false, error: 'range', message: `${quote(s)} is out of range` }
  }
  return { ok: true, value: negative ? -magnitude : magnitude }
}

/** packDecimal's answer for a string it does not pack: the chain parses the string itself. */
export const NOT_PACKED = -1

/** Places sit below the digits: digits * 16 + places. Market precisions are 0-12. */
const PLACES_RADIX = 16
const PLACES_MAX = 12
/** Digits below 2^49 keep digits * 16 + places, and every step of reading them, exact below 2^53. */
const DIGITS_PACKABLE_MAX = 2 ** 49
/** 10^0 to 10^15, exact: decimalUnits reads up to 10^PLACES_MAX, formatDecimal up to 10^POW10_MAX. */
const POW10_MAX = 15
const POW10: readonly number[] = Array.from({ length: POW10_MAX + 1 }, (_, k) => 10 ** k)

/**
 * A positive decimal string (the grammar, unsigned) packed into one number without knowing the
 * field's precision: its significant digits and its places after the point, trailing zeros dropped,
 * as digits * 16 + places ("65000.50" -> 650005 * 16 + 1). NOT_PACKED for anything else: not such a
 * string, zero, more than 12 places, or digits of 2^49 or more.
 */
export function packDecimal(s: unknown): number {
  if (typeof s !== 'string') return NOT_PACKED
  const point = decimalPoint(s, false)
  if (point === NOT_DECIMAL) return NOT_PACKED
  const places = placesOf(s, point)
  if (places > PLACES_MAX) return NOT_PACKED
  let digits = 0
  for (let i = 0; i < point; i++) digits = digits * 10 + (s.charCodeAt(i) - 48)
  for (let i = point + 1; i <= point + places; i++) digits = digits * 10 + (s.charCodeAt(i) - 48)
  // Exact while below 2^49; a longer run rounds, but never back below it.
  if (digits === 0 || digits >= DIGITS_PACKABLE_MAX) return NOT_PACKED
  return digits * PLACES_RADIX + places
}

/**
 * A positive decimal at `decimals` places as a count of units that is a safe integer (what
 * parseDecimal gives, as a number), read from its packed form: `packed` when the edge packed s
 * (packDecimal(s)), else packed here. -1 when parseDecimal must decide, and word any error: s is not
 * a positive decimal, is more precise than `decimals`, or is too large to pack or to be safe.
 */
export function decimalUnits(s: string, decimals: number, packed?: number): number {
  const p = packed ?? packDecimal(s)
  if (p < 0) return -1
  const places = p % PLACES_RADIX
  if (places > decimals) return -1
  const units = ((p - places) / PLACES_RADIX) * POW10[decimals - places]!
  return units <= Number.MAX_SAFE_INTEGER ? units : -1
}

const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * Minimal decimal string of a fixed-point value: (650005n, 1) -> "65000.5", (0n, 6) -> "0".
 * Trailing fractional zeros and a bare trailing dot are dropped; negatives get a leading "-".
 *
 * A value within the safe integers (every price, size and SCALE_6 amount of an event body) is
 * written with number arithmetic: the integer and fractional parts by % and /, exact below 2^53,
 * and the fraction's leading zeros from 10^places + fraction. Twice as fast as the digit string
 * padded and cut (128-231 against 355-421 ns a value), which was a tenth of the block thread's time
 * under 50-order batches (CPU profile of scripts/bench/actions.ts --mode batch); any other value
 * takes that way (formatDigits).
 */
export function formatDecimal(v: bigint | number, decimals: number): string {
  if (!Number.isSafeInteger(decimals) || decimals < 0) throw new RangeError(`formatDecimal: invalid decimals ${decimals}`)
  let n: number
  if (typeof v === 'number') {
    // Any other number is refused by BigInt() as it always was.
    if (!Number.isSafeInteger(v)) return formatDigits(BigInt(v), decimals)
    n = v
  } else {
    if (v > SAFE_MAX || v < -SAFE_MAX) return formatDigits(v, decimals)
    n = Number(v)
  }
  // Places written with number arithmetic: 10^15 + a fraction below it stays exact.
  if (decimals > POW10_MAX) return formatDigits(n, decimals)
  const negative = n < 0
  const magnitude = negative ? -n : n
  const unit = POW10[decimals]!
  let fraction = magnitude % unit
  const integer = (magnitude - fraction) / unit
  if (fraction === 0) return negative ? `-${integer}` : `${integer}`
  let places = decimals
  while (fraction % 10 === 0) {
    fraction /= 10
    places--
  }
  // 10^places + fraction has places + 1 digits: the fraction's with its leading zeros, after a 1.
  const body = `${integer}.${(POW10[places]! + fraction).toString().slice(1)}`
  return negative ? `-${body}` : body
}

/** formatDecimal from the digit string, for any value. */
function formatDigits(v: bigint | number, decimals: number): string {
  const negative = v < 0
  const digits = (negative ? -v : v).toString()
  if (decimals === 0) return negative ? `-${digits}` : digits
  const padded = digits.padStart(decimals + 1, '0')
  const intPart = padded.slice(0, padded.length - decimals)
  let end = padded.length
  while (end > intPart.length && padded.charCodeAt(end - 1) === 48) end--
  const body = end > intPart.length ? `${intPart}.${padded.slice(intPart.length, end)}` : intPart
  return negative ? `-${body}` : body
}

/**
 * The grammar as a JSON Schema pattern, for the wire's schemas (with maxLength DECIMAL_MAX_LENGTH):
 * unsigned unless `signed`; at most `integerDigits` digits before the point and `decimals` after it
 * when given (a schema may bound them tighter than the grammar).
 */
export function decimalPattern(opts: { signed?: boolean; integerDigits?: number; decimals?: number } = {}): string {
  const sign = opts.signed === true ? '-?' : ''
  const moreDigits = opts.integerDigits === undefined ? '*' : `{0,${opts.integerDigits - 1}}`
  const fraction = opts.decimals === undefined ? '+' : `{1,${opts.decimals}}`
  return `^${sign}(0|[1-9][0-9]${moreDigits})(\\.[0-9]${fraction})?$`
}

/** The normal form formatDecimal writes of a value >= 0, as a JSON Schema pattern. */
export const NORMAL_DECIMAL_PATTERN = '^(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?$'
/** The normal form formatDecimal writes of any value (never "-0"), as a JSON Schema pattern. */
export const SIGNED_NORMAL_DECIMAL_PATTERN = '^(0|-?[1-9][0-9]*(\\.[0-9]*[1-9])?|-?0\\.[0-9]*[1-9])$'
