// RegisterAgent (user-signed by the master, PROTOCOL §4.2): an agent key acts for its master with a
// role. Re-registering an agent of the same master updates its role and name.
import type { RegisterAgentPayload } from '../wire/actions.ts'
import { hasRole } from './accounts.ts'
import type { EventSink } from './events.ts'
import { reject, type Rejection } from './reasons.ts'
import { markDirty } from './state-root.ts'
import { LIMITS, type Account, type ChainState, type RoleName } from './types.ts'

export type RegisterOutcome = { readonly ok: true } | Rejection

export function registerAgent(state: ChainState, master: Account, p: RegisterAgentPayload, events: EventSink): RegisterOutcome {
  const agent = p.agent.toLowerCase()
  const role = p.role as RoleName
  if (agent === master.address) return reject('InvalidAgent', 'an account cannot be its own agent')
  if (state.accounts.has(agent)) return reject('InvalidAgent', `${agent} is an account and cannot be an agent`)
  const existing = state.agents.get(agent)
  if (existing !== undefined && existing.master !== master.address) return reject('InvalidAgent', `${agent} is an agent of another account`)
  if (!hasRole(master, role)) return reject('Unauthorized', `the master lacks the role ${role} it would delegate`)
  if (existing === undefined && countAgents(state, master.address) >= LIMITS.agentsPerMasterMax) {
    return reject('AgentLimitReached', `at most ${LIMITS.agentsPerMasterMax} agents per account`)
  }
  // After this point the registration must succeed.
  state.agents.set(agent, { agent, master: master.address, role, name: p.name })
  markDirty(state, `g:${agent}`)
  events.push({ kind: 'Core', sub_kind: 'AgentRegistered', market_id: null, account: master.address, agent, role, name: p.name })
  return { ok: true }
}

/** Agents of a master; bounded by agentsPerMasterMax per master. */
export function agentsOf(state: ChainState, master: string) {
  const out = []
  for (const a of state.agents.values()) if (a.master === master) out.push(a)
  return out
}

function countAgents(state: ChainState, master: string): number {
  return agentsOf(state, master).length
}
