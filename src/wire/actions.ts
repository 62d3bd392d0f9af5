// The registry of action kinds, in the order getActionsMeta lists them. Each area declares its
// kinds and payload schemas in src/wire/actions/<area>.ts.
import type { ActionKind } from './action-kind.ts'
import { AGENT_ACTIONS } from './actions/agents.ts'
import { MARKET_ACTIONS } from './actions/markets.ts'
import { ORDER_ACTIONS } from './actions/orders.ts'

export type { ActionKind, ActionRole, AuthChannel } from './action-kind.ts'
export * from './actions/agents.ts'
export * from './actions/markets.ts'
export * from './actions/orders.ts'

/** Every action kind the node implements. */
export const ACTION_KINDS: readonly ActionKind[] = [
  ...ORDER_ACTIONS,
  ...AGENT_ACTIONS,
  ...MARKET_ACTIONS,
]

export const ACTION_KIND_BY_NAME: ReadonlyMap<string, ActionKind> = new Map(ACTION_KINDS.map((k) => [k.name, k]))
