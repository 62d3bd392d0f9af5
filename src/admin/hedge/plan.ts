// What the hedger does for one market in one cycle (docs/admin.md#the-hedger), as a pure function
// of the chain's Book B exposure, the venue position, the policy and the config.
//
// Sign convention. getMarketStats' net_size is the traders' long − short size: the exposure Book B
// carries, Book B's own position negated (docs/markets.md). With traders net long 2, Book B is short
// 2 and loses when the price rises.
//   follow:  target = net_size × ratio    (the venue position follows the traders: long 2, which
//                                           offsets Book B's short; the hedge)
//   reverse: target = −net_size × ratio   (the venue position takes Book B's side: short 2, which
//                                           doubles the exposure; for a deliberate view)
// delta = target − venue position (summed over every hedge account); a positive delta buys.
//
// Then: a delta worth less than threshold_notional (|delta| × the venue mid, else our mark) is
// skipped; the size is rounded to the venue's size decimals (half away from zero); a size below
// min_order_sz is not sent (raising it to the minimum would overshoot and the next cycle would
// trade back), one above max_order_sz is cut to it (the rest follows in later cycles). The limit
// price of the Ioc is the venue's best ask × (1 + max_slippage_bps / 10 000), rounded down to the
// venue's price decimals, for a buy; the best bid × (1 − max_slippage_bps / 10 000), rounded up, for
// a sell: it never pays more than that bound past the best price, and a book thinner than the
// order fills what it can.
import type { VenueMarket, VenueQuote } from '../venues/venue.ts'
import type { HedgeMode } from './schemas.ts'

/** Internal fixed-point places; bigint, so no range limit. */
const P = 18
const ONE = 10n ** BigInt(P)

/** A decimal string (sign allowed) as a bigint of 10^-P units; extra places are cut (toward zero). */
export function fx(s: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s)
  if (m === null) throw new Error(`not a decimal number: ${JSON.stringify(s.slice(0, 40))}`)
  const frac = (m[3] ?? '').slice(0, P).padEnd(P, '0')
  const v = BigInt(m[2]!) * ONE + BigInt(frac)
  return m[1] === '-' ? -v : v
}

/** A 10^-P bigint as a normal decimal string. */
export function fmt(v: bigint): string {
  const neg = v < 0n
  const a = neg ? -v : v
  const int = a / ONE
  const frac = (a % ONE).toString().padStart(P, '0').replace(/0+$/, '')
  return `${neg ? '-' : ''}${int}${frac === '' ? '' : `.${frac}`}`
}

const abs = (v: bigint) => (v < 0n ? -v : v)
const unitOf = (decimals: number) => 10n ** BigInt(P - Math.min(decimals, P))
const floorTo = (v: bigint, unit: bigint) => (v / unit) * unit // v >= 0
const ceilTo = (v: bigint, unit: bigint) => ((v + unit - 1n) / unit) * unit // v >= 0

/** What plan() needs. */
export interface PlanInput {
  /** getMarketStats net_size of our chain (traders' long − short). */
  readonly netSize: string
  readonly ratio: string
  readonly mode: HedgeMode
  /** The venue position in the market, all hedge accounts together (signed). */
  readonly venuePosition: string
  readonly market: VenueMarket
  readonly quote: VenueQuote | undefined
  /** Our chain's mark, the notional's price when the venue has no mid. */
  readonly ourMark: string
  readonly thresholdNotional: string
  readonly minOrderSz: string
  readonly maxOrderSz: string | null
  readonly maxSlippageBps: number
}

export type Plan =
  | { readonly kind: 'skip'; readonly reason: string; readonly target: string; readonly delta: string }
  | {
      readonly kind: 'order'
      readonly is_buy: boolean
      readonly sz: string
      readonly px: string
      readonly target: string
      readonly delta: string
    }

/** The target position: see the file comment for the sign. */
export function targetPosition(netSize: string, ratio: string, mode: HedgeMode): bigint {
  const t = (fx(netSize) * fx(ratio)) / ONE
  return mode === 'follow' ? t : -t
}

export function plan(i: PlanInput): Plan {
  const target = targetPosition(i.netSize, i.ratio, i.mode)
  const delta = target - fx(i.venuePosition)
  const base = { target: fmt(target), delta: fmt(delta) }
  const skip = (reason: string): Plan => ({ kind: 'skip', reason, ...base })
  if (delta === 0n) return skip('hedged: the venue position is the target')
  const refPrice = i.quote?.mid ?? (i.ourMark !== '0' ? i.ourMark : null)
  if (refPrice === null) return skip('no price for the notional: the venue has no mid and our mark is 0')
  const notional = (abs(delta) * fx(refPrice)) / ONE
  if (notional < fx(i.thresholdNotional))
    return skip(`|delta| ${fmt(abs(delta))} is worth ${fmt(notional)}, under threshold_notional ${i.thresholdNotional}`)
  const sizeUnit = unitOf(i.market.size_decimals)
  let size = ((abs(delta) + sizeUnit / 2n) / sizeUnit) * sizeUnit
  if (size === 0n) return skip(`|delta| ${fmt(abs(delta))} rounds to 0 at the venue's ${i.market.size_decimals} size decimals`)
  if (size < fx(i.minOrderSz)) return skip(`size ${fmt(size)} is under min_order_sz ${i.minOrderSz}`)
  if (i.maxOrderSz !== null && size > fx(i.maxOrderSz)) size = floorTo(fx(i.maxOrderSz), sizeUnit)
  if (size === 0n) return skip(`max_order_sz ${i.maxOrderSz} rounds to 0 at the venue's size decimals`)
  const isBuy = delta > 0n
  const best = isBuy ? i.quote?.best_ask : i.quote?.best_bid
  if (best === null || best === undefined) return skip(`the venue has no ${isBuy ? 'ask' : 'bid'} in ${i.market.coin}`)
  const priceUnit = unitOf(i.market.price_decimals)
  const bps = BigInt(i.maxSlippageBps)
  const px = isBuy ? floorTo((fx(best) * (10_000n + bps)) / 10_000n, priceUnit) : ceilTo((fx(best) * (10_000n - bps)) / 10_000n, priceUnit)
  if (px <= 0n) return skip('the slippage bound leaves no positive limit price')
  return { kind: 'order', is_buy: isBuy, sz: fmt(size), px: fmt(px), ...base }
}
