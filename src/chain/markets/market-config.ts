// Market configuration after creation: quote limits (decoded for CreateMarket, genesis and
// AmendMarketConfig alike), AmendMarketConfig and SetFeeRecipient (Admin, master-signed).
import { parseDecimal } from '../../lib/decimal.ts'
import type { AmendMarketConfigPayload, SetFeeRecipientPayload } from '../../wire/actions.ts'
import type { EventSink } from '../core/events.ts'
import { type Rejection, reject } from '../core/reasons.ts'
import type { Account, ChainState, Market } from '../core/types.ts'
import { markLeaf } from '../state/state-root.ts'
import { findManagedMarket } from './lifecycle.ts'
import type { QuoteLimits } from './market-types.ts'
import type { MarketOutcome } from './tradable.ts'

/** Quote limits of a market created without them (CreateMarket, genesis). */
export const QUOTE_LIMITS_DEFAULT: Readonly<QuoteLimits> = Object.freeze({
  maxLagMs: 10_000,
  minIntervalMs: 0,
  maxChangeBps: 1_000,
  minPriceTicks: 0,
  maxPriceTicks: 0,
  maxSpreadBps: 500,
})

/** The quote-limit fields as CreateMarket, AmendMarketConfig and the genesis file carry them. */
export interface QuoteLimitInput {
  readonly max_quote_lag_ms?: number | undefined
  readonly min_quote_interval_ms?: number | undefined
  readonly max_quote_change_bps?: number | undefined
  readonly min_quote_price?: string | undefined
  readonly max_quote_price?: string | undefined
  readonly max_quote_spread_bps?: number | undefined
}

/** Parses a quote price bound at the market's precision; 0 is allowed (no bound). */
function priceBound(raw: string | undefined, field: string, priceDecimals: number): number | Rejection | undefined {
  if (raw === undefined) return undefined
  const v = parseDecimal(raw, priceDecimals)
  if (!v.ok || v.value > BigInt(Number.MAX_SAFE_INTEGER))
    return reject('InvalidPrice', `${field} ${raw} ${v.ok ? 'out of range' : v.message}`)
  return Number(v.value)
}

/** The quote limits of `base` with the given fields replaced, or why they are invalid. Pure. */
export function decodeQuoteLimits(
  p: QuoteLimitInput,
  priceDecimals: number,
  base: Readonly<QuoteLimits>,
): { ok: true; value: QuoteLimits } | Rejection {
  const min = priceBound(p.min_quote_price, 'min_quote_price', priceDecimals)
  if (typeof min === 'object') return min
  const max = priceBound(p.max_quote_price, 'max_quote_price', priceDecimals)
  if (typeof max === 'object') return max
  const value: QuoteLimits = {
    maxLagMs: p.max_quote_lag_ms ?? base.maxLagMs,
    minIntervalMs: p.min_quote_interval_ms ?? base.minIntervalMs,
    maxChangeBps: p.max_quote_change_bps ?? base.maxChangeBps,
    minPriceTicks: min ?? base.minPriceTicks,
    maxPriceTicks: max ?? base.maxPriceTicks,
    maxSpreadBps: p.max_quote_spread_bps ?? base.maxSpreadBps,
  }
  if (value.maxPriceTicks !== 0 && value.maxPriceTicks < value.minPriceTicks)
    return reject('InvalidMarketConfig', 'max_quote_price must be 0 (no bound) or at least min_quote_price')
  return { ok: true, value }
}

/** Fields AmendMarketConfig may carry besides the market reference. */
const AMENDABLE = [
  'maker_fee_bps',
  'taker_fee_bps',
  'max_leverage',
  'maintenance_margin_bps',
  'liquidation_penalty_bps',
  'min_order_qty',
  'max_fills_per_quote',
  'max_quote_lag_ms',
  'min_quote_interval_ms',
  'max_quote_change_bps',
  'min_quote_price',
  'max_quote_price',
  'max_quote_spread_bps',
] as const

/**
 * AmendMarketConfig: replaces the given fields of a live market's config. The combined config must
 * hold the creation rules (maintenance below initial margin at max leverage, penalty at most the
 * maintenance margin). Open positions and resting orders keep the leverage they were opened with;
 * fees apply from the next fill; a lower minimum order size or quote limit applies at once.
 */
export function amendMarketConfig(state: ChainState, admin: Account, p: AmendMarketConfigPayload, events: EventSink): MarketOutcome {
  const found = findManagedMarket(state, p)
  if (!found.ok) return found
  const market = found.market
  const changes: Record<string, string | number> = {}
  for (const field of AMENDABLE) {
    const v = p[field]
    if (v !== undefined) changes[field] = v
  }
  if (Object.keys(changes).length === 0) return reject('InvalidMarketConfig', 'AmendMarketConfig names no field to change')
  if (p.max_fills_per_quote === 0) return reject('InvalidMaxFillsPerQuote', 'max_fills_per_quote must be positive')
  const maxLeverage = p.max_leverage ?? market.maxLeverage
  const maintenance = p.maintenance_margin_bps ?? market.maintenanceMarginBps
  const penalty = p.liquidation_penalty_bps ?? market.liquidationPenaltyBps
  if (maintenance * maxLeverage >= 10_000)
    return reject('InvalidMarketConfig', `maintenance_margin_bps ${maintenance} x max_leverage ${maxLeverage} must be below 10000`)
  if (penalty > maintenance)
    return reject('InvalidMarketConfig', `liquidation_penalty_bps ${penalty} must be at most maintenance_margin_bps ${maintenance}`)
  let minOrderLots = market.minOrderLots
  if (p.min_order_qty !== undefined) {
    const min = parseDecimal(p.min_order_qty, market.sizeDecimals)
    if (!min.ok || min.value <= 0n || min.value > BigInt(Number.MAX_SAFE_INTEGER))
      return reject('InvalidQuantity', `min_order_qty ${p.min_order_qty} ${min.ok ? 'out of range' : min.message}`)
    minOrderLots = Number(min.value)
  }
  const limits = decodeQuoteLimits(p, market.priceDecimals, market.quoteLimits)
  if (!limits.ok) return limits
  // After this point the amendment must succeed.
  market.makerFeeBps = p.maker_fee_bps ?? market.makerFeeBps
  market.takerFeeBps = p.taker_fee_bps ?? market.takerFeeBps
  market.maxLeverage = maxLeverage
  market.maintenanceMarginBps = maintenance
  market.liquidationPenaltyBps = penalty
  market.minOrderLots = minOrderLots
  market.maxFillsPerQuote = p.max_fills_per_quote ?? market.maxFillsPerQuote
  market.quoteLimits = limits.value
  markLeaf(state, market)
  events.push({ kind: 'Ops', sub_kind: 'MarketConfigAmended', market_id: market.marketId, account: admin.address, changes })
  return { ok: true, marketId: market.marketId }
}

/** SetFeeRecipient: fees of later fills go to the new recipient (which need not be an account yet). */
export function setFeeRecipient(state: ChainState, admin: Account, p: SetFeeRecipientPayload, events: EventSink): MarketOutcome {
  const found = findManagedMarket(state, p)
  if (!found.ok) return found
  const market: Market = found.market
  const next = p.fee_recipient.toLowerCase()
  // After this point the change must succeed.
  const old = market.feeRecipient
  market.feeRecipient = next
  markLeaf(state, market)
  events.push({
    kind: 'Ops',
    sub_kind: 'FeeRecipientChanged',
    market_id: market.marketId,
    account: admin.address,
    old_recipient: old,
    new_recipient: next,
  })
  return { ok: true, marketId: market.marketId }
}
