// Block-level work in a fixed order. Begin hooks run before the block's envelopes (time-based
// expiry, the dead man's switch); end hooks after them (marks, then what reacts to new marks).
import type { BlockHook } from '../core/action-context.ts'
import { settleBadDebtHook } from '../margin/bad-debt.ts'
import { updateMarksHook } from '../markets/marks.ts'
import { oracleBlockEndHook } from '../markets/oracle.ts'
import { deadMansSwitchHook } from '../orders/dead-mans-switch.ts'
import { expireOrdersHook } from '../orders/order-expiry.ts'
import { expireTriggersHook, triggersEndBlockHook } from '../triggers/triggers.ts'

export const BEGIN_BLOCK_HOOKS: readonly BlockHook[] = [
  // Orders: time expiry first, then the dead man's switch (an order that expired is not counted
  // among the switch's cancels).
  expireOrdersHook,
  deadMansSwitchHook,
  // Triggers: those whose expires_at_ms has come are removed before any envelope can fire them.
  expireTriggersHook,
]

export const END_BLOCK_HOOKS: readonly BlockHook[] = [
  updateMarksHook,
  // Markets: quote staleness halts and resumes, the reject-storm alarm (after the native marks,
  // before anything that reacts to a market's state).
  oracleBlockEndHook,
  // Triggers: OCO and bracket lifecycle, then firing on the new marks (triggers.ts).
  triggersEndBlockHook,
  // Margin: bad debt of accounts whose last Cross position went flat in the block (after
  // everything that can fill, so after triggers).
  settleBadDebtHook,
]
