// Source prices arrive at any precision; the chain refuses more decimals than a market's
// price_decimals (docs/protocol.md#decimal-strings) rather than rounding. The oracle therefore
// rounds, and does it conservatively: the bid down and the ask up (the quoted spread never
// narrows), the mark to nearest.
import { formatDecimal } from '../../lib/decimal.ts'

/** Which way a dropped fraction goes. */
export type Rounding = 'down' | 'up' | 'nearest'

const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/

/** `value` rounded to `decimals` places, as a minimal decimal string; undefined when not a plain decimal. */
export function roundDecimal(value: string, decimals: number, rounding: Rounding): string | undefined {
  const m = DECIMAL.exec(value)
  if (m === null) return undefined
  const frac = m[2] ?? ''
  const kept = BigInt(m[1]! + frac.slice(0, decimals).padEnd(decimals, '0'))
  const rest = frac.slice(decimals)
  let units = kept
  if (/[1-9]/.test(rest)) {
    if (rounding === 'up') units++
    // Half away from zero: the first dropped digit decides.
    else if (rounding === 'nearest' && rest.charCodeAt(0) >= 53) units++
  }
  return formatDecimal(units, decimals)
}

/** A quote's prices at the market's precision: bid down, ask up, mark nearest (so a mark inside [bid, ask] stays inside). */
export function roundQuote(
  p: { bid: string; ask: string; mark: string },
  decimals: number,
): { bid: string; ask: string; mark: string } | undefined {
  const bid = roundDecimal(p.bid, decimals, 'down')
  const ask = roundDecimal(p.ask, decimals, 'up')
  const mark = roundDecimal(p.mark, decimals, 'nearest')
  if (bid === undefined || ask === undefined || mark === undefined) return undefined
  return { bid, ask, mark }
}
