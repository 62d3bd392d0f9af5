// Market management actions (area: markets).
import { Type, type Static } from '@sinclair/typebox'
import type { ActionKind } from '../action-kind.ts'
import { Address20, DecimalString, U32 } from '../schema-types.ts'

/** Fields that address a market: market_id takes precedence over symbol (spec §4.7). */
export const MarketRef = {
  market_id: Type.Optional(U32('the market; takes precedence over symbol')),
  symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'the market symbol' })),
}

export const CreateMarketSchema = Type.Object(
  {
    symbol: Type.String({ pattern: '^[A-Z0-9]{1,10}-[A-Z0-9]{1,9}$', description: 'BASE-QUOTE, upper case' }),
    market_id: Type.Optional(U32('requested id; the effective id is max(requested, max id + 1)')),
    price_decimals: Type.Integer({ minimum: 0, maximum: 12 }),
    size_decimals: Type.Integer({ minimum: 0, maximum: 12 }),
    maker_fee_bps: Type.Integer({ minimum: 0, maximum: 1000 }),
    taker_fee_bps: Type.Integer({ minimum: 0, maximum: 1000 }),
    max_leverage: Type.Integer({ minimum: 1, maximum: 200 }),
    maintenance_margin_bps: Type.Integer({ minimum: 1, maximum: 5000 }),
    min_order_qty: Type.Optional(DecimalString('smallest order size')),
    mark_price: DecimalString('initial mark price'),
    fee_recipient: Type.Optional(Address20('who receives fees; default the creator')),
    routing: Type.Optional(Type.Union([Type.Literal('native'), Type.Literal('external_peg')])),
    max_fills_per_quote: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  },
  { additionalProperties: false },
)
export type CreateMarketPayload = Static<typeof CreateMarketSchema>

export const ActivateMarketSchema = Type.Object(MarketRef, { additionalProperties: false })
export type ActivateMarketPayload = Static<typeof ActivateMarketSchema>

export const MARKET_ACTIONS: ActionKind[] = [
  { name: 'CreateMarket', auth: 'master', role: 'Admin', masterOnly: true, schema: CreateMarketSchema, description: 'Create a market in lifecycle Created.',
    example: { symbol: 'DOGE-USD', price_decimals: 5, size_decimals: 0, maker_fee_bps: 2, taker_fee_bps: 5, max_leverage: 10, maintenance_margin_bps: 500, mark_price: '0.15' },
    rejects: ['MarketAlreadyExists', 'InvalidMarketConfig', 'InvalidMaxFillsPerQuote', 'InvalidPrice', 'InvalidQuantity', 'Unauthorized'] },
  { name: 'ActivateMarket', auth: 'master', role: 'Admin', masterOnly: true, schema: ActivateMarketSchema, description: 'Move a Created market to Active.',
    example: { market_id: 5 }, rejects: ['MarketNotFound', 'MarketNotInCreatedState', 'Unauthorized'] },
]
