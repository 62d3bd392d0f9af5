// GrantRole / RevokeRole (Admin). The number of Admin accounts is kept (state.funds.adminCount) so
// the last Admin cannot give up its role and leave the exchange without one.
import type { GrantRolePayload, RevokeRolePayload } from '../../wire/actions.ts'
import { type ActionContext, OK, type Outcome } from '../core/action-context.ts'
import { reject } from '../core/reasons.ts'
import { type Account, ROLES, type RoleName } from '../core/types.ts'
import { markLeaf } from '../state/state-root.ts'
import { hasRole, insertAccount, newAccount } from './accounts.ts'

/** GrantRole: an unknown address becomes an account with no balance and this role. */
export function grantRole(ctx: ActionContext, p: GrantRolePayload): Outcome {
  const { state } = ctx
  const address = p.account.toLowerCase()
  const role = p.role as RoleName
  if (state.agents.has(address)) return reject('AddressIsAgent', `${address} is an agent key; roles belong to accounts`)
  const existing = state.accounts.get(address)
  if (existing !== undefined && hasRole(existing, role)) return reject('RoleAlreadyGranted', `${address} already has the ${role} role`)
  // After this point the role is granted.
  let account: Account
  if (existing === undefined) {
    account = newAccount(address, 0n, 0)
    insertAccount(state, account)
  } else {
    account = existing
  }
  account.roleMask |= ROLES[role]
  markLeaf(state, account)
  if (role === 'Admin') state.funds.adminCount++
  ctx.events.push({
    kind: 'Ops',
    sub_kind: 'RoleGranted',
    market_id: null,
    account: address,
    signer: ctx.signer,
    role,
    role_mask: account.roleMask,
  })
  return OK
}

/** RevokeRole: agents that act with the role lose it with their master (accounts.ts actorAuthorized). */
export function revokeRole(ctx: ActionContext, p: RevokeRolePayload): Outcome {
  const { state } = ctx
  const address = p.account.toLowerCase()
  const role = p.role as RoleName
  const account = state.accounts.get(address)
  if (account === undefined) return reject('AccountNotFound', `${address} is not an account`)
  if (!hasRole(account, role)) return reject('RoleNotGranted', `${address} does not have the ${role} role`)
  if (role === 'Admin' && state.funds.adminCount <= 1) return reject('LastAdmin', `${address} is the last Admin`)
  // After this point the role is revoked.
  account.roleMask &= ~ROLES[role]
  markLeaf(state, account)
  if (role === 'Admin') state.funds.adminCount--
  ctx.events.push({
    kind: 'Ops',
    sub_kind: 'RoleRevoked',
    market_id: null,
    account: address,
    signer: ctx.signer,
    role,
    role_mask: account.roleMask,
  })
  return OK
}
