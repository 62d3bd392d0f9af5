// Block times and envelope tx hashes of a height range, read from the ingested tables.
import type { Database } from 'bun:sqlite'
import { assert } from '../../lib/assert.ts'

export function blockRange(db: Database, from: number, to: number): { times: Map<number, number>; txHashes: Map<string, string> } {
  const times = new Map<number, number>()
  for (const r of db
    .query<{ height: number; timestamp_ms: number }, [number, number]>(
      'SELECT height, timestamp_ms FROM blocks WHERE height BETWEEN ? AND ?',
    )
    .all(from, to)) {
    times.set(r.height, r.timestamp_ms)
  }
  assert(times.size === to - from + 1, `blocks ${from}..${to} are not all ingested`)
  const txHashes = new Map<string, string>()
  for (const r of db
    .query<{ height: number; envelope_idx: number; tx_hash: string }, [number, number]>(
      'SELECT height, envelope_idx, tx_hash FROM envelopes WHERE height BETWEEN ? AND ?',
    )
    .all(from, to)) {
    txHashes.set(`${r.height}:${r.envelope_idx}`, r.tx_hash)
  }
  return { times, txHashes }
}
