// Checks shared by PlaceTriggerOrder, AmendTriggerOrder and PlaceOcoPair (and BatchModify's
// decimals): decimals at the market's precision (as PlaceOrder: InvalidPrice / InvalidQuantity),
// the order-type rules of a trigger, the expiry, and whether a trigger would fire at the current
// mark. Pure.
import { decimalUnits, parseDecimal } from '../../lib/decimal.ts'
import { type Rejection, reject } from '../core/reasons.ts'
import type { Market, Tif } from '../core/types.ts'
import type { Decoded } from '../orders/order-types.ts'
import type { TriggerDirection, TriggerOrderType } from './trigger-types.ts'

/**
 * A positive price in ticks, or InvalidPrice naming the field; `packed` is its edge form
 * (lib/decimal.ts packDecimal), if any. The units themselves, not a wrapper around them: a decode
 * runs for every trigger and amend, and a number is told from a rejection by its type (isUnits).
 */
export function decodeTicks(raw: string, market: Market, field: string, packed?: number): number | Rejection {
  // Packed at the edge, or packed here, without the bigint parser; it decides the rest.
  const fast = decimalUnits(raw, market.priceDecimals, packed)
  if (fast > 0) return fast
  const v = parseDecimal(raw, market.priceDecimals)
  if (!v.ok) return reject('InvalidPrice', `${field} ${raw} ${v.message} (${market.symbol} price_decimals ${market.priceDecimals})`)
  if (v.value <= 0n || v.value > BigInt(Number.MAX_SAFE_INTEGER)) return reject('InvalidPrice', `${field} ${raw} out of range`)
  return Number(v.value)
}

/** A positive size in lots, or InvalidQuantity naming the field; `packed` as decodeTicks. */
export function decodeLots(raw: string, market: Market, field: string, packed?: number): number | Rejection {
  const fast = decimalUnits(raw, market.sizeDecimals, packed)
  if (fast > 0) return fast
  const v = parseDecimal(raw, market.sizeDecimals)
  if (!v.ok) return reject('InvalidQuantity', `${field} ${raw} ${v.message} (${market.symbol} size_decimals ${market.sizeDecimals})`)
  if (v.value <= 0n || v.value > BigInt(Number.MAX_SAFE_INTEGER)) return reject('InvalidQuantity', `${field} ${raw} out of range`)
  return Number(v.value)
}

/** An optional price: undefined stays undefined. */
export function decodeOptionalTicks(
  raw: string | undefined,
  market: Market,
  field: string,
  packed?: number,
): number | undefined | Rejection {
  return raw === undefined ? undefined : decodeTicks(raw, market, field, packed)
}

/** Whether a decode gave its units (or nothing, for an optional field) rather than a rejection. */
export const isUnits = <T extends number | undefined>(d: T | Rejection): d is T => typeof d !== 'object'

/**
 * The order-type rules: a `limit` trigger needs limit_price; a `market` trigger fires as an IOC
 * sweep, so it takes neither limit_price nor tif. Returns the promoted order's tif.
 */
export function triggerTif(orderType: TriggerOrderType, hasLimit: boolean, tif: Tif | undefined): Decoded<Tif> {
  if (orderType === 'limit') {
    if (!hasLimit) return reject('InvalidTriggerOrder', 'a limit trigger needs limit_price')
    return TIF_DECODED[tif ?? 'Gtc']
  }
  if (hasLimit) return reject('InvalidTriggerOrder', 'a market trigger takes no limit_price (it fires as an IOC sweep)')
  if (tif !== undefined) return reject('InvalidTriggerOrder', 'a market trigger takes no tif (it fires as an IOC sweep)')
  return TIF_DECODED.Ioc
}

/** The four successful results of triggerTif, built once. */
const TIF_DECODED: Readonly<Record<Tif, Decoded<Tif>>> = {
  Gtc: Object.freeze({ ok: true as const, value: 'Gtc' as const }),
  Ioc: Object.freeze({ ok: true as const, value: 'Ioc' as const }),
  Fok: Object.freeze({ ok: true as const, value: 'Fok' as const }),
  PostOnly: Object.freeze({ ok: true as const, value: 'PostOnly' as const }),
}

/** An expiry must lie after the block time (null: never expires). */
export function checkExpiry(expiresAtMs: number | null, nowMs: number): Rejection | undefined {
  if (expiresAtMs !== null && expiresAtMs <= nowMs) {
    return reject('InvalidTriggerOrder', `expires_at_ms ${expiresAtMs} is not after the block time ${nowMs}`)
  }
  return undefined
}

/**
 * Whether a trigger fires at a mark: Above when mark >= trigger price, Below when mark <= trigger
 * price. A mark of 0 is unknown and fires nothing.
 */
export function firesAt(direction: TriggerDirection, triggerTicks: number, markTicks: number): boolean {
  if (markTicks <= 0) return false
  return direction === 'Above' ? markTicks >= triggerTicks : markTicks <= triggerTicks
}

/** TriggerWouldFireImmediately when the trigger fires at the market's current mark. */
export function checkNotFiring(direction: TriggerDirection, triggerTicks: number, market: Market): Rejection | undefined {
  if (!firesAt(direction, triggerTicks, market.markTicks)) return undefined
  return reject(
    'TriggerWouldFireImmediately',
    `an ${direction} trigger at ${triggerTicks} ticks fires at the current mark ` + `${market.markTicks}; place an order instead`,
  )
}
