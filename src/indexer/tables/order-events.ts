// Table `order_events`: a row per order lifecycle event (OrderHistoryRecord,
// docs/history-api.md#fills-and-orders). The default /orders list shows only closed orders' rows:
// it leaves out the orders the archive (tables/orders.ts) holds open, found through its orders_open
// index. A row is written once and never changed on close: marking an order's earlier rows closed
// was an update of each row and of an index on the mark, about a quarter of the index's time under
// single orders placed and cancelled (scripts/bench/reindex.ts).
import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { keysetPage, type PageRequest } from '../paging.ts'
import type { SymbolOf } from '../symbols.ts'

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

/** Rows one INSERT writes (14 parameters each: far below SQLite's 32,766). */
const ROWS_PER_INSERT = 16
const ROW_SQL = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'
const INSERT_ONE = `INSERT OR IGNORE INTO order_events VALUES ${ROW_SQL}`
const INSERT_MANY = `INSERT OR IGNORE INTO order_events VALUES ${Array(ROWS_PER_INSERT).fill(ROW_SQL).join(', ')}`

/**
 * Writes rows in their order, ROWS_PER_INSERT to a statement and the rest one at a time; a row
 * already there is ignored. A statement's run has a fixed cost beside each row's, and under 50-order
 * batches the index writes two rows an order: in isolation a row took 2.55-2.68 µs of CPU sixteen to
 * a statement against 2.92-3.28 one to a statement (a temporary script over 10.5M rows). The orders
 * archive's rows measured no gain that way (2.54-2.85 against 2.65-2.68) and stay one to a statement.
 */
export function insertOrderEvents(db: Database, rows: readonly OrderEventInsert[]): void {
  const params: SQLQueryBindings[] = []
  let i = 0
  if (rows.length >= ROWS_PER_INSERT) {
    const many = db.query(INSERT_MANY)
    for (; i + ROWS_PER_INSERT <= rows.length; i += ROWS_PER_INSERT) {
      params.length = 0
      for (let k = i; k < i + ROWS_PER_INSERT; k++) pushRow(params, rows[k]!)
      many.run(...params)
    }
  }
  const one = db.query(INSERT_ONE)
  for (; i < rows.length; i++) {
    params.length = 0
    pushRow(params, rows[i]!)
    one.run(...params)
  }
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
