// The types of the funds and admin area's state (funds-state.ts has its leaves and the code over
// it). Apart, so that the data model (types.ts) names FundsState without importing that code.
import type { Leaf } from '../core/leaf.ts'

/**
 * A withdrawal waiting for the bridge. Its amount left the account's balance when it was requested
 * (so it cannot count as available cash twice); settling sends it out, cancelling or refunding
 * credits it back. It is `pending` until a BridgeWithdraw key claims it (ClaimWithdrawal), then
 * `processing`: the bridge is paying it out and its owner can no longer cancel it.
 */
export interface PendingWithdrawal {
  readonly id: number
  readonly account: string
  /** Where the bridge pays out (an address on the destination chain), lower case. */
  readonly destination: string
  /** SCALE_6, > 0. */
  readonly amount: bigint
  readonly requestedHeight: number
  readonly requestedAtMs: number
  /** Set by ClaimWithdrawal (absent while pending): the BridgeWithdraw account that claimed it. */
  readonly claimedBy?: string
  /** Set with claimedBy: the height of the claim. */
  readonly claimedHeight?: number
}

/** A credited deposit, by its bridge-assigned id. */
export interface DepositRecord {
  readonly account: string
  readonly amount: bigint
  readonly sourceChain: string | null
  readonly height: number
}

/** An account's referral record; it exists once the account has an inviter or an invitee. */
export interface Referral extends Leaf {
  /** Set once by SetInviter; null for an account that only invites. */
  inviter: string | null
  /** Accounts that named this one as their inviter. */
  invitees: number
  /** Rebates paid to this account as an inviter, SCALE_6. */
  rebatesAsInviter: bigint
  /** Rebates paid back to this account on its own fees, SCALE_6. */
  rebatesAsInvitee: bigint
}

export interface FundsState {
  /** Id of the next withdrawal request; ids start at 1 and are never reused. */
  nextWithdrawalId: number
  /** Pending withdrawals by id, in id order (insertion order). */
  readonly withdrawals: Map<number, PendingWithdrawal>
  /** Derived index (not a leaf): pending withdrawal ids per account, ascending. */
  readonly withdrawalsByAccount: Map<string, number[]>
  /** Credited deposits by deposit_id. */
  readonly deposits: Map<string, DepositRecord>
  /** Referral records by account. */
  readonly referrals: Map<string, Referral>
  /** Frozen accounts: they may only cancel and reduce, and move no money out. */
  readonly frozen: Set<string>
  /** Derived (not a leaf): accounts holding the Admin role, so the last one cannot drop it. */
  adminCount: number
}
