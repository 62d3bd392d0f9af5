// Events of the order area beyond the order lifecycle core (events.ts): time expiry, batch item
// rejections, mass cancels and the dead man's switch.
import type { RejectReason } from '../core/reasons.ts'
import type { Side } from '../core/types.ts'

/** A resting order removed because block time passed its expires_at_ms (orderUpdates kind `expired`). */
export interface OrderExpiredEvent {
  kind: 'Exec'
  sub_kind: 'OrderExpired'
  market_id: number
  account: string
  order_id: number
  reason: 'Expired'
  remaining_lots: number
  filled_lots: number
  expires_at_ms: number
  client_order_id: string | undefined
}

/** One item of a BatchPlaceOrder or BatchModify was rejected; the other items still apply. */
export interface BatchItemRejectedEvent {
  kind: 'Core'
  sub_kind: 'BatchItemRejected'
  market_id: number | null
  account: string
  action_kind: 'BatchPlaceOrder' | 'BatchModify' | 'SubmitOracleQuote'
  /** The item's index in the batch, from 0. */
  index: number
  reason: RejectReason
  message: string
}

/** What a MassCancel did: its OrderDone events precede it. */
export interface MassCancelDoneEvent {
  kind: 'Core'
  sub_kind: 'MassCancelDone'
  market_id: number | null
  account: string
  by: 'Owner' | 'Side' | 'Ids'
  side: Side | null
  cancelled: number
  /** Listed ids (by Ids) that were not open orders of the account (in the market when given). */
  not_found: number[]
}

/** ScheduleCancel set (a time) or cleared (null) the account's dead man's switch. */
export interface CancelScheduledEvent {
  kind: 'Core'
  sub_kind: 'CancelScheduled'
  market_id: null
  account: string
  deadline_ms: number | null
}

/** A dead man's switch fired: its OrderDone (reason DeadMansSwitch) events precede it. */
export interface DeadMansSwitchFiredEvent {
  kind: 'Core'
  sub_kind: 'DeadMansSwitchFired'
  market_id: null
  account: string
  deadline_ms: number
  cancelled: number
}

export type OrderAreaEvent =
  | OrderExpiredEvent
  | BatchItemRejectedEvent
  | MassCancelDoneEvent
  | CancelScheduledEvent
  | DeadMansSwitchFiredEvent
