// Block times of a height range, read from the ingested blocks.
import type { Database } from 'bun:sqlite'
import { assert } from '../../lib/assert.ts'

/** The block times of heights [from, to], all ingested. */
export function blockTimes(db: Database, from: number, to: number): Map<number, number> {
  const times = new Map<number, number>()
  for (const r of db
    .query<{ height: number; timestamp_ms: number }, [number, number]>(
      'SELECT height, timestamp_ms FROM blocks WHERE height BETWEEN ? AND ?',
    )
    .all(from, to)) {
    times.set(r.height, r.timestamp_ms)
  }
  assert(times.size === to - from + 1, `blocks ${from}..${to} are not all ingested`)
  return times
}
