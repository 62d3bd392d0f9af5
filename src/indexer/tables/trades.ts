// Table `trades`: one row per match with both participants, the input of candles, account stats
// and recent trades. Its (height, seq) key makes a block range one contiguous read.
import type { Database } from 'bun:sqlite'
import { money, sqlInt } from '../amounts.ts'
import { keysetPage, type PageRequest } from '../paging.ts'
import type { SymbolOf } from '../symbols.ts'

export interface TradeInsert {
  height: number
  seq: number
  timestampMs: number
  marketId: number
  price: string
  qty: string
  notional: bigint
  /** The taker's side. */
  side: string
  taker: string
  maker: string
  takerFee: bigint
  makerFee: bigint
  takerRealizedPnl: bigint
  makerRealizedPnl: bigint
}

export function insertTrade(db: Database, t: TradeInsert): void {
  db.query('INSERT OR IGNORE INTO trades VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
    t.height,
    t.seq,
    t.timestampMs,
    t.marketId,
    t.price,
    t.qty,
    sqlInt(t.notional),
    t.side,
    t.taker,
    t.maker,
    sqlInt(t.takerFee),
    sqlInt(t.makerFee),
    sqlInt(t.takerRealizedPnl),
    sqlInt(t.makerRealizedPnl),
  )
}

export interface TradeRow {
  height: number
  seq: number
  timestamp_ms: number
  market_id: number
  price: string
  qty: string
  notional: string
  side: string
}

export interface MatchRow extends TradeRow {
  taker: string
  maker: string
  taker_fee: string
  maker_fee: string
  taker_realized_pnl: string
  maker_realized_pnl: string
}

const SELECT = 'height, seq, timestamp_ms, market_id, price, qty, CAST(notional AS TEXT) AS notional, side'
const SELECT_MATCH =
  `${SELECT}, taker, maker, CAST(taker_fee AS TEXT) AS taker_fee, CAST(maker_fee AS TEXT) AS maker_fee, ` +
  'CAST(taker_realized_pnl AS TEXT) AS taker_realized_pnl, CAST(maker_realized_pnl AS TEXT) AS maker_realized_pnl'

/** Matches of blocks [from, to] in chain order (the candle and stats stages' input). */
export function matchesBetween(db: Database, from: number, to: number): MatchRow[] {
  return db
    .query<MatchRow, [number, number]>(`SELECT ${SELECT_MATCH} FROM trades WHERE height BETWEEN ? AND ? ORDER BY height, seq`)
    .all(from, to)
}

/** Trades of a market in blocks >= fromHeight with timestamps in [fromMs, toMs], chain order. */
export function marketTradesSince(db: Database, marketId: number, fromHeight: number, fromMs: number, toMs: number): TradeRow[] {
  return db
    .query<TradeRow, [number, number, number, number]>(
      `SELECT ${SELECT} FROM trades INDEXED BY trades_market WHERE market_id = ? AND height >= ? AND timestamp_ms BETWEEN ? AND ? ORDER BY height, seq`,
    )
    .all(marketId, fromHeight, fromMs, toMs)
}

/** RecentTrade rows (docs/rpc.md#getrecenttrades), newest first, of one market or all, in blocks >= fromHeight. */
export function recentTrades(db: Database, marketId: number | undefined, fromHeight: number, page: PageRequest, symbolOf: SymbolOf) {
  const where = ['height >= ?']
  const params: number[] = [fromHeight]
  if (marketId !== undefined) {
    where.unshift('market_id = ?')
    params.unshift(marketId)
  }
  const r = keysetPage<TradeRow>(
    db,
    {
      table: 'trades',
      select: SELECT,
      where,
      params,
      keys: ['height', 'seq'],
      order: 'desc',
      ...(marketId !== undefined ? { indexedBy: 'trades_market' } : {}),
    },
    page,
  )
  return {
    data: r.rows.map((t) => ({
      block_height: t.height,
      event_seq: t.seq,
      timestamp_ms: t.timestamp_ms,
      market_id: t.market_id,
      symbol: symbolOf(t.market_id),
      price: t.price,
      qty: t.qty,
      notional: money(t.notional),
      side: t.side,
    })),
    page: r.page,
  }
}
