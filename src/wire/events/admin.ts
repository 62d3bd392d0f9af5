// Event bodies of exchange-wide Admin actions (kind Ops, chain funds-events.ts OpsEvent): each names
// its signer; `account` is the signer for exchange-wide changes, the account acted on otherwise.
import { Type } from '@sinclair/typebox'
import { Address, Count, eventSchema, MarketId, Nullable } from './fields.ts'

const NoMarket = Type.Null({ description: 'always null' })
const Bps = (description: string) => Type.Integer({ minimum: 0, maximum: 10_000, description })

export const GlobalRebateRatioChangedSchema = eventSchema(
  'Ops',
  'GlobalRebateRatioChanged',
  "SetGlobalRebateRatio changed the share of each invited account's fee that is rebated.",
  {
    market_id: NoMarket,
    account: Address('the Admin'),
    signer: Address('the Admin'),
    old_ratio_bps: Bps('the ratio before, bps'),
    new_ratio_bps: Bps('the ratio from now on, bps'),
  },
)

export const SettlementPausedChangedSchema = eventSchema(
  'Ops',
  'SettlementPausedChanged',
  'SetSettlementPaused paused or resumed bridge settlement (SettleWithdrawal).',
  {
    market_id: NoMarket,
    account: Address('the Admin'),
    signer: Address('the Admin'),
    old_paused: Type.Boolean({ description: 'the flag before' }),
    new_paused: Type.Boolean({ description: 'the flag after' }),
  },
)

export const InsuranceFundChangedSchema = eventSchema(
  'Ops',
  'InsuranceFundChanged',
  'SetInsuranceFund named the account that absorbs liquidation surplus and bad debt.',
  {
    market_id: NoMarket,
    account: Address('the Admin'),
    signer: Address('the Admin'),
    old_address: Address('the fund before'),
    new_address: Address('the fund from now on'),
  },
)

export const ExchangeConfigAmendedSchema = eventSchema(
  'Ops',
  'ExchangeConfigAmended',
  'AmendExchangeConfig changed the exchange-wide limits.',
  {
    market_id: NoMarket,
    account: Address('the Admin'),
    signer: Address('the Admin'),
    old_max_tx_per_block: Count('envelopes per block before'),
    new_max_tx_per_block: Count('envelopes per block from the next block on'),
  },
)

export const AccountOrdersForceCancelledSchema = eventSchema(
  'Ops',
  'AccountOrdersForceCancelled',
  "ForceCancelAccountOrders cancelled an account's resting orders; their OrderDone (ForceCancelled) events precede it.",
  {
    market_id: Nullable(MarketId(), 'the market it was limited to; null for all markets'),
    account: Address('the account whose orders were cancelled'),
    signer: Address('the Admin'),
    cancelled: Count('orders cancelled'),
  },
)

export const ADMIN_EVENT_SCHEMAS = [
  GlobalRebateRatioChangedSchema,
  SettlementPausedChangedSchema,
  InsuranceFundChangedSchema,
  ExchangeConfigAmendedSchema,
  AccountOrdersForceCancelledSchema,
] as const
