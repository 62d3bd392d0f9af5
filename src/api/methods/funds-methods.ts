// Read methods of the funds area: pending withdrawals and referral records of an address.
import { type Static, Type } from '@sinclair/typebox'
import { type PendingWithdrawal, pendingWithdrawalsOf } from '../../chain/index.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import { ReferralResult, WithdrawalsResult } from '../../wire/results/funds.ts'
import { Address20 } from '../../wire/schema-types.ts'
import { EXAMPLE_ADDRESS } from './chain-methods.ts'
import { requireAddress } from './params.ts'
import { method } from './registry.ts'

const AddressParams = Type.Object({ address: Address20() }, { additionalProperties: false })

const money = (v: bigint) => formatDecimal(v, 6)

/** The claim fields of a pending withdrawal's view (getWithdrawals, getPendingWithdrawals). */
export function withdrawalClaimView(w: PendingWithdrawal): {
  status: 'pending' | 'processing'
  claimed_by: string | null
  claimed_height: number | null
} {
  return w.claimedBy === undefined
    ? { status: 'pending', claimed_by: null, claimed_height: null }
    : { status: 'processing', claimed_by: w.claimedBy, claimed_height: w.claimedHeight ?? null }
}

export const fundsMethods = [
  method({
    name: 'getWithdrawals',
    description:
      'Pending withdrawals of an address, oldest first: {withdrawal_id, destination, amount, requested_height, requested_at_ms, status, claimed_by, claimed_height}; status processing once the bridge claimed one (ClaimWithdrawal). Settled, refunded and cancelled ones are in the event history.',
    params: AddressParams,
    example: { address: EXAMPLE_ADDRESS },
    result: WithdrawalsResult,
    handler: (ctx, p) => ({
      data: pendingWithdrawalsOf(ctx.node.state, requireAddress(p.address)).map((w) => ({
        withdrawal_id: w.id,
        destination: w.destination,
        amount: money(w.amount),
        requested_height: w.requestedHeight,
        requested_at_ms: w.requestedAtMs,
        ...withdrawalClaimView(w),
      })) satisfies Static<typeof WithdrawalsResult>,
    }),
  }),
  method({
    name: 'getReferral',
    description:
      'Referral record of an address: its inviter (or null), how many accounts it invited, the rebates it earned as an inviter and those paid back on its own fees, and the current global_rebate_ratio_bps.',
    params: AddressParams,
    example: { address: EXAMPLE_ADDRESS },
    result: ReferralResult,
    handler: (ctx, p) => {
      const state = ctx.node.state
      const a = requireAddress(p.address)
      const r = state.funds.referrals.get(a)
      return {
        data: {
          address: a,
          inviter: r?.inviter ?? null,
          invitees: r?.invitees ?? 0,
          rebates_earned: money(r?.rebatesAsInviter ?? 0n),
          rebates_received: money(r?.rebatesAsInvitee ?? 0n),
          global_rebate_ratio_bps: state.params.globalRebateRatioBps,
        } satisfies Static<typeof ReferralResult>,
      }
    },
  }),
]
