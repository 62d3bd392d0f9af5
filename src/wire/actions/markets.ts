// Market management actions (area: markets).
import { type Static, Type } from '@sinclair/typebox'
import type { ActionKindSpec } from '../action-kind.ts'
import { Address20, DecimalString, U32 } from '../schema-types.ts'

/** Fields that address a market: market_id takes precedence over symbol (docs/markets.md#symbol-resolution). */
export const MarketRef = {
  market_id: Type.Optional(U32('the market; takes precedence over symbol')),
  symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'the market symbol' })),
}

/** Oracle quote limits (docs/markets.md#validation-in-precedence-order), shared by CreateMarket, AmendMarketConfig and the genesis file. */
export const QuoteLimitFields = {
  max_quote_lag_ms: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 86_400_000,
      description: 'a quote older than this is stale: the market halts (QuoteStale) and its orders get QuoteNotAvailable; default 10000',
    }),
  ),
  min_quote_interval_ms: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 3_600_000, description: 'least source_ts_ms distance between accepted quotes; default 0' }),
  ),
  max_quote_change_bps: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 10_000,
      description: 'largest mark move against the last accepted (still fresh) quote, bps; default 1000',
    }),
  ),
  min_quote_price: Type.Optional(DecimalString('lowest accepted bid, ask and mark; default 0 (no bound)')),
  max_quote_price: Type.Optional(DecimalString('highest accepted bid, ask and mark; 0 = no bound (default)')),
  max_quote_spread_bps: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 10_000, description: 'largest ask - bid, bps of the bid; default 500' }),
  ),
}

/** A new market's decimals, fees, leverage, maintenance margin, minimum order size and initial mark: CreateMarket and the genesis file. */
export const NewMarketFields = {
  price_decimals: Type.Integer({ minimum: 0, maximum: 12 }),
  size_decimals: Type.Integer({ minimum: 0, maximum: 12 }),
  maker_fee_bps: Type.Integer({ minimum: 0, maximum: 1000 }),
  taker_fee_bps: Type.Integer({ minimum: 0, maximum: 1000 }),
  max_leverage: Type.Integer({ minimum: 1, maximum: 200 }),
  maintenance_margin_bps: Type.Integer({ minimum: 1, maximum: 5000 }),
  min_order_qty: Type.Optional(DecimalString('smallest order size')),
  mark_price: DecimalString('initial mark price'),
}

export const CreateMarketSchema = Type.Object(
  {
    symbol: Type.String({ pattern: '^[A-Z0-9]{1,10}-[A-Z0-9]{1,9}$', description: 'BASE-QUOTE, upper case' }),
    market_id: Type.Optional(U32('requested id; the effective id is max(requested, max id + 1)')),
    ...NewMarketFields,
    fee_recipient: Type.Optional(Address20('who receives fees; default the creator')),
    routing: Type.Optional(Type.Union([Type.Literal('native'), Type.Literal('external_peg')])),
    max_fills_per_quote: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 10_000,
        description: 'fills an external-peg market makes against one oracle quote; default 16; 0 is refused (InvalidMaxFillsPerQuote)',
      }),
    ),
    ...QuoteLimitFields,
    liquidation_penalty_bps: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 5000,
        description: 'penalty of a liquidated position, bps of its notional at the mark; default 50, at most maintenance_margin_bps',
      }),
    ),
  },
  { additionalProperties: false },
)
export type CreateMarketPayload = Static<typeof CreateMarketSchema>

export const ActivateMarketSchema = Type.Object(MarketRef, { additionalProperties: false })
export type ActivateMarketPayload = Static<typeof ActivateMarketSchema>

/** CancelMarket, HaltMarket, ResumeMarket, RequestDelist, CompleteDelist: a market and nothing else. */
export const MarketOnlySchema = Type.Object(MarketRef, { additionalProperties: false })
export type MarketOnlyPayload = Static<typeof MarketOnlySchema>

export const SetFeeRecipientSchema = Type.Object(
  { ...MarketRef, fee_recipient: Address20("the account that receives the market's trading fees from now on") },
  { additionalProperties: false },
)
export type SetFeeRecipientPayload = Static<typeof SetFeeRecipientSchema>

export const SetEmergencyHaltSchema = Type.Object(
  { ...MarketRef, halted: Type.Boolean({ description: 'true stops new orders in the market (cancels, quotes and liquidations go on)' }) },
  { additionalProperties: false },
)
export type SetEmergencyHaltPayload = Static<typeof SetEmergencyHaltSchema>

/** The fields AmendMarketConfig may change; symbol, decimals and routing are fixed at creation. */
export const AmendMarketConfigSchema = Type.Object(
  {
    ...MarketRef,
    maker_fee_bps: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    taker_fee_bps: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    max_leverage: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'for new positions; open positions keep theirs' })),
    maintenance_margin_bps: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
    liquidation_penalty_bps: Type.Optional(Type.Integer({ minimum: 0, maximum: 5000, description: 'at most maintenance_margin_bps' })),
    min_order_qty: Type.Optional(DecimalString('smallest order size, at size_decimals')),
    max_fills_per_quote: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 10_000, description: '0 is refused (InvalidMaxFillsPerQuote)' }),
    ),
    ...QuoteLimitFields,
  },
  { additionalProperties: false },
)
export type AmendMarketConfigPayload = Static<typeof AmendMarketConfigSchema>

/** Quotes one SubmitOracleQuote may carry (the bound of its per-item loop). */
export const QUOTES_PER_BATCH_MAX = 32

export const OracleQuoteItemSchema = Type.Object(
  {
    ...MarketRef,
    bid_price: DecimalString('best bid of the source, at price_decimals'),
    ask_price: DecimalString('best ask of the source, at price_decimals'),
    mark_price: DecimalString("the mark: the market's liquidation and uPnL price, within [bid, ask]"),
    source_ts_ms: Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: "the source's time, ms; not earlier than the last accepted quote's, at most 13000 ms ahead of block time",
    }),
    last_price: Type.Optional(DecimalString('accepted and not kept: latest_quote.last_price is always null')),
    volume: Type.Optional(DecimalString('accepted and not kept: latest_quote.volume is always null')),
  },
  { additionalProperties: false },
)
export type OracleQuoteItem = Static<typeof OracleQuoteItemSchema>

export const SubmitOracleQuoteSchema = Type.Object(
  {
    quotes: Type.Array(OracleQuoteItemSchema, {
      minItems: 1,
      maxItems: QUOTES_PER_BATCH_MAX,
      description: 'quotes of one or more markets, applied in order, each on its own',
    }),
  },
  { additionalProperties: false },
)
export type SubmitOracleQuotePayload = Static<typeof SubmitOracleQuoteSchema>

export const MARKET_ACTIONS = [
  {
    name: 'CreateMarket',
    auth: 'master',
    role: 'Admin',
    masterOnly: true,
    schema: CreateMarketSchema,
    description: 'Create a market in lifecycle Created.',
    example: {
      symbol: 'DOGE-USD',
      price_decimals: 5,
      size_decimals: 0,
      maker_fee_bps: 2,
      taker_fee_bps: 5,
      max_leverage: 10,
      maintenance_margin_bps: 500,
      mark_price: '0.15',
    },
    rejects: ['MarketAlreadyExists', 'InvalidMarketConfig', 'InvalidMaxFillsPerQuote', 'InvalidPrice', 'InvalidQuantity', 'Unauthorized'],
  },
  {
    name: 'ActivateMarket',
    auth: 'master',
    role: 'Admin',
    masterOnly: true,
    schema: ActivateMarketSchema,
    description: 'Move a Created market to Active.',
    example: { market_id: 5 },
    rejects: ['MarketNotFound', 'MarketNotInCreatedState', 'Unauthorized'],
  },
  {
    name: 'CancelMarket',
    auth: 'master',
    role: 'Admin',
    masterOnly: true,
    schema: MarketOnlySchema,
    description: 'Withdraw a Created market: Created -> Delisted with MarketCancelled and MarketLifecycleChanged, no DelistPending phase.',
    example: { market_id: 5 },
    rejects: ['MarketNotFound', 'MarketDelisted', 'InvalidLifecycleTransition', 'Unauthorized'],
  },
  {
    name: 'HaltMarket',
    auth: 'master',
    role: 'Admin',
    masterOnly: true,
    schema: MarketOnlySchema,
    description: 'Halt an Active (or quote-stale halted) market with halt_reason Admin; quotes are still accepted but do not resume it.',
    example: { symbol: 'BTC-USD' },
    rejects: ['MarketNotFound', 'MarketDelisted', 'InvalidLifecycleTransition', 'Unauthorized'],
  },
  {
    name: 'ResumeMarket',
    auth: 'master',
    role: 'Admin',
    masterOnly: true,
    schema: MarketOnlySchema,
    description:
      'Resume a Halted market: Halted -> Active, tradable at once (an external-peg market with a stale quote halts again at block end).',
    example: { market_id: 1 },
    rejects: ['MarketNotFound', 'MarketDelisted', 'InvalidLifecycleTransition', 'Unauthorized'],
  },
  {
    name: 'RequestDelist',
    auth: 'master',
    role: 'Admin',
    masterOnly: true,
    schema: MarketOnlySchema,
    description:
      'Start delisting an Active or Halted market: -> DelistPending (reduce-only orders, cancels and liquidations only); refused for Created markets.',
    example: { market_id: 3 },
    rejects: ['MarketNotFound', 'MarketDelisted', 'InvalidLifecycleTransition', 'Unauthorized'],
  },
  {
    name: 'CompleteDelist',
    auth: 'master',
    role: 'Admin',
    masterOnly: true,
    schema: MarketOnlySchema,
    description:
      'Finish delisting a DelistPending market at any time: cancel its resting orders, settle residual positions at the mark, seal it as Delisted (id kept, symbol released).',
    example: { market_id: 3 },
    rejects: ['MarketNotFound', 'MarketDelisted', 'InvalidLifecycleTransition', 'Unauthorized'],
  },
  {
    name: 'SetFeeRecipient',
    auth: 'master',
    role: 'Admin',
    masterOnly: true,
    schema: SetFeeRecipientSchema,
    description: "Change the account that receives a market's trading fees.",
    example: { market_id: 1, fee_recipient: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    rejects: ['MarketNotFound', 'MarketDelisted', 'Unauthorized'],
  },
  {
    name: 'AmendMarketConfig',
    auth: 'master',
    role: 'Admin',
    masterOnly: true,
    schema: AmendMarketConfigSchema,
    description:
      'Change fees, leverage, maintenance margin, liquidation penalty, minimum order size, max_fills_per_quote or the quote limits of a market.',
    example: { market_id: 4, taker_fee_bps: 4, max_fills_per_quote: 8, max_quote_lag_ms: 5000 },
    rejects: [
      'MarketNotFound',
      'MarketDelisted',
      'InvalidMarketConfig',
      'InvalidMaxFillsPerQuote',
      'InvalidPrice',
      'InvalidQuantity',
      'Unauthorized',
    ],
  },
  {
    name: 'SetEmergencyHalt',
    auth: 'master',
    role: 'Admin',
    masterOnly: true,
    schema: SetEmergencyHaltSchema,
    description: "Set or clear a market's emergency_halt flag, which stops new orders whatever the lifecycle.",
    example: { symbol: 'ETH-USD', halted: true },
    rejects: ['MarketNotFound', 'MarketDelisted', 'Unauthorized'],
  },
  {
    name: 'SubmitOracleQuote',
    auth: 'master_or_agent_with_role',
    role: 'Quoter',
    masterOnly: false,
    schema: SubmitOracleQuoteSchema,
    description:
      'Oracle quotes of one or more markets. Each item is validated on its own (time-monotonic, at most 13 s ahead, fresh, min interval, max change, price bounds, spread); a rejected item is a BatchItemRejected event, and the envelope is a kept-reject only when every item is rejected.',
    example: { quotes: [{ market_id: 4, bid_price: '2400.1', ask_price: '2400.5', mark_price: '2400.3', source_ts_ms: 1767225600000 }] },
    rejects: [
      'MarketNotFound',
      'MarketDelisted',
      'MarketNotExternalPeg',
      'InvalidPrice',
      'QuoteTimeNotMonotonic',
      'QuoteSourceTooFuture',
      'QuoteSourceTooOld',
      'QuoteTooFrequent',
      'QuotePriceOutOfBounds',
      'QuoteCrossed',
      'QuoteMarkOutsideSpread',
      'QuoteSpreadTooWide',
      'QuoteChangeTooLarge',
      'Unauthorized',
    ],
  },
] as const satisfies readonly ActionKindSpec[]
