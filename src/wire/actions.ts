// One TypeBox schema per action payload, and the registry of action kinds with their auth channel
// (spec §5, getActionsMeta). The schemas validate /action at admission, type the decoder, and
// document the API.
import { Type, type Static, type TSchema } from '@sinclair/typebox'
import type { TypedField } from './eip712.ts'
import { Address20, DecimalString, RoleSchema, SideSchema, TifSchema, U32, U53 } from './schema-types.ts'

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

export const RegisterAgentSchema = Type.Object(
  {
    network: Type.String({ maxLength: 32, description: 'the chain\'s network name (replay protection)' }),
    agent: Address20('the agent address'),
    role: RoleSchema,
    name: Type.String({ maxLength: 32, description: 'a label for the agent' }),
    nonce: U53('equal to the envelope nonce'),
    signature_chain_id: Type.String({ pattern: '^0x[0-9a-fA-F]{1,16}$', description: 'EIP-712 domain chain id, hex' }),
  },
  { additionalProperties: false },
)
export type RegisterAgentPayload = Static<typeof RegisterAgentSchema>

const MarketRef = {
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

export type AuthChannel = 'master' | 'master_or_agent_with_role' | 'user_signed_master'

export interface ActionKind {
  readonly name: string
  readonly auth: AuthChannel
  readonly role: 'Admin' | 'Trader' | 'Quoter' | 'Liquidator' | 'BridgeDeposit' | 'BridgeWithdraw' | null
  readonly masterOnly: boolean
  readonly schema: TSchema
  /** EIP-712 fields of a user-signed kind, in type order (PROTOCOL §4.2). */
  readonly typedFields?: TypedField[]
  readonly description: string
}

/** Every action kind the node implements, in the order getActionsMeta lists them. */
export const ACTION_KINDS: readonly ActionKind[] = [
  { name: 'PlaceOrder', auth: 'master_or_agent_with_role', role: 'Trader', masterOnly: false, schema: PlaceOrderSchema, description: 'Place a limit order (Gtc, Ioc, Fok, PostOnly), optionally reduce-only.' },
  { name: 'CancelOrder', auth: 'master_or_agent_with_role', role: 'Trader', masterOnly: false, schema: CancelOrderSchema, description: 'Cancel a resting order by order_id or client_order_id.' },
  {
    name: 'RegisterAgent', auth: 'user_signed_master', role: null, masterOnly: true, schema: RegisterAgentSchema,
    typedFields: [
      { name: 'network', type: 'string' }, { name: 'agent', type: 'address' }, { name: 'role', type: 'string' },
      { name: 'name', type: 'string' }, { name: 'nonce', type: 'uint64' },
    ],
    description: 'Register an agent key that acts for the master with a role.',
  },
  { name: 'CreateMarket', auth: 'master', role: 'Admin', masterOnly: true, schema: CreateMarketSchema, description: 'Create a market in lifecycle Created.' },
  { name: 'ActivateMarket', auth: 'master', role: 'Admin', masterOnly: true, schema: ActivateMarketSchema, description: 'Move a Created market to Active.' },
]

export const ACTION_KIND_BY_NAME: ReadonlyMap<string, ActionKind> = new Map(ACTION_KINDS.map((k) => [k.name, k]))
