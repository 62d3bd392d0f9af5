// Handlers of the margin actions (area: margin): leverage, margin mode, isolated margin, liquidation.
import type { MARGIN_ACTIONS } from '../../wire/actions/margin.ts'
import type { AreaHandlers } from '../core/action-context.ts'
import { updateIsolatedMargin } from './isolated-margin.ts'
import { updateLeverage, updateMarginMode } from './leverage.ts'
import { liquidatePosition } from './liquidation.ts'

export const MARGIN_HANDLERS = {
  UpdateLeverage: (ctx, p) => updateLeverage(ctx.state, ctx.account, p, ctx.events),
  UpdateMarginMode: (ctx, p) => updateMarginMode(ctx.state, ctx.account, p, ctx.events),
  UpdateIsolatedMargin: (ctx, p) => updateIsolatedMargin(ctx.state, ctx.account, p, ctx.events),
  LiquidatePosition: (ctx, p) => liquidatePosition(ctx.state, ctx.account, p, ctx.events),
} satisfies AreaHandlers<typeof MARGIN_ACTIONS>
