// CreateMarket and ActivateMarket (Admin), and the market record they build. The other market
// actions: lifecycle.ts, delist.ts, market-config.ts, oracle.ts.
import { parseDecimal } from '../../lib/decimal.ts'
import type { ActivateMarketPayload, CreateMarketPayload } from '../../wire/actions.ts'
import { OrderBook } from '../book/book.ts'
import type { EventSink } from '../core/events.ts'
import { notionalScale } from '../core/math.ts'
import { type Rejection, reject } from '../core/reasons.ts'
import {
  type Account,
  type ChainState,
  LIQUIDATION_PENALTY_BPS_DEFAULT,
  type Market,
  type MarketConfig,
  type Order,
} from '../core/types.ts'
import { marketKey, markLeaf } from '../state/state-root.ts'
import { changeLifecycle, findManagedMarket } from './lifecycle.ts'
import { decodeQuoteLimits, QUOTE_LIMITS_DEFAULT } from './market-config.ts'
import { liveMarketWithSymbol } from './market-refs.ts'
import { newOracleState } from './market-types.ts'
import type { MarketOutcome } from './tradable.ts'

/**
 * Builds a market record from its config; used by CreateMarket and genesis alike. clockMs starts
 * the oracle staleness clock (genesis passes its time for markets Active from the start).
 */
export function newMarket(marketId: number, config: MarketConfig, markTicks: number, clockMs = 0): Market {
  const scale = notionalScale(config.priceDecimals, config.sizeDecimals)
  return {
    ...config,
    marketId,
    lifecycle: 'Created',
    emergencyHalt: false,
    haltReason: null,
    markTicks,
    lastTradeTicks: 0,
    openInterestLots: 0,
    delistRequestedAtMs: null,
    oracle: newOracleState(clockMs),
    notionalDivisor: scale.divisor,
    notionalMultiplier: scale.multiplier,
    notionalDivisorNumber: Number(scale.divisor),
    notionalMultiplierNumber: Number(scale.multiplier),
    leafKey: marketKey(marketId),
    dirtyIn: -1,
  }
}

/** Adds a market and its empty book to the state. */
export function insertMarket(state: ChainState, market: Market): void {
  state.markets.set(market.marketId, market)
  state.books.set(market.marketId, new OrderBook<Order>())
  markLeaf(state, market)
}

/** Validates a CreateMarket payload into a config and initial mark, or a rejection. Pure. */
export function decodeMarketConfig(
  p: CreateMarketPayload,
  creator: string,
): { ok: true; config: MarketConfig; markTicks: number } | Rejection {
  if (p.price_decimals + p.size_decimals > 18) return reject('InvalidMarketConfig', 'price_decimals + size_decimals must be at most 18')
  if (p.maintenance_margin_bps * p.max_leverage >= 10_000) {
    return reject(
      'InvalidMarketConfig',
      'maintenance margin must be below the initial margin at max leverage ' + '(maintenance_margin_bps x max_leverage < 10000)',
    )
  }
  // A position liquidated at its maintenance margin must be able to pay the penalty in full.
  const liquidationPenaltyBps = p.liquidation_penalty_bps ?? Math.min(LIQUIDATION_PENALTY_BPS_DEFAULT, p.maintenance_margin_bps)
  if (liquidationPenaltyBps > p.maintenance_margin_bps)
    return reject('InvalidMarketConfig', 'liquidation_penalty_bps must be at most maintenance_margin_bps')
  const mark = parseDecimal(p.mark_price, p.price_decimals)
  if (!mark.ok || mark.value <= 0n || mark.value > BigInt(Number.MAX_SAFE_INTEGER))
    return reject('InvalidPrice', `mark_price ${p.mark_price} ${mark.ok ? 'out of range' : mark.message}`)
  let minOrderLots = 1
  if (p.min_order_qty !== undefined) {
    const min = parseDecimal(p.min_order_qty, p.size_decimals)
    if (!min.ok || min.value <= 0n || min.value > BigInt(Number.MAX_SAFE_INTEGER))
      return reject('InvalidQuantity', `min_order_qty ${p.min_order_qty} ${min.ok ? 'out of range' : min.message}`)
    minOrderLots = Number(min.value)
  }
  const quoteLimits = decodeQuoteLimits(p, p.price_decimals, QUOTE_LIMITS_DEFAULT)
  if (!quoteLimits.ok) return quoteLimits
  return {
    ok: true,
    markTicks: Number(mark.value),
    config: {
      symbol: p.symbol,
      priceDecimals: p.price_decimals,
      sizeDecimals: p.size_decimals,
      makerFeeBps: p.maker_fee_bps,
      takerFeeBps: p.taker_fee_bps,
      maxLeverage: p.max_leverage,
      maintenanceMarginBps: p.maintenance_margin_bps,
      liquidationPenaltyBps,
      feeRecipient: (p.fee_recipient ?? creator).toLowerCase(),
      routing: p.routing ?? 'native',
      minOrderLots,
      maxFillsPerQuote: p.max_fills_per_quote ?? 16,
      quoteLimits: quoteLimits.value,
    },
  }
}

export function createMarket(state: ChainState, creator: Account, p: CreateMarketPayload, events: EventSink): MarketOutcome {
  const decoded = decodeMarketConfig(p, creator.address)
  if (!decoded.ok) return decoded
  if (decoded.config.maxFillsPerQuote === 0) return reject('InvalidMaxFillsPerQuote', 'max_fills_per_quote must be positive')
  // Only a live market blocks its symbol: a Delisted one released it
  // (docs/markets.md#createmarket-and-activatemarket).
  const clash = liveMarketWithSymbol(state, p.symbol)
  if (clash !== undefined) return reject('MarketAlreadyExists', `${p.symbol} exists as market ${clash.marketId} (${clash.lifecycle})`)
  // Ids are never reused (a Delisted market keeps its entry): a free requested id is taken as
  // is; a taken one, or none, advances to max(requested, current max + 1)
  // (docs/markets.md#createmarket-and-activatemarket).
  let maxId = 0
  for (const id of state.markets.keys()) if (id > maxId) maxId = id
  const requested = p.market_id
  const marketId =
    requested !== undefined && requested > 0 && !state.markets.has(requested) ? requested : Math.max(requested ?? 0, maxId + 1)
  // After this point the market is created.
  insertMarket(state, newMarket(marketId, decoded.config, decoded.markTicks))
  events.push({
    kind: 'Ops',
    sub_kind: 'MarketCreated',
    market_id: marketId,
    account: creator.address,
    symbol: p.symbol,
    requested_market_id: p.market_id ?? null,
  })
  return { ok: true, marketId }
}

/**
 * ActivateMarket: Created -> Active. An external-peg market's staleness clock starts now unless a
 * quote arrived while it was Created, so its first quote has max_quote_lag_ms to arrive.
 */
export function activateMarket(
  state: ChainState,
  admin: Account,
  p: ActivateMarketPayload,
  timestampMs: number,
  events: EventSink,
): MarketOutcome {
  const found = findManagedMarket(state, p)
  if (!found.ok) return found
  const market = found.market
  if (market.lifecycle !== 'Created') return reject('MarketNotInCreatedState', `${market.symbol} is ${market.lifecycle}`)
  // After this point the market is active.
  if (market.oracle.latest === null) market.oracle.clockMs = timestampMs
  changeLifecycle(state, market, 'Active', null, admin.address, events)
  return { ok: true, marketId: market.marketId }
}
