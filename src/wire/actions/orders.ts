// Order actions (area: orders).
import { Type, type Static } from '@sinclair/typebox'
import type { ActionKind } from '../action-kind.ts'
import { DecimalString, SideSchema, TifSchema, U32, U53 } from '../schema-types.ts'

export const PlaceOrderSchema = Type.Object(
  {
    market_id: U32('the market'),
    side: SideSchema,
    price: DecimalString('limit price, at most price_decimals decimals'),
    qty: DecimalString('size, at most size_decimals decimals'),
    tif: TifSchema,
    reduce_only: Type.Boolean({ description: 'only reduce an existing position' }),
    client_order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'caller id, unique among the account\'s open orders in the market' })),
  },
  { additionalProperties: false },
)
export type PlaceOrderPayload = Static<typeof PlaceOrderSchema>

export const CancelOrderSchema = Type.Object(
  {
    market_id: U32('the market'),
    order_id: Type.Optional(U53('the order to cancel')),
    client_order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'or the client id of the order' })),
  },
  { additionalProperties: false },
)
export type CancelOrderPayload = Static<typeof CancelOrderSchema>

export const ORDER_ACTIONS: ActionKind[] = [
  { name: 'PlaceOrder', auth: 'master_or_agent_with_role', role: 'Trader', masterOnly: false, schema: PlaceOrderSchema, description: 'Place a limit order (Gtc, Ioc, Fok, PostOnly), optionally reduce-only.',
    example: { market_id: 1, side: 'Bid', price: '65000.5', qty: '0.01', tif: 'Gtc', reduce_only: false, client_order_id: 'mm-1' },
    rejects: ['MarketNotFound', 'MarketNotTradable', 'QuoteNotAvailable', 'InvalidPrice', 'InvalidQuantity', 'BelowMinOrderSize', 'DuplicateClientOrderId', 'TooManyOpenOrders', 'ReduceOnlyWouldOpenOrFlip', 'PostOnlyWouldCross', 'FokRejected', 'DustNotionalFill', 'InsufficientMargin', 'Unauthorized'] },
  { name: 'CancelOrder', auth: 'master_or_agent_with_role', role: 'Trader', masterOnly: false, schema: CancelOrderSchema, description: 'Cancel a resting order by order_id or client_order_id.',
    example: { market_id: 1, order_id: 42 }, rejects: ['MarketNotFound', 'OrderNotFound', 'Unauthorized'] },
]
