// Handlers of the margin actions (area: margin): leverage, margin mode, isolated margin, liquidation.
import type { LiquidatePositionPayload, UpdateIsolatedMarginPayload, UpdateLeveragePayload, UpdateMarginModePayload } from '../../wire/actions.ts'
import type { HandlerMap } from '../core/action-context.ts'
import { updateIsolatedMargin } from './isolated-margin.ts'
import { updateLeverage, updateMarginMode } from './leverage.ts'
import { liquidatePosition } from './liquidation.ts'

export const MARGIN_HANDLERS: HandlerMap = {
  UpdateLeverage: (ctx, p: UpdateLeveragePayload) => updateLeverage(ctx.state, ctx.account, p, ctx.events),
  UpdateMarginMode: (ctx, p: UpdateMarginModePayload) => updateMarginMode(ctx.state, ctx.account, p, ctx.events),
  UpdateIsolatedMargin: (ctx, p: UpdateIsolatedMarginPayload) => updateIsolatedMargin(ctx.state, ctx.account, p, ctx.events),
  LiquidatePosition: (ctx, p: LiquidatePositionPayload) => liquidatePosition(ctx.state, ctx.account, p, ctx.events),
}
