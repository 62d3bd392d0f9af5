// Stage 1, ingest: copies committed blocks, envelopes and events from the block store (attached as
// `chain`) into the history database inside SQLite, with the tx-hash run of the batch's envelopes
// (tables/tx-runs.ts), the counters /status reports and the ingest watermark, in one transaction.
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
    db.query(`INSERT OR IGNORE INTO main.envelopes SELECT height, envelope_idx, tx_hash, signer, nonce, action_kind, market_id, action, status, reason
      FROM chain.envelopes WHERE height BETWEEN ? AND ?`).run(from, to)
    // The block store keeps an envelope's events as one JSON array of [seq, body] (src/node/event-groups.ts);
    // here each becomes a row again. `->` gives a body back as the very text that was stored.
    db.query(`INSERT OR IGNORE INTO main.events SELECT g.height, e.value ->> 0, g.envelope_idx, e.value ->> '$[1].kind',
        e.value ->> '$[1].sub_kind', e.value ->> '$[1].market_id', e.value ->> '$[1].account', e.value -> 1
      FROM chain.event_groups g, json_each(g.events) e WHERE g.height BETWEEN ? AND ?`).run(from, to)
    addCounter(db, 'block_count', fresh.n)
    addCounter(db, 'envelope_total', fresh.envelopes ?? 0)
    writeWatermark(db, 'ingest', to)
  })()
}
