// Event bodies of trigger orders (kind Trigger) and OCO pairs (kind Oco), chain trigger-events.ts.
// Each carries `kind_label`, the lowercase kind of the triggerUpdates row it becomes
// (docs/websocket.md#websocket-protocol).
import { type TLiteral, Type } from '@sinclair/typebox'
import {
  Address,
  Count,
  Enum,
  eventSchema,
  MarketId,
  Nullable,
  Price,
  RejectReasonSchema,
  SideSchema,
  Size,
  TifSchema,
  TriggerDirectionSchema,
  TriggerOrderTypeSchema,
} from './fields.ts'

const label = <L extends string>(l: L): TLiteral<L> => Type.Literal(l, { description: `the triggerUpdates row kind (${l})` })

const TriggerPairId = Type.Optional(Count('the OCO pair whose stop leg this trigger is; absent otherwise'))

/** The trigger's details as TriggerPlaced and TriggerAmended carry them. */
const triggerDetails = {
  market_id: MarketId(),
  account: Address("the trigger's owner"),
  trigger_id: Count('the trigger'),
  side: SideSchema,
  order_type: TriggerOrderTypeSchema,
  qty: Size('the quantity of the order it fires'),
  trigger_price: Price('the mark price it fires at'),
  trigger_direction: TriggerDirectionSchema,
  limit_price: Type.Optional(Price("the fired order's limit price; only for `limit` triggers")),
  tif: TifSchema,
  reduce_only: Type.Boolean({ description: 'the fired order may only reduce the position' }),
  client_order_id: Type.Optional(
    Type.String({ minLength: 1, description: 'the client_order_id the fired order will carry; absent without one' }),
  ),
  expires_at_ms: Nullable(Count('block time, ms'), 'when the trigger expires; null: never'),
  pair_id: TriggerPairId,
}

export const TriggerPlacedSchema = eventSchema(
  'Trigger',
  'TriggerPlaced',
  "A PlaceTriggerOrder (or an OCO pair's stop leg) placed a trigger: it waits for the mark to cross trigger_price.",
  {
    kind_label: label('placed'),
    ...triggerDetails,
  },
)

export const TriggerAmendedSchema = eventSchema(
  'Trigger',
  'TriggerAmended',
  'AmendTriggerOrder changed a trigger; the body carries its details after the change.',
  {
    kind_label: label('amended'),
    ...triggerDetails,
  },
)

export const TriggerActivatedSchema = eventSchema(
  'Trigger',
  'TriggerActivated',
  'At the end of a block the mark crossed the trigger price: the trigger was promoted to an order, whose events follow.',
  {
    kind_label: label('activated'),
    market_id: MarketId(),
    account: Address("the trigger's owner"),
    trigger_id: Count('the trigger'),
    order_id: Count('the order the trigger was promoted to; its result follows as order events'),
    mark_price: Price('the mark that fired it'),
    order_price: Price("the promoted order's limit (a `market` trigger's protective limit)"),
    pair_id: TriggerPairId,
  },
)

export const TriggerCancelledSchema = eventSchema(
  'Trigger',
  'TriggerCancelled',
  'An active trigger was cancelled: by its owner, because its order failed, because its market was delisted, or as the sibling of a resolved OCO leg.',
  {
    kind_label: label('cancelled'),
    market_id: MarketId(),
    account: Address("the trigger's owner"),
    trigger_id: Count('the trigger'),
    reason: Enum(['ByOwner', 'OnFailure', 'MarketDelisted', 'OcoSibling'], 'why it was cancelled (docs/orders.md#trigger-orders)'),
    pair_id: TriggerPairId,
  },
)

export const TriggerExpiredSchema = eventSchema(
  'Trigger',
  'TriggerExpired',
  "Block time passed the trigger's expires_at_ms; it was removed without firing.",
  {
    kind_label: label('expired'),
    market_id: MarketId(),
    account: Address("the trigger's owner"),
    trigger_id: Count('the trigger'),
    reason: Type.Literal('Expired', { description: 'always Expired' }),
    expires_at_ms: Count('the expiry that passed, ms'),
    pair_id: TriggerPairId,
  },
)

export const TriggerFireFailedSchema = eventSchema(
  'Trigger',
  'TriggerFireFailed',
  'The trigger fired but its promoted order was rejected; the trigger is gone.',
  {
    kind_label: label('fire_failed'),
    market_id: MarketId(),
    account: Address("the trigger's owner"),
    trigger_id: Count('the trigger'),
    reason: RejectReasonSchema('why the promoted order was rejected (a reject reason)'),
    message: Type.String({ description: 'a human-readable explanation' }),
    pair_id: TriggerPairId,
  },
)

const ocoBase = {
  market_id: MarketId(),
  account: Address("the pair's owner"),
  pair_id: Count('the OCO pair'),
  client_pair_id: Count("the owner's id of the pair"),
}

export const OcoPlacedSchema = eventSchema(
  'Oco',
  'OcoPlaced',
  'PlaceOcoPair placed a pair: a limit order and a stop trigger, each cancelling the other when it resolves (a bracket arms both once its parent order fills).',
  {
    kind_label: label('oco_placed'),
    ...ocoBase,
    parent_order_id: Type.Optional(Count("a bracket's entry order; absent without binding")),
    side: SideSchema,
    qty: Size('the quantity of each leg'),
    limit_price: Price("the limit leg's price"),
    stop_trigger_price: Price("the stop leg's trigger price"),
    stop_trigger_direction: TriggerDirectionSchema,
    stop_order_type: TriggerOrderTypeSchema,
    stop_limit_price: Type.Optional(Price("the stop leg's limit price; only for `limit` stops")),
    stop_expires_at_ms: Nullable(Count('block time, ms'), 'when the stop leg expires; null: never'),
    reduce_only: Type.Boolean({ description: 'both legs may only reduce the position' }),
    limit_order_id: Nullable(Count('the order id'), "the limit leg's order; null while a bracket waits for its parent to fill"),
    stop_trigger_id: Nullable(Count('the trigger id'), "the stop leg's trigger; null while a bracket waits for its parent to fill"),
  },
)

export const OcoResolvedSchema = eventSchema(
  'Oco',
  'OcoResolved',
  'An OCO pair closed: one leg resolved (the other is cancelled), it was cancelled, or its stop expired.',
  {
    kind_label: label('oco_resolved'),
    ...ocoBase,
    reason: Enum(
      ['OrderResolved', 'TriggerFired', 'ManualCancel', 'PairCancelled', 'TriggerExpired'],
      'why the pair closed (docs/orders.md#oco-pairs-and-brackets)',
    ),
    failure: Type.Optional(RejectReasonSchema('when a bracket could not be armed: why its leg was refused; absent otherwise')),
  },
)

export const TRIGGER_EVENT_SCHEMAS = [
  TriggerPlacedSchema,
  TriggerAmendedSchema,
  TriggerActivatedSchema,
  TriggerCancelledSchema,
  TriggerExpiredSchema,
  TriggerFireFailedSchema,
  OcoPlacedSchema,
  OcoResolvedSchema,
] as const
