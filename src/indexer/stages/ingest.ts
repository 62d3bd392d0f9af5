// Stage 1, ingest: copies committed block headers and the envelopes' keys and filter fields from the
// block store (attached as `chain`) into the history database inside SQLite, with the tx-hash run of
// the batch's envelopes (tables/tx-runs.ts), the counters /status reports and the ingest watermark,
// in one transaction. Actions and events are not copied: readers take them from the block store.
import type { Database } from 'bun:sqlite'
import { assert } from '../../lib/assert.ts'
import { addTxRun } from '../tables/tx-runs.ts'
import { writeWatermark } from '../watermarks.ts'
import { addCounter } from './counters.ts'

/** Ingests blocks [from, to] of the block store (consecutive, after the watermark) in one transaction. */
export function ingestBlocks(db: Database, from: number, to: number): void {
  db.transaction(() => {
    const fresh = db
      .query<{ n: number; envelopes: number | null }, [number, number, number, number]>(
        `SELECT COUNT(*) AS n, SUM(envelope_count) AS envelopes FROM chain.blocks WHERE height BETWEEN ? AND ?
       AND height NOT IN (SELECT height FROM main.blocks WHERE height BETWEEN ? AND ?)`,
      )
      .get(from, to, from, to)!
    const present = db
      .query<{ n: number }, [number, number]>('SELECT COUNT(*) AS n FROM chain.blocks WHERE height BETWEEN ? AND ?')
      .get(from, to)!.n
    assert(present === to - from + 1, `the block store holds ${present} blocks of heights ${from}..${to}`)
    // Before the blocks: the run takes the envelopes of blocks not ingested yet.
    addTxRun(db, from, to)
    db.query(`INSERT OR IGNORE INTO main.blocks SELECT height, parent, digest, timestamp_ms, envelope_count, event_count, state_root
      FROM chain.blocks WHERE height BETWEEN ? AND ?`).run(from, to)
    // What the envelope lists filter and page on; the actions and the events stay in the block
    // store, where the readers find them (tables/envelopes.ts, tables/events.ts).
    db.query(`INSERT OR IGNORE INTO main.envelopes (height, envelope_idx, tx_hash, signer, nonce, action_kind, market_id, status)
      SELECT height, envelope_idx, tx_hash, signer, nonce, action_kind, market_id, status
      FROM chain.envelopes WHERE height BETWEEN ? AND ?`).run(from, to)
    addCounter(db, 'block_count', fresh.n)
    addCounter(db, 'envelope_total', fresh.envelopes ?? 0)
    writeWatermark(db, 'ingest', to)
  })()
}
