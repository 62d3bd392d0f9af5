// Table `candles`: one row per (market, interval, bucket open time) with OHLCV and the fill count;
// `last_height` is the last block folded in, so folding a block twice changes nothing.
import type { Database } from 'bun:sqlite'
import type { CandleInterval } from '../../wire/candles.ts'
import type { CandleText } from '../candles/candle-math.ts'

export function getCandle(db: Database, marketId: number, interval: CandleInterval, t: number): CandleText | undefined {
  return (
    db
      .query<CandleText, [number, string, number]>(
        'SELECT t, close_t, o, h, l, c, v, n, last_height FROM candles WHERE market_id = ? AND interval = ? AND t = ?',
      )
      .get(marketId, interval, t) ?? undefined
  )
}

export function putCandle(db: Database, marketId: number, interval: CandleInterval, c: CandleText): void {
  db.query('INSERT OR REPLACE INTO candles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
    marketId,
    interval,
    c.t,
    c.close_t,
    c.o,
    c.h,
    c.l,
    c.c,
    c.v,
    c.n,
    c.last_height,
  )
}

/** Which `limit` candles of a range a read keeps: the first ones (paging forward from a start) or the newest. */
export type CandlePick = 'first' | 'last'

/**
 * Candles of a market and interval with open time in [fromMs, toMs], the first or the newest
 * `limit` of them (`pick`), returned oldest first.
 */
export function candleRange(
  db: Database,
  marketId: number,
  interval: CandleInterval,
  fromMs: number,
  toMs: number,
  limit: number,
  pick: CandlePick = 'last',
): CandleText[] {
  const order = pick === 'first' ? 'ASC' : 'DESC'
  const rows = db
    .query<CandleText, [number, string, number, number, number]>(
      `SELECT t, close_t, o, h, l, c, v, n, last_height FROM candles WHERE market_id = ? AND interval = ? AND t BETWEEN ? AND ? ORDER BY t ${order} LIMIT ?`,
    )
    .all(marketId, interval, fromMs, toMs, limit)
  return pick === 'first' ? rows : rows.reverse()
}
