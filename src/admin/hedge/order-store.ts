// Hedge order records and their state machine (docs/admin.md#hedge-order-states). A record is
// written before its order is sent (pending), marked sent just before the venue is asked, and moved
// on only along TRANSITIONS: the store refuses any other move, so a late or repeated answer cannot
// take a settled record back.
import type { AdminDb } from '../store/db.ts'
import type { HedgeOrderRecord, HedgeOrderStatus } from './schemas.ts'

/** Where each status may go. filled, partially_filled, cancelled, rejected, failed and dry_run are final. */
export const TRANSITIONS: Readonly<Record<HedgeOrderStatus, readonly HedgeOrderStatus[]>> = {
  // Recorded, not sent yet. A pending record found by a later cycle or a restart was never sent:
  // `sent` is written before the venue is asked.
  pending: ['sent', 'failed'],
  // The venue was asked; its answer decides, a lost answer is unknown.
  sent: ['open', 'filled', 'partially_filled', 'cancelled', 'rejected', 'unknown'],
  // Resolved by cloid; `failed` when the venue never saw it (after the grace period).
  unknown: ['open', 'filled', 'partially_filled', 'cancelled', 'rejected', 'failed'],
  // Resting on the venue until it fills or ends.
  open: ['filled', 'partially_filled', 'cancelled'],
  filled: [],
  partially_filled: [],
  cancelled: [],
  rejected: [],
  failed: [],
  dry_run: [],
}

/** Statuses whose order may still change on the venue: a market with one of these is not hedged again until it settles. */
export const IN_FLIGHT: readonly HedgeOrderStatus[] = ['pending', 'sent', 'unknown', 'open']

/** A record as the hedger writes it: the fields of the order decided, before the venue has seen it. */
export type NewOrderRecord = Readonly<
  Pick<HedgeOrderRecord, 'account_id' | 'market_symbol' | 'coin' | 'is_buy' | 'sz' | 'px' | 'delta_before' | 'cloid'>
> & { readonly status: 'pending' | 'dry_run' }

interface OrderRow extends Omit<HedgeOrderRecord, 'is_buy' | 'status'> {
  is_buy: number
  status: string
}

const inList = (statuses: readonly string[]) => statuses.map((s) => `'${s}'`).join(', ')

export class HedgeOrderStore {
  constructor(
    private readonly db: AdminDb,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Writes a new record; its id. */
  insert(r: NewOrderRecord): number {
    const now = this.clock()
    return this.db.write(
      (tx) =>
        tx
          .query(
            `INSERT INTO hedge_orders (account_id, market_symbol, coin, is_buy, sz, px, delta_before, cloid, status, created_at_ms, updated_at_ms)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
          )
          .get(r.account_id, r.market_symbol, r.coin, r.is_buy ? 1 : 0, r.sz, r.px, r.delta_before, r.cloid, r.status, now, now) as {
          id: number
        },
    ).id
  }

  /**
   * Moves a record to `to` when TRANSITIONS allows it from its current status, setting the given
   * fields; false (nothing changed) otherwise.
   */
  transition(id: number, to: HedgeOrderStatus, fields: { ext_oid?: string; error?: string | null; filled_sz?: string } = {}): boolean {
    const from = (Object.keys(TRANSITIONS) as HedgeOrderStatus[]).filter((s) => TRANSITIONS[s].includes(to))
    if (from.length === 0) return false
    return this.db.write((tx) => {
      const r = tx
        .query(
          `UPDATE hedge_orders SET status = ?, ext_oid = COALESCE(?, ext_oid), error = CASE WHEN ? THEN ? ELSE error END,
             filled_sz = COALESCE(?, filled_sz), updated_at_ms = ?
           WHERE id = ? AND status IN (${inList(from)})`,
        )
        .run(
          to,
          fields.ext_oid ?? null,
          fields.error !== undefined ? 1 : 0,
          fields.error ?? null,
          fields.filled_sz ?? null,
          this.clock(),
          id,
        )
      return r.changes > 0
    })
  }

  get(id: number): HedgeOrderRecord | undefined {
    return this.db.read((d) => {
      const row = d.query('SELECT * FROM hedge_orders WHERE id = ?').get(id) as OrderRow | null
      return row === null ? undefined : recordOf(row)
    })
  }

  byCloid(cloid: string): HedgeOrderRecord | undefined {
    return this.db.read((d) => {
      const row = d.query('SELECT * FROM hedge_orders WHERE cloid = ?').get(cloid) as OrderRow | null
      return row === null ? undefined : recordOf(row)
    })
  }

  /** Records whose order may still change on the venue, oldest first. */
  inFlight(): HedgeOrderRecord[] {
    return this.db.read((d) =>
      (d.query(`SELECT * FROM hedge_orders WHERE status IN (${inList(IN_FLIGHT)}) ORDER BY id`).all() as OrderRow[]).map(recordOf),
    )
  }

  /** The newest record of a market symbol. */
  latestOf(symbol: string): HedgeOrderRecord | undefined {
    return this.db.read((d) => {
      const row = d.query('SELECT * FROM hedge_orders WHERE market_symbol = ? ORDER BY id DESC LIMIT 1').get(symbol) as OrderRow | null
      return row === null ? undefined : recordOf(row)
    })
  }

  /** A page of records, newest first, with the total the filters match. */
  page(q: { accountId?: string; symbol?: string; limit: number; offset: number }): { orders: HedgeOrderRecord[]; total: number } {
    const where: string[] = []
    const args: (string | number)[] = []
    if (q.accountId !== undefined) {
      where.push('account_id = ?')
      args.push(q.accountId)
    }
    if (q.symbol !== undefined) {
      where.push('market_symbol = ?')
      args.push(q.symbol)
    }
    const clause = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`
    return this.db.read((d) => {
      const total = (d.query(`SELECT COUNT(*) AS n FROM hedge_orders ${clause}`).get(...args) as { n: number }).n
      const rows = d
        .query(`SELECT * FROM hedge_orders ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`)
        .all(...args, q.limit, q.offset) as OrderRow[]
      return { orders: rows.map(recordOf), total }
    })
  }

  /** Records per status (for /metrics). */
  countsByStatus(): Record<string, number> {
    return this.db.read((d) => {
      const rows = d.query('SELECT status, COUNT(*) AS n FROM hedge_orders GROUP BY status').all() as { status: string; n: number }[]
      return Object.fromEntries(rows.map((r) => [r.status, r.n]))
    })
  }
}

function recordOf(r: OrderRow): HedgeOrderRecord {
  return {
    id: r.id,
    account_id: r.account_id,
    market_symbol: r.market_symbol,
    coin: r.coin,
    is_buy: r.is_buy === 1,
    sz: r.sz,
    px: r.px,
    delta_before: r.delta_before,
    ext_oid: r.ext_oid,
    cloid: r.cloid,
    status: r.status as HedgeOrderStatus,
    error: r.error,
    filled_sz: r.filled_sz,
    created_at_ms: r.created_at_ms,
    updated_at_ms: r.updated_at_ms,
  }
}
