// Accounts, agents and nonce windows (docs/protocol.md#nonces): who may act, for whom, and with
// which nonce.
import { assert } from '../../lib/assert.ts'
import { type Account, type ChainState, LIMITS, type NonceWindow, ROLES, type RoleName } from '../core/types.ts'
import { AccountOrders } from '../orders/account-orders.ts'
import { ClientIdIndex } from '../orders/client-ids.ts'
import { accountKey, markLeaf, nonceKey } from '../state/state-root.ts'

/** A new, empty account. */
export function newAccount(address: string, balance: bigint, roleMask: number): Account {
  return {
    address,
    balance,
    roleMask,
    positions: new Map(),
    orders: new AccountOrders(),
    ordersByClientId: new ClientIdIndex(),
    reservedMarginUnits: 0,
    reservedMarginOverflow: 0n,
    settings: new Map(),
    dmsDeadlineMs: null,
    reduceOnlyCount: 0,
    leafKey: accountKey(address),
    dirtyIn: -1,
  }
}

/** Adds an account to the state (genesis, deposits). */
export function insertAccount(state: ChainState, account: Account): void {
  assert(!state.accounts.has(account.address), `account ${account.address} exists`)
  state.accounts.set(account.address, account)
  markLeaf(state, account)
}

export function hasRole(account: Account, role: RoleName): boolean {
  return (account.roleMask & ROLES[role]) !== 0
}

/** The lowest unused nonce of a signer (0 for a new address). */
export function lowestUnusedNonce(state: ChainState, signer: string): number {
  return state.nonces.get(signer)?.floor ?? 0
}

/** Whether nonce is inside the signer's window and unused. */
export function nonceUsable(state: ChainState, signer: string, nonce: number): boolean {
  const window = state.nonces.get(signer)
  const floor = window?.floor ?? 0
  if (nonce < floor || nonce >= floor + LIMITS.nonceWindow) return false
  return window === undefined || !window.used.has(nonce)
}

/** Consumes a usable nonce; the floor advances past every used nonce directly above it. */
export function useNonce(state: ChainState, signer: string, nonce: number): void {
  let window: NonceWindow | undefined = state.nonces.get(signer)
  // nonceUsable with the window looked up once; the message is built only on failure.
  const floor = window?.floor ?? 0
  if (nonce < floor || nonce >= floor + LIMITS.nonceWindow || (window !== undefined && window.used.size !== 0 && window.used.has(nonce))) {
    assert(false, `nonce ${nonce} of ${signer} is not usable`)
  }
  if (window === undefined) {
    window = { floor: 0, used: new Set(), leafKey: nonceKey(signer), dirtyIn: -1 }
    state.nonces.set(signer, window)
  }
  if (nonce !== window.floor) {
    window.used.add(nonce)
  } else {
    // The usual case, the lowest unused nonce: the floor moves past it and any used ones above.
    // Bounded by the window: at most nonceWindow used nonces sit above the floor.
    window.floor++
    for (let i = 0; i < LIMITS.nonceWindow && window.used.size > 0 && window.used.has(window.floor); i++) {
      window.used.delete(window.floor)
      window.floor++
    }
  }
  markLeaf(state, window)
}

/** Who a signer acts for: itself when it is an account, its master when it is an agent. */
export interface Actor {
  readonly signer: string
  readonly account: Account
  /** The agent's role when the signer is an agent, undefined for the master itself. */
  readonly agentRole: RoleName | undefined
}

export function resolveActor(state: ChainState, signer: string): Actor | undefined {
  const own = state.accounts.get(signer)
  if (own !== undefined) return { signer, account: own, agentRole: undefined }
  const agent = state.agents.get(signer)
  if (agent === undefined) return undefined
  const master = state.accounts.get(agent.master)
  return master === undefined ? undefined : { signer, account: master, agentRole: agent.role }
}

/** Whether an actor may use an action of the given auth channel and role (docs/protocol.md#envelope). */
export function actorAuthorized(
  actor: Actor,
  auth: 'master' | 'master_or_agent_with_role' | 'user_signed_master',
  role: RoleName | null,
): boolean {
  if (actor.agentRole !== undefined) {
    if (auth !== 'master_or_agent_with_role') return false
    return role === null || (actor.agentRole === role && hasRole(actor.account, role))
  }
  return role === null || hasRole(actor.account, role)
}
