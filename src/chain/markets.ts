// Market management actions of the foundation: CreateMarket and ActivateMarket (Admin).
import { parseDecimal } from '../lib/decimal.ts'
import type { ActivateMarketPayload, CreateMarketPayload } from '../wire/actions.ts'
import { OrderBook } from './book.ts'
import type { EventSink } from './events.ts'
import { notionalScale } from './math.ts'
import { reject, type Rejection } from './reasons.ts'
import { markLeaf, marketKey } from './state-root.ts'
import { resolveMarketRef, resolveSymbol } from './symbols.ts'
import type { Account, ChainState, Market, MarketConfig, Order } from './types.ts'

export type MarketOutcome = { readonly ok: true; readonly marketId: number } | Rejection

/** Builds a market record from its config; used by CreateMarket and genesis alike. */
export function newMarket(marketId: number, config: MarketConfig, markTicks: number): Market {
  const scale = notionalScale(config.priceDecimals, config.sizeDecimals)
  return {
    ...config, marketId, lifecycle: 'Created', emergencyHalt: false, haltReason: null,
    markTicks, lastTradeTicks: 0, openInterestLots: 0,
    notionalDivisor: scale.divisor, notionalMultiplier: scale.multiplier,
    notionalDivisorNumber: Number(scale.divisor), notionalMultiplierNumber: Number(scale.multiplier),
    leafKey: marketKey(marketId), dirtyIn: -1,
  }
}

/** Adds a market and its empty book to the state. */
export function insertMarket(state: ChainState, market: Market): void {
  state.markets.set(market.marketId, market)
  state.books.set(market.marketId, new OrderBook<Order>())
  markLeaf(state, market)
}

/** Validates a CreateMarket payload into a config and initial mark, or a rejection. Pure. */
export function decodeMarketConfig(p: CreateMarketPayload, creator: string): { ok: true; config: MarketConfig; markTicks: number } | Rejection {
  if (p.price_decimals + p.size_decimals > 18) return reject('InvalidMarketConfig', 'price_decimals + size_decimals must be at most 18')
  if (p.maintenance_margin_bps * p.max_leverage >= 10_000) {
    return reject('InvalidMarketConfig', 'maintenance margin must be below the initial margin at max leverage (maintenance_margin_bps x max_leverage < 10000)')
  }
  const mark = parseDecimal(p.mark_price, p.price_decimals)
  if (!mark.ok || mark.value <= 0n || mark.value > BigInt(Number.MAX_SAFE_INTEGER)) return reject('InvalidPrice', `mark_price ${p.mark_price} ${mark.ok ? 'out of range' : mark.message}`)
  let minOrderLots = 1
  if (p.min_order_qty !== undefined) {
    const min = parseDecimal(p.min_order_qty, p.size_decimals)
    if (!min.ok || min.value <= 0n || min.value > BigInt(Number.MAX_SAFE_INTEGER)) return reject('InvalidQuantity', `min_order_qty ${p.min_order_qty} ${min.ok ? 'out of range' : min.message}`)
    minOrderLots = Number(min.value)
  }
  return {
    ok: true,
    markTicks: Number(mark.value),
    config: {
      symbol: p.symbol, priceDecimals: p.price_decimals, sizeDecimals: p.size_decimals,
      makerFeeBps: p.maker_fee_bps, takerFeeBps: p.taker_fee_bps, maxLeverage: p.max_leverage,
      maintenanceMarginBps: p.maintenance_margin_bps, feeRecipient: (p.fee_recipient ?? creator).toLowerCase(),
      routing: p.routing ?? 'native', minOrderLots, maxFillsPerQuote: p.max_fills_per_quote ?? 16,
    },
  }
}

export function createMarket(state: ChainState, creator: Account, p: CreateMarketPayload, events: EventSink): MarketOutcome {
  const decoded = decodeMarketConfig(p, creator.address)
  if (!decoded.ok) return decoded
  if (decoded.config.maxFillsPerQuote === 0) return reject('InvalidMaxFillsPerQuote', 'max_fills_per_quote must be positive')
  const clash = resolveSymbol(state.markets.values(), p.symbol)
  if (clash !== undefined && clash.symbol === p.symbol) return reject('MarketAlreadyExists', `${p.symbol} exists as market ${clash.marketId}`)
  // Ids are never reused: the effective id is max(requested, current max + 1) (spec §4.7).
  let maxId = 0
  for (const id of state.markets.keys()) if (id > maxId) maxId = id
  const marketId = Math.max(p.market_id ?? 0, maxId + 1)
  // After this point the market is created.
  insertMarket(state, newMarket(marketId, decoded.config, decoded.markTicks))
  events.push({ kind: 'Ops', sub_kind: 'MarketCreated', market_id: marketId, account: creator.address, symbol: p.symbol, requested_market_id: p.market_id ?? null })
  return { ok: true, marketId }
}

export function activateMarket(state: ChainState, admin: Account, p: ActivateMarketPayload, events: EventSink): MarketOutcome {
  const market = resolveMarketRef(state, p)
  if (market === undefined) return reject('MarketNotFound', `market ${p.market_id ?? p.symbol ?? '(none given)'} does not exist`)
  if (market.lifecycle !== 'Created') return reject('MarketNotInCreatedState', `${market.symbol} is ${market.lifecycle}`)
  // After this point the market is active.
  market.lifecycle = 'Active'
  markLeaf(state, market)
  events.push({ kind: 'Ops', sub_kind: 'MarketLifecycleChanged', market_id: market.marketId, account: admin.address, from: 'Created', to: 'Active' })
  return { ok: true, marketId: market.marketId }
}
