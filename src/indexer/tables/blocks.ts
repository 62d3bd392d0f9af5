// Table `blocks`: one row per ingested block header (BlockHeader,
// docs/history-api.md#blocks-envelopes-transactions).
import type { Database } from 'bun:sqlite'
import { keysetPage, type PageRequest } from '../paging.ts'

export interface BlockHeaderJson {
  parent: string
  height: number
  timestamp_ms: number
  digest: string
  envelope_count: number
  event_count: number
  state_root: string
  envelopes: unknown[]
}

const SELECT = 'parent, height, timestamp_ms, digest, envelope_count, event_count, state_root'

const withEnvelopes = (row: Omit<BlockHeaderJson, 'envelopes'>): BlockHeaderJson => ({ ...row, envelopes: [] })

/**
 * A header by height or digest; envelopes is always empty here (docs/history-api.md#blocks-envelopes-transactions). A
 * digest may come with or without its 0x prefix, in either case.
 */
export function blockById(db: Database, id: string): BlockHeaderJson | undefined {
  const row = /^\d{1,16}$/.test(id)
    ? db.query<Omit<BlockHeaderJson, 'envelopes'>, [number]>(`SELECT ${SELECT} FROM blocks WHERE height = ?`).get(Number(id))
    : db.query<Omit<BlockHeaderJson, 'envelopes'>, [string]>(`SELECT ${SELECT} FROM blocks WHERE digest = ?`).get(digestKey(id))
  return row === null ? undefined : withEnvelopes(row)
}

/** A digest as the table keys it: lower-case, 0x-prefixed (a bare 64-digit hex digest gains the prefix). */
function digestKey(id: string): string {
  const lower = id.toLowerCase()
  return /^[0-9a-f]{64}$/.test(lower) ? `0x${lower}` : lower
}

/** Headers newest first. */
export function listBlocks(db: Database, page: PageRequest) {
  const r = keysetPage<Omit<BlockHeaderJson, 'envelopes'>>(
    db,
    { table: 'blocks', select: SELECT, where: [], params: [], keys: ['height'], order: 'desc' },
    page,
  )
  return { data: r.rows.map(withEnvelopes), page: r.page }
}

/** Timestamp of a block, for rows that need it. */
export function blockTime(db: Database, height: number): number | undefined {
  return db.query<{ t: number }, [number]>('SELECT timestamp_ms AS t FROM blocks WHERE height = ?').get(height)?.t
}
