// Handlers of the trigger and OCO actions (area: triggers).
import type {
  AmendTriggerOrderPayload, CancelOcoPairPayload, CancelTriggerOrderPayload, PlaceOcoPairPayload, PlaceTriggerOrderPayload,
} from '../../wire/actions/triggers.ts'
import type { HandlerMap } from '../core/action-context.ts'
import { amendTriggerOrder } from './amend-trigger.ts'
import { cancelTriggerOrder } from './cancel-trigger.ts'
import { cancelOcoPair, placeOcoPair } from './oco.ts'
import { placeTriggerOrder } from './place-trigger.ts'

export const TRIGGER_HANDLERS: HandlerMap = {
  PlaceTriggerOrder: (ctx, p: PlaceTriggerOrderPayload) => placeTriggerOrder(ctx, p),
  AmendTriggerOrder: (ctx, p: AmendTriggerOrderPayload) => amendTriggerOrder(ctx, p),
  CancelTriggerOrder: (ctx, p: CancelTriggerOrderPayload) => cancelTriggerOrder(ctx, p),
  PlaceOcoPair: (ctx, p: PlaceOcoPairPayload) => placeOcoPair(ctx, p),
  CancelOcoPair: (ctx, p: CancelOcoPairPayload) => cancelOcoPair(ctx, p),
}
