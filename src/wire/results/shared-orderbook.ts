// The chain order book view (getOrderbook, and the books of getBootstrap): aggregated price levels
// with cumulative quantity (the OrderbookSnapshot levels of docs/websocket.md#hot-read-rest, plus
// the order count per level).
import { Type } from '@sinclair/typebox'
import { DecimalString, U32, U53 } from '../schema-types.ts'
import { Strict } from './common.ts'

const LevelSchema = Strict(
  {
    price: DecimalString('price of the level (px precision)'),
    qty: DecimalString('size resting at the level (sz precision)'),
    cumulative_qty: DecimalString('size from the best level through this one (sz precision)'),
    orders: Type.Integer({ minimum: 1, description: 'resting orders at the level' }),
  },
  'an aggregated price level',
)

export const OrderbookViewSchema = Strict(
  {
    market_id: U32('the market'),
    symbol: Type.String({ minLength: 1, description: 'the full chain symbol' }),
    height: U53('height of the chain state the book was read at'),
    bids: Type.Array(LevelSchema, { description: 'bid levels, best (highest) first' }),
    asks: Type.Array(LevelSchema, { description: 'ask levels, best (lowest) first' }),
  },
  'the order book of a market',
)
