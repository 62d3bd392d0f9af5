// Table `order_events`: a row per order lifecycle event (OrderHistoryRecord,
// docs/history-api.md#fills-and-orders). The default /orders list shows only closed orders' rows:
// it leaves out the orders the archive (tables/orders.ts) holds open, found through its orders_open
// index. A row is written once and never changed on close: marking an order's earlier rows closed
// was an update of each row and of an index on the mark, about a quarter of the index's time under
// single orders placed and cancelled (scripts/bench/reindex.ts).
import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { keysetPage, type PageRequest } from '../paging.ts'
import type { SymbolOf } from '../symbols.ts'
import { insertMany } from './insert-many.ts'

export type OrderEventType = 'Accepted' | 'Resting' | 'Done' | 'Expired'

export interface OrderEventInsert {
  owner: string
  height: number
  seq: number
  timestampMs: number
  orderId: number
  marketId: number
  eventType: OrderEventType
  side: string | null
  price: string | null
  qty: string | null
  remaining: string | null
  reason: string | null
  clientOrderId: string | null
  triggerId: number | null
}

/** Writes rows, many to a statement (insert-many.ts); a row already there is ignored. */
export function insertOrderEvents(db: Database, rows: readonly OrderEventInsert[]): void {
  insertMany(db, 'INSERT OR IGNORE INTO order_events', 14, rows, pushRow)
}

function pushRow(params: SQLQueryBindings[], r: OrderEventInsert): void {
  params.push(
    r.owner,
    r.height,
    r.seq,
    r.timestampMs,
    r.orderId,
    r.marketId,
    r.eventType,
    r.side,
    r.price,
    r.qty,
    r.remaining,
    r.reason,
    r.clientOrderId,
    r.triggerId,
  )
}

interface OrderEventRow {
  height: number
  seq: number
  timestamp_ms: number
  order_id: number
  owner: string
  market_id: number
  event_type: string
  side: string | null
  price: string | null
  qty: string | null
  remaining: string | null
  reason: string | null
  client_order_id: string | null
  trigger_id: number | null
}

const SELECT =
  'height, seq, timestamp_ms, order_id, owner, market_id, event_type, side, price, qty, remaining, reason, client_order_id, trigger_id'

/** OrderHistoryRecord exactly as docs/history-api.md#fills-and-orders gives it. */
export function orderRecord(r: OrderEventRow, symbolOf: SymbolOf) {
  const out: Record<string, unknown> = {
    height: r.height,
    seq: r.seq,
    timestamp_ms: r.timestamp_ms,
    order_id: r.order_id,
    owner: r.owner,
    market_id: r.market_id,
    event_type: r.event_type,
    side: r.side,
    price: r.price,
    qty: r.qty,
    remaining: r.remaining,
    reason: r.reason,
    symbol: symbolOf(r.market_id),
  }
  if (r.client_order_id !== null) out.client_order_id = r.client_order_id
  if (r.trigger_id !== null) out.trigger_id = r.trigger_id
  return out
}

export interface OrderEventFilter {
  readonly owner: string
  readonly marketId?: number | undefined
  /** Include rows of orders that are still open (not in the default list). */
  readonly includeOpen: boolean
}

/** An owner's lifecycle rows, newest first. */
export function ownerOrderEvents(db: Database, f: OrderEventFilter, page: PageRequest, symbolOf: SymbolOf) {
  const owner = f.owner.toLowerCase()
  const where = ['owner = ?']
  const params: SQLQueryBindings[] = [owner]
  if (!f.includeOpen) {
    // Evaluated once per query: the owner's open orders, at most the open orders an account may hold.
    where.push("order_id NOT IN (SELECT order_id FROM orders WHERE owner = ? AND status = 'open')")
    params.push(owner)
  }
  if (f.marketId !== undefined) {
    where.push('market_id = ?')
    params.push(f.marketId)
  }
  const r = keysetPage<OrderEventRow>(
    db,
    {
      table: 'order_events',
      select: SELECT,
      where,
      params,
      keys: ['height', 'seq'],
      order: 'desc',
    },
    page,
  )
  return { data: r.rows.map((row) => orderRecord(row, symbolOf)), page: r.page }
}
