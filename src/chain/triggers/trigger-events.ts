// Events of triggers (kind Trigger) and OCO pairs (kind Oco), with the fields of the
// triggerUpdates frame (docs/websocket.md#websocket-protocol). `kind_label` is the frame's
// lowercase `kind`, so the WebSocket layer maps an event to its update without a table. Builders
// keep the field order in one place.
import type { RejectReason } from '../core/reasons.ts'
import type { Side, Tif } from '../core/types.ts'
import type { OcoPair, OcoResolveReason, TriggerCancelReason, TriggerDirection, TriggerOrder, TriggerOrderType } from './trigger-types.ts'

/** The details of a trigger, as `placed` and `amended` carry them. */
interface TriggerDetails {
  trigger_id: number
  side: Side
  order_type: TriggerOrderType
  qty_lots: number
  trigger_price_ticks: number
  trigger_direction: TriggerDirection
  /** Only for `limit` triggers. */
  limit_price_ticks: number | undefined
  tif: Tif
  reduce_only: boolean
  client_order_id: string | undefined
  /** null: never expires. */
  expires_at_ms: number | null
  /** The OCO pair whose stop leg this is; omitted otherwise. */
  pair_id: number | undefined
}

interface TriggerBase<S extends string, L extends string> {
  kind: 'Trigger'
  sub_kind: S
  kind_label: L
  market_id: number
  account: string
}

export interface TriggerPlacedEvent extends TriggerBase<'TriggerPlaced', 'placed'>, TriggerDetails {}
export interface TriggerAmendedEvent extends TriggerBase<'TriggerAmended', 'amended'>, TriggerDetails {}
export interface TriggerActivatedEvent extends TriggerBase<'TriggerActivated', 'activated'> {
  trigger_id: number
  /** The order the trigger was promoted to; its result follows as order events. */
  order_id: number
  mark_price_ticks: number
  /** The promoted order's limit (a `market` trigger's protective limit). */
  order_price_ticks: number
  pair_id: number | undefined
}
export interface TriggerCancelledEvent extends TriggerBase<'TriggerCancelled', 'cancelled'> {
  trigger_id: number
  reason: TriggerCancelReason
  pair_id: number | undefined
}
export interface TriggerExpiredEvent extends TriggerBase<'TriggerExpired', 'expired'> {
  trigger_id: number
  reason: 'Expired'
  expires_at_ms: number
  pair_id: number | undefined
}
export interface TriggerFireFailedEvent extends TriggerBase<'TriggerFireFailed', 'fire_failed'> {
  trigger_id: number
  /** Why the promoted order was rejected: a reject reason. */
  reason: RejectReason
  message: string
  pair_id: number | undefined
}

interface OcoBase<S extends string, L extends string> {
  kind: 'Oco'
  sub_kind: S
  kind_label: L
  market_id: number
  account: string
  pair_id: number
  client_pair_id: number
}
export interface OcoPlacedEvent extends OcoBase<'OcoPlaced', 'oco_placed'> {
  /** A bracket's entry order; omitted without binding. */
  parent_order_id: number | undefined
  side: Side
  qty_lots: number
  limit_price_ticks: number
  stop_trigger_price_ticks: number
  stop_trigger_direction: TriggerDirection
  stop_order_type: TriggerOrderType
  stop_limit_price_ticks: number | undefined
  stop_expires_at_ms: number | null
  reduce_only: boolean
  /** The legs; null while a bracket waits for its parent to fill. */
  limit_order_id: number | null
  stop_trigger_id: number | null
}
export interface OcoResolvedEvent extends OcoBase<'OcoResolved', 'oco_resolved'> {
  reason: OcoResolveReason
  /** When a bracket could not be armed: why its leg was refused. */
  failure: RejectReason | undefined
}

export type TriggerEvent =
  | TriggerPlacedEvent
  | TriggerAmendedEvent
  | TriggerActivatedEvent
  | TriggerCancelledEvent
  | TriggerExpiredEvent
  | TriggerFireFailedEvent
  | OcoPlacedEvent
  | OcoResolvedEvent

// Written out field by field rather than spread from a details object: object spread is slow on
// this path (every PlaceTriggerOrder; no figure logged). The key order is the events' field order.
export const triggerPlaced = (t: TriggerOrder): TriggerPlacedEvent => ({
  kind: 'Trigger',
  sub_kind: 'TriggerPlaced',
  kind_label: 'placed',
  market_id: t.marketId,
  account: t.owner,
  trigger_id: t.id,
  side: t.side,
  order_type: t.orderType,
  qty_lots: t.qtyLots,
  trigger_price_ticks: t.triggerTicks,
  trigger_direction: t.direction,
  limit_price_ticks: t.limitTicks ?? undefined,
  tif: t.tif,
  reduce_only: t.reduceOnly,
  client_order_id: t.clientOrderId,
  expires_at_ms: t.expiresAtMs,
  pair_id: t.pairId ?? undefined,
})

export const triggerAmended = (t: TriggerOrder): TriggerAmendedEvent => ({
  kind: 'Trigger',
  sub_kind: 'TriggerAmended',
  kind_label: 'amended',
  market_id: t.marketId,
  account: t.owner,
  trigger_id: t.id,
  side: t.side,
  order_type: t.orderType,
  qty_lots: t.qtyLots,
  trigger_price_ticks: t.triggerTicks,
  trigger_direction: t.direction,
  limit_price_ticks: t.limitTicks ?? undefined,
  tif: t.tif,
  reduce_only: t.reduceOnly,
  client_order_id: t.clientOrderId,
  expires_at_ms: t.expiresAtMs,
  pair_id: t.pairId ?? undefined,
})

export const triggerActivated = (t: TriggerOrder, orderId: number, markTicks: number, orderTicks: number): TriggerActivatedEvent => ({
  kind: 'Trigger',
  sub_kind: 'TriggerActivated',
  kind_label: 'activated',
  market_id: t.marketId,
  account: t.owner,
  trigger_id: t.id,
  order_id: orderId,
  mark_price_ticks: markTicks,
  order_price_ticks: orderTicks,
  pair_id: t.pairId ?? undefined,
})

export const triggerCancelled = (t: TriggerOrder, reason: TriggerCancelReason): TriggerCancelledEvent => ({
  kind: 'Trigger',
  sub_kind: 'TriggerCancelled',
  kind_label: 'cancelled',
  market_id: t.marketId,
  account: t.owner,
  trigger_id: t.id,
  reason,
  pair_id: t.pairId ?? undefined,
})

export const triggerExpired = (t: TriggerOrder): TriggerExpiredEvent => ({
  kind: 'Trigger',
  sub_kind: 'TriggerExpired',
  kind_label: 'expired',
  market_id: t.marketId,
  account: t.owner,
  trigger_id: t.id,
  reason: 'Expired',
  expires_at_ms: t.expiresAtMs ?? 0,
  pair_id: t.pairId ?? undefined,
})

export const triggerFireFailed = (t: TriggerOrder, reason: RejectReason, message: string): TriggerFireFailedEvent => ({
  kind: 'Trigger',
  sub_kind: 'TriggerFireFailed',
  kind_label: 'fire_failed',
  market_id: t.marketId,
  account: t.owner,
  trigger_id: t.id,
  reason,
  message,
  pair_id: t.pairId ?? undefined,
})

export const ocoPlaced = (p: OcoPair): OcoPlacedEvent => ({
  kind: 'Oco',
  sub_kind: 'OcoPlaced',
  kind_label: 'oco_placed',
  market_id: p.marketId,
  account: p.owner,
  pair_id: p.id,
  client_pair_id: p.clientPairId,
  parent_order_id: p.parentOrderId ?? undefined,
  side: p.side,
  qty_lots: p.qtyLots,
  limit_price_ticks: p.limitTicks,
  stop_trigger_price_ticks: p.stop.triggerTicks,
  stop_trigger_direction: p.stop.direction,
  stop_order_type: p.stop.orderType,
  stop_limit_price_ticks: p.stop.limitTicks ?? undefined,
  stop_expires_at_ms: p.stop.expiresAtMs,
  reduce_only: p.reduceOnly,
  limit_order_id: p.limitOrderId,
  stop_trigger_id: p.stopTriggerId,
})

export const ocoResolved = (p: OcoPair, reason: OcoResolveReason, failure?: RejectReason): OcoResolvedEvent => ({
  kind: 'Oco',
  sub_kind: 'OcoResolved',
  kind_label: 'oco_resolved',
  market_id: p.marketId,
  account: p.owner,
  pair_id: p.id,
  client_pair_id: p.clientPairId,
  reason,
  failure,
})
