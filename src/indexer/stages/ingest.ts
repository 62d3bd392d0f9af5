// Stage 1, ingest: copies committed blocks, envelopes and events from the block store into the
// history database, with the counters /status reports, and the ingest watermark.
import type { Database } from 'bun:sqlite'
import { assert } from '../../lib/assert.ts'
import type { ChainSource, SourceBlock } from '../chain-source.ts'
import { insertBlock } from '../tables/blocks.ts'
import { insertEnvelope } from '../tables/envelopes.ts'
import { insertEvent } from '../tables/events.ts'
import { writeWatermark } from '../watermarks.ts'
import { addCounter } from './counters.ts'

/** Ingests the given source blocks (consecutive heights after the watermark) in one transaction. */
export function ingestBlocks(db: Database, source: ChainSource, blocks: readonly SourceBlock[]): void {
  if (blocks.length === 0) return
  const from = blocks[0]!.height
  const to = blocks[blocks.length - 1]!.height
  assert(to - from + 1 === blocks.length, `block store returned ${blocks.length} blocks for heights ${from}..${to}`)
  const envelopes = source.envelopes(from, to)
  const events = source.events(from, to)
  db.transaction(() => {
    let newBlocks = 0
    let newEnvelopes = 0
    for (const b of blocks) {
      if (insertBlock(db, b)) {
        newBlocks++
        newEnvelopes += b.envelope_count
      }
    }
    for (const e of envelopes) insertEnvelope(db, e)
    for (const e of events) insertEvent(db, e)
    addCounter(db, 'block_count', newBlocks)
    addCounter(db, 'envelope_total', newEnvelopes)
    writeWatermark(db, 'ingest', to)
  })()
}
