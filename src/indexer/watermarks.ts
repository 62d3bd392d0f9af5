// Stage watermarks: the highest height each stage has fully committed. A stage writes its rows for
// a block and its new watermark in the same transaction, so after any crash the watermark says
// exactly which blocks the stage still has to do.
import type { Database } from 'bun:sqlite'

/** The four stages in pipeline order: ingest, derive, candle, stats (docs/history-api.md#how-it-works). */
export const STAGES = ['ingest', 'derive', 'candle', 'stats'] as const
export type Stage = (typeof STAGES)[number]

/** Watermarks of all stages; 0 = nothing done yet. */
export type Watermarks = Record<Stage, number>

export function readWatermarks(db: Database): Watermarks {
  const out: Watermarks = { ingest: 0, derive: 0, candle: 0, stats: 0 }
  for (const row of db.query<{ stage: string; height: number }, []>('SELECT stage, height FROM watermarks').all()) {
    if ((STAGES as readonly string[]).includes(row.stage)) out[row.stage as Stage] = row.height
  }
  return out
}

/** Sets a stage's watermark; call inside the stage's transaction. */
export function writeWatermark(db: Database, stage: Stage, height: number): void {
  db.query('INSERT OR REPLACE INTO watermarks (stage, height) VALUES (?, ?)').run(stage, height)
}
