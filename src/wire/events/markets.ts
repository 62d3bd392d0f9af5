// Event bodies of the markets area: creation and lifecycle, market configuration, oracle quotes and
// their staleness, delisting (chain events.ts, market-events.ts). Events the chain raises itself at
// the end of a block (quote staleness, the reject-storm alarm) have a null `account`.
import { Type } from '@sinclair/typebox'
import { AmendMarketConfigSchema } from '../actions/markets.ts'
import {
  Address,
  Amount,
  Count,
  Enum,
  eventSchema,
  LifecycleSchema,
  MarketId,
  Nullable,
  Price,
  SignedAmount,
  SignedSize,
} from './fields.ts'

const MarketSymbol = Type.String({ minLength: 1, description: 'the market symbol' })

export const MarketCreatedSchema = eventSchema('Ops', 'MarketCreated', 'CreateMarket created a market in lifecycle Created.', {
  market_id: MarketId("the new market's id"),
  account: Address('the Admin that created it'),
  symbol: MarketSymbol,
  requested_market_id: Nullable(
    Count('a market id'),
    'the id CreateMarket asked for (the effective id is max(requested, max id + 1)); null when it named none',
  ),
})

export const MarketLifecycleChangedSchema = eventSchema(
  'Ops',
  'MarketLifecycleChanged',
  'A market moved to another lifecycle state: ActivateMarket, HaltMarket, ResumeMarket, RequestDelist, CompleteDelist or CancelMarket.',
  {
    market_id: MarketId(),
    account: Address('the Admin whose action moved it'),
    from: LifecycleSchema,
    to: LifecycleSchema,
    halt_reason: Nullable(
      Enum(['Admin', 'QuoteStale'], 'Admin: HaltMarket; QuoteStale: the quote went stale'),
      'the halt reason after the change; null unless `to` is Halted',
    ),
  },
)

export const MarketCancelledSchema = eventSchema(
  'Ops',
  'MarketCancelled',
  'CancelMarket withdrew a Created market before it ever traded (docs/markets.md#lifecycle).',
  {
    market_id: MarketId(),
    account: Address('the Admin that cancelled it'),
    symbol: MarketSymbol,
  },
)

export const MarketHaltedQuoteStaleSchema = eventSchema(
  'Ops',
  'MarketHaltedQuoteStale',
  'The end-of-block check halted an Active market whose oracle quote is older than max_quote_lag_ms (halt reason QuoteStale).',
  {
    market_id: MarketId(),
    account: Type.Null({ description: 'raised by the chain itself, about no account' }),
    lag_ms: Count("block time minus the staleness clock (the latest quote's source time, or activation)"),
    max_quote_lag_ms: Count("the market's max_quote_lag_ms"),
    last_source_ts_ms: Nullable(Count('ms'), 'source time of the latest accepted quote; null when the market never had one'),
  },
)

export const MarketResumedAfterQuoteSchema = eventSchema(
  'Ops',
  'MarketResumedAfterQuote',
  'A QuoteStale-halted market is fresh again: by an accepted quote, or by the end-of-block check.',
  {
    market_id: MarketId(),
    account: Nullable(Address('the quoter'), 'the quoter whose quote resumed it; null when the end-of-block check did'),
    source_ts_ms: Count('source time of the quote that made it fresh, ms'),
  },
)

export const OracleQuoteAcceptedSchema = eventSchema(
  'Core',
  'OracleQuoteAccepted',
  "An accepted SubmitOracleQuote item; its mark becomes the market's mark (a rejected item is a BatchItemRejected).",
  {
    market_id: MarketId(),
    account: Address('the quoter'),
    bid_price: Price('best bid of the source'),
    ask_price: Price('best ask of the source'),
    mark_price: Price('the new mark'),
    source_ts_ms: Count("the source's time, ms"),
  },
)

export const QuoteRejectStormSchema = eventSchema(
  'Ops',
  'QuoteRejectStorm',
  "Alarm: a market's quotes were rejected QUOTE_REJECT_STORM_COUNT times in a row. Raised once per streak.",
  {
    market_id: MarketId(),
    account: Type.Null({ description: 'raised by the chain itself, about no account' }),
    consecutive_rejects: Count('rejected quotes since the last accepted one'),
  },
)

export const EmergencyHaltChangedSchema = eventSchema(
  'Ops',
  'EmergencyHaltChanged',
  "SetEmergencyHalt set or lifted a market's emergency halt flag (separate from its lifecycle).",
  {
    market_id: MarketId(),
    account: Address('the Admin'),
    halted: Type.Boolean({ description: 'the flag after the action' }),
    was_halted: Type.Boolean({ description: 'the flag before' }),
  },
)

export const FeeRecipientChangedSchema = eventSchema(
  'Ops',
  'FeeRecipientChanged',
  'SetFeeRecipient: fees of later fills go to the new recipient.',
  {
    market_id: MarketId(),
    account: Address('the Admin'),
    old_recipient: Address('the recipient before'),
    new_recipient: Address('the recipient from now on'),
  },
)

export const MarketConfigAmendedSchema = eventSchema(
  'Ops',
  'MarketConfigAmended',
  "AmendMarketConfig changed a market's configuration; `changes` holds the amended fields with their new values as the action carried them.",
  {
    market_id: MarketId(),
    account: Address('the Admin'),
    changes: Type.Omit(AmendMarketConfigSchema, ['market_id', 'symbol'], {
      additionalProperties: false,
      minProperties: 1,
      description: 'the amended fields and their new values (at least one), as AmendMarketConfig carries them (docs/actions.md)',
    }),
  },
)

export const DelistSettlementSchema = eventSchema(
  'Liquidation',
  'DelistSettlement',
  'CompleteDelist closed a residual position at the mark.',
  {
    market_id: MarketId(),
    account: Address("the position's owner"),
    size: SignedSize('the signed size closed (long > 0)'),
    price: Price('the mark it closed at'),
    realized_pnl: SignedAmount('PnL the close realized'),
  },
)

export const DelistCompletedSchema = eventSchema(
  'Ops',
  'DelistCompleted',
  "CompleteDelist's summary: what it cancelled and settled, and where the rounding dust went. A MarketLifecycleChanged to Delisted follows.",
  {
    market_id: MarketId(),
    account: Address('the Admin'),
    orders_cancelled: Count('resting orders cancelled'),
    positions_settled: Count('positions closed at the mark (DelistSettlement events)'),
    settlement_dust: Amount('money left over by rounding every settlement against its account; credited to dust_recipient'),
    dust_recipient: Address('the insurance fund'),
  },
)

export const MARKET_EVENT_SCHEMAS = [
  MarketCreatedSchema,
  MarketLifecycleChangedSchema,
  MarketCancelledSchema,
  MarketHaltedQuoteStaleSchema,
  MarketResumedAfterQuoteSchema,
  OracleQuoteAcceptedSchema,
  QuoteRejectStormSchema,
  EmergencyHaltChangedSchema,
  FeeRecipientChangedSchema,
  MarketConfigAmendedSchema,
  DelistSettlementSchema,
  DelistCompletedSchema,
] as const
