// Margin actions (area: margin): leverage and margin mode per market, isolated margin transfers,
// and liquidation. Semantics: src/chain/margin/leverage.ts, isolated-margin.ts, liquidation.ts and
// docs/liquidation.md.
import { type Static, Type } from '@sinclair/typebox'
import { type ActionKindSpec, TRADER_AUTH } from '../action-kind.ts'
import { Address20, U32 } from '../schema-types.ts'
import { Amount6 } from './funds.ts'

export const MarginModeSchema = Type.Union([Type.Literal('Cross'), Type.Literal('Isolated')], {
  description: 'Cross: margined by the cross balance; Isolated: by its own margin',
})

export const UpdateLeverageSchema = Type.Object(
  {
    market_id: U32('the market'),
    leverage: Type.Integer({ minimum: 1, maximum: 200, description: "from 1 to the market's max_leverage" }),
  },
  { additionalProperties: false },
)
export type UpdateLeveragePayload = Static<typeof UpdateLeverageSchema>

export const UpdateMarginModeSchema = Type.Object({ market_id: U32('the market'), mode: MarginModeSchema }, { additionalProperties: false })
export type UpdateMarginModePayload = Static<typeof UpdateMarginModeSchema>

export const UpdateIsolatedMarginSchema = Type.Object(
  {
    market_id: U32('the market of the Isolated position'),
    amount: Amount6('SCALE_6 amount to move, > 0'),
    direction: Type.Union([Type.Literal('Add'), Type.Literal('Remove')], {
      description: 'Add: from the cross balance into the position; Remove: back',
    }),
  },
  { additionalProperties: false },
)
export type UpdateIsolatedMarginPayload = Static<typeof UpdateIsolatedMarginSchema>

export const LiquidatePositionSchema = Type.Object(
  { address: Address20('the account whose position is liquidated'), market_id: U32('the market of the position') },
  { additionalProperties: false },
)
export type LiquidatePositionPayload = Static<typeof LiquidatePositionSchema>

export const MARGIN_ACTIONS = [
  {
    name: 'UpdateLeverage',
    ...TRADER_AUTH,
    schema: UpdateLeverageSchema,
    description:
      'Set the leverage of the account in a market, also while flat; an open position takes it at once if its margin stays affordable. Resting orders keep the margin they hold.',
    example: { market_id: 1, leverage: 10 },
    rejects: ['MarketNotFound', 'InvalidLeverage', 'InsufficientMargin', 'Unauthorized'],
  },
  {
    name: 'UpdateMarginMode',
    ...TRADER_AUTH,
    schema: UpdateMarginModeSchema,
    description:
      'Set the margin mode (Cross or Isolated) of the account in a market; only while flat there and without resting orders there.',
    example: { market_id: 1, mode: 'Isolated' },
    rejects: ['MarketNotFound', 'PositionOpen', 'OpenOrdersExist', 'Unauthorized'],
  },
  {
    name: 'UpdateIsolatedMargin',
    ...TRADER_AUTH,
    schema: UpdateIsolatedMarginSchema,
    description:
      'Move margin into an Isolated position from the cross balance (Add, at most what the cross part can spare) or back (Remove, leaving at least its initial margin plus any unrealized loss).',
    example: { market_id: 1, amount: '250.5', direction: 'Add' },
    rejects: ['MarketNotFound', 'InvalidAmount', 'NoOpenPosition', 'PositionNotIsolated', 'InsufficientMargin', 'Unauthorized'],
  },
  {
    name: 'LiquidatePosition',
    auth: 'master_or_agent_with_role',
    role: 'Liquidator',
    masterOnly: false,
    schema: LiquidatePositionSchema,
    description:
      "Close a liquidatable position at the mark against the insurance fund: the trader pays the market's liquidation penalty (a share to the liquidator), the fund absorbs any bad debt.",
    example: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', market_id: 1 },
    rejects: ['AccountNotFound', 'MarketNotFound', 'NoOpenPosition', 'CannotLiquidateSelf', 'NotLiquidatable', 'Unauthorized'],
  },
] as const satisfies readonly ActionKindSpec[]
