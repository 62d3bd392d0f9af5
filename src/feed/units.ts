// Decimal strings of event bodies <-> integer ticks and lots. Event bodies come from the chain, so a
// value that does not parse is a bug upstream and stops the feed's block (the hub logs it).
import { assert } from '../lib/assert.ts'
import { decimalUnits, formatDecimal, parseDecimal } from '../lib/decimal.ts'

/** A decimal string at `decimals` as an integer count of units (ticks or lots). */
export function toUnits(value: string, decimals: number): number {
  // The message only on failure: this runs for every price and size of the hot feed, and a template
  // argument is built on every call (its JSON.stringify was 0.6% of the block thread at capacity).
  if (typeof value !== 'string') assert(false, `expected a decimal string, got ${JSON.stringify(value)}`)
  // A positive value read without a BigInt, as parseDecimal would give it: 70-86 ns a call against
  // 250-370 (the hot feed reads two or three per resting order or fill); zero, a negative or
  // anything unusual takes the full parse.
  const units = decimalUnits(value, decimals)
  if (units >= 0) return units
  const r = parseDecimal(value, decimals, { allowNegative: true })
  assert(r.ok, `bad decimal ${value} at ${decimals} decimals`)
  const n = Number(r.value)
  assert(Number.isSafeInteger(n), `decimal ${value} is beyond the safe integer range`)
  return n
}

/** Integer units as the minimal decimal string. */
export function fromUnits(units: number, decimals: number): string {
  return formatDecimal(BigInt(units), decimals)
}
