// An active trigger order as the read methods show it (getTrigger, getTriggerOrders): the
// triggerUpdates `placed` fields (docs/websocket.md#websocket-protocol) and the trigger's id, pair
// and origin.
import { Type } from '@sinclair/typebox'
import { TriggerDirectionSchema, TriggerOrderTypeSchema } from '../actions/triggers.ts'
import { DecimalString, SideSchema, TifSchema, U32, U53 } from '../schema-types.ts'
import { Hash32, Nullable, Strict } from './common.ts'

export const TriggerViewSchema = Strict(
  {
    trigger_id: U53('the trigger'),
    market_id: U32('the market'),
    symbol: Type.String({ minLength: 1, description: 'the market symbol' }),
    side: SideSchema,
    order_type: TriggerOrderTypeSchema,
    qty: DecimalString('size of the order it places (sz precision)'),
    trigger_price: DecimalString('mark price that fires it (px precision)'),
    trigger_direction: TriggerDirectionSchema,
    limit_price: Nullable(DecimalString('limit price (px precision)'), 'limit price of a limit trigger; null for market'),
    tif: TifSchema,
    reduce_only: Type.Boolean({ description: 'the order it places only reduces a position' }),
    client_order_id: Nullable(
      Type.String({ minLength: 1, maxLength: 64, description: "the caller's id" }),
      'the client_order_id it was placed with; null without one',
    ),
    expires_at_ms: Nullable(U53('block time (ms) at or after which it expires'), 'expiry; null means never'),
    pair_id: Nullable(U53('the OCO pair'), 'the OCO pair whose stop leg it is; null for a lone trigger'),
    tx_hash: Hash32('hash of the transaction that placed it'),
    placed_height: U53('height of the block that placed it'),
  },
  'an active trigger order',
)
