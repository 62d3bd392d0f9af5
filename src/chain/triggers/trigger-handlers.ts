// Handlers of the trigger and OCO actions (area: triggers).
import type { TRIGGER_ACTIONS } from '../../wire/actions/triggers.ts'
import type { AreaHandlers } from '../core/action-context.ts'
import { amendTriggerOrder } from './amend-trigger.ts'
import { cancelTriggerOrder } from './cancel-trigger.ts'
import { cancelOcoPair, placeOcoPair } from './oco.ts'
import { placeTriggerOrder } from './place-trigger.ts'

export const TRIGGER_HANDLERS = {
  PlaceTriggerOrder: (ctx, p) => placeTriggerOrder(ctx, p),
  AmendTriggerOrder: (ctx, p) => amendTriggerOrder(ctx, p),
  CancelTriggerOrder: (ctx, p) => cancelTriggerOrder(ctx, p),
  PlaceOcoPair: (ctx, p) => placeOcoPair(ctx, p),
  CancelOcoPair: (ctx, p) => cancelOcoPair(ctx, p),
} satisfies AreaHandlers<typeof TRIGGER_ACTIONS>
