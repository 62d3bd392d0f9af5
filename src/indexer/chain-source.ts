// The history index's read-only view of the chain block store (chain.sqlite, written by
// node/block-store.ts on the main thread), attached to its connections as schema `chain`: the
// indexer's, so ingest copies rows with INSERT ... SELECT inside SQLite and derive reads the events
// there, and the readers', which take actions and events from it (schema.ts openHistoryReader).
// Committed blocks are read from here both while catching up after a restart and while following
// the tip, so both are the same code path. Nothing here writes to `chain`: every statement of the
// indexer names its target table in `main`.
import type { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { BLOCK_STORE_FILE } from '../wire/stored-block.ts'

export interface SourceBlock {
  height: number
  parent: string
  digest: string
  timestamp_ms: number
  envelope_count: number
  event_count: number
  state_root: string
}

/** Attaches the node's block store to the history connection as `chain`. */
export function attachChain(db: Database, dataDir: string): void {
  const path = join(dataDir, BLOCK_STORE_FILE)
  if (!existsSync(path)) throw new Error(`no block store at ${path}`)
  db.exec(`ATTACH DATABASE '${path.replaceAll("'", "''")}' AS chain`)
}

/** The highest committed height (0 before the first block). */
export function chainTip(db: Database): number {
  return db.query<{ h: number | null }, []>('SELECT MAX(height) AS h FROM chain.blocks').get()?.h ?? 0
}

/** Stored genesis metadata (tells whether a history file belongs to this chain). */
export function chainMeta(db: Database, key: string): string | undefined {
  return db.query<{ value: string }, [string]>('SELECT value FROM chain.meta WHERE key = ?').get(key)?.value
}

/** Block headers of the block store in [from, to]. */
export function chainBlocks(db: Database, from: number, to: number): SourceBlock[] {
  return db
    .query<SourceBlock, [number, number]>(
      'SELECT height, parent, digest, timestamp_ms, envelope_count, event_count, state_root FROM chain.blocks WHERE height BETWEEN ? AND ? ORDER BY height',
    )
    .all(from, to)
}
