// Integer money math. Every division names its rounding; fees round against the payer.
import { BPS_DENOMINATOR, SCALE_6, type Market } from './types.ts'

/** Floor division for bigints (toward negative infinity). */
export function divFloor(a: bigint, b: bigint): bigint {
  const q = a / b
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q
}

/** Ceiling division for bigints (toward positive infinity). */
export function divCeil(a: bigint, b: bigint): bigint {
  const q = a / b
  return (a % b !== 0n && (a < 0n) === (b < 0n)) ? q + 1n : q
}

export const absBig = (a: bigint): bigint => (a < 0n ? -a : a)

/** The divisor and multiplier that turn ticks x lots into SCALE_6 notional for given decimals. */
export function notionalScale(priceDecimals: number, sizeDecimals: number): { divisor: bigint; multiplier: bigint } {
  const exponent = priceDecimals + sizeDecimals - 6
  return exponent >= 0
    ? { divisor: 10n ** BigInt(exponent), multiplier: 1n }
    : { divisor: 1n, multiplier: 10n ** BigInt(-exponent) }
}

/** price x qty in SCALE_6, truncated toward zero (a fill whose notional truncates to 0 is dust). */
export function notionalOf(market: Market, priceTicks: number, lots: number): bigint {
  return (BigInt(priceTicks) * BigInt(lots) * market.notionalMultiplier) / market.notionalDivisor
}

/** A price in ticks as SCALE_6 per whole unit of size. */
export function priceToScale6(market: Market, priceTicks: number): bigint {
  return (BigInt(priceTicks) * SCALE_6) / 10n ** BigInt(market.priceDecimals)
}

/** Fee in SCALE_6 for a notional at a rate in bps, rounded up (against the payer). */
export function feeOf(notional: bigint, bps: number): bigint {
  return bps === 0 ? 0n : divCeil(notional * BigInt(bps), BPS_DENOMINATOR)
}

/** Margin for a notional at a leverage, rounded up (against the account). */
export function marginOf(notional: bigint, leverage: number): bigint {
  return divCeil(notional, BigInt(leverage))
}
