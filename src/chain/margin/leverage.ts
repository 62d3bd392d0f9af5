// UpdateLeverage and UpdateMarginMode: an account's per-market setting (MarginSetting, its own
// state-root leaf), kept while flat, so both work before the first trade. A new position opens
// with the setting (positions.ts positionFor); an open position takes a new leverage at once.
//
// Resting orders keep the leverage and margin they were placed with: re-reserving them would
// make UpdateLeverage fail or succeed depending on orders the user did not touch, and their
// margin is released exactly as held when they fill or go.
import type { UpdateLeveragePayload, UpdateMarginModePayload } from '../../wire/actions.ts'
import type { Outcome } from '../core/action-context.ts'
import type { EventSink } from '../core/events.ts'
import { marginOf } from '../core/math.ts'
import { reject } from '../core/reasons.ts'
import { type Account, type ChainState, LIMITS, type MarginSetting, type Market, type Position } from '../core/types.ts'
import { marginSettingKey, markLeaf } from '../state/state-root.ts'
import { crossTradingAvailable, markNotional, positionMargin, unrealizedPnl } from './margin.ts'
import { positionSettings } from './positions.ts'

/** The account's setting for market, created from the current defaults (and marked dirty). */
export function ensureSetting(state: ChainState, account: Account, market: Market): MarginSetting {
  let s = account.settings.get(market.marketId)
  if (s === undefined) {
    const current = positionSettings(account, market)
    s = {
      marketId: market.marketId,
      leverage: current.leverage,
      marginMode: current.marginMode,
      leafKey: marginSettingKey(account.address, market.marketId),
      dirtyIn: -1,
    }
    account.settings.set(market.marketId, s)
  }
  markLeaf(state, s)
  return s
}

/**
 * Why an open position cannot take `leverage`, or undefined when it can. Only a change that
 * raises the initial requirement is checked: Cross, the cross trading available must cover the
 * extra margin; Isolated, the isolated margin net of any unrealized loss must cover the new
 * initial margin (add margin first with UpdateIsolatedMargin).
 */
function leverageShort(state: ChainState, account: Account, market: Market, pos: Position, leverage: number) {
  const current = positionMargin(market, pos)
  const next = marginOf(markNotional(market, pos), leverage)
  if (next <= current) return undefined
  if (pos.marginMode === 'Cross') {
    const after = crossTradingAvailable(state, account) - (next - current)
    return after >= 0n ? undefined : reject('InsufficientMargin', `${leverage}x needs ${-after} more SCALE_6 of cross_trading_available`)
  }
  const upnl = unrealizedPnl(market, pos)
  const backing = pos.isolatedMargin + (upnl < 0n ? upnl : 0n)
  return backing >= next ? undefined : reject('InsufficientMargin', `${leverage}x needs ${next - backing} more SCALE_6 of isolated margin`)
}

export function updateLeverage(state: ChainState, account: Account, p: UpdateLeveragePayload, events: EventSink): Outcome {
  const market = state.markets.get(p.market_id)
  if (market === undefined) return reject('MarketNotFound', `market ${p.market_id} does not exist`)
  if (p.leverage < 1 || p.leverage > market.maxLeverage)
    return reject('InvalidLeverage', `leverage ${p.leverage} outside 1..${market.maxLeverage} of ${market.symbol}`)
  const pos = account.positions.get(market.marketId)
  const open = pos !== undefined && pos.sizeLots !== 0 ? pos : undefined
  if (open !== undefined) {
    const short = leverageShort(state, account, market, open, p.leverage)
    if (short !== undefined) return short
  }
  // After this point the update must succeed.
  const setting = ensureSetting(state, account, market)
  const previous = open?.leverage ?? setting.leverage
  setting.leverage = p.leverage
  if (open !== undefined) {
    open.leverage = p.leverage
    markLeaf(state, open)
  }
  events.push({
    kind: 'Core',
    sub_kind: 'LeverageUpdated',
    market_id: market.marketId,
    account: account.address,
    leverage: p.leverage,
    previous_leverage: previous,
    margin_mode: open?.marginMode ?? setting.marginMode,
  })
  return { ok: true }
}

export function updateMarginMode(state: ChainState, account: Account, p: UpdateMarginModePayload, events: EventSink): Outcome {
  const market = state.markets.get(p.market_id)
  if (market === undefined) return reject('MarketNotFound', `market ${p.market_id} does not exist`)
  const pos = account.positions.get(market.marketId)
  if (pos !== undefined && pos.sizeLots !== 0)
    return reject('PositionOpen', `close the ${market.symbol} position before changing its margin mode`)
  if (hasOrdersIn(account, market.marketId))
    return reject('OpenOrdersExist', `cancel the resting ${market.symbol} orders before changing its margin mode`)
  // After this point the update must succeed.
  const setting = ensureSetting(state, account, market)
  setting.marginMode = p.mode
  events.push({
    kind: 'Core',
    sub_kind: 'MarginModeUpdated',
    market_id: market.marketId,
    account: account.address,
    margin_mode: p.mode,
    leverage: setting.leverage,
  })
  return { ok: true }
}

/** Whether the account rests an order in the market; bounded by openOrdersPerAccountMax. */
function hasOrdersIn(account: Account, marketId: number): boolean {
  let seen = 0
  for (const o of account.orders.values()) {
    if (o.marketId === marketId) return true
    if (++seen >= LIMITS.openOrdersPerAccountMax) break
  }
  return false
}
