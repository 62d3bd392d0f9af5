// Events of the funds and admin area. Every movement of money is a BalanceChanged event (the
// fund-flows history reads them), next to an event that says why (bridge, transfer, rebate).
// Bigint fields are SCALE_6 amounts (decimal strings on the wire); admin events are kind `Ops` and
// name their signer (getAdminAuditLog).
import type { RoleName } from '../core/types.ts'

/** Why a balance changed outside trading (trading fees and PnL are in Filled events). */
export type BalanceChangeReason =
  | 'Deposit'
  | 'WithdrawRequested'
  | 'WithdrawCancelled'
  | 'WithdrawRefunded'
  | 'TransferOut'
  | 'TransferIn'
  | 'RebateToInviter'
  | 'RebateToInvitee'

export interface BalanceChangedEvent {
  kind: 'Core'
  sub_kind: 'BalanceChanged'
  /** The market of a rebate's fee; null for bridge and transfer movements. */
  market_id: number | null
  account: string
  reason: BalanceChangeReason
  /** Signed: credits > 0, debits < 0. */
  amount: bigint
  balance_after: bigint
}

export interface RebatePaidEvent {
  kind: 'Core'
  sub_kind: 'RebatePaid'
  market_id: number
  /** The invitee whose fee is rebated. */
  account: string
  inviter: string
  /** The whole fee the invitee paid; fee - both rebates went to the market's fee recipient. */
  fee: bigint
  rebate_to_inviter: bigint
  rebate_to_invitee: bigint
}

export interface InviterSetEvent {
  kind: 'Core'
  sub_kind: 'InviterSet'
  market_id: null
  account: string
  inviter: string
}

export interface FundsTransferredEvent {
  kind: 'Core'
  sub_kind: 'FundsTransferred'
  market_id: null
  account: string
  destination: string
  amount: bigint
}

export interface AgentRevokedEvent {
  kind: 'Core'
  sub_kind: 'AgentRevoked'
  market_id: null
  account: string
  agent: string
  role: RoleName
}

export interface DepositCreditedEvent {
  kind: 'Bridge'
  sub_kind: 'DepositCredited'
  market_id: null
  account: string
  amount: bigint
  deposit_id: string
  source_chain: string | null
  signer: string
}

export interface WithdrawalRequestedEvent {
  kind: 'Bridge'
  sub_kind: 'WithdrawalRequested'
  market_id: null
  account: string
  withdrawal_id: number
  destination: string
  amount: bigint
}

export interface WithdrawalCancelledEvent {
  kind: 'Bridge'
  sub_kind: 'WithdrawalCancelled'
  market_id: null
  account: string
  withdrawal_id: number
  amount: bigint
}

export interface WithdrawalClaimedEvent {
  kind: 'Bridge'
  sub_kind: 'WithdrawalClaimed'
  market_id: null
  account: string
  withdrawal_id: number
  destination: string
  amount: bigint
  signer: string
}

export interface WithdrawalSettledEvent {
  kind: 'Bridge'
  sub_kind: 'WithdrawalSettled'
  market_id: null
  account: string
  withdrawal_id: number
  destination: string
  amount: bigint
  external_tx: string | null
  signer: string
}

export interface WithdrawalRefundedEvent {
  kind: 'Bridge'
  sub_kind: 'WithdrawalRefunded'
  market_id: null
  account: string
  withdrawal_id: number
  amount: bigint
  reason: string | null
  signer: string
}

/** Admin actions. `account` is the account acted on, or the signer for exchange-wide changes. */
export type OpsEvent =
  | {
      kind: 'Ops'
      sub_kind: 'GlobalRebateRatioChanged'
      market_id: null
      account: string
      signer: string
      old_ratio_bps: number
      new_ratio_bps: number
    }
  | {
      kind: 'Ops'
      sub_kind: 'SettlementPausedChanged'
      market_id: null
      account: string
      signer: string
      old_paused: boolean
      new_paused: boolean
    }
  | { kind: 'Ops'; sub_kind: 'RoleGranted'; market_id: null; account: string; signer: string; role: RoleName; role_mask: number }
  | { kind: 'Ops'; sub_kind: 'RoleRevoked'; market_id: null; account: string; signer: string; role: RoleName; role_mask: number }
  | {
      kind: 'Ops'
      sub_kind: 'InsuranceFundChanged'
      market_id: null
      account: string
      signer: string
      old_address: string
      new_address: string
    }
  | {
      kind: 'Ops'
      sub_kind: 'ExchangeConfigAmended'
      market_id: null
      account: string
      signer: string
      old_max_tx_per_block: number
      new_max_tx_per_block: number
    }
  | { kind: 'Ops'; sub_kind: 'AccountFrozenChanged'; market_id: null; account: string; signer: string; frozen: boolean }
  | { kind: 'Ops'; sub_kind: 'AccountOrdersForceCancelled'; market_id: number | null; account: string; signer: string; cancelled: number }

export type FundsEvent =
  | BalanceChangedEvent
  | RebatePaidEvent
  | InviterSetEvent
  | FundsTransferredEvent
  | AgentRevokedEvent
  | DepositCreditedEvent
  | WithdrawalRequestedEvent
  | WithdrawalCancelledEvent
  | WithdrawalClaimedEvent
  | WithdrawalSettledEvent
  | WithdrawalRefundedEvent
  | OpsEvent
