// A fast path for the decimal strings of PlaceOrder. lib/decimal.ts parseDecimal is the
// definition (a regular expression, then bigints); every order carries two decimals, so the
// common case, a short plain decimal, is parsed here with char codes and integer arithmetic.

/** At most this many digits are accumulated: 10^15 < 2^53, so every step is exact. */
const DIGITS_MAX = 15

/**
 * `s` at `decimals` places as a positive integer count of units (("65000.5", 1) -> 650005) when
 * s is a plain decimal of at most 15 significant digits that parseDecimal accepts with that value;
 * otherwise -1, and the caller asks parseDecimal (which also words the error). Zero gives -1 too.
 */
export function decimalUnits(s: string, decimals: number): number {
  if (typeof s !== 'string') return -1
  const len = s.length
  if (len === 0 || len > DIGITS_MAX + 2) return -1
  let value = 0
  let i = 0
  let c = s.charCodeAt(0)
  if (c === 48) {
    // "0" or "0.xxx": a leading zero may only stand alone before the point.
    i = 1
    if (len > 1 && s.charCodeAt(1) !== 46) return -1
  } else {
    for (;;) {
      if (c < 48 || c > 57) break
      value = value * 10 + (c - 48)
      if (++i === len) break
      c = s.charCodeAt(i)
    }
    if (i === 0) return -1 // starts with neither a digit nor a zero
    if (i < len && c !== 46) return -1 // the point is the only other character allowed
  }
  // The integer digits (none for "0") and all `decimals` places must fit DIGITS_MAX: checked once
  // here, as every digit accumulated below is one of those places.
  if ((value === 0 ? 0 : i) + decimals > DIGITS_MAX) return -1
  let places = 0
  if (i < len) {
    i++ // the point
    if (i === len) return -1 // "1." has no fraction digits
    for (; i < len; i++) {
      c = s.charCodeAt(i)
      if (c < 48 || c > 57) return -1
      if (places < decimals) {
        value = value * 10 + (c - 48)
        places++
      } else if (c !== 48) {
        return -1 // more precise than the market: parseDecimal says so
      }
    }
  }
  for (; places < decimals; places++) value *= 10
  return value > 0 ? value : -1
}
