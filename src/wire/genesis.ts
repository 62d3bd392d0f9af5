// The genesis file (`perpd --genesis FILE`): network, parameters, funded accounts and markets.
import { type Static, Type } from '@sinclair/typebox'
import { NewMarketFields, QuoteLimitFields } from './actions/markets.ts'
import { Address20, DecimalString, RoleSchema, U32, U53 } from './schema-types.ts'

export const GenesisMarketSchema = Type.Object(
  {
    market_id: U32('the market id'),
    symbol: Type.String({ pattern: '^[A-Z0-9]{1,10}-[A-Z0-9]{1,9}$' }),
    ...NewMarketFields,
    fee_recipient: Address20(),
    routing: Type.Union([Type.Literal('native'), Type.Literal('external_peg')]),
    max_fills_per_quote: Type.Integer({ minimum: 1, maximum: 10_000 }),
    liquidation_penalty_bps: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 5000,
        description: 'liquidation penalty, bps of notional; default 50, at most maintenance_margin_bps',
      }),
    ),
    lifecycle: Type.Union([Type.Literal('Created'), Type.Literal('Active')]),
    ...QuoteLimitFields,
  },
  { additionalProperties: false },
)

export const GenesisSchema = Type.Object(
  {
    network: Type.String({ minLength: 1, maxLength: 32 }),
    genesis_time_ms: U53('time of the genesis, ms'),
    max_tx_per_block: Type.Integer({ minimum: 1, maximum: 100_000 }),
    global_rebate_ratio_bps: Type.Integer({ minimum: 0, maximum: 10_000 }),
    insurance_fund: Type.Optional(Address20('takes over liquidated positions and absorbs bad debt; default the first Admin account')),
    accounts: Type.Array(
      Type.Object(
        {
          address: Address20(),
          balance: DecimalString('SCALE_6 amount as a decimal string'),
          roles: Type.Array(RoleSchema),
        },
        { additionalProperties: false },
      ),
      { maxItems: 100_000 },
    ),
    markets: Type.Array(GenesisMarketSchema, { maxItems: 10_000 }),
  },
  { additionalProperties: false },
)

export type Genesis = Static<typeof GenesisSchema>
