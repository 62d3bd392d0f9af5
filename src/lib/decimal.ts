/**
 * Strict decimal strings at the API edge (PROTOCOL §1). Prices, sizes and amounts travel as
 * strings and become fixed-point bigints here; anything ambiguous (exponents, a leading `+`,
 * stray whitespace, leading zeros) or more precise than the market allows is refused with a
 * clear error instead of being rounded, because a silent rounding changes what the user signed.
 */

/** Outcome of {@link parseDecimal}: the fixed-point value, or why the string was refused. */
export type DecimalResult =
  | { ok: true; value: bigint }
  | { ok: false; error: 'syntax' | 'precision' | 'range'; message: string };

/** Longest accepted string; bounds the work done on untrusted input before any bigint math. */
const MAX_LENGTH = 40;

/** Fixed-point results must fit a signed 64-bit integer (|value| < 2^63). */
const LIMIT = 1n << 63n;

// One "0" or a digit run without a leading zero, then an optional fraction with at least one digit.
const UNSIGNED = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;
const SIGNED = /^-?(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/** Short, printable rendering of untrusted input for an error message. */
function quote(s: string): string {
  return JSON.stringify(s.length > MAX_LENGTH ? s.slice(0, MAX_LENGTH) + '…' : s);
}

/**
 * Parses a decimal string into an integer count of 10^-`decimals` units: ("65000.5", 1) -> 650005n.
 * Extra fractional digits are accepted only when they are zeros ("65000.50" at 1 decimal).
 */
export function parseDecimal(s: string, decimals: number, opts?: { allowNegative?: boolean }): DecimalResult {
  if (!Number.isSafeInteger(decimals) || decimals < 0) throw new RangeError(`parseDecimal: invalid decimals ${decimals}`);
  if (typeof s !== 'string') return { ok: false, error: 'syntax', message: 'expected a decimal string' };
  if (s.length === 0) return { ok: false, error: 'syntax', message: 'empty decimal string' };
  if (s.length > MAX_LENGTH) {
    return { ok: false, error: 'syntax', message: `${quote(s)} is longer than ${MAX_LENGTH} characters` };
  }
  const allowNegative = opts?.allowNegative === true;
  const m = (allowNegative ? SIGNED : UNSIGNED).exec(s);
  if (m === null) {
    const what = !allowNegative && s.startsWith('-') ? 'must not be negative' : 'is not a plain decimal number';
    return { ok: false, error: 'syntax', message: `${quote(s)} ${what}` };
  }
  const intPart = m[1] as string;
  let frac = m[2] ?? '';
  if (frac.length > decimals) {
    // Digits past the precision are tolerated only as trailing zeros, which change nothing.
    for (let i = decimals; i < frac.length; i++) {
      if (frac.charCodeAt(i) !== 48) {
        return { ok: false, error: 'precision', message: `${quote(s)} has more than ${decimals} decimal places` };
      }
    }
    frac = frac.slice(0, decimals);
  }
  const magnitude = BigInt(intPart + frac.padEnd(decimals, '0'));
  if (magnitude >= LIMIT) {
    return { ok: false, error: 'range', message: `${quote(s)} is out of range` };
  }
  return { ok: true, value: s.charCodeAt(0) === 45 ? -magnitude : magnitude };
}

/**
 * Minimal decimal string of a fixed-point value: (650005n, 1) -> "65000.5", (0n, 6) -> "0".
 * Trailing fractional zeros and a bare trailing dot are dropped; negatives get a leading "-".
 */
export function formatDecimal(v: bigint, decimals: number): string {
  if (!Number.isSafeInteger(decimals) || decimals < 0) throw new RangeError(`formatDecimal: invalid decimals ${decimals}`);
  const negative = v < 0n;
  const digits = (negative ? -v : v).toString();
  if (decimals === 0) return negative ? '-' + digits : digits;
  const padded = digits.padStart(decimals + 1, '0');
  const intPart = padded.slice(0, padded.length - decimals);
  let end = padded.length;
  while (end > intPart.length && padded.charCodeAt(end - 1) === 48) end--;
  const body = end > intPart.length ? intPart + '.' + padded.slice(intPart.length, end) : intPart;
  return negative ? '-' + body : body;
}
