// Event bodies of the funds area (chain funds-events.ts): every movement of money outside trading is
// a BalanceChanged event (the fund-flows history reads them), next to an event that says why: a
// bridge deposit or withdrawal (kind Bridge), a transfer, a referral rebate.
import { Type } from '@sinclair/typebox'
import { Address, Amount, Count, Enum, eventSchema, MarketId, Nullable, SignedAmount } from './fields.ts'

const NoMarket = Type.Null({ description: 'always null' })

export const BalanceChangeReasonSchema = Enum(
  [
    'Deposit',
    'WithdrawRequested',
    'WithdrawCancelled',
    'WithdrawRefunded',
    'TransferOut',
    'TransferIn',
    'RebateToInviter',
    'RebateToInvitee',
  ],
  'why the balance changed (trading fees and PnL are in Filled events)',
)

export const BalanceChangedSchema = eventSchema(
  'Core',
  'BalanceChanged',
  "An account's balance changed outside trading: a deposit, a withdrawal request, cancel or refund, a transfer, a referral rebate.",
  {
    market_id: Nullable(MarketId(), "the market of a rebate's fee; null for bridge and transfer movements"),
    account: Address('the account whose balance changed'),
    reason: BalanceChangeReasonSchema,
    amount: SignedAmount('the change: credits > 0, debits < 0'),
    balance_after: SignedAmount("the account's balance after the change"),
  },
)

export const RebatePaidSchema = eventSchema(
  'Core',
  'RebatePaid',
  'A fee paid by an invited account was partly rebated to it and to its inviter (each gets a BalanceChanged).',
  {
    market_id: MarketId('the market of the fee'),
    account: Address('the invitee whose fee is rebated'),
    inviter: Address("the invitee's inviter"),
    fee: Amount("the whole fee the invitee paid; fee minus both rebates went to the market's fee recipient"),
    rebate_to_inviter: Amount("the inviter's share"),
    rebate_to_invitee: Amount("the invitee's share"),
  },
)

export const InviterSetSchema = eventSchema(
  'Core',
  'InviterSet',
  "SetInviter recorded the account's inviter (once per account); its later fees earn referral rebates.",
  {
    market_id: NoMarket,
    account: Address('the invitee'),
    inviter: Address('the inviter'),
  },
)

export const FundsTransferredSchema = eventSchema(
  'Core',
  'FundsTransferred',
  'TransferFunds moved money from the account to another (BalanceChanged TransferOut and TransferIn follow).',
  {
    market_id: NoMarket,
    account: Address('the sender'),
    destination: Address('the receiver'),
    amount: Amount('the amount moved'),
  },
)

export const DepositCreditedSchema = eventSchema(
  'Bridge',
  'DepositCredited',
  'CreditDeposit credited a bridge deposit (once per deposit_id); a new address became an account with the Trader role.',
  {
    market_id: NoMarket,
    account: Address('the credited account'),
    amount: Amount('the amount credited'),
    deposit_id: Type.String({ minLength: 1, description: "the bridge's unique id of the deposit" }),
    source_chain: Nullable(
      Type.String({ description: 'a chain name' }),
      'the chain the deposit came from; null when the bridge named none',
    ),
    signer: Address('the BridgeDeposit account that credited it'),
  },
)

export const WithdrawalRequestedSchema = eventSchema(
  'Bridge',
  'WithdrawalRequested',
  'WithdrawRequest debited the account and queued a withdrawal for the bridge to settle.',
  {
    market_id: NoMarket,
    account: Address('the account'),
    withdrawal_id: Count('the withdrawal'),
    destination: Address('where the bridge pays out'),
    amount: Amount('the amount debited'),
  },
)

export const WithdrawalCancelledSchema = eventSchema(
  'Bridge',
  'WithdrawalCancelled',
  'CancelWithdrawRequest: the owner took back a pending withdrawal; its amount is credited back.',
  {
    market_id: NoMarket,
    account: Address('the account'),
    withdrawal_id: Count('the withdrawal'),
    amount: Amount('the amount credited back'),
  },
)

export const WithdrawalClaimedSchema = eventSchema(
  'Bridge',
  'WithdrawalClaimed',
  'ClaimWithdrawal: the bridge took a pending withdrawal on (processing); its owner can no longer cancel it.',
  {
    market_id: NoMarket,
    account: Address('the account'),
    withdrawal_id: Count('the withdrawal'),
    destination: Address('where the bridge pays out'),
    amount: Amount('the amount to pay out'),
    signer: Address('the BridgeWithdraw account that claimed it'),
  },
)

export const WithdrawalSettledSchema = eventSchema(
  'Bridge',
  'WithdrawalSettled',
  'SettleWithdrawal: the bridge paid a pending withdrawal out; its amount leaves the exchange.',
  {
    market_id: NoMarket,
    account: Address('the account'),
    withdrawal_id: Count('the withdrawal'),
    destination: Address('where it was paid'),
    amount: Amount('the amount paid out'),
    external_tx: Nullable(
      Type.String({ description: 'a transaction id' }),
      'the payout transaction on the destination chain; null when the bridge named none',
    ),
    signer: Address('the BridgeWithdraw account that settled it'),
  },
)

export const WithdrawalRefundedSchema = eventSchema(
  'Bridge',
  'WithdrawalRefunded',
  'RefundWithdrawal: the bridge did not pay a pending withdrawal out; its amount is credited back.',
  {
    market_id: NoMarket,
    account: Address('the account'),
    withdrawal_id: Count('the withdrawal'),
    amount: Amount('the amount credited back'),
    reason: Nullable(Type.String({ description: "the bridge's words" }), 'why the bridge did not pay out; null when it named no reason'),
    signer: Address('the BridgeWithdraw account that refunded it'),
  },
)

export const FUNDS_EVENT_SCHEMAS = [
  BalanceChangedSchema,
  RebatePaidSchema,
  InviterSetSchema,
  FundsTransferredSchema,
  DepositCreditedSchema,
  WithdrawalRequestedSchema,
  WithdrawalCancelledSchema,
  WithdrawalClaimedSchema,
  WithdrawalSettledSchema,
  WithdrawalRefundedSchema,
] as const
