// Tables `leaderboard_snapshots` and `leaderboard_rows`: materialized rankings
// (docs/history-api.md#account-history). The stats stage takes a snapshot at most once per
// LEADERBOARD_REFRESH_MS of block time, identified by the block it was taken at, and keeps the
// newest few.
import type { Database } from 'bun:sqlite'
import { money } from '../amounts.ts'

export const LEADERBOARD_METRICS = ['pnl', 'volume'] as const
export type LeaderboardMetric = (typeof LEADERBOARD_METRICS)[number]
export const LEADERBOARD_PERIODS = ['1d', '7d', '30d', 'all'] as const
export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number]

/** Rows kept per (metric, period) in a snapshot. */
export const LEADERBOARD_SIZE_MAX = 100
/** Snapshots kept; older ones are deleted when a new one is taken. */
const SNAPSHOTS_KEPT = 4

const PERIOD_DAYS: Record<Exclude<LeaderboardPeriod, 'all'>, number> = { '1d': 1, '7d': 7, '30d': 30 }

export function latestSnapshot(db: Database): { snapshot_id: number; as_of_height: number; as_of_timestamp_ms: number } | undefined {
  return (
    db
      .query<{ snapshot_id: number; as_of_height: number; as_of_timestamp_ms: number }, []>(
        'SELECT snapshot_id, as_of_height, as_of_timestamp_ms FROM leaderboard_snapshots ORDER BY snapshot_id DESC LIMIT 1',
      )
      .get() ?? undefined
  )
}

/** Takes a snapshot as of block (height, timestampMs) from account_stats and account_daily. */
export function takeSnapshot(db: Database, height: number, timestampMs: number): void {
  db.query('INSERT OR REPLACE INTO leaderboard_snapshots VALUES (?, ?, ?)').run(height, height, timestampMs)
  db.query('DELETE FROM leaderboard_rows WHERE snapshot_id = ?').run(height)
  const today = Math.floor(timestampMs / 86_400_000)
  for (const metric of LEADERBOARD_METRICS) {
    const order = metric === 'pnl' ? 'realized_pnl' : 'volume'
    for (const period of LEADERBOARD_PERIODS) {
      // In SQL end to end so sums stay exact integers; ties rank by account so a rebuild gives the
      // same snapshot.
      const source =
        period === 'all'
          ? 'SELECT account, volume, realized_pnl, fills FROM account_stats'
          : `SELECT account, SUM(volume) AS volume, SUM(realized_pnl) AS realized_pnl, SUM(fills) AS fills FROM account_daily WHERE day >= ${today - PERIOD_DAYS[period] + 1} GROUP BY account`
      db.query(`INSERT INTO leaderboard_rows SELECT ?, ?, ?, ROW_NUMBER() OVER (ORDER BY ${order} DESC, account), account, ${order}, volume, realized_pnl, fills
        FROM (${source} ORDER BY ${order} DESC, account LIMIT ?)`).run(height, metric, period, LEADERBOARD_SIZE_MAX)
    }
  }
  db.query(
    'DELETE FROM leaderboard_rows WHERE snapshot_id NOT IN (SELECT snapshot_id FROM leaderboard_snapshots ORDER BY snapshot_id DESC LIMIT ?)',
  ).run(SNAPSHOTS_KEPT)
  db.query(
    'DELETE FROM leaderboard_snapshots WHERE snapshot_id NOT IN (SELECT snapshot_id FROM leaderboard_snapshots ORDER BY snapshot_id DESC LIMIT ?)',
  ).run(SNAPSHOTS_KEPT)
}

/** The latest snapshot's ranking of a metric over a period. */
export function leaderboard(db: Database, metric: LeaderboardMetric, period: LeaderboardPeriod, limit: number) {
  const snap = latestSnapshot(db)
  const rows =
    snap === undefined
      ? []
      : db
          .query<
            { rank: number; account: string; value: string; volume: string; realized_pnl: string; fills: number },
            [number, string, string, number]
          >(
            `SELECT rank, account, CAST(value AS TEXT) AS value, CAST(volume AS TEXT) AS volume, CAST(realized_pnl AS TEXT) AS realized_pnl, fills
     FROM leaderboard_rows WHERE snapshot_id = ? AND metric = ? AND period = ? ORDER BY rank LIMIT ?`,
          )
          .all(snap.snapshot_id, metric, period, limit)
  return {
    data: rows.map((r) => ({
      rank: r.rank,
      account: r.account,
      value: money(r.value),
      volume: money(r.volume),
      realized_pnl: money(r.realized_pnl),
      fills: r.fills,
    })),
    meta: {
      as_of_timestamp_ms: snap?.as_of_timestamp_ms ?? null,
      as_of_height: snap?.as_of_height ?? null,
      source: 'snapshot',
      metric,
      period,
    },
  }
}
