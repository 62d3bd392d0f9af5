// Tables `account_stats` (all-time trading figures per account) and `account_daily` (the same per
// UTC day, for windowed leaderboards). Each row remembers the last block folded in (last_height),
// so folding a block twice changes nothing.
import type { Database } from 'bun:sqlite'
import { money, sqlInt } from '../amounts.ts'

/** A block's worth of one account's trading, to fold into its stats. */
export interface StatsDelta {
  volume: bigint
  fills: number
  takerFills: number
  makerFills: number
  fees: bigint
  realizedPnl: bigint
  winningCloses: number
  losingCloses: number
  firstFillMs: number
  lastFillMs: number
}

export const emptyDelta = (tMs: number): StatsDelta => ({
  volume: 0n,
  fills: 0,
  takerFills: 0,
  makerFills: 0,
  fees: 0n,
  realizedPnl: 0n,
  winningCloses: 0,
  losingCloses: 0,
  firstFillMs: tMs,
  lastFillMs: tMs,
})

/** Folds a block's delta into the account's all-time row unless that block is already in it. */
export function foldAccountStats(db: Database, account: string, height: number, d: StatsDelta): void {
  db.query(`INSERT INTO account_stats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (account) DO UPDATE SET volume = volume + excluded.volume, fills = fills + excluded.fills,
      taker_fills = taker_fills + excluded.taker_fills, maker_fills = maker_fills + excluded.maker_fills, fees = fees + excluded.fees,
      realized_pnl = realized_pnl + excluded.realized_pnl, winning_closes = winning_closes + excluded.winning_closes,
      losing_closes = losing_closes + excluded.losing_closes, last_fill_ms = excluded.last_fill_ms, last_height = excluded.last_height
    WHERE account_stats.last_height < excluded.last_height`).run(
    account,
    sqlInt(d.volume),
    d.fills,
    d.takerFills,
    d.makerFills,
    sqlInt(d.fees),
    sqlInt(d.realizedPnl),
    d.winningCloses,
    d.losingCloses,
    d.firstFillMs,
    d.lastFillMs,
    height,
  )
}

/** Folds a block's delta into the account's row of that UTC day. */
export function foldAccountDaily(db: Database, account: string, day: number, height: number, d: StatsDelta): void {
  db.query(`INSERT INTO account_daily VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (day, account) DO UPDATE SET volume = volume + excluded.volume, realized_pnl = realized_pnl + excluded.realized_pnl,
      fills = fills + excluded.fills, last_height = excluded.last_height
    WHERE account_daily.last_height < excluded.last_height`).run(account, day, sqlInt(d.volume), sqlInt(d.realizedPnl), d.fills, height)
}

interface StatsRow {
  account: string
  volume: string
  fills: number
  taker_fills: number
  maker_fills: number
  fees: string
  realized_pnl: string
  winning_closes: number
  losing_closes: number
  first_fill_ms: number
  last_fill_ms: number
  last_height: number
}

/** An account's stats as the /account-stats data (zeros for an account that never traded). */
export function accountStats(db: Database, account: string) {
  const r = db
    .query<StatsRow, [string]>(`SELECT account, CAST(volume AS TEXT) AS volume, fills, taker_fills, maker_fills, CAST(fees AS TEXT) AS fees,
    CAST(realized_pnl AS TEXT) AS realized_pnl, winning_closes, losing_closes, first_fill_ms, last_fill_ms, last_height FROM account_stats WHERE account = ?`)
    .get(account.toLowerCase())
  const day = db.query<{ volume: string | null; pnl: string | null }, [string, number]>(
    'SELECT CAST(SUM(volume) AS TEXT) AS volume, CAST(SUM(realized_pnl) AS TEXT) AS pnl FROM account_daily WHERE account = ? AND day >= ?',
  )
  const window = (days: number) => {
    if (r === null) return { volume: '0', realized_pnl: '0' }
    const lastDay = Math.floor(r.last_fill_ms / 86_400_000)
    const w = day.get(account.toLowerCase(), lastDay - days + 1)
    return { volume: money(w?.volume ?? null), realized_pnl: money(w?.pnl ?? null) }
  }
  return {
    account: account.toLowerCase(),
    volume: money(r?.volume ?? null),
    fills: r?.fills ?? 0,
    taker_fills: r?.taker_fills ?? 0,
    maker_fills: r?.maker_fills ?? 0,
    fees: money(r?.fees ?? null),
    realized_pnl: money(r?.realized_pnl ?? null),
    winning_closes: r?.winning_closes ?? 0,
    losing_closes: r?.losing_closes ?? 0,
    first_fill_ms: r?.first_fill_ms ?? null,
    last_fill_ms: r?.last_fill_ms ?? null,
    as_of_height: r?.last_height ?? null,
    last_7d: window(7),
    last_30d: window(30),
  }
}
