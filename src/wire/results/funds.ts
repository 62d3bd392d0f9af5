// Result schemas of the funds reads (funds-methods.ts): an address's pending withdrawals and its
// referral record.
import { Type } from '@sinclair/typebox'
import { DecimalString, U32, U53 } from '../schema-types.ts'
import { Address, Nullable, Strict } from './common.ts'

/** A pending withdrawal's claim (ClaimWithdrawal), in both withdrawal reads. */
export const WithdrawalClaimFields = {
  status: Type.Union([Type.Literal('pending'), Type.Literal('processing')], {
    description:
      'pending: not claimed yet, its owner may cancel it; processing: a BridgeWithdraw account claimed it (ClaimWithdrawal) and is paying it out, it can no longer be cancelled',
  }),
  claimed_by: Nullable(Address('the account that claimed it'), 'the BridgeWithdraw account that claimed it; null while pending'),
  claimed_height: Nullable(U53('a height'), 'height of the claim; null while pending'),
}

export const WithdrawalsResult = Type.Array(
  Strict(
    {
      withdrawal_id: U53('the withdrawal'),
      destination: Address('where the bridge pays out'),
      amount: DecimalString('amount, debited at request (SCALE_6)'),
      requested_height: U53('height of the block that requested it'),
      requested_at_ms: U53('time of that block, ms since the Unix epoch'),
      ...WithdrawalClaimFields,
    },
    'a pending withdrawal',
  ),
  { description: 'pending withdrawals of the address, oldest first' },
)

export const ReferralResult = Strict(
  {
    address: Address('the address asked about'),
    inviter: Nullable(Address('the inviter'), 'the account that invited this one; null when none is set'),
    invitees: U53('accounts this address invited'),
    rebates_earned: DecimalString("rebates paid to this address as an inviter, from its invitees' fees (SCALE_6)"),
    rebates_received: DecimalString('rebates paid back to this address on its own fees as an invitee (SCALE_6)'),
    global_rebate_ratio_bps: U32("share of a trader's fees paid back as referral rebates, bps (1000 = 10%)"),
  },
  'the referral record of an address',
)
