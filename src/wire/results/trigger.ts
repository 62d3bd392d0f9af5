// Result schemas of the trigger area (docs/orders.md#trigger-orders,
// docs/orders.md#oco-pairs-and-brackets): the active trigger orders of an address
// (shared-trigger.ts) and its open OCO pairs and brackets.
import { Type } from '@sinclair/typebox'
import { TriggerDirectionSchema, TriggerOrderTypeSchema } from '../actions/triggers.ts'
import { DecimalString, SideSchema, U32, U53 } from '../schema-types.ts'
import { Hash32, Nullable, Strict } from './common.ts'
import { TriggerViewSchema } from './shared-trigger.ts'

/** getTriggerOrders. */
export const TriggerOrdersResult = Type.Array(TriggerViewSchema, { description: 'active trigger orders, in trigger id order' })

/** An open OCO pair: `armed` with both legs, or a bracket `waiting` for its parent order to fill. */
export const OcoPairViewSchema = Strict(
  {
    pair_id: U53('the OCO pair'),
    client_pair_id: U53("the caller's id of the pair"),
    market_id: U32('the market'),
    symbol: Type.String({ minLength: 1, description: 'the market symbol' }),
    status: Type.Union([Type.Literal('armed'), Type.Literal('waiting')], {
      description:
        'armed: the limit leg rests and the stop leg is an active trigger; waiting: a bracket whose parent order has not fully filled, no leg placed yet',
    }),
    side: SideSchema,
    qty: DecimalString('size of each leg (sz precision)'),
    limit_price: DecimalString('price of the limit leg (px precision)'),
    stop: Strict(
      {
        trigger_price: DecimalString('mark price that fires the stop leg (px precision)'),
        trigger_direction: TriggerDirectionSchema,
        order_type: TriggerOrderTypeSchema,
        limit_price: Nullable(DecimalString('limit price (px precision)'), 'limit price of a limit stop; null for a market stop'),
        expires_at_ms: Nullable(U53('block time (ms)'), 'block time at or after which the stop expires; null: never'),
      },
      'the stop leg as placed',
    ),
    reduce_only: Type.Boolean({ description: 'both legs only reduce a position' }),
    parent_order_id: Nullable(
      U53('the bracket entry order'),
      "the bracket's entry order, whose full fill arms the pair; null for a plain OCO pair",
    ),
    limit_order_id: Nullable(U53("the limit leg's order"), 'the resting limit leg; null while waiting'),
    stop_trigger_id: Nullable(U53("the stop leg's trigger"), "the stop leg's trigger order; null while waiting"),
    tx_hash: Hash32('the envelope that placed the pair'),
    placed_height: U53('height of the block that placed it'),
  },
  'an open OCO pair or bracket',
)

/** getOcoPairs. */
export const OcoPairsResult = Type.Array(OcoPairViewSchema, { description: 'open OCO pairs and brackets, in pair id order' })
