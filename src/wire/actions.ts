// The registry of action kinds, in the order getActionsMeta lists them. Each area declares its
// kinds and payload schemas in src/wire/actions/<area>.ts, `as const`, so the registry's own type
// names every kind (ActionKind) and its payload type (ActionPayload).
import type { Static, TSchema } from '@sinclair/typebox'
import type { ActionKindSpec } from './action-kind.ts'
import { ADMIN_ACTIONS } from './actions/admin.ts'
import { AGENT_ACTIONS } from './actions/agents.ts'
import { FUNDS_ACTIONS } from './actions/funds.ts'
import { MARGIN_ACTIONS } from './actions/margin.ts'
import { MARKET_ACTIONS } from './actions/markets.ts'
import { ORDER_ACTIONS } from './actions/orders.ts'
import { TRIGGER_ACTIONS } from './actions/triggers.ts'

export type { ActionKindSpec, ActionRole, AuthChannel } from './action-kind.ts'
export * from './actions/admin.ts'
export * from './actions/agents.ts'
export * from './actions/funds.ts'
export * from './actions/margin.ts'
export * from './actions/markets.ts'
export * from './actions/orders.ts'
export * from './actions/triggers.ts'

/** Every action kind the node implements. */
export const ACTION_KINDS = [
  ...ORDER_ACTIONS,
  ...TRIGGER_ACTIONS,
  ...MARGIN_ACTIONS,
  ...FUNDS_ACTIONS,
  ...AGENT_ACTIONS,
  ...ADMIN_ACTIONS,
  ...MARKET_ACTIONS,
] as const satisfies readonly ActionKindSpec[]

/** An action kind's name: 'PlaceOrder' | 'CancelOrder' | ... */
export type ActionKind = (typeof ACTION_KINDS)[number]['name']

/** The registry entry of kind K. */
export type ActionKindSpecOf<K extends ActionKind> = Extract<(typeof ACTION_KINDS)[number], { readonly name: K }>

/** The payload of kind K, as its schema has it (what admission lets through). */
export type ActionPayload<K extends ActionKind> = ActionKindSpecOf<K>['schema'] extends infer S extends TSchema ? Static<S> : never

export const ACTION_KIND_BY_NAME: ReadonlyMap<string, ActionKindSpec> = new Map(ACTION_KINDS.map((k) => [k.name, k]))
