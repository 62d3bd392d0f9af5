// Table `fills`: a taker row and a maker row per Filled event (FillRecord,
// docs/history-api.md#fills-and-orders), clustered by account so one account's page is one
// contiguous range however many fills the table holds.
import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { money, sqlInt } from '../amounts.ts'
import { type KeysetQuery, keysetPage, mergedKeysetPage, type PageRequest } from '../paging.ts'
import type { SymbolOf } from '../symbols.ts'

export interface FillInsert {
  account: string
  height: number
  seq: number
  isTaker: boolean
  timestampMs: number
  marketId: number
  orderId: number
  counterparty: string
  side: string
  price: string
  qty: string
  notional: bigint
  fee: bigint
  realizedPnl: bigint
  realizedPnlPct: string
  positionAction: string | null
  triggerId: number | null
  clientOrderId: string | null
}

export function insertFill(db: Database, f: FillInsert): void {
  db.query('INSERT OR IGNORE INTO fills VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
    f.account,
    f.height,
    f.seq,
    f.isTaker ? 1 : 0,
    f.timestampMs,
    f.marketId,
    f.orderId,
    f.counterparty,
    f.side,
    f.price,
    f.qty,
    sqlInt(f.notional),
    sqlInt(f.fee),
    sqlInt(f.realizedPnl),
    f.realizedPnlPct,
    f.positionAction,
    f.triggerId,
    f.clientOrderId,
  )
}

export interface FillRow {
  height: number
  seq: number
  is_taker: number
  timestamp_ms: number
  market_id: number
  order_id: number
  account: string
  counterparty: string
  side: string
  price: string
  qty: string
  notional: string
  fee: string
  realized_pnl: string
  realized_pnl_pct: string
  position_action: string | null
  trigger_id: number | null
  client_order_id: string | null
}

const SELECT =
  'height, seq, is_taker, timestamp_ms, market_id, order_id, account, counterparty, side, price, qty, ' +
  'CAST(notional AS TEXT) AS notional, CAST(fee AS TEXT) AS fee, CAST(realized_pnl AS TEXT) AS realized_pnl, realized_pnl_pct, ' +
  'position_action, trigger_id, client_order_id'

/** FillRecord exactly as docs/history-api.md#fills-and-orders gives it (the removed fields absent; optional ones only when set). */
export function fillRecord(r: FillRow, symbolOf: SymbolOf) {
  const out: Record<string, unknown> = {
    height: r.height,
    seq: r.seq,
    is_taker: r.is_taker === 1,
    timestamp_ms: r.timestamp_ms,
    market_id: r.market_id,
    order_id: r.order_id,
    account: r.account,
    counterparty: r.counterparty,
    price: r.price,
    qty: r.qty,
    notional: money(r.notional),
    fee: money(r.fee),
    symbol: symbolOf(r.market_id),
    realized_pnl: money(r.realized_pnl),
    realized_pnl_pct: r.realized_pnl_pct,
  }
  if (r.position_action !== null) out.position_action = r.position_action
  if (r.trigger_id !== null) out.trigger_id = r.trigger_id
  return out
}

/** The userFills item shape (docs/websocket.md#websocket-protocol) with the participant's side and realized PnL: getUserFills. */
export function userFill(r: FillRow, symbolOf: SymbolOf) {
  const out: Record<string, unknown> = {
    block_height: r.height,
    event_seq: r.seq,
    timestamp_ms: r.timestamp_ms,
    market_id: r.market_id,
    symbol: symbolOf(r.market_id),
    order_id: r.order_id,
  }
  if (r.client_order_id !== null) out.client_order_id = r.client_order_id
  Object.assign(out, {
    price: r.price,
    qty: r.qty,
    notional: money(r.notional),
    fee: money(r.fee),
    is_taker: r.is_taker === 1,
    aggressor_side: r.is_taker === 1 ? r.side : r.side === 'Bid' ? 'Ask' : 'Bid',
    side: r.side,
    realized_pnl: money(r.realized_pnl),
    counterparty: r.counterparty,
  })
  if (r.position_action !== null) out.position_action = r.position_action
  if (r.trigger_id !== null) out.trigger_id = r.trigger_id
  return out
}

export interface FillFilter {
  readonly account: string
  readonly marketId?: number | undefined
  readonly fromBlock?: number | undefined
  readonly toBlock?: number | undefined
  readonly fromMs?: number | undefined
  readonly toMs?: number | undefined
}

/** Records that account has fills in a market (the per-market ranges an account page merges). */
export function noteAccountMarket(db: Database, account: string, marketId: number): void {
  db.query('INSERT OR IGNORE INTO account_markets VALUES (?, ?)').run(account, marketId)
}

export function accountMarkets(db: Database, account: string): number[] {
  return db
    .query<{ market_id: number }, [string]>('SELECT market_id FROM account_markets WHERE account = ? ORDER BY market_id')
    .all(account)
    .map((r) => r.market_id)
}

/**
 * An account's fill rows, newest first (or oldest first), keyset-paged by (height, seq, is_taker):
 * one range of the (account, market) clustering per market, merged.
 */
export function accountFills(db: Database, f: FillFilter, page: PageRequest, order: 'asc' | 'desc' = 'desc') {
  const account = f.account.toLowerCase()
  const rest: string[] = []
  const restParams: SQLQueryBindings[] = []
  if (f.fromBlock !== undefined) {
    rest.push('height >= ?')
    restParams.push(f.fromBlock)
  }
  if (f.toBlock !== undefined) {
    rest.push('height <= ?')
    restParams.push(f.toBlock)
  }
  if (f.fromMs !== undefined) {
    rest.push('timestamp_ms >= ?')
    restParams.push(f.fromMs)
  }
  if (f.toMs !== undefined) {
    rest.push('timestamp_ms <= ?')
    restParams.push(f.toMs)
  }
  const markets = f.marketId !== undefined ? [f.marketId] : accountMarkets(db, account)
  const parts: KeysetQuery[] = markets.map((m) => ({
    table: 'fills',
    select: SELECT,
    where: ['account = ?', 'market_id = ?', ...rest],
    params: [account, m, ...restParams],
    keys: ['height', 'seq', 'is_taker'],
    order,
  }))
  return mergedKeysetPage<FillRow>(db, parts, page)
}

/** Fill rows of one order (its owner's side), oldest first: a range of the owner's market from the order's placement. */
export function orderFills(db: Database, o: { orderId: number; owner: string; marketId: number; fromHeight: number }, page: PageRequest) {
  return keysetPage<FillRow>(
    db,
    {
      table: 'fills',
      select: SELECT,
      where: ['account = ?', 'market_id = ?', 'height >= ?', 'order_id = ?'],
      params: [o.owner, o.marketId, o.fromHeight, o.orderId],
      keys: ['height', 'seq', 'is_taker'],
      order: 'asc',
    },
    page,
  )
}

/** Notional volume (SCALE_6 as text) of an account's fills in blocks [from, to]. */
export function volumeBetween(db: Database, account: string, from: number, to: number): string {
  let total = 0n
  for (const m of accountMarkets(db, account)) {
    const v = db
      .query<{ v: string | null }, [string, number, number, number]>(
        'SELECT CAST(SUM(notional) AS TEXT) AS v FROM fills WHERE account = ? AND market_id = ? AND height BETWEEN ? AND ?',
      )
      .get(account, m, from, to)?.v
    if (v !== null && v !== undefined) total += BigInt(v)
  }
  return total.toString()
}
