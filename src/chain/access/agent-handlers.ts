// Handlers of the agent actions (area: agents).
import type { AGENT_ACTIONS } from '../../wire/actions/agents.ts'
import type { AreaHandlers } from '../core/action-context.ts'
import { registerAgent, revokeAgent } from './register-agent.ts'

export const AGENT_HANDLERS = {
  RegisterAgent: (ctx, p) => registerAgent(ctx.state, ctx.account, p, ctx.events),
  RevokeAgent: (ctx, p) => revokeAgent(ctx.state, ctx.account, p, ctx.events),
} satisfies AreaHandlers<typeof AGENT_ACTIONS>
