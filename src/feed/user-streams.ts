// Rows of the per-account topics (spec §6.2): userFills, orderUpdates and triggerUpdates, built from
// the committed events' bodies. Each row carries exactly the fields the spec lists for its kind, so
// a client can follow the maintenance rules (resting upserts, done / expired remove, accepted only
// confirms intent).
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

const str = (v: unknown): string => String(v)

/** The taker's and the maker's rows of one Filled event. */
export function fillRows(e: ParsedEvent, height: number, timestampMs: number, symbol: string, cloids: { taker: string | null; maker: string | null }): { taker: UserFillRow; maker: UserFillRow } {
  const b = e.body
  const side = b.taker_side as 'Bid' | 'Ask'
  // Field order as the spec lists it: client_order_id (when the order has one) follows order_id.
  const row = (orderId: unknown, fee: unknown, isTaker: boolean, cloid: string | null): UserFillRow => ({
    block_height: height, event_seq: e.seq, timestamp_ms: timestampMs, market_id: e.marketId!, symbol, order_id: Number(orderId),
    ...(cloid === null ? {} : { client_order_id: cloid }),
    price: str(b.price), qty: str(b.qty), notional: str(b.notional), fee: str(fee), is_taker: isTaker, aggressor_side: side,
  })
  return {
    taker: row(b.taker_order_id, b.taker_fee, true, cloids.taker),
    maker: row(b.maker_order_id, b.maker_fee, false, cloids.maker),
  }
}

/** The orderUpdates row of an order lifecycle event, or undefined for other events. */
export function orderUpdateRow(e: ParsedEvent, height: number, symbol: string): OrderUpdateRow | undefined {
  const b = e.body
  const base = { block_height: height, event_seq: e.seq, order_id: Number(b.order_id), market_id: e.marketId!, symbol }
  switch (e.subKind) {
    case 'OrderAccepted':
      return { ...base, kind: 'accepted', remaining: str(b.qty), side: b.side as 'Bid' | 'Ask', price: str(b.price), qty: str(b.qty), tif: str(b.tif) }
    case 'OrderResting': {
      const row: OrderUpdateRow = {
        ...base, kind: 'resting', remaining: str(b.remaining), side: b.side as 'Bid' | 'Ask', price: str(b.price), qty: str(b.qty),
        tif: str(b.tif), reduce_only: b.reduce_only === true,
      }
      if (typeof b.client_order_id === 'string') row.client_order_id = b.client_order_id
      return row
    }
    case 'OrderDone':
      return { ...base, kind: 'done', remaining: str(b.remaining), reason: str(b.reason) }
    case 'OrderExpired':
      return { ...base, kind: 'expired', remaining: str(b.remaining), reason: str(b.reason ?? 'Expired') }
    default:
      return undefined
  }
}

/** Kinds of triggerUpdates that describe the trigger in full. */
const DETAIL_KINDS = new Set(['placed', 'amended'])
/** Kinds that end a trigger or a pair with a reason. */
const TERMINAL_KINDS = new Set(['cancelled', 'expired', 'fire_failed', 'oco_resolved'])
/** Detail fields in the spec's order; limit_price and client_order_id only when present. */
const DETAIL_FIELDS = ['side', 'order_type', 'qty', 'trigger_price', 'trigger_direction', 'limit_price', 'tif', 'reduce_only', 'client_order_id', 'expires_at_ms'] as const

/**
 * The triggerUpdates row of a Trigger or Oco event (its `kind_label` is the row's kind), with the
 * fields the spec lists for that kind; undefined for other events.
 */
export function triggerUpdateRow(e: ParsedEvent, height: number, symbol: string): TriggerUpdateRow | undefined {
  if (e.kind !== 'Trigger' && e.kind !== 'Oco') return undefined
  const b = e.body
  const kind = typeof b.kind_label === 'string' ? b.kind_label : undefined
  if (kind === undefined) return undefined
  const oco = kind === 'oco_placed' || kind === 'oco_resolved'
  const row: TriggerUpdateRow = { block_height: height, event_seq: e.seq, kind, market_id: e.marketId, symbol }
  if (!oco && b.trigger_id !== undefined) row.trigger_id = b.trigger_id
  if (oco && b.pair_id !== undefined) row.pair_id = b.pair_id
  if (TERMINAL_KINDS.has(kind) && b.reason !== undefined) row.reason = b.reason
  if (DETAIL_KINDS.has(kind)) {
    for (const f of DETAIL_FIELDS) {
      if (f === 'expires_at_ms') row[f] = b[f] ?? null
      else if (b[f] !== undefined && b[f] !== null) row[f] = b[f]
    }
  }
  if (kind === 'oco_placed') {
    if (b.client_pair_id !== undefined) row.client_pair_id = b.client_pair_id
    if (b.parent_order_id !== undefined && b.parent_order_id !== null) row.parent_order_id = b.parent_order_id
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
