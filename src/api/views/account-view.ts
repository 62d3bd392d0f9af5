// The getAccount aggregate (docs/rpc.md#getaccount,
// docs/liquidation.md#2-where-the-money-sits-and-the-account-figures) and open-order rows; the
// return types are the result schemas' static types, so the compiler holds each builder to its
// declared wire shape.
import type { Static } from '@sinclair/typebox'
import {
  type Account,
  absBig,
  agentsOf,
  type ChainState,
  isFrozen,
  liquidationPriceTicks,
  lowestUnusedNonce,
  marginUsed,
  markNotional,
  type Order,
  type Position,
  ROLE_NAMES,
  ROLES,
  SCALE_6,
  unrealizedPnl,
  valueAccount,
} from '../../chain/index.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import type { AccountViewSchema, OpenOrderViewSchema, PositionViewSchema } from '../../wire/results/shared-account.ts'
import { formatPrice, formatSize } from './market-view.ts'

const money = (v: bigint) => formatDecimal(v, 6)

export function accountView(state: ChainState, address: string): Static<typeof AccountViewSchema> {
  const account = state.accounts.get(address)
  const agent = state.agents.get(address)
  const roleMask = account?.roleMask ?? 0
  const positions: Record<string, Static<typeof PositionViewSchema>> = {}
  if (account !== undefined) {
    for (const pos of [...account.positions.values()].sort((a, b) => a.marketId - b.marketId)) {
      if (pos.sizeLots !== 0) positions[String(pos.marketId)] = positionView(state, account, pos)
    }
  }
  const v = account === undefined ? undefined : valueAccount(state, account)
  return {
    address,
    exists: account !== undefined,
    agent_of: agent?.master ?? null,
    nonce: lowestUnusedNonce(state, address),
    role_mask: roleMask,
    roles: ROLE_NAMES.filter((r) => (roleMask & ROLES[r]) !== 0),
    balance: money(account?.balance ?? 0n),
    account_value: money(v?.accountValue ?? 0n),
    total_margin_used: money(v?.totalMarginUsed ?? 0n),
    total_notional: money(v?.totalNotional ?? 0n),
    withdrawable: money(v?.withdrawable ?? 0n),
    cross_cash_available: money(v?.crossCashAvailable ?? 0n),
    cross_trading_available: money(v?.crossTradingAvailable ?? 0n),
    open_orders: account?.orders.size ?? 0,
    frozen: isFrozen(state, address),
    positions,
    // Leverage and margin mode per market set by UpdateLeverage / UpdateMarginMode (kept while flat).
    margin_settings: account === undefined ? {} : marginSettingsView(account),
    agents: account === undefined ? [] : agentsOf(state, address).map((a) => ({ address: a.agent, role: a.role, name: a.name })),
    dms_deadline_ms: account?.dmsDeadlineMs ?? null,
  }
}

/** A position row (the position fields of docs/rpc.md#getaccount). */
export function positionView(state: ChainState, account: Account, pos: Position): Static<typeof PositionViewSchema> {
  const m = state.markets.get(pos.marketId)!
  const size = Math.abs(pos.sizeLots)
  // Entry VWAP in SCALE_6 per unit of size: |cost basis| / size.
  const entryScaled = (absBig(pos.costBasis) * 10n ** BigInt(m.sizeDecimals)) / BigInt(size)
  const upnl = unrealizedPnl(m, pos)
  // Cross: initial margin at the mark; Isolated: the margin moved into the position.
  const margin = marginUsed(m, pos)
  const liquidation = liquidationPriceTicks(state, account, m, pos)
  return {
    market_id: pos.marketId,
    symbol: m.symbol,
    mark_price: formatPrice(m, m.markTicks),
    size: formatDecimal(BigInt(pos.sizeLots), m.sizeDecimals),
    entry_vwap: formatDecimal(entryScaled, 6),
    margin_mode: pos.marginMode,
    leverage: pos.leverage,
    isolated_margin: money(pos.isolatedMargin),
    margin_used: money(margin),
    unrealized_pnl: money(upnl),
    realized_pnl: money(pos.realizedPnl),
    notional: money(markNotional(m, pos)),
    // The mark at which the position reaches its maintenance requirement (chain/margin/maintenance.ts).
    liquidation_price: liquidation === null ? null : formatDecimal(liquidation, m.priceDecimals),
    // ROE: uPnL over the margin used, as a decimal fraction with 6 places.
    roe: margin === 0n ? '0' : formatDecimal((upnl * SCALE_6) / margin, 6),
  }
}

/** The account's margin settings by market id. */
function marginSettingsView(account: Account): Static<typeof AccountViewSchema>['margin_settings'] {
  const out: Static<typeof AccountViewSchema>['margin_settings'] = {}
  for (const s of [...account.settings.values()].sort((a, b) => a.marketId - b.marketId))
    out[String(s.marketId)] = { leverage: s.leverage, margin_mode: s.marginMode }
  return out
}

export function openOrderView(state: ChainState, o: Order): Static<typeof OpenOrderViewSchema> {
  const m = state.markets.get(o.marketId)!
  return {
    order_id: o.id,
    market_id: o.marketId,
    symbol: m.symbol,
    side: o.side,
    price: formatPrice(m, o.priceTicks),
    qty: formatSize(m, o.origLots),
    remaining: formatSize(m, o.remainingLots),
    filled: formatSize(m, o.origLots - o.remainingLots),
    tif: o.tif,
    reduce_only: o.reduceOnly,
    client_order_id: o.clientOrderId ?? null,
    margin_held: money(o.marginHeld),
    placed_height: o.placedHeight,
    // Present only for orders placed with an expiry.
    ...(o.expiresAtMs === null ? {} : { expires_at_ms: o.expiresAtMs }),
  }
}
