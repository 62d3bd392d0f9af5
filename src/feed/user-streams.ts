// Rows of the per-account topics (docs/websocket.md#websocket-protocol): userFills, orderUpdates
// and triggerUpdates, built from the committed events' bodies. Each row carries exactly the
// documented fields of its kind, so a client can follow the maintenance rules (resting upserts,
// done / expired remove, accepted only confirms intent).
import type { EventBodyOf } from '../wire/events/index.ts'
import type { ParsedEvent } from './types.ts'

export interface UserFillRow {
  block_height: number
  event_seq: number
  timestamp_ms: number
  market_id: number
  symbol: string
  order_id: number
  client_order_id?: string
  price: string
  qty: string
  notional: string
  fee: string
  is_taker: boolean
  aggressor_side: 'Bid' | 'Ask'
}

export type OrderUpdateKind = 'accepted' | 'resting' | 'done' | 'expired'

export interface OrderUpdateRow {
  block_height: number
  event_seq: number
  order_id: number
  market_id: number
  symbol: string
  kind: OrderUpdateKind
  remaining: string
  reason?: string
  side?: 'Bid' | 'Ask'
  price?: string
  qty?: string
  tif?: string
  reduce_only?: boolean
  client_order_id?: string
}

export type TriggerUpdateRow = Record<string, unknown>

/** The taker's and the maker's rows of one Filled event (`b` is e's body). */
export function fillRows(
  e: ParsedEvent,
  b: EventBodyOf<'Filled'>,
  height: number,
  timestampMs: number,
  symbol: string,
  cloids: { taker: string | null; maker: string | null },
): { taker: UserFillRow; maker: UserFillRow } {
  const side = b.taker_side
  // Field order as documented: client_order_id (when the order has one) follows order_id.
  const row = (orderId: number, fee: string, isTaker: boolean, cloid: string | null): UserFillRow => ({
    block_height: height,
    event_seq: e.seq,
    timestamp_ms: timestampMs,
    market_id: e.marketId!,
    symbol,
    order_id: orderId,
    ...(cloid === null ? {} : { client_order_id: cloid }),
    price: b.price,
    qty: b.qty,
    notional: b.notional,
    fee,
    is_taker: isTaker,
    aggressor_side: side,
  })
  return {
    taker: row(b.taker_order_id, b.taker_fee, true, cloids.taker),
    maker: row(b.maker_order_id, b.maker_fee, false, cloids.maker),
  }
}

/** The orderUpdates row of an order lifecycle event, or undefined for other events. */
export function orderUpdateRow(e: ParsedEvent, height: number, symbol: string): OrderUpdateRow | undefined {
  const b = e.body
  const base = (orderId: number) => ({ block_height: height, event_seq: e.seq, order_id: orderId, market_id: e.marketId!, symbol })
  switch (b.sub_kind) {
    case 'OrderAccepted':
      return { ...base(b.order_id), kind: 'accepted', remaining: b.qty, side: b.side, price: b.price, qty: b.qty, tif: b.tif }
    case 'OrderResting': {
      const row: OrderUpdateRow = {
        ...base(b.order_id),
        kind: 'resting',
        remaining: b.remaining,
        side: b.side,
        price: b.price,
        qty: b.qty,
        tif: b.tif,
        reduce_only: b.reduce_only,
      }
      if (b.client_order_id !== undefined) row.client_order_id = b.client_order_id
      return row
    }
    case 'OrderDone':
      return { ...base(b.order_id), kind: 'done', remaining: b.remaining, reason: b.reason }
    case 'OrderExpired':
      return { ...base(b.order_id), kind: 'expired', remaining: b.remaining, reason: b.reason }
    default:
      return undefined
  }
}

/**
 * The triggerUpdates row of a Trigger or Oco event (its `kind_label` is the row's kind), with the
 * documented fields of that kind; undefined for other events. Details (placed, amended) in the
 * documented order, limit_price and client_order_id only when present.
 */
export function triggerUpdateRow(e: ParsedEvent, height: number, symbol: string): TriggerUpdateRow | undefined {
  const b = e.body
  if (b.kind !== 'Trigger' && b.kind !== 'Oco') return undefined
  const row: TriggerUpdateRow = { block_height: height, event_seq: e.seq, kind: b.kind_label, market_id: e.marketId, symbol }
  switch (b.sub_kind) {
    case 'TriggerPlaced':
    case 'TriggerAmended':
      row.trigger_id = b.trigger_id
      row.side = b.side
      row.order_type = b.order_type
      row.qty = b.qty
      row.trigger_price = b.trigger_price
      row.trigger_direction = b.trigger_direction
      if (b.limit_price !== undefined) row.limit_price = b.limit_price
      row.tif = b.tif
      row.reduce_only = b.reduce_only
      if (b.client_order_id !== undefined) row.client_order_id = b.client_order_id
      row.expires_at_ms = b.expires_at_ms
      break
    case 'TriggerActivated':
      row.trigger_id = b.trigger_id
      break
    case 'TriggerCancelled':
    case 'TriggerExpired':
    case 'TriggerFireFailed':
      row.trigger_id = b.trigger_id
      row.reason = b.reason
      break
    case 'OcoPlaced':
      row.pair_id = b.pair_id
      row.client_pair_id = b.client_pair_id
      if (b.parent_order_id !== undefined) row.parent_order_id = b.parent_order_id
      break
    case 'OcoResolved':
      row.pair_id = b.pair_id
      row.reason = b.reason
      break
  }
  return row
}

const ADDRESS = /^0x[0-9a-f]{40}$/

/**
 * Accounts an event touches: its `account` and every address-valued body field (taker, maker,
 * agent, inviter, recipient, ...), so rebates and transfers reach both sides' account topics.
 */
export function touchedAddresses(e: ParsedEvent, into: Set<string>): void {
  if (e.account !== null && ADDRESS.test(e.account)) into.add(e.account)
  for (const v of Object.values(e.body)) {
    if (typeof v === 'string' && v.length === 42 && ADDRESS.test(v)) into.add(v)
  }
}
