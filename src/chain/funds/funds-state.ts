// State of the funds and admin area: pending withdrawals, credited deposits, referral records and
// frozen accounts, with their state-root leaves, plus two derived counters that are not leaves.
//
// Leaf keys (tags of more than one letter so they cannot meet another area's one-letter tags):
//   `funds`            the area's exchange-wide fields (next withdrawal id)
//   `wd:<id>`          a pending withdrawal (with its claim once processing)
//   `dep:<deposit_id>` a credited deposit (kept for ever: it is what makes deposit ids unique)
//   `ref:<address>`    a referral record (inviter, invitee count, rebates)
//   `frz:<address>`    present while the account is frozen
import { encodeCanonical } from '../../lib/msgpack.ts'
import { type ChainState, ROLES } from '../core/types.ts'
import type { FundsState } from './funds-types.ts'

export const FUNDS_LEAF = 'funds'
export const withdrawalKey = (id: number) => `wd:${id}`
export const depositKey = (depositId: string) => `dep:${depositId}`
export const referralKey = (address: string) => `ref:${address}`
export const frozenKey = (address: string) => `frz:${address}`

/** The leaf tags of this area, for state-root.ts's dispatch. */
export const FUNDS_LEAF_TAGS: ReadonlySet<string> = new Set([FUNDS_LEAF, 'wd', 'dep', 'ref', 'frz'])

/** An empty funds state (genesis). */
export function newFundsState(): FundsState {
  return {
    nextWithdrawalId: 1,
    withdrawals: new Map(),
    withdrawalsByAccount: new Map(),
    deposits: new Map(),
    referrals: new Map(),
    frozen: new Set(),
    adminCount: 0,
  }
}

/** Counts the Admin accounts of a state; genesis sets adminCount with it, tests check it. */
export function countAdmins(state: ChainState): number {
  let n = 0
  for (const a of state.accounts.values()) if ((a.roleMask & ROLES.Admin) !== 0) n++
  return n
}

/** Whether an account is frozen (cheap when nothing is: the order path asks on every order). */
export function isFrozen(state: ChainState, address: string): boolean {
  return state.funds.frozen.size !== 0 && state.funds.frozen.has(address)
}

/** The canonical bytes of one of this area's leaves (tag and the key after its colon), or undefined when gone. */
export function encodeFundsLeaf(state: ChainState, tag: string, rest: string): Uint8Array | undefined {
  const f = state.funds
  switch (tag) {
    case FUNDS_LEAF:
      return encodeCanonical([f.nextWithdrawalId])
    case 'wd': {
      const w = f.withdrawals.get(Number(rest))
      if (w === undefined) return undefined
      // A claimed (processing) withdrawal adds its claim; an unclaimed one keeps the five fields it always had.
      return w.claimedBy === undefined
        ? encodeCanonical([w.account, w.destination, w.amount.toString(), w.requestedHeight, w.requestedAtMs])
        : encodeCanonical([
            w.account,
            w.destination,
            w.amount.toString(),
            w.requestedHeight,
            w.requestedAtMs,
            w.claimedBy,
            w.claimedHeight ?? 0,
          ])
    }
    case 'dep': {
      const d = f.deposits.get(rest)
      return d && encodeCanonical([d.account, d.amount.toString(), d.sourceChain, d.height])
    }
    case 'ref': {
      const r = f.referrals.get(rest)
      return r && encodeCanonical([r.inviter, r.invitees, r.rebatesAsInviter.toString(), r.rebatesAsInvitee.toString()])
    }
    case 'frz':
      return f.frozen.has(rest) ? encodeCanonical(true) : undefined
    default:
      throw new Error(`unknown funds leaf ${tag}:${rest}`)
  }
}

/** Every leaf key of this area, for a from-scratch root. */
export function* fundsLeafKeys(state: ChainState): Generator<string> {
  const f = state.funds
  yield FUNDS_LEAF
  for (const id of f.withdrawals.keys()) yield withdrawalKey(id)
  for (const id of f.deposits.keys()) yield depositKey(id)
  for (const addr of f.referrals.keys()) yield referralKey(addr)
  for (const addr of f.frozen) yield frozenKey(addr)
}
