// Result schemas of the state reads (state-methods.ts): signers, single orders and triggers,
// positions, fees, the insurance fund, pending withdrawals, block headers and events, chain info.
import { Type } from '@sinclair/typebox'
import { DecimalString, RoleSchema, U32, U53 } from '../schema-types.ts'
import { Address, Hash32, Nullable, SignedDecimalString, Strict } from './common.ts'
import { WithdrawalClaimFields } from './funds.ts'
import { OpenOrderViewSchema, PositionViewSchema } from './shared-account.ts'
import { BlockHeaderSchema, EventViewSchema } from './shared-block.ts'
import { TriggerViewSchema } from './shared-trigger.ts'

const AgentName = Type.String({ maxLength: 32, description: "the agent's name" })

export const NonceResult = Strict(
  {
    address: Address('the signer'),
    nonce: U53('lowest unused nonce'),
    window: U32('nonces usable at once: [nonce, nonce + window)'),
    used_above: Type.Array(U53('a used nonce'), { description: 'nonces above `nonce` already used, ascending' }),
  },
  'the nonce window of a signer',
)

export const AgentsResult = Strict(
  {
    address: Address('the address asked about'),
    agent_of: Nullable(
      Strict(
        {
          master: Address('the master account'),
          role: RoleSchema,
          name: AgentName,
        },
        'the registration of this agent',
      ),
      'for an agent, the master it acts for with its role and name; null for any other address',
    ),
    agents: Type.Array(
      Strict(
        {
          address: Address('the agent'),
          role: RoleSchema,
          name: AgentName,
        },
        'an agent of the account',
      ),
      { description: 'agents registered by this address as a master' },
    ),
  },
  'agents of an address',
)

export const RoleHoldersResult = Strict(
  {
    role: RoleSchema,
    accounts: Type.Array(Address('an account holding the role'), { description: 'holders of the role, ascending by address' }),
    truncated: Type.Boolean({ description: 'the list stopped at limit: more accounts may hold the role' }),
  },
  'accounts holding a role',
)

export const RolesResult = Strict(
  {
    address: Address('the address asked about'),
    role_mask: U32('roles as a bit mask: Admin 1, Trader 2, Quoter 4, Liquidator 8, BridgeDeposit 16, BridgeWithdraw 32'),
    roles: Type.Array(RoleSchema, { description: 'the roles of role_mask, by name' }),
  },
  'roles of an address',
)

export const OrderResult = Nullable(
  Strict(
    {
      ...OpenOrderViewSchema.properties,
      owner: Address('the account that placed it'),
    },
    'a resting order with its owner',
  ),
  'the resting order; null when no book holds that id (closed orders: getOrderStatus)',
)

export const TriggerResult = Nullable(TriggerViewSchema, 'the active trigger; null when none has that id')

export const PositionsResult = Type.Array(PositionViewSchema, { description: 'open positions, by market_id' })

export const PositionResult = Nullable(PositionViewSchema, 'the position; null when flat')

export const FeeScheduleResult = Strict(
  {
    global_rebate_ratio_bps: U32("share of a trader's fees paid back as referral rebates, bps (1000 = 10%)"),
    markets: Type.Array(
      Strict(
        {
          market_id: U32('the market'),
          symbol: Type.String({ minLength: 1, description: 'the market symbol' }),
          maker_fee_bps: Type.Integer({ minimum: 0, maximum: 1000, description: "fee of a resting order's fills, bps of notional" }),
          taker_fee_bps: Type.Integer({ minimum: 0, maximum: 1000, description: "fee of a taker's fills, bps of notional" }),
          fee_recipient: Address('the account fees are paid to'),
        },
        'fees of a market',
      ),
      { description: 'the named market, or every market that is not Delisted' },
    ),
  },
  'the fee schedule',
)

export const InsuranceFundResult = Strict(
  {
    address: Address('the insurance fund account'),
    balance: SignedDecimalString('its balance (SCALE_6); negative when bad debt outran it'),
  },
  'the insurance fund',
)

export const PendingWithdrawalsResult = Type.Array(
  Strict(
    {
      withdrawal_id: U53('the withdrawal'),
      account: Address('the account that requested it'),
      destination: Address('where the bridge pays out'),
      amount: DecimalString('amount, debited at request (SCALE_6)'),
      requested_height: U53('height of the block that requested it'),
      requested_at_ms: U53('time of that block, ms since the Unix epoch'),
      ...WithdrawalClaimFields,
    },
    'a pending withdrawal',
  ),
  { description: 'pending withdrawals, oldest first' },
)

export const BlocksResult = Type.Array(BlockHeaderSchema, { description: 'block headers, newest first' })

export const BlockEventsResult = Type.Array(EventViewSchema, { description: 'events of the block in sequence order' })

export const ChainInfoResult = Strict(
  {
    network: Type.String({ minLength: 1, description: 'network name, part of every signature (e.g. dev)' }),
    genesis_digest: Hash32('hash of the genesis document and its state root: the parent of block 1'),
    height: U53('the chain tip'),
    tip_digest: Hash32('digest of the tip block (the genesis digest before block 1)'),
    timestamp_ms: U53('time of the tip block (genesis time before block 1), ms since the Unix epoch'),
    action_version: U32('version of the action set'),
    max_tx_per_block: U32('envelopes one block takes at most'),
    nonce_window: U32('nonces a signer may use: [nonce, nonce + nonce_window)'),
    market_count: U32('markets on the chain, Delisted ones included'),
    account_count: U53('accounts on the chain'),
  },
  'chain information',
)
