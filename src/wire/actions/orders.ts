// Order actions (area: orders): placing, cancelling, batches, amends, mass cancels, the dead man's
// switch and the nonce-burning Noop.
import { type Static, Type } from '@sinclair/typebox'
import { type ActionKindSpec, TRADER_AUTH } from '../action-kind.ts'
import { DecimalString, SideSchema, TifSchema, U32, U53 } from '../schema-types.ts'

/** Sizes of the batch actions (docs/limits.md#action-sizes): refused at admission when exceeded. */
export const BATCH_LIMITS = {
  /** Orders in one BatchPlaceOrder. */
  batchOrdersMax: 50,
  /** Amends in one BatchModify. */
  batchModifiesMax: 50,
  /** Order ids in one MassCancel by Ids. */
  massCancelIdsMax: 200,
} as const

const ClientOrderId = (description: string) => Type.String({ minLength: 1, maxLength: 64, description })

export const PlaceOrderSchema = Type.Object(
  {
    market_id: U32('the market'),
    side: SideSchema,
    price: DecimalString('limit price, at most price_decimals decimals'),
    qty: DecimalString('size, at most size_decimals decimals'),
    tif: TifSchema,
    reduce_only: Type.Boolean({ description: 'only reduce an existing position' }),
    client_order_id: Type.Optional(ClientOrderId("caller id, unique among the account's open orders in the market")),
    expires_at_ms: Type.Optional(U53("block time (ms) after which a resting remainder expires; must be after the placing block's time")),
  },
  { additionalProperties: false },
)
export type PlaceOrderPayload = Static<typeof PlaceOrderSchema>

export const CancelOrderSchema = Type.Object(
  {
    market_id: U32('the market'),
    order_id: Type.Optional(U53('the order to cancel')),
    client_order_id: Type.Optional(ClientOrderId('or the client id of the order')),
  },
  { additionalProperties: false },
)
export type CancelOrderPayload = Static<typeof CancelOrderSchema>

export const BatchPlaceOrderSchema = Type.Object(
  {
    orders: Type.Array(PlaceOrderSchema, {
      minItems: 1,
      maxItems: BATCH_LIMITS.batchOrdersMax,
      description: 'PlaceOrder payloads, applied in order',
    }),
  },
  { additionalProperties: false },
)
export type BatchPlaceOrderPayload = Static<typeof BatchPlaceOrderSchema>

export const ModifySchema = Type.Object(
  {
    market_id: U32('the market of the order'),
    order_id: Type.Optional(U53('the order to amend')),
    client_order_id: Type.Optional(ClientOrderId('or its client id (exactly one of the two)')),
    price: Type.Optional(DecimalString('new limit price: cancel-plus-replace under a new order id')),
    qty: Type.Optional(DecimalString('new total quantity (filled lots included); lower keeps time priority')),
    tif: Type.Optional(TifSchema),
  },
  { additionalProperties: false },
)
export type ModifyPayload = Static<typeof ModifySchema>

export const BatchModifySchema = Type.Object(
  {
    modifies: Type.Array(ModifySchema, { minItems: 1, maxItems: BATCH_LIMITS.batchModifiesMax, description: 'amends, applied in order' }),
  },
  { additionalProperties: false },
)
export type BatchModifyPayload = Static<typeof BatchModifySchema>

export const MassCancelSchema = Type.Object(
  {
    market_id: Type.Optional(U32('Owner: only this market; Side: required; Ids: the ids must be in this market')),
    by: Type.Union([Type.Literal('Owner'), Type.Literal('Side'), Type.Literal('Ids')], {
      description: "Owner: all the account's orders; Side: one side of one market; Ids: the listed orders",
    }),
    side: Type.Optional(SideSchema),
    order_ids: Type.Optional(
      Type.Array(U53('an order id'), { minItems: 1, maxItems: BATCH_LIMITS.massCancelIdsMax, description: 'by Ids: the orders to cancel' }),
    ),
  },
  { additionalProperties: false },
)
export type MassCancelPayload = Static<typeof MassCancelSchema>

export const ScheduleCancelSchema = Type.Object(
  {
    deadline_ms: Type.Union([U53('block time (ms) after which all resting orders are cancelled'), Type.Null()], {
      description: 'a time 5 s to 24 h after block time, or null to clear',
    }),
  },
  { additionalProperties: false },
)
export type ScheduleCancelPayload = Static<typeof ScheduleCancelSchema>

export const NoopSchema = Type.Object({}, { additionalProperties: false })
export type NoopPayload = Static<typeof NoopSchema>

const PLACE_REJECTS = [
  'MarketNotFound',
  'MarketNotTradable',
  'QuoteNotAvailable',
  'AccountFrozen',
  'InvalidPrice',
  'InvalidQuantity',
  'BelowMinOrderSize',
  'OrderExpired',
  'DuplicateClientOrderId',
  'TooManyOpenOrders',
  'ReduceOnlyWouldOpenOrFlip',
  'PostOnlyWouldCross',
  'FokRejected',
  'DustNotionalFill',
  'InsufficientMargin',
]

export const ORDER_ACTIONS = [
  {
    name: 'PlaceOrder',
    ...TRADER_AUTH,
    schema: PlaceOrderSchema,
    description: 'Place a limit order (Gtc, Ioc, Fok, PostOnly), optionally reduce-only and with an expiry.',
    example: { market_id: 1, side: 'Bid', price: '65000.5', qty: '0.01', tif: 'Gtc', reduce_only: false, client_order_id: 'mm-1' },
    rejects: [...PLACE_REJECTS, 'Unauthorized'],
  },
  {
    name: 'CancelOrder',
    ...TRADER_AUTH,
    schema: CancelOrderSchema,
    description: 'Cancel a resting order by order_id or client_order_id.',
    example: { market_id: 1, order_id: 42 },
    rejects: ['MarketNotFound', 'OrderNotFound', 'Unauthorized'],
  },
  {
    name: 'BatchPlaceOrder',
    ...TRADER_AUTH,
    schema: BatchPlaceOrderSchema,
    description: `Place up to ${BATCH_LIMITS.batchOrdersMax} orders in order. A rejected item emits BatchItemRejected (index, reason) and the rest still apply; the envelope is accepted even when every item is rejected.`,
    example: {
      orders: [
        { market_id: 1, side: 'Bid', price: '64990', qty: '0.01', tif: 'PostOnly', reduce_only: false, client_order_id: 'b-1' },
        { market_id: 1, side: 'Ask', price: '65010', qty: '0.01', tif: 'PostOnly', reduce_only: false, client_order_id: 'a-1' },
      ],
    },
    // Item reasons arrive in BatchItemRejected events, not as the envelope's reason.
    rejects: ['Unauthorized'],
  },
  {
    name: 'BatchModify',
    ...TRADER_AUTH,
    schema: BatchModifySchema,
    description: `Amend up to ${BATCH_LIMITS.batchModifiesMax} resting orders in order. Lowering qty keeps time priority; a price or TIF change (or a higher qty) cancels and re-places under a new order id (OrderDone Replaced, then the new order's events); a qty not above the filled lots ends the order (AmendClampedAtFilled). Rejected items emit BatchItemRejected.`,
    example: {
      modifies: [
        { market_id: 1, order_id: 42, qty: '0.005' },
        { market_id: 1, client_order_id: 'a-1', price: '65020' },
      ],
    },
    rejects: ['Unauthorized'],
  },
  {
    name: 'MassCancel',
    ...TRADER_AUTH,
    schema: MassCancelSchema,
    description:
      "Cancel by Owner (all the account's orders, optionally of one market), Side (one side of one market) or Ids (listed orders; unknown ids are reported, not rejected).",
    example: { market_id: 1, by: 'Side', side: 'Bid' },
    rejects: ['InvalidMassCancel', 'MarketNotFound', 'Unauthorized'],
  },
  {
    name: 'ScheduleCancel',
    ...TRADER_AUTH,
    schema: ScheduleCancelSchema,
    description:
      "Dead man's switch: at the first block past deadline_ms all the account's resting orders are cancelled (OrderDone DeadMansSwitch); null clears it.",
    example: { deadline_ms: 1767225600000 },
    rejects: ['InvalidDeadline', 'Unauthorized'],
  },
  {
    name: 'Noop',
    ...TRADER_AUTH,
    schema: NoopSchema,
    description: 'Consume the nonce and do nothing (invalidates an action signed with that nonce).',
    example: {},
    rejects: ['Unauthorized'],
  },
] as const satisfies readonly ActionKindSpec[]
