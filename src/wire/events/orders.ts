// Event bodies of the order area: the order lifecycle (accepted, resting, filled, done, expired),
// batch item rejections, mass cancels and the dead man's switch (chain events.ts, order-events.ts).
import { Type } from '@sinclair/typebox'
import {
  Address,
  Amount,
  Count,
  Enum,
  eventSchema,
  MarketId,
  Nullable,
  OrderId,
  Price,
  RejectReasonSchema,
  SideSchema,
  SignedAmount,
  SignedSize,
  Size,
  TifSchema,
} from './fields.ts'

const ClientOrderId = Type.Optional(
  Type.String({ minLength: 1, description: 'the client_order_id the order was placed with; absent without one' }),
)

/** Why an order is done (chain DoneReason). */
export const DoneReasonSchema = Enum(
  [
    'Filled',
    'Cancelled',
    'IocExpired',
    'FokRejected',
    'SelfTradeCancelled',
    'ReduceOnlyClamped',
    'FillLimitReached',
    'ForceCancelled',
    'Replaced',
    'AmendClampedAtFilled',
    'DeadMansSwitch',
    'Liquidated',
    'MarketDelisted',
  ],
  'why the order is done: Filled; Cancelled (by its owner); IocExpired (an IOC remainder); FokRejected; SelfTradeCancelled; ' +
    "ReduceOnlyClamped (nothing left to reduce); FillLimitReached (a taker cut at the fills-per-order limit); ForceCancelled (an Admin's ForceCancelAccountOrders); " +
    "Replaced (BatchModify re-placed it under a new id); AmendClampedAtFilled (BatchModify's new quantity is not above what filled); " +
    "DeadMansSwitch (ScheduleCancel's deadline passed); Liquidated (its account was liquidated); MarketDelisted (CompleteDelist sealed its market)",
)

export const OrderAcceptedSchema = eventSchema(
  'Exec',
  'OrderAccepted',
  'A PlaceOrder (or a batch item, a fired trigger, an OCO leg) passed admission and got its order id. Its outcome follows as Filled, OrderResting and OrderDone events.',
  {
    market_id: MarketId(),
    account: Address("the order's owner"),
    order_id: OrderId("the new order's id"),
    side: SideSchema,
    price: Price("the limit price (a market order's protective limit)"),
    qty: Size('the ordered quantity'),
    tif: TifSchema,
    reduce_only: Type.Boolean({ description: 'the order may only reduce the position' }),
    client_order_id: ClientOrderId,
  },
)

export const OrderRestingSchema = eventSchema(
  'Exec',
  'OrderResting',
  'The order (or what is left of it after its taker fills) rests on the book. A book rebuilt from events upserts it at `remaining`.',
  {
    market_id: MarketId(),
    account: Address("the order's owner"),
    order_id: OrderId('the resting order'),
    side: SideSchema,
    price: Price('the limit price it rests at'),
    qty: Size('the ordered quantity'),
    remaining: Size('the quantity resting on the book'),
    tif: TifSchema,
    reduce_only: Type.Boolean({ description: 'the order may only reduce the position' }),
    client_order_id: ClientOrderId,
  },
)

export const FilledSchema = eventSchema(
  'Exec',
  'Filled',
  "A match between a taker order and a resting maker order (on an external-peg market, against Book B at the oracle quote). Both sides' fees, realized PnL and position sizes are reported.",
  {
    market_id: MarketId(),
    account: Address("the taker (the event's best-effort account)"),
    taker: Address("the taker's account"),
    maker: Address("the maker's account (Book B's address on an external-peg market)"),
    taker_order_id: OrderId('the taker order'),
    maker_order_id: OrderId('the resting order it met (0 for Book B)'),
    taker_side: SideSchema,
    price: Price("the fill price (the maker's price)"),
    qty: Size('the filled quantity'),
    notional: Amount('price x qty'),
    taker_fee: Amount('the fee the taker paid'),
    maker_fee: Amount('the fee the maker paid'),
    taker_realized_pnl: SignedAmount('PnL the fill realized for the taker'),
    maker_realized_pnl: SignedAmount('PnL the fill realized for the maker'),
    taker_size_before: SignedSize("the taker's signed position size before the fill"),
    taker_size_after: SignedSize("the taker's signed position size after the fill"),
    maker_size_before: SignedSize("the maker's signed position size before the fill"),
    maker_size_after: SignedSize("the maker's signed position size after the fill"),
    maker_remaining: Size('what stays of the maker order on the book (0: it left the book)'),
    taker_source_trigger_id: Nullable(Count('the trigger id'), 'the trigger whose firing placed the taker order; null otherwise'),
    maker_source_trigger_id: Nullable(Count('the trigger id'), 'the trigger whose firing placed the maker order; null otherwise'),
    taker_source_tx_hash: Nullable(
      Type.String({ description: 'a tx hash' }),
      'the envelope that placed the taker order (for a fired trigger, the envelope that placed the trigger)',
    ),
    maker_source_tx_hash: Nullable(Type.String({ description: 'a tx hash' }), 'the envelope that placed the maker order; null for Book B'),
  },
)

export const OrderDoneSchema = eventSchema(
  'Exec',
  'OrderDone',
  'The order left the book or its placement ended: filled, cancelled, expired as IOC, clamped, replaced. A book rebuilt from events removes it.',
  {
    market_id: MarketId(),
    account: Address("the order's owner"),
    order_id: OrderId('the order'),
    reason: DoneReasonSchema,
    remaining: Size('the quantity left unfilled'),
    filled: Size("the quantity that filled over the order's life"),
    client_order_id: ClientOrderId,
  },
)

export const OrderExpiredSchema = eventSchema(
  'Exec',
  'OrderExpired',
  'A resting order removed at the start of a block because block time passed its expires_at_ms (orderUpdates kind `expired`).',
  {
    market_id: MarketId(),
    account: Address("the order's owner"),
    order_id: OrderId('the order'),
    reason: Type.Literal('Expired', { description: 'always Expired' }),
    remaining: Size('the quantity left unfilled'),
    filled: Size("the quantity that filled over the order's life"),
    expires_at_ms: Count("the order's expiry time, ms"),
    client_order_id: ClientOrderId,
  },
)

export const BatchItemRejectedSchema = eventSchema(
  'Core',
  'BatchItemRejected',
  'One item of a BatchPlaceOrder, BatchModify or SubmitOracleQuote was rejected; the other items still apply and the envelope is accepted.',
  {
    market_id: Nullable(MarketId(), "the item's market; null when it names no known market"),
    account: Address("the signer's account"),
    action_kind: Enum(['BatchPlaceOrder', 'BatchModify', 'SubmitOracleQuote'], 'the batch action'),
    index: Count("the item's index in the batch, from 0"),
    reason: RejectReasonSchema('why the item was rejected (a reject reason)'),
    message: Type.String({ description: 'a human-readable explanation' }),
  },
)

export const MassCancelDoneSchema = eventSchema(
  'Core',
  'MassCancelDone',
  'What a MassCancel did; its OrderDone (Cancelled) events precede it.',
  {
    market_id: Nullable(MarketId(), 'the market it was limited to; null for all markets'),
    account: Address('the account whose orders were cancelled'),
    by: Enum(['Owner', 'Side', 'Ids'], "how orders were selected: all of the owner's, one side's, or listed ids"),
    side: Nullable(SideSchema, 'the side cancelled (by Side); null otherwise'),
    cancelled: Count('orders cancelled'),
    not_found: Type.Array(Count('an order id'), {
      description: 'listed ids (by Ids) that were not open orders of the account (in the market when given)',
    }),
  },
)

export const CancelScheduledSchema = eventSchema(
  'Core',
  'CancelScheduled',
  "ScheduleCancel set or cleared the account's dead man's switch.",
  {
    market_id: Type.Null({ description: 'always null' }),
    account: Address('the account'),
    deadline_ms: Nullable(
      Count('block time, ms'),
      "when the account's orders are cancelled unless rescheduled; null: the switch was cleared",
    ),
  },
)

export const DeadMansSwitchFiredSchema = eventSchema(
  'Core',
  'DeadMansSwitchFired',
  "At the start of a block past its deadline, an account's dead man's switch cancelled its orders; their OrderDone (DeadMansSwitch) events precede it.",
  {
    market_id: Type.Null({ description: 'always null' }),
    account: Address('the account'),
    deadline_ms: Count('the deadline that passed, ms'),
    cancelled: Count('orders cancelled'),
  },
)

export const ORDER_EVENT_SCHEMAS = [
  OrderAcceptedSchema,
  OrderRestingSchema,
  FilledSchema,
  OrderDoneSchema,
  OrderExpiredSchema,
  BatchItemRejectedSchema,
  MassCancelDoneSchema,
  CancelScheduledSchema,
  DeadMansSwitchFiredSchema,
] as const
