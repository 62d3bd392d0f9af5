// Trigger order and OCO actions (area: triggers). A trigger watches the market's MARK price; when
// it crosses the trigger price the trigger is promoted to an order (docs/orders.md#trigger-orders).
import { type Static, Type } from '@sinclair/typebox'
import { type ActionKindSpec, TRADER_AUTH } from '../action-kind.ts'
import { DecimalString, SideSchema, TifSchema, U32, U53 } from '../schema-types.ts'

export const TriggerDirectionSchema = Type.Union([Type.Literal('Above'), Type.Literal('Below')], {
  description: 'Above fires when mark >= trigger_price, Below when mark <= trigger_price',
})
export const TriggerOrderTypeSchema = Type.Union([Type.Literal('market'), Type.Literal('limit')], {
  description: 'market: an IOC sweep bounded 10% beyond the mark; limit: an order at limit_price with tif',
})
const ClientOrderId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: "caller id, unique among the account's active triggers in the market",
})
const ExpiresAtMs = Type.Union([U53('block time (ms) at which the trigger expires'), Type.Null()], {
  description: 'expiry in ms; null or absent: never',
})

export const PlaceTriggerOrderSchema = Type.Object(
  {
    market_id: U32('the market'),
    side: SideSchema,
    qty: DecimalString('size, at most size_decimals decimals'),
    trigger_price: DecimalString('mark price that fires the trigger, at most price_decimals decimals'),
    trigger_direction: TriggerDirectionSchema,
    order_type: TriggerOrderTypeSchema,
    limit_price: Type.Optional(DecimalString('limit price of a limit trigger (required for limit, forbidden for market)')),
    tif: Type.Optional(TifSchema),
    reduce_only: Type.Boolean({ description: 'the promoted order only reduces a position' }),
    client_order_id: Type.Optional(ClientOrderId),
    expires_at_ms: Type.Optional(ExpiresAtMs),
  },
  { additionalProperties: false },
)
export type PlaceTriggerOrderPayload = Static<typeof PlaceTriggerOrderSchema>

export const AmendTriggerOrderSchema = Type.Object(
  {
    market_id: U32('the market'),
    trigger_id: U53('the trigger to amend'),
    trigger_price: Type.Optional(DecimalString('new trigger price')),
    qty: Type.Optional(DecimalString('new size')),
    limit_price: Type.Optional(DecimalString('new limit price (limit triggers only)')),
    tif: Type.Optional(TifSchema),
    expires_at_ms: Type.Optional(ExpiresAtMs),
  },
  { additionalProperties: false },
)
export type AmendTriggerOrderPayload = Static<typeof AmendTriggerOrderSchema>

export const CancelTriggerOrderSchema = Type.Object(
  {
    market_id: U32('the market'),
    trigger_id: Type.Optional(U53('the trigger to cancel')),
    client_order_id: Type.Optional(ClientOrderId),
  },
  { additionalProperties: false },
)
export type CancelTriggerOrderPayload = Static<typeof CancelTriggerOrderSchema>

export const OcoStopSchema = Type.Object(
  {
    trigger_price: DecimalString('mark price that fires the stop leg'),
    trigger_direction: TriggerDirectionSchema,
    order_type: TriggerOrderTypeSchema,
    limit_price: Type.Optional(DecimalString('limit price of a limit stop leg')),
    expires_at_ms: Type.Optional(ExpiresAtMs),
  },
  { additionalProperties: false },
)

export const PlaceOcoPairSchema = Type.Object(
  {
    market_id: U32('the market'),
    side: SideSchema,
    qty: DecimalString('size of each leg'),
    limit_price: DecimalString('price of the resting limit leg (Gtc)'),
    stop: OcoStopSchema,
    reduce_only: Type.Boolean({ description: 'both legs only reduce a position' }),
    client_pair_id: U53("caller id, unique among the account's open pairs"),
    parent_order_id: Type.Optional(U53('a bracket: an open order of the account; the legs are placed when it fully fills')),
  },
  { additionalProperties: false },
)
export type PlaceOcoPairPayload = Static<typeof PlaceOcoPairSchema>

export const CancelOcoPairSchema = Type.Object(
  {
    market_id: U32('the market'),
    pair_id: Type.Optional(U53('the pair to cancel')),
    client_pair_id: Type.Optional(U53('or its client id')),
  },
  { additionalProperties: false },
)
export type CancelOcoPairPayload = Static<typeof CancelOcoPairSchema>

export const TRIGGER_ACTIONS = [
  {
    name: 'PlaceTriggerOrder',
    ...TRADER_AUTH,
    schema: PlaceTriggerOrderSchema,
    description:
      'Place a trigger (stop / take-profit) order that becomes a market (IOC) or limit order when the mark crosses trigger_price.',
    example: {
      market_id: 1,
      side: 'Ask',
      qty: '0.01',
      trigger_price: '60000',
      trigger_direction: 'Below',
      order_type: 'market',
      reduce_only: true,
      client_order_id: 'sl-1',
      expires_at_ms: null,
    },
    rejects: [
      'MarketNotFound',
      'InvalidPrice',
      'InvalidQuantity',
      'MarketNotTradable',
      'InvalidTriggerOrder',
      'BelowMinOrderSize',
      'DuplicateClientOrderId',
      'TooManyTriggers',
      'TriggerWouldFireImmediately',
      'Unauthorized',
    ],
  },
  {
    name: 'AmendTriggerOrder',
    ...TRADER_AUTH,
    schema: AmendTriggerOrderSchema,
    description: "Change an active trigger's trigger price, size, limit price, tif or expiry.",
    example: { market_id: 1, trigger_id: 7, trigger_price: '59500', qty: '0.02' },
    rejects: [
      'MarketNotFound',
      'TriggerNotFound',
      'InvalidPrice',
      'InvalidQuantity',
      'InvalidTriggerOrder',
      'BelowMinOrderSize',
      'TriggerWouldFireImmediately',
      'Unauthorized',
    ],
  },
  {
    name: 'CancelTriggerOrder',
    ...TRADER_AUTH,
    schema: CancelTriggerOrderSchema,
    description: 'Cancel an active trigger by trigger_id or client_order_id; the stop leg of an OCO pair cancels the pair.',
    example: { market_id: 1, trigger_id: 7 },
    rejects: ['MarketNotFound', 'TriggerNotFound', 'Unauthorized'],
  },
  {
    name: 'PlaceOcoPair',
    ...TRADER_AUTH,
    schema: PlaceOcoPairSchema,
    description:
      'Place a one-cancels-other pair: a resting limit leg and a stop leg (a trigger); with parent_order_id a bracket armed when the parent fully fills.',
    example: {
      market_id: 1,
      side: 'Ask',
      qty: '0.01',
      limit_price: '70000',
      stop: { trigger_price: '60000', trigger_direction: 'Below', order_type: 'market' },
      reduce_only: true,
      client_pair_id: 1,
    },
    rejects: [
      'MarketNotFound',
      'InvalidPrice',
      'InvalidQuantity',
      'MarketNotTradable',
      'InvalidTriggerOrder',
      'BelowMinOrderSize',
      'DuplicateClientPairId',
      'TooManyOcoPairs',
      'TooManyTriggers',
      'OrderNotFound',
      'InvalidOcoPair',
      'TriggerWouldFireImmediately',
      'DuplicateClientOrderId',
      'TooManyOpenOrders',
      'ReduceOnlyWouldOpenOrFlip',
      'PostOnlyWouldCross',
      'DustNotionalFill',
      'InsufficientMargin',
      'QuoteNotAvailable',
      'Unauthorized',
    ],
  },
  {
    name: 'CancelOcoPair',
    ...TRADER_AUTH,
    schema: CancelOcoPairSchema,
    description: 'Cancel an open OCO pair (both legs) by pair_id or client_pair_id.',
    example: { market_id: 1, pair_id: 3 },
    rejects: ['MarketNotFound', 'OcoPairNotFound', 'Unauthorized'],
  },
] as const satisfies readonly ActionKindSpec[]
