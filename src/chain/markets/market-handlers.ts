// Handlers of the market actions (area: markets): creation and configuration, the lifecycle, and
// oracle quotes. Each resolves its market by market_id over symbol (market-refs.ts).
import type {
  ActivateMarketPayload, AmendMarketConfigPayload, CreateMarketPayload, MarketOnlyPayload, SetEmergencyHaltPayload,
  SetFeeRecipientPayload, SubmitOracleQuotePayload,
} from '../../wire/actions.ts'
import type { HandlerMap } from '../core/action-context.ts'
import { completeDelist } from './delist.ts'
import { cancelMarket, haltMarket, requestDelist, resumeMarket, setEmergencyHalt } from './lifecycle.ts'
import { amendMarketConfig, setFeeRecipient } from './market-config.ts'
import { activateMarket, createMarket } from './markets.ts'
import { submitOracleQuote } from './oracle.ts'

export const MARKET_HANDLERS: HandlerMap = {
  CreateMarket: (ctx, p: CreateMarketPayload) => createMarket(ctx.state, ctx.account, p, ctx.events),
  ActivateMarket: (ctx, p: ActivateMarketPayload) => activateMarket(ctx.state, ctx.account, p, ctx.timestampMs, ctx.events),
  CancelMarket: (ctx, p: MarketOnlyPayload) => cancelMarket(ctx.state, ctx.account, p, ctx.events),
  HaltMarket: (ctx, p: MarketOnlyPayload) => haltMarket(ctx.state, ctx.account, p, ctx.events),
  ResumeMarket: (ctx, p: MarketOnlyPayload) => resumeMarket(ctx.state, ctx.account, p, ctx.events),
  RequestDelist: (ctx, p: MarketOnlyPayload) => requestDelist(ctx.state, ctx.account, p, ctx.timestampMs, ctx.events),
  CompleteDelist: (ctx, p: MarketOnlyPayload) => completeDelist(ctx.state, ctx.account, p, ctx.events),
  SetFeeRecipient: (ctx, p: SetFeeRecipientPayload) => setFeeRecipient(ctx.state, ctx.account, p, ctx.events),
  AmendMarketConfig: (ctx, p: AmendMarketConfigPayload) => amendMarketConfig(ctx.state, ctx.account, p, ctx.events),
  SetEmergencyHalt: (ctx, p: SetEmergencyHaltPayload) => setEmergencyHalt(ctx.state, ctx.account, p, ctx.events),
  SubmitOracleQuote: (ctx, p: SubmitOracleQuotePayload) => submitOracleQuote(ctx.state, { account: ctx.account.address, height: ctx.height, timestampMs: ctx.timestampMs }, p, ctx.events),
}
