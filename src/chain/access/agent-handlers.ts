// Handlers of the agent actions (area: agents).
import type { RegisterAgentPayload, RevokeAgentPayload } from '../../wire/actions.ts'
import type { HandlerMap } from '../core/action-context.ts'
import { registerAgent, revokeAgent } from './register-agent.ts'

export const AGENT_HANDLERS: HandlerMap = {
  RegisterAgent: (ctx, p: RegisterAgentPayload) => registerAgent(ctx.state, ctx.account, p, ctx.events),
  RevokeAgent: (ctx, p: RevokeAgentPayload) => revokeAgent(ctx.state, ctx.account, p, ctx.events),
}
