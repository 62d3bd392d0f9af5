// Handlers of the market actions (area: markets): creation and configuration, the lifecycle, and
// oracle quotes. Each resolves its market by market_id over symbol (market-refs.ts).
import type { MARKET_ACTIONS } from '../../wire/actions/markets.ts'
import type { AreaHandlers } from '../core/action-context.ts'
import { completeDelist } from './delist.ts'
import { cancelMarket, haltMarket, requestDelist, resumeMarket, setEmergencyHalt } from './lifecycle.ts'
import { amendMarketConfig, setFeeRecipient } from './market-config.ts'
import { activateMarket, createMarket } from './markets.ts'
import { submitOracleQuote } from './oracle.ts'

export const MARKET_HANDLERS = {
  CreateMarket: (ctx, p) => createMarket(ctx.state, ctx.account, p, ctx.events),
  ActivateMarket: (ctx, p) => activateMarket(ctx.state, ctx.account, p, ctx.timestampMs, ctx.events),
  CancelMarket: (ctx, p) => cancelMarket(ctx.state, ctx.account, p, ctx.events),
  HaltMarket: (ctx, p) => haltMarket(ctx.state, ctx.account, p, ctx.events),
  ResumeMarket: (ctx, p) => resumeMarket(ctx.state, ctx.account, p, ctx.events),
  RequestDelist: (ctx, p) => requestDelist(ctx.state, ctx.account, p, ctx.timestampMs, ctx.events),
  CompleteDelist: (ctx, p) => completeDelist(ctx.state, ctx.account, p, ctx.events),
  SetFeeRecipient: (ctx, p) => setFeeRecipient(ctx.state, ctx.account, p, ctx.events),
  AmendMarketConfig: (ctx, p) => amendMarketConfig(ctx.state, ctx.account, p, ctx.events),
  SetEmergencyHalt: (ctx, p) => setEmergencyHalt(ctx.state, ctx.account, p, ctx.events),
  SubmitOracleQuote: (ctx, p) =>
    submitOracleQuote(ctx.state, { account: ctx.account.address, height: ctx.height, timestampMs: ctx.timestampMs }, p, ctx.events),
} satisfies AreaHandlers<typeof MARKET_ACTIONS>
