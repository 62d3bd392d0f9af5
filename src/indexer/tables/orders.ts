// Table `orders`: the permanent order archive, one row per order id with its latest state (what
// getOrderStatus answers for closed orders). A row moves only forward: an event older than the
// row's (last_height, last_seq) changes nothing, so deriving a block twice leaves it as it was.
import type { Database } from 'bun:sqlite'

export interface OrderArchiveRow {
  order_id: number
  owner: string
  market_id: number
  side: string | null
  price: string | null
  qty: string | null
  tif: string | null
  reduce_only: number | null
  client_order_id: string | null
  trigger_id: number | null
  status: string
  close_reason: string | null
  remaining: string | null
  filled: string | null
  placed_height: number | null
  placed_timestamp_ms: number | null
  closed_height: number | null
  closed_timestamp_ms: number | null
  last_height: number
  last_seq: number
}

const AT = 'WHERE (orders.last_height, orders.last_seq) < (excluded.last_height, excluded.last_seq)'

/** An order was accepted (or re-accepted by an amend): its details, status open. */
export function archiveAccepted(
  db: Database,
  o: {
    orderId: number
    owner: string
    marketId: number
    side: string
    price: string
    qty: string
    tif: string | null
    reduceOnly: boolean | null
    clientOrderId: string | null
    height: number
    seq: number
    timestampMs: number
  },
): void {
  db.query(`INSERT INTO orders (order_id, owner, market_id, side, price, qty, tif, reduce_only, client_order_id, status, remaining, filled,
      placed_height, placed_timestamp_ms, last_height, last_seq)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, '0', ?, ?, ?, ?)
    ON CONFLICT (order_id) DO UPDATE SET side = excluded.side, price = excluded.price, qty = excluded.qty, tif = excluded.tif,
      reduce_only = excluded.reduce_only, client_order_id = excluded.client_order_id, status = 'open', remaining = excluded.remaining,
      placed_height = COALESCE(orders.placed_height, excluded.placed_height), placed_timestamp_ms = COALESCE(orders.placed_timestamp_ms, excluded.placed_timestamp_ms),
      last_height = excluded.last_height, last_seq = excluded.last_seq ${AT}`).run(
    o.orderId,
    o.owner,
    o.marketId,
    o.side,
    o.price,
    o.qty,
    o.tif,
    o.reduceOnly === null ? null : o.reduceOnly ? 1 : 0,
    o.clientOrderId,
    o.qty,
    o.height,
    o.timestampMs,
    o.height,
    o.seq,
  )
}

/** An order rests on the book with `remaining`. */
export function archiveResting(
  db: Database,
  o: { orderId: number; owner: string; marketId: number; remaining: string; height: number; seq: number },
): void {
  db.query(`INSERT INTO orders (order_id, owner, market_id, status, remaining, last_height, last_seq) VALUES (?, ?, ?, 'open', ?, ?, ?)
    ON CONFLICT (order_id) DO UPDATE SET status = 'open', remaining = excluded.remaining, last_height = excluded.last_height, last_seq = excluded.last_seq ${AT}`).run(
    o.orderId,
    o.owner,
    o.marketId,
    o.remaining,
    o.height,
    o.seq,
  )
}

/** An order closed (Done or Expired). */
export function archiveClosed(
  db: Database,
  o: {
    orderId: number
    owner: string
    marketId: number
    reason: string
    remaining: string
    filled: string | null
    clientOrderId: string | null
    height: number
    seq: number
    timestampMs: number
  },
): void {
  db.query(`INSERT INTO orders (order_id, owner, market_id, client_order_id, status, close_reason, remaining, filled, closed_height, closed_timestamp_ms, last_height, last_seq)
    VALUES (?, ?, ?, ?, 'closed', ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (order_id) DO UPDATE SET status = 'closed', close_reason = excluded.close_reason, remaining = excluded.remaining,
      filled = COALESCE(excluded.filled, orders.filled), client_order_id = COALESCE(orders.client_order_id, excluded.client_order_id),
      closed_height = excluded.closed_height, closed_timestamp_ms = excluded.closed_timestamp_ms,
      last_height = excluded.last_height, last_seq = excluded.last_seq ${AT}`).run(
    o.orderId,
    o.owner,
    o.marketId,
    o.clientOrderId,
    o.reason,
    o.remaining,
    o.filled,
    o.height,
    o.timestampMs,
    o.height,
    o.seq,
  )
}

/** The trigger order an order was promoted from (TriggerActivated; the fills read their source trigger from the Filled event itself). */
export function archiveTriggerOrigin(
  db: Database,
  o: { orderId: number; owner: string; marketId: number; triggerId: number; height: number; seq: number },
): void {
  db.query(`INSERT INTO orders (order_id, owner, market_id, trigger_id, status, last_height, last_seq) VALUES (?, ?, ?, ?, 'open', ?, ?)
    ON CONFLICT (order_id) DO UPDATE SET trigger_id = excluded.trigger_id`).run(
    o.orderId,
    o.owner,
    o.marketId,
    o.triggerId,
    o.height,
    o.seq,
  )
}

export function orderById(db: Database, orderId: number): OrderArchiveRow | undefined {
  return db.query<OrderArchiveRow, [number]>('SELECT * FROM orders WHERE order_id = ?').get(orderId) ?? undefined
}

/** The newest order of owner in a market with this client_order_id (ids are reusable once closed). */
export function orderByClientId(db: Database, owner: string, marketId: number, clientOrderId: string): OrderArchiveRow | undefined {
  return (
    db
      .query<OrderArchiveRow, [string, number, string]>(
        'SELECT * FROM orders WHERE owner = ? AND market_id = ? AND client_order_id = ? ORDER BY order_id DESC LIMIT 1',
      )
      .get(owner.toLowerCase(), marketId, clientOrderId) ?? undefined
  )
}

/** The few fields the fill deriver needs of an order. */
export function orderTags(db: Database, orderId: number): { client_order_id: string | null; trigger_id: number | null } | undefined {
  return (
    db
      .query<{ client_order_id: string | null; trigger_id: number | null }, [number]>(
        'SELECT client_order_id, trigger_id FROM orders WHERE order_id = ?',
      )
      .get(orderId) ?? undefined
  )
}

/** A newer event than the row's last: the archive's rows move only forward. */
const isNewer = (row: OrderArchiveRow, height: number, seq: number) =>
  row.last_height < height || (row.last_height === height && row.last_seq < seq)

/**
 * The archive's writes of one derive batch. An order first seen in the batch (its id above every
 * id the archive held when the batch began: ids only grow) is kept in memory and written once, in
 * its state at the batch's end, with the same fields the upserts above would give it; the others
 * go through the upserts. An order placed and closed in one batch (a batch's IOC orders, an order
 * placed and cancelled a block later) then costs one insert and no reads instead of an insert, one
 * or two updates and the reads of its tags. The fill deriver reads the tags here too, so it sees
 * the orders of the batch (derive/registry.ts runs the orders first).
 */
export class OrderArchiveBatch {
  /** The highest order id in the archive when the batch began. */
  private readonly archivedMax: number
  private readonly fresh = new Map<number, OrderArchiveRow>()

  constructor(private readonly db: Database) {
    this.archivedMax = db.query<{ m: number | null }, []>('SELECT MAX(order_id) AS m FROM orders').get()?.m ?? 0
  }

  /** The order's row in memory; undefined: new to the batch, no event yet; null: in the archive before it, through the upserts. */
  private freshRow(orderId: number): OrderArchiveRow | undefined | null {
    return orderId > this.archivedMax ? this.fresh.get(orderId) : null
  }

  /** A new row as an INSERT with only these fields gives it (the rest NULL). */
  private insertRow(orderId: number, owner: string, marketId: number, status: string, height: number, seq: number): OrderArchiveRow {
    const row: OrderArchiveRow = {
      order_id: orderId,
      owner,
      market_id: marketId,
      side: null,
      price: null,
      qty: null,
      tif: null,
      reduce_only: null,
      client_order_id: null,
      trigger_id: null,
      status,
      close_reason: null,
      remaining: null,
      filled: null,
      placed_height: null,
      placed_timestamp_ms: null,
      closed_height: null,
      closed_timestamp_ms: null,
      last_height: height,
      last_seq: seq,
    }
    this.fresh.set(orderId, row)
    return row
  }

  /**
   * One event of an order: through its upsert when the order is in the archive already; else on
   * the row in memory, as that upsert would change it: `insert` fills a new row, `update` the row
   * an event newer than its last one changes (also right after `insert`), and the last event moves
   * to this one. forward false: the upsert changes the row whatever its age and leaves its last event.
   */
  private write<O extends { orderId: number; owner: string; marketId: number; height: number; seq: number }>(
    o: O,
    upsert: (db: Database, o: O) => void,
    insertStatus: string,
    update: (row: OrderArchiveRow, inserted: boolean) => void,
    forward = true,
  ): void {
    const found = this.freshRow(o.orderId)
    if (found === null) {
      upsert(this.db, o)
      return
    }
    if (found !== undefined && forward && !isNewer(found, o.height, o.seq)) return
    const row = found ?? this.insertRow(o.orderId, o.owner, o.marketId, insertStatus, o.height, o.seq)
    update(row, found === undefined)
    if (!forward) return
    row.last_height = o.height
    row.last_seq = o.seq
  }

  accepted(o: Parameters<typeof archiveAccepted>[1]): void {
    this.write(o, archiveAccepted, 'open', (row, inserted) => {
      // filled: set by the insert only.
      if (inserted) row.filled = '0'
      row.side = o.side
      row.price = o.price
      row.qty = o.qty
      row.tif = o.tif
      row.reduce_only = o.reduceOnly === null ? null : o.reduceOnly ? 1 : 0
      row.client_order_id = o.clientOrderId
      row.status = 'open'
      row.remaining = o.qty
      row.placed_height ??= o.height
      row.placed_timestamp_ms ??= o.timestampMs
    })
  }

  resting(o: Parameters<typeof archiveResting>[1]): void {
    this.write(o, archiveResting, 'open', (row) => {
      row.status = 'open'
      row.remaining = o.remaining
    })
  }

  closed(o: Parameters<typeof archiveClosed>[1]): void {
    this.write(o, archiveClosed, 'closed', (row) => {
      row.client_order_id ??= o.clientOrderId
      row.status = 'closed'
      row.close_reason = o.reason
      row.remaining = o.remaining
      row.filled = o.filled ?? row.filled
      row.closed_height = o.height
      row.closed_timestamp_ms = o.timestampMs
    })
  }

  triggerOrigin(o: Parameters<typeof archiveTriggerOrigin>[1]): void {
    this.write(
      o,
      archiveTriggerOrigin,
      'open',
      (row) => {
        row.trigger_id = o.triggerId
      },
      false,
    )
  }

  /** orderTags, of the batch's orders too. */
  tags(orderId: number): { client_order_id: string | null; trigger_id: number | null } | undefined {
    const found = this.freshRow(orderId)
    return found === null ? orderTags(this.db, orderId) : found
  }

  /** Writes the batch's new orders, by id. */
  flush(): void {
    const insert =
      this.db.query(`INSERT INTO orders (order_id, owner, market_id, side, price, qty, tif, reduce_only, client_order_id, trigger_id,
      status, close_reason, remaining, filled, placed_height, placed_timestamp_ms, closed_height, closed_timestamp_ms, last_height, last_seq)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    for (const r of [...this.fresh.values()].sort((a, b) => a.order_id - b.order_id))
      insert.run(
        r.order_id,
        r.owner,
        r.market_id,
        r.side,
        r.price,
        r.qty,
        r.tif,
        r.reduce_only,
        r.client_order_id,
        r.trigger_id,
        r.status,
        r.close_reason,
        r.remaining,
        r.filled,
        r.placed_height,
        r.placed_timestamp_ms,
        r.closed_height,
        r.closed_timestamp_ms,
        r.last_height,
        r.last_seq,
      )
    this.fresh.clear()
  }
}

/** close_reason as the archive reports it: snake_case of the chain's reason (AmendClampedAtFilled -> amend_clamped_at_filled). */
export const snakeReason = (reason: string) => reason.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()
