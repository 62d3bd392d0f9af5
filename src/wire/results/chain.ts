// Result schemas of the foundation reads (chain-methods.ts): health, exchange config and stats,
// action metadata, the order book, accounts and their orders, transactions and blocks.
import { Type } from '@sinclair/typebox'
import { DecimalString, RoleSchema, U32, U53 } from '../schema-types.ts'
import { MarketLifecycleSchema, Nullable, Strict } from './common.ts'
import { AccountViewSchema, OpenOrderViewSchema } from './shared-account.ts'
import { BlockSchema, EnvelopeViewSchema, EventViewSchema } from './shared-block.ts'
import { OrderbookViewSchema } from './shared-orderbook.ts'

export const HealthResult = Strict(
  {
    status: Type.Literal('ok', { description: 'always ok: the node answers (halted state is not checked)' }),
    height: U53('the chain tip'),
  },
  'liveness of the node',
)

/** ExchangeConfig (docs/rpc.md#getexchangeconfig). */
export const ExchangeConfigResult = Strict(
  {
    network: Type.String({ minLength: 1, description: 'network name, part of every signature (e.g. dev)' }),
    action_version: U32('version of the action set (currently 2)'),
    max_decimals: U32('SCALE_6 precision cap of amounts: 6'),
    max_tx_per_block: U32('envelopes one block takes at most'),
    settlement_paused: Type.Boolean({ description: 'global bridge settlement gate: withdrawals are not settled while true' }),
    global_rebate_ratio_bps: U32("share of a trader's fees paid back as referral rebates, bps (1000 = 10%)"),
    market_count: U32('markets in lifecycle Active'),
    nonce_window: U32('nonces a signer may use: [nonce, nonce + nonce_window)'),
  },
  'exchange-wide parameters (ExchangeConfig)',
)

export const ExchangeStatsResult = Strict(
  {
    market_count: U32('markets that are not Delisted'),
    account_count: U53('accounts on the chain'),
    open_orders: U53('resting orders across those markets'),
    total_open_interest_notional: DecimalString('sum of open_interest_notional over the markets (SCALE_6)'),
    markets: Type.Array(
      Strict(
        {
          market_id: U32('the market'),
          symbol: Type.String({ minLength: 1, description: 'the market symbol' }),
          lifecycle: MarketLifecycleSchema,
          mark_price: DecimalString('mark price (px precision)'),
          open_interest: DecimalString('total long size (sz precision)'),
          open_interest_notional: DecimalString('open interest at the mark (SCALE_6)'),
          open_orders: U53('resting orders in the market'),
        },
        'figures of one market',
      ),
      { description: 'markets that are not Delisted, by market_id' },
    ),
  },
  'exchange-wide figures',
)

/** ActionMeta (docs/rpc.md#getactionsmeta). */
export const ActionsMetaResult = Strict(
  {
    action_version: U32('version of the action set'),
    actions: Type.Array(
      Strict(
        {
          name: Type.String({ minLength: 1, description: 'the action kind, the top-level key of an action' }),
          auth: Type.Union([Type.Literal('master'), Type.Literal('master_or_agent_with_role'), Type.Literal('user_signed_master')], {
            description:
              'auth channel: master (the master key, L1 signing), master_or_agent_with_role (the master or an agent with the role), user_signed_master (EIP-712 user-signed by the master)',
          }),
          role: Nullable(RoleSchema, 'the role the signer needs; null when none'),
          master_only: Type.Boolean({
            description: 'only the master key may sign it: true for every kind an agent cannot send (auth master or user_signed_master)',
          }),
          description: Type.String({ description: 'what the action does' }),
        },
        'an action kind',
      ),
      { description: 'every action kind the node implements' },
    ),
  },
  'action metadata (ActionMeta)',
)

export const OrderbookResult = OrderbookViewSchema

export const AccountResult = AccountViewSchema

export const AccountOrdersResult = Type.Array(OpenOrderViewSchema, { description: 'open orders in order id order' })

/** getTx: EnvelopeView with the block time and the envelope's events (GET /tx/{hash} without `source`). */
export const TxResult = Nullable(
  Strict(
    {
      ...EnvelopeViewSchema.properties,
      timestamp_ms: U53('time of the block that holds it, ms since the Unix epoch'),
      events: Type.Array(EventViewSchema, { description: 'the events the envelope caused, in sequence order' }),
    },
    'a transaction with its outcome and events',
  ),
  'the transaction; null when no stored block holds that hash',
)

export const BlockResult = BlockSchema
