// The dispatch table: one handler per action kind of the registry (src/wire/actions.ts). Each area
// exports its HandlerMap; a kind without a handler or a handler without a kind fails at load.
import { ACTION_KINDS } from '../../wire/actions.ts'
import type { ActionHandler, HandlerMap } from '../core/action-context.ts'
import { ADMIN_HANDLERS } from '../access/admin-handlers.ts'
import { AGENT_HANDLERS } from '../access/agent-handlers.ts'
import { FUNDS_HANDLERS } from '../funds/funds-handlers.ts'
import { MARGIN_HANDLERS } from '../margin/margin-handlers.ts'
import { MARKET_HANDLERS } from '../markets/market-handlers.ts'
import { ORDER_HANDLERS } from '../orders/order-handlers.ts'
import { TRIGGER_HANDLERS } from '../triggers/trigger-handlers.ts'

const AREAS: readonly HandlerMap[] = [
  ORDER_HANDLERS,
  TRIGGER_HANDLERS,
  MARGIN_HANDLERS,
  FUNDS_HANDLERS,
  AGENT_HANDLERS,
  ADMIN_HANDLERS,
  MARKET_HANDLERS,
]

function buildTable(): ReadonlyMap<string, ActionHandler> {
  const table = new Map<string, ActionHandler>()
  for (const area of AREAS) {
    for (const [name, handler] of Object.entries(area)) {
      if (table.has(name)) throw new Error(`action ${name} has two handlers`)
      table.set(name, handler)
    }
  }
  for (const kind of ACTION_KINDS) if (!table.has(kind.name)) throw new Error(`action ${kind.name} has no handler`)
  for (const name of table.keys()) if (!ACTION_KINDS.some((k) => k.name === name)) throw new Error(`handler ${name} has no registered kind`)
  return table
}

export const HANDLERS = buildTable()
