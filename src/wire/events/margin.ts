// Event bodies of the margin area: leverage and margin-mode settings, isolated margin moves (kind
// Core), liquidations and bad debt (kind Liquidation); chain margin-events.ts.
import { Type } from '@sinclair/typebox'
import { Address, Amount, Enum, eventSchema, MarginModeSchema, MarketId, Price, SignedAmount, SignedSize } from './fields.ts'

const Leverage = (description: string) => Type.Integer({ minimum: 1, description })

export const LeverageUpdatedSchema = eventSchema(
  'Core',
  'LeverageUpdated',
  "UpdateLeverage set the account's leverage in the market (and its open position's, if any).",
  {
    market_id: MarketId(),
    account: Address('the account'),
    leverage: Leverage('the new leverage'),
    previous_leverage: Leverage('the leverage before'),
    margin_mode: MarginModeSchema,
  },
)

export const MarginModeUpdatedSchema = eventSchema(
  'Core',
  'MarginModeUpdated',
  "UpdateMarginMode set the margin mode the account's next position in the market opens with.",
  {
    market_id: MarketId(),
    account: Address('the account'),
    margin_mode: MarginModeSchema,
    leverage: Leverage("the account's leverage in the market"),
  },
)

export const IsolatedMarginUpdatedSchema = eventSchema(
  'Core',
  'IsolatedMarginUpdated',
  'Margin moved between the cross balance and an Isolated position: by UpdateIsolatedMargin (cause Request), or taken back to cover a cross deficit before the insurance fund pays bad debt (cause CrossDeficit).',
  {
    market_id: MarketId(),
    account: Address('the account'),
    direction: Enum(['Add', 'Remove'], 'Add: from the balance into the position; Remove: back to the balance'),
    amount: Amount('the margin moved'),
    cause: Enum(['Request', 'CrossDeficit'], 'Request: UpdateIsolatedMargin; CrossDeficit: taken to cover a cross deficit'),
    isolated_margin: Amount("the position's isolated margin after the move"),
    balance: SignedAmount("the account's cross balance after the move"),
  },
)

export const PositionLiquidatedSchema = eventSchema(
  'Liquidation',
  'PositionLiquidated',
  "LiquidatePosition closed the account's position at the mark against the insurance fund, which took it over. The trader paid `penalty`, of which `liquidator_reward` went to the liquidator and the rest to the fund; `bad_debt` is what the fund absorbed (also reported by a BadDebt event).",
  {
    market_id: MarketId(),
    account: Address('the liquidated account'),
    liquidator: Address('the account that sent LiquidatePosition'),
    insurance_fund: Address('the insurance fund, which took the position over'),
    margin_mode: MarginModeSchema,
    size: SignedSize('the signed size closed (long > 0)'),
    price: Price('the mark it closed at'),
    notional: Amount('|size| x price'),
    realized_pnl: SignedAmount('PnL the close realized for the account'),
    penalty: Amount('the liquidation penalty the account paid'),
    liquidator_reward: Amount('the part of the penalty paid to the liquidator'),
    bad_debt: Amount('the shortfall the insurance fund absorbed for the account'),
    fund_size_before: SignedSize("the fund's signed position size before taking the position over"),
    fund_size_after: SignedSize("the fund's signed position size after"),
  },
)

export const BadDebtSchema = eventSchema(
  'Liquidation',
  'BadDebt',
  "The insurance fund absorbed a liquidated account's shortfall: its balance fell by `amount`.",
  {
    market_id: MarketId(),
    account: Address('the liquidated account'),
    insurance_fund: Address('the insurance fund'),
    amount: Amount('the shortfall absorbed'),
  },
)

export const MARGIN_EVENT_SCHEMAS = [
  LeverageUpdatedSchema,
  MarginModeUpdatedSchema,
  IsolatedMarginUpdatedSchema,
  PositionLiquidatedSchema,
  BadDebtSchema,
] as const
