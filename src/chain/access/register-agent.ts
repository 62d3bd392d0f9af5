// RegisterAgent (user-signed by the master, docs/protocol.md#user-signed-actions): an agent key
// acts for its master with a role. Re-registering an agent of the same master updates its role and
// name. RevokeAgent removes one. state.agentsByMaster indexes agents per master (derived, not a
// leaf) so a master's agents are found without scanning every agent.
import type { RegisterAgentPayload, RevokeAgentPayload } from '../../wire/actions.ts'
import type { EventSink } from '../core/events.ts'
import { type Rejection, reject } from '../core/reasons.ts'
import { type Account, type AgentRecord, type ChainState, LIMITS, type RoleName } from '../core/types.ts'
import { markDirty } from '../state/state-root.ts'
import { hasRole } from './accounts.ts'

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
  let mine = state.agentsByMaster.get(master.address)
  if (mine === undefined) {
    mine = new Set()
    state.agentsByMaster.set(master.address, mine)
  }
  mine.add(agent)
  markDirty(state, `g:${agent}`)
  events.push({ kind: 'Core', sub_kind: 'AgentRegistered', market_id: null, account: master.address, agent, role, name: p.name })
  return { ok: true }
}

/** RevokeAgent: removes one of the master's agents. Its nonce window stays, so its signed envelopes cannot replay. */
export function revokeAgent(state: ChainState, master: Account, p: RevokeAgentPayload, events: EventSink): RegisterOutcome {
  const agent = p.agent.toLowerCase()
  const record = state.agents.get(agent)
  if (record === undefined || record.master !== master.address)
    return reject('AgentNotFound', `${agent} is not an agent of ${master.address}`)
  // After this point the agent is removed.
  state.agents.delete(agent)
  const mine = state.agentsByMaster.get(master.address)!
  mine.delete(agent)
  if (mine.size === 0) state.agentsByMaster.delete(master.address)
  markDirty(state, `g:${agent}`)
  events.push({ kind: 'Core', sub_kind: 'AgentRevoked', market_id: null, account: master.address, agent, role: record.role })
  return { ok: true }
}

/** Agents of a master in registration order; at most agentsPerMasterMax. */
export function agentsOf(state: ChainState, master: string): AgentRecord[] {
  const out: AgentRecord[] = []
  for (const agent of state.agentsByMaster.get(master) ?? []) out.push(state.agents.get(agent)!)
  return out
}

function countAgents(state: ChainState, master: string): number {
  return state.agentsByMaster.get(master)?.size ?? 0
}
