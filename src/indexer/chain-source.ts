// The indexer's read-only view of the chain block store (chain.sqlite, written by node/block-store.ts
// on the main thread). Committed blocks are read from here both while catching up after a restart
// and while following the tip, so both are the same code path.
import { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

export interface SourceBlock {
  height: number
  parent: string
  digest: string
  timestamp_ms: number
  envelope_count: number
  event_count: number
  state_root: string
}

export interface SourceEnvelope {
  height: number
  envelope_idx: number
  tx_hash: string
  signer: string
  nonce: number
  action_kind: string
  market_id: number | null
  action: string
  status: string
  reason: string | null
}

export interface SourceEvent {
  height: number
  seq: number
  envelope_idx: number | null
  kind: string
  sub_kind: string
  market_id: number | null
  account: string | null
  body: string
}

export class ChainSource {
  private readonly db: Database

  constructor(dataDir: string) {
    const path = join(dataDir, 'chain.sqlite')
    if (!existsSync(path)) throw new Error(`no block store at ${path}`)
    this.db = new Database(path, { readonly: true, strict: true })
    this.db.exec('PRAGMA busy_timeout = 5000')
  }

  /** The highest committed height (0 before the first block). */
  tipHeight(): number {
    return this.db.query<{ h: number | null }, []>('SELECT MAX(height) AS h FROM blocks').get()?.h ?? 0
  }

  /** Stored genesis metadata (used to tell whether a history file belongs to this chain). */
  meta(key: string): string | undefined {
    return this.db.query<{ value: string }, [string]>('SELECT value FROM meta WHERE key = ?').get(key)?.value
  }

  blocks(from: number, to: number): SourceBlock[] {
    return this.db.query<SourceBlock, [number, number]>(
      'SELECT height, parent, digest, timestamp_ms, envelope_count, event_count, state_root FROM blocks WHERE height BETWEEN ? AND ? ORDER BY height',
    ).all(from, to)
  }

  envelopes(from: number, to: number): SourceEnvelope[] {
    return this.db.query<SourceEnvelope, [number, number]>(
      'SELECT height, envelope_idx, tx_hash, signer, nonce, action_kind, market_id, action, status, reason FROM envelopes WHERE height BETWEEN ? AND ? ORDER BY height, envelope_idx',
    ).all(from, to)
  }

  events(from: number, to: number): SourceEvent[] {
    return this.db.query<SourceEvent, [number, number]>(
      'SELECT height, seq, envelope_idx, kind, sub_kind, market_id, account, body FROM events WHERE height BETWEEN ? AND ? ORDER BY height, seq',
    ).all(from, to)
  }

  /** Event rows in [from, to], at most `limit`, so a batch of large blocks stays bounded. */
  eventCount(from: number, to: number): number {
    return this.db.query<{ n: number }, [number, number]>('SELECT COALESCE(SUM(event_count), 0) AS n FROM blocks WHERE height BETWEEN ? AND ?').get(from, to)?.n ?? 0
  }

  close(): void {
    this.db.close()
  }
}
