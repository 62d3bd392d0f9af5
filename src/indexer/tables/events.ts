// Table `events`: every chain event of every ingested block (EventView,
// docs/history-api.md#blocks-envelopes-transactions), the input of the derive stage (written by the
// ingest stage's INSERT ... SELECT).
import type { Database } from 'bun:sqlite'
import type { EventBody } from '../../wire/events/index.ts'
import type { SourceEvent } from '../chain-source.ts'
import type { SymbolOf } from '../symbols.ts'

/**
 * The columns of an event row. An index written before block-level events carried the block's
 * envelope count holds NULL in envelope_idx for them: read as that count.
 */
export const EVENT_COLUMNS =
  'height, seq, COALESCE(envelope_idx, (SELECT envelope_count FROM blocks b WHERE b.height = events.height)) AS envelope_idx, kind, sub_kind, market_id, account, body'

/** Events of blocks [from, to] in chain order (the derive stage's input), streamed row by row. */
export function eventsBetween(db: Database, from: number, to: number): IterableIterator<SourceEvent> {
  return db
    .prepare<SourceEvent, [number, number]>(`SELECT ${EVENT_COLUMNS} FROM events WHERE height BETWEEN ? AND ? ORDER BY height, seq`)
    .iterate(from, to)
}

export function eventJson(e: SourceEvent, symbolOf: SymbolOf) {
  return {
    height: e.height,
    seq: e.seq,
    envelope_idx: e.envelope_idx,
    kind: e.kind,
    sub_kind: e.sub_kind,
    market_id: e.market_id,
    symbol: symbolOf(e.market_id),
    account: e.account,
    body: JSON.parse(e.body) as EventBody,
  }
}

const SELECT = EVENT_COLUMNS

export function eventsOfBlock(db: Database, height: number, offset: number, limit: number, symbolOf: SymbolOf) {
  return db
    .query<SourceEvent, [number, number, number]>(`SELECT ${SELECT} FROM events WHERE height = ? ORDER BY seq LIMIT ? OFFSET ?`)
    .all(height, limit, offset)
    .map((e) => eventJson(e, symbolOf))
}

export function eventsOfEnvelope(db: Database, height: number, envelopeIdx: number, symbolOf: SymbolOf) {
  return db
    .query<SourceEvent, [number, number]>(`SELECT ${SELECT} FROM events WHERE height = ? AND envelope_idx = ? ORDER BY seq`)
    .all(height, envelopeIdx)
    .map((e) => eventJson(e, symbolOf))
}
