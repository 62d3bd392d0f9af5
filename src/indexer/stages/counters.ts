// Counters /status reports (block_count, envelope_total), kept in `meta` and moved in the same
// transaction as the rows they count.
import type { Database } from 'bun:sqlite'

export function addCounter(db: Database, key: string, delta: number): void {
  if (delta === 0) return
  db.query(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + CAST(excluded.value AS INTEGER) AS TEXT)',
  ).run(`counter:${key}`, String(delta))
}

export function readCounter(db: Database, key: string): number {
  const v = db.query<{ value: string }, [string]>('SELECT value FROM meta WHERE key = ?').get(`counter:${key}`)?.value
  return v === undefined ? 0 : Number(v)
}
