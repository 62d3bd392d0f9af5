// Events the state machine emits. They are typed records with integer fields; the node turns them
// into EventView JSON with decimal strings (wire/event-view.ts) only for committed blocks, so the
// engine's hot path never formats numbers.
import type { FundsEvent } from '../funds/funds-events.ts'
import type { MarginEvent } from '../margin/margin-events.ts'
import type { MarketEvent } from '../markets/market-events.ts'
import type { OrderAreaEvent } from '../orders/order-events.ts'
import type { TriggerEvent } from '../triggers/trigger-events.ts'
import type { RejectReason } from './reasons.ts'
import type { HaltReason, Lifecycle, RoleName, Side, Tif } from './types.ts'

/** Why an order is done; FillLimitReached: the remainder of a taker cut at LIMITS.fillsPerOrderMax fills. */
export type DoneReason =
  | 'Filled'
  | 'Cancelled'
  | 'IocExpired'
  | 'FokRejected'
  | 'SelfTradeCancelled'
  | 'ReduceOnlyClamped'
  | 'FillLimitReached'
  /** Cancelled by an Admin's ForceCancelAccountOrders. */
  | 'ForceCancelled'
  /** BatchModify: Replaced (a price or TIF change re-placed it under a new id), AmendClampedAtFilled
   * (the new quantity is not above what already filled); DeadMansSwitch: ScheduleCancel's deadline passed. */
  | 'Replaced'
  | 'AmendClampedAtFilled'
  | 'DeadMansSwitch'
  /** Cancelled because its account was liquidated (liquidation.ts). */
  | 'Liquidated'
  /** Cancelled because CompleteDelist sealed its market (delist.ts). */
  | 'MarketDelisted'

export interface OrderAcceptedEvent {
  kind: 'Exec'
  sub_kind: 'OrderAccepted'
  market_id: number
  account: string
  order_id: number
  side: Side
  price_ticks: number
  qty_lots: number
  tif: Tif
  reduce_only: boolean
  client_order_id: string | undefined
}
export interface OrderRestingEvent {
  kind: 'Exec'
  sub_kind: 'OrderResting'
  market_id: number
  account: string
  order_id: number
  side: Side
  price_ticks: number
  qty_lots: number
  remaining_lots: number
  tif: Tif
  reduce_only: boolean
  client_order_id: string | undefined
}
export interface FilledEvent {
  kind: 'Exec'
  sub_kind: 'Filled'
  market_id: number
  /** Best-effort account of the EventView: the taker. */
  account: string
  taker: string
  maker: string
  taker_order_id: number
  maker_order_id: number
  taker_side: Side
  price_ticks: number
  qty_lots: number
  notional: bigint
  taker_fee: bigint
  maker_fee: bigint
  taker_realized_pnl: bigint
  maker_realized_pnl: bigint
  /** Signed position sizes (lots) before and after, for position_action and history. */
  taker_size_before: number
  taker_size_after: number
  maker_size_before: number
  maker_size_after: number
  maker_remaining_lots: number
  taker_source_trigger_id: number | null
  maker_source_trigger_id: number | null
  taker_source_tx_hash: string | null
  maker_source_tx_hash: string | null
}
export interface OrderDoneEvent {
  kind: 'Exec'
  sub_kind: 'OrderDone'
  market_id: number
  account: string
  order_id: number
  reason: DoneReason
  remaining_lots: number
  filled_lots: number
  client_order_id: string | undefined
}
export interface RejectedEvent {
  kind: 'Core'
  sub_kind: 'Rejected'
  market_id: number | null
  account: string
  action_kind: string
  reason: RejectReason
  message: string
}
export interface AgentRegisteredEvent {
  kind: 'Core'
  sub_kind: 'AgentRegistered'
  market_id: null
  account: string
  agent: string
  role: RoleName
  name: string
}
export interface MarketCreatedEvent {
  kind: 'Ops'
  sub_kind: 'MarketCreated'
  market_id: number
  account: string
  symbol: string
  requested_market_id: number | null
}
export interface MarketLifecycleChangedEvent {
  kind: 'Ops'
  sub_kind: 'MarketLifecycleChanged'
  market_id: number
  account: string
  from: Lifecycle
  to: Lifecycle
  /** The halt reason after the change (null unless `to` is Halted). */
  halt_reason: HaltReason
}

export type ChainEvent =
  | OrderAcceptedEvent
  | OrderRestingEvent
  | FilledEvent
  | OrderDoneEvent
  | RejectedEvent
  | AgentRegisteredEvent
  | MarketCreatedEvent
  | MarketLifecycleChangedEvent
  | FundsEvent
  | OrderAreaEvent
  | MarketEvent
  | TriggerEvent
  | MarginEvent

/** Where events go while an action runs; apply.ts stamps envelope index and sequence. */
export type EventSink = ChainEvent[]
