// Referral: an account names its inviter once (SetInviter); afterwards a share of every fee it pays,
// global_rebate_ratio_bps of the fee, is paid out as rebates (Core::RebatePaid,
// docs/events.md#rebatepaid).
//
// The split: the rebate pool is floor(fee x ratio / 10000); the inviter and the invitee each get
// floor(pool / 2). Both round down, so the payouts never exceed the pool and an odd micro-unit,
// like the rest of the fee, goes to the market's fee recipient.
import type { SetInviterPayload } from '../../wire/actions.ts'
import { type ActionContext, OK, type Outcome } from '../core/action-context.ts'
import type { EventSink } from '../core/events.ts'
import { reject } from '../core/reasons.ts'
import { type Account, BPS_DENOMINATOR, type ChainState, LIMITS } from '../core/types.ts'
import { markLeaf } from '../state/state-root.ts'
import { changeBalance } from './funds-ledger.ts'
import { referralKey } from './funds-state.ts'
import type { Referral } from './funds-types.ts'

/** The referral record of an account, created (and marked) when missing. */
function referralOf(state: ChainState, address: string): Referral {
  let r = state.funds.referrals.get(address)
  if (r === undefined) {
    r = { inviter: null, invitees: 0, rebatesAsInviter: 0n, rebatesAsInvitee: 0n, leafKey: referralKey(address), dirtyIn: -1 }
    state.funds.referrals.set(address, r)
  }
  markLeaf(state, r)
  return r
}

/** SetInviter: once per account; the inviter must be another existing account and not below it. */
export function setInviter(ctx: ActionContext, p: SetInviterPayload): Outcome {
  const { state, account } = ctx
  const inviter = p.inviter.toLowerCase()
  const own = state.funds.referrals.get(account.address)
  if (own !== undefined && own.inviter !== null)
    return reject('InviterAlreadySet', `${account.address} was already invited by ${own.inviter}`)
  if (inviter === account.address) return reject('InvalidInviter', 'an account cannot invite itself')
  if (!state.accounts.has(inviter)) return reject('InvalidInviter', `${inviter} is not an account`)
  const cycle = inviterChainReaches(state, inviter, account.address)
  if (cycle !== undefined) return reject('InvalidInviter', cycle)
  // After this point the inviter is set.
  referralOf(state, account.address).inviter = inviter
  referralOf(state, inviter).invitees++
  ctx.events.push({ kind: 'Core', sub_kind: 'InviterSet', market_id: null, account: account.address, inviter })
  return OK
}

/**
 * Why naming `inviter` as the inviter of `self` would close a cycle (self among the inviter's own
 * inviters), or undefined when it would not. Walks at most LIMITS.inviterChainMax inviters and
 * refuses a longer chain, so the walk stays bounded.
 */
function inviterChainReaches(state: ChainState, inviter: string, self: string): string | undefined {
  let current = inviter
  for (let i = 0; i < LIMITS.inviterChainMax; i++) {
    const up = state.funds.referrals.get(current)?.inviter ?? null
    if (up === null) return undefined
    if (up === self) return `${inviter} was invited (directly or not) by ${self}: a cycle`
    current = up
  }
  return `the inviter chain above ${inviter} is longer than ${LIMITS.inviterChainMax}`
}

/**
 * Pays the rebates on a fee the payer has already paid, and returns their sum (what the fee
 * recipient does not get). Without an inviter, or at ratio 0, nothing is paid.
 */
export function payRebates(state: ChainState, marketId: number, payer: Account, fee: bigint, events: EventSink): bigint {
  const ratio = state.params.globalRebateRatioBps
  if (ratio === 0 || fee <= 0n) return 0n
  const own = state.funds.referrals.get(payer.address)
  if (own === undefined || own.inviter === null) return 0n
  // Floor twice: the pool, then each half (see the file comment).
  const half = (fee * BigInt(ratio)) / BPS_DENOMINATOR / 2n
  if (half === 0n) return 0n
  const inviterAccount = state.accounts.get(own.inviter)!
  const inviterRecord = state.funds.referrals.get(own.inviter)!
  events.push({
    kind: 'Core',
    sub_kind: 'RebatePaid',
    market_id: marketId,
    account: payer.address,
    inviter: own.inviter,
    fee,
    rebate_to_inviter: half,
    rebate_to_invitee: half,
  })
  changeBalance(state, inviterAccount, half, 'RebateToInviter', marketId, events)
  changeBalance(state, payer, half, 'RebateToInvitee', marketId, events)
  inviterRecord.rebatesAsInviter += half
  own.rebatesAsInvitee += half
  markLeaf(state, inviterRecord)
  markLeaf(state, own)
  return half + half
}
