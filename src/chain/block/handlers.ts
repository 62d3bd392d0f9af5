// The dispatch table: one handler per action kind of the registry (src/wire/actions.ts), each typed
// by the payload it takes (HandlerPayloads). Each area's handlers are those of its registry array
// (AreaHandlers), and the table is all of them (HandlerTable): a kind without a handler, a handler
// without a kind or a handler of the wrong payload does not compile.

import { ADMIN_HANDLERS } from '../access/admin-handlers.ts'
import { AGENT_HANDLERS } from '../access/agent-handlers.ts'
import type { HandlerTable } from '../core/action-context.ts'
import { FUNDS_HANDLERS } from '../funds/funds-handlers.ts'
import { MARGIN_HANDLERS } from '../margin/margin-handlers.ts'
import { MARKET_HANDLERS } from '../markets/market-handlers.ts'
import { ORDER_HANDLERS } from '../orders/order-handlers.ts'
import { TRIGGER_HANDLERS } from '../triggers/trigger-handlers.ts'

export const HANDLERS: HandlerTable = {
  ...ORDER_HANDLERS,
  ...TRIGGER_HANDLERS,
  ...MARGIN_HANDLERS,
  ...FUNDS_HANDLERS,
  ...AGENT_HANDLERS,
  ...ADMIN_HANDLERS,
  ...MARKET_HANDLERS,
}
