// The registry of action kinds, in the order getActionsMeta lists them. Each area declares its
// kinds and payload schemas in src/wire/actions/<area>.ts.
import type { ActionKind } from './action-kind.ts'
import { ADMIN_ACTIONS } from './actions/admin.ts'
import { AGENT_ACTIONS } from './actions/agents.ts'
import { FUNDS_ACTIONS } from './actions/funds.ts'
import { MARGIN_ACTIONS } from './actions/margin.ts'
import { MARKET_ACTIONS } from './actions/markets.ts'
import { ORDER_ACTIONS } from './actions/orders.ts'
import { TRIGGER_ACTIONS } from './actions/triggers.ts'

export type { ActionKind, ActionRole, AuthChannel } from './action-kind.ts'
export * from './actions/admin.ts'
export * from './actions/agents.ts'
export * from './actions/funds.ts'
export * from './actions/margin.ts'
export * from './actions/markets.ts'
export * from './actions/orders.ts'
export * from './actions/triggers.ts'

/** Every action kind the node implements. */
export const ACTION_KINDS: readonly ActionKind[] = [
  ...ORDER_ACTIONS,
  ...TRIGGER_ACTIONS,
  ...MARGIN_ACTIONS,
  ...FUNDS_ACTIONS,
  ...AGENT_ACTIONS,
  ...ADMIN_ACTIONS,
  ...MARKET_ACTIONS,
]

export const ACTION_KIND_BY_NAME: ReadonlyMap<string, ActionKind> = new Map(ACTION_KINDS.map((k) => [k.name, k]))
