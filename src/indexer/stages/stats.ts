// Stage 4, stats: folds each derived block's trades into per-account figures (all-time and per
// UTC day) and takes a leaderboard snapshot at most once per refresh interval of block time.
import type { Database } from 'bun:sqlite'
import { emptyDelta, foldAccountDaily, foldAccountStats, type StatsDelta } from '../tables/account-stats.ts'
import { latestSnapshot, takeSnapshot } from '../tables/leaderboard.ts'
import { matchesBetween } from '../tables/trades.ts'
import { writeWatermark } from '../watermarks.ts'

const DAY_MS = 86_400_000

/** Stats of blocks [from, to] (all derived) in one transaction; `blockTime` gives each block's time. */
export function statsBlocks(db: Database, from: number, to: number, lastBlockTimeMs: number, refreshMs: number): void {
  const trades = matchesBetween(db, from, to)
  db.transaction(() => {
    let i = 0
    while (i < trades.length) {
      // One block at a time: each account's delta of the block folds in once (last_height).
      const height = trades[i]!.height
      const deltas = new Map<string, { day: number; d: StatsDelta }>()
      for (; i < trades.length && trades[i]!.height === height; i++) {
        const t = trades[i]!
        const notional = BigInt(t.notional)
        for (const isTaker of [true, false]) {
          const account = isTaker ? t.taker : t.maker
          let entry = deltas.get(account)
          if (entry === undefined) {
            entry = { day: Math.floor(t.timestamp_ms / DAY_MS), d: emptyDelta(t.timestamp_ms) }
            deltas.set(account, entry)
          }
          const d = entry.d
          const pnl = BigInt(isTaker ? t.taker_realized_pnl : t.maker_realized_pnl)
          d.volume += notional
          d.fills += 1
          if (isTaker) d.takerFills += 1
          else d.makerFills += 1
          d.fees += BigInt(isTaker ? t.taker_fee : t.maker_fee)
          d.realizedPnl += pnl
          if (pnl > 0n) d.winningCloses += 1
          if (pnl < 0n) d.losingCloses += 1
          d.lastFillMs = t.timestamp_ms
        }
      }
      for (const [account, { day, d }] of deltas) {
        foldAccountStats(db, account, height, d)
        foldAccountDaily(db, account, day, height, d)
      }
    }
    const last = latestSnapshot(db)
    if (last === undefined || Math.floor(lastBlockTimeMs / refreshMs) > Math.floor(last.as_of_timestamp_ms / refreshMs)) {
      takeSnapshot(db, to, lastBlockTimeMs)
    }
    writeWatermark(db, 'stats', to)
  })()
}
