// Block times of a height range and the tx hash of an envelope, read from the ingested tables.
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

/**
 * The tx hash of an envelope, or null for an index no envelope has (a block's own events). Asked
 * per event by the few derive modules that keep it (fund and bridge flows), rather than a map of
 * every envelope of the batch built for all, which took 5% of the CPU of building the index of a
 * capacity run (a profile of scripts/bench/reindex.ts).
 */
export function txHashLookup(db: Database): (height: number, envelopeIdx: number) => string | null {
  const get = db.prepare<{ tx_hash: string }, [number, number]>('SELECT tx_hash FROM envelopes WHERE height = ? AND envelope_idx = ?')
  return (height, envelopeIdx) => get.get(height, envelopeIdx)?.tx_hash ?? null
}
