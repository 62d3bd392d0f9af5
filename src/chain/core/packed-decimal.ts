// Decimals packed at the edge (ARCHITECTURE.md: money is integer in the chain): the format and
// the chain's reading of it.
//
// The node (src/node/edge-envelope.ts) parses the decimal fields of the busy order actions
// (PlaceOrder, BatchPlaceOrder, BatchModify, PlaceTriggerOrder) when it admits an envelope or reads
// one back for replay, before the block is applied. What it can parse without knowing the market, it
// packs into one number (packDecimal): the significant digits and the places after the point,
// trailing zeros dropped ("65000.50" -> 650005 at 1 place). In the block the chain turns that into
// ticks or lots at the market's precision with one multiplication (unitsFromPacked), instead of
// reading the string again. The packed fields ride beside the strings (`edge_price`, ...: the
// Edge*Decimals types). A field the edge could not pack (anything but a short plain decimal), or an
// envelope that never passed an edge (tests, tools), is parsed by the chain as before, which gives
// the same value or words the error. So the edge changes speed, never outcomes:
// packed-decimal.test.ts holds the two paths to the same results.
import { decimalUnits } from './fast-decimal.ts'

/** A decimal the edge could not pack: the chain parses the string itself. */
export const NOT_PACKED = -1

/** Places are packed in the low 4 bits' worth (digits * 16 + places); market precisions are 0-12. */
const PLACES_RADIX = 16
const PLACES_MAX = 12
/** Digits accumulated at most: below 10^15 every step is exact. */
const DIGITS_STEPS_MAX = 15
/** digits * 16 + places stays exact below 2^53. */
const DIGITS_PACKABLE_MAX = 2 ** 49
/** Longer strings are left to the chain's parser (the schema allows 40 characters). */
const LENGTH_MAX = 32
const POW10: readonly number[] = Array.from({ length: PLACES_MAX + 1 }, (_, k) => 10 ** k)

/**
 * A positive plain decimal ("0" | "0.ddd" | "[1-9]d*" with an optional ".d+", as the wire schema's
 * DecimalString) packed as digits * 16 + places with trailing zeros dropped; NOT_PACKED for zero,
 * anything else, more than 15 significant steps or more than 12 places.
 */
export function packDecimal(s: unknown): number {
  if (typeof s !== 'string') return NOT_PACKED
  const len = s.length
  if (len === 0 || len > LENGTH_MAX) return NOT_PACKED
  let digits = 0
  let steps = 0
  let i = 0
  let c = s.charCodeAt(0)
  if (c === 48) {
    // "0" or "0.xxx": a leading zero stands alone before the point.
    i = 1
    if (len > 1 && s.charCodeAt(1) !== 46) return NOT_PACKED
  } else {
    while (i < len) {
      c = s.charCodeAt(i)
      if (c < 48 || c > 57) break
      digits = digits * 10 + (c - 48)
      steps++
      i++
    }
    if (i === 0 || (i < len && c !== 46)) return NOT_PACKED
  }
  let places = 0
  if (i < len) {
    i++ // the point
    if (i === len) return NOT_PACKED // "1." has no fraction digits
    // One past the last non-zero fraction digit: the zeros after it are dropped.
    let end = i
    for (let j = i; j < len; j++) {
      c = s.charCodeAt(j)
      if (c < 48 || c > 57) return NOT_PACKED
      if (c !== 48) end = j + 1
    }
    for (let j = i; j < end; j++) {
      digits = digits * 10 + (s.charCodeAt(j) - 48)
      steps++
      places++
    }
  }
  if (digits === 0 || steps > DIGITS_STEPS_MAX || places > PLACES_MAX || digits >= DIGITS_PACKABLE_MAX) return NOT_PACKED
  return digits * PLACES_RADIX + places
}

/**
 * A packed decimal as a positive count of units at `decimals` places (what parseDecimal gives, as
 * a number), or -1 when the chain must parse the string: not packed, more precise than the market,
 * or beyond the safe-integer range.
 */
export function unitsFromPacked(packed: number | undefined, decimals: number): number {
  if (packed === undefined || packed < 0) return -1
  const places = packed % PLACES_RADIX
  if (places > decimals) return -1
  const units = ((packed - places) / PLACES_RADIX) * POW10[decimals - places]!
  return units <= Number.MAX_SAFE_INTEGER ? units : -1
}

/**
 * A decimal field's units at `decimals` places: from its packed form when the edge packed it, else
 * by the chain's fast parser (fast-decimal.ts); -1 when neither applies and the general parser
 * (lib/decimal.ts) must decide and word the error.
 */
export function unitsOf(raw: string, packed: number | undefined, decimals: number): number {
  const units = unitsFromPacked(packed, decimals)
  return units > 0 ? units : decimalUnits(raw, decimals)
}

/** The packed fields the edge adds to a PlaceOrder payload (and each BatchPlaceOrder item), and to
 * a BatchModify item for the fields it has. */
export interface EdgeOrderDecimals {
  readonly edge_price?: number
  readonly edge_qty?: number
}

/** The packed fields the edge adds to a PlaceTriggerOrder payload. */
export interface EdgeTriggerDecimals {
  readonly edge_trigger_price?: number
  readonly edge_limit_price?: number
  readonly edge_qty?: number
}
