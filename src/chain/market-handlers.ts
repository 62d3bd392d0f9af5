// Handlers of the market management actions (area: markets).
import type { ActivateMarketPayload, CreateMarketPayload } from '../wire/actions.ts'
import type { HandlerMap } from './action-context.ts'
import { activateMarket, createMarket } from './markets.ts'

export const MARKET_HANDLERS: HandlerMap = {
  CreateMarket: (ctx, p: CreateMarketPayload) => createMarket(ctx.state, ctx.account, p, ctx.events),
  ActivateMarket: (ctx, p: ActivateMarketPayload) => activateMarket(ctx.state, ctx.account, p, ctx.events),
}
