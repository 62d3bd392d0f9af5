// Table `event_groups`: every chain event of every ingested block (EventView,
// docs/history-api.md#blocks-envelopes-transactions), kept as the block store keeps them
// (src/wire/event-groups.ts): a row per envelope that raised events, holding them as one JSON array
// of [seq, body], and the block's own events (its begin and end hooks) under its envelope count.
// The ingest stage copies the rows as they are; the derive stage and the readers parse a row once
// for all its events. A row per event here cost a row copy at ingest and a body parse per event at
// derive (and, once the block store kept groups, a `json_each` per event): docs/performance.md.
import type { Database } from 'bun:sqlite'
import { eventFields, inChainOrder, inSeqOrder, parseEventGroup } from '../../wire/event-groups.ts'
import { asEventBody, type EventBody } from '../../wire/events/index.ts'
import type { SymbolOf } from '../symbols.ts'

export const EVENT_GROUPS_SCHEMA = `
CREATE TABLE IF NOT EXISTS event_groups (
  height INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
  events TEXT NOT NULL, PRIMARY KEY (height, envelope_idx));
`

/** An event of the index with its body parsed. */
export interface IndexedEvent {
  readonly height: number
  readonly seq: number
  /** The envelope that caused it, or the block's envelope_count for an event of the block itself. */
  readonly envelope_idx: number
  readonly kind: string
  readonly sub_kind: string
  readonly market_id: number | null
  readonly account: string | null
  readonly body: EventBody
}

interface GroupRow {
  readonly height: number
  readonly envelope_idx: number
  readonly events: string
}

/** An event of the index from its place and its parsed body (checked as decodeEventBody checks it). */
function indexedEvent(height: number, seq: number, envelopeIdx: number, value: unknown): IndexedEvent {
  const body = asEventBody(value)
  const { kind, subKind, marketId, account } = eventFields(body)
  return { height, seq, envelope_idx: envelopeIdx, kind, sub_kind: subKind, market_id: marketId, account, body }
}

/** The events of one group row, in seq order. */
const eventsOfGroup = (g: GroupRow): IndexedEvent[] =>
  parseEventGroup(g.events).map(([seq, body]) => indexedEvent(g.height, seq, g.envelope_idx, body))

/** Events of blocks [from, to] in chain order (the derive stage's input), a block at a time. */
export function eventsBetween(db: Database, from: number, to: number): IterableIterator<IndexedEvent> {
  const groups = db
    .prepare<GroupRow, [number, number]>(
      'SELECT height, envelope_idx, events FROM event_groups WHERE height BETWEEN ? AND ? ORDER BY height, envelope_idx',
    )
    .iterate(from, to)
  return inChainOrder(eventsOfGroups(groups))
}

function* eventsOfGroups(groups: Iterable<GroupRow>): IterableIterator<IndexedEvent> {
  for (const g of groups) yield* eventsOfGroup(g)
}

export function eventJson(e: IndexedEvent, symbolOf: SymbolOf) {
  return {
    height: e.height,
    seq: e.seq,
    envelope_idx: e.envelope_idx,
    kind: e.kind,
    sub_kind: e.sub_kind,
    market_id: e.market_id,
    symbol: symbolOf(e.market_id),
    account: e.account,
    body: e.body,
  }
}

/** Events offset .. offset + limit - 1 (by seq) of one block: only the groups that hold some are read. */
export function eventsOfBlock(db: Database, height: number, offset: number, limit: number, symbolOf: SymbolOf) {
  const end = offset + limit
  const events: IndexedEvent[] = []
  for (const g of db
    .query<GroupRow, [number, number, number]>(
      'SELECT height, envelope_idx, events FROM event_groups WHERE height = ? AND last_seq >= ? AND first_seq < ?',
    )
    .iterate(height, offset, end)) {
    for (const e of eventsOfGroup(g)) if (e.seq >= offset && e.seq < end) events.push(e)
  }
  const found =
    events.length > 0 ? inSeqOrder(events) : (legacyEvents(db, 'height = ? AND seq >= ? AND seq < ?', [height, offset, end]) ?? [])
  return found.map((e) => eventJson(e, symbolOf))
}

export function eventsOfEnvelope(db: Database, height: number, envelopeIdx: number, symbolOf: SymbolOf) {
  const g = db
    .query<GroupRow, [number, number]>('SELECT height, envelope_idx, events FROM event_groups WHERE height = ? AND envelope_idx = ?')
    .get(height, envelopeIdx)
  const found = g !== null ? eventsOfGroup(g) : (legacyEvents(db, 'height = ? AND envelope_idx = ?', [height, envelopeIdx]) ?? [])
  return found.map((e) => eventJson(e, symbolOf))
}

/** The event at (height, seq): the groups whose seq range holds it are its envelope's and, spanning the block, the block's own. */
export function eventAt(db: Database, height: number, seq: number): IndexedEvent | undefined {
  for (const g of db
    .query<GroupRow, [number, number, number]>(
      'SELECT height, envelope_idx, events FROM event_groups WHERE height = ? AND first_seq <= ? AND last_seq >= ?',
    )
    .iterate(height, seq, seq)) {
    const found = eventsOfGroup(g).find((e) => e.seq === seq)
    if (found !== undefined) return found
  }
  return legacyEvents(db, 'height = ? AND seq = ?', [height, seq])?.[0]
}

/** Whether the index still holds the `events` table of a build before 2026-11-27, a row per event. */
export function hasEventRows(db: Database): boolean {
  return db.query<{ name: string }, []>("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name = 'events'").get() !== null
}

/**
 * Moves an older index's event rows into groups, in one statement, once (the pipeline's first
 * step). The oldest rows hold NULL as the envelope_idx of a block's own events: they get the
 * block's envelope count. json() writes each body back as the same text (JSON.stringify wrote it).
 */
export function groupEventRows(db: Database): boolean {
  if (!hasEventRows(db)) return false
  db.transaction(() => {
    db.exec(`INSERT OR IGNORE INTO main.event_groups
      SELECT e.height, COALESCE(e.envelope_idx, b.envelope_count) AS idx, MIN(e.seq), MAX(e.seq),
        json_group_array(json_array(e.seq, json(e.body)) ORDER BY e.seq)
      FROM main.events e JOIN main.blocks b ON b.height = e.height
      GROUP BY e.height, idx`)
    db.exec('DROP TABLE main.events')
  })()
  return true
}

/**
 * Until groupEventRows has run (the first step after an upgrade), the readers find an older
 * index's events in its rows: those matching `where`, in chain order, or undefined without them.
 */
function legacyEvents(db: Database, where: string, params: readonly number[]): IndexedEvent[] | undefined {
  if (!hasEventRows(db)) return undefined
  return db
    .query<{ height: number; seq: number; envelope_idx: number; body: string }, number[]>(
      `SELECT height, seq, envelope_idx, body FROM (SELECT height, seq, COALESCE(envelope_idx, (SELECT envelope_count FROM blocks b WHERE b.height = events.height)) AS envelope_idx, body FROM events)
       WHERE ${where} ORDER BY height, seq`,
    )
    .all(...params)
    .map((r) => indexedEvent(r.height, r.seq, r.envelope_idx, JSON.parse(r.body)))
}
