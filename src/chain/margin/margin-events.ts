// Events of the margin area: settings changes (kind Core) and liquidations (kind Liquidation).
// Fields named *_ticks are prices and *_lots sizes (formatted at the market's decimals on the
// wire); bigints are SCALE_6 money (wire/event-view.ts).
import type { MarginMode } from '../core/types.ts'

/** UpdateLeverage: the account's leverage in the market (and its open position's, if any). */
export interface LeverageUpdatedEvent {
  kind: 'Core'
  sub_kind: 'LeverageUpdated'
  market_id: number
  account: string
  leverage: number
  previous_leverage: number
  margin_mode: MarginMode
}

/** UpdateMarginMode: the margin mode the account's next position in the market opens with. */
export interface MarginModeUpdatedEvent {
  kind: 'Core'
  sub_kind: 'MarginModeUpdated'
  market_id: number
  account: string
  margin_mode: MarginMode
  leverage: number
}

/**
 * Margin moved between the cross balance and an Isolated position: by UpdateIsolatedMargin
 * (cause Request), or taken back to cover a cross deficit before the insurance fund pays bad
 * debt (cause CrossDeficit, bad-debt.ts).
 */
export interface IsolatedMarginUpdatedEvent {
  kind: 'Core'
  sub_kind: 'IsolatedMarginUpdated'
  market_id: number
  account: string
  direction: 'Add' | 'Remove'
  amount: bigint
  cause: 'Request' | 'CrossDeficit'
  /** The position's isolated margin and the account's (cross) balance after the move. */
  isolated_margin: bigint
  balance: bigint
}

/**
 * LiquidatePosition: the account's position was closed at the mark against the insurance fund,
 * which took it over. `size_lots` is the signed size closed; the trader paid `penalty`, of which
 * `liquidator_reward` went to the liquidator and the rest to the fund; `bad_debt` is what the fund
 * absorbed for the account (also reported by a BadDebt event).
 */
export interface PositionLiquidatedEvent {
  kind: 'Liquidation'
  sub_kind: 'PositionLiquidated'
  market_id: number
  account: string
  liquidator: string
  insurance_fund: string
  margin_mode: MarginMode
  size_lots: number
  price_ticks: number
  notional: bigint
  realized_pnl: bigint
  penalty: bigint
  liquidator_reward: bigint
  bad_debt: bigint
  /** The fund's signed position size before and after taking the position over. */
  fund_size_before_lots: number
  fund_size_after_lots: number
}

/** The insurance fund absorbed a liquidated account's shortfall: its balance fell by `amount`. */
export interface BadDebtEvent {
  kind: 'Liquidation'
  sub_kind: 'BadDebt'
  market_id: number
  account: string
  insurance_fund: string
  amount: bigint
}

export type MarginEvent =
  | LeverageUpdatedEvent
  | MarginModeUpdatedEvent
  | IsolatedMarginUpdatedEvent
  | PositionLiquidatedEvent
  | BadDebtEvent
