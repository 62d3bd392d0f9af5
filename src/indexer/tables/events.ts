// The events of ingested blocks (EventView, docs/history-api.md#blocks-envelopes-transactions), read
// where the block store keeps them: its event_groups (src/wire/event-groups.ts), attached to every
// history connection as `chain` (chain-source.ts). A row there holds the events one envelope raised
// as one JSON array of [seq, body] (the block's own events, from its begin and end hooks, under its
// envelope count); the derive stage and the readers parse a row once for all its events. The index
// keeps no copy: the copy doubled the index's size and was 13% of its CPU under 50-order batches
// (docs/performance.md). Which events a reader returns is decided by the index's own rows (its
// blocks, envelopes and account_events), so a block the index has not reached yet is not shown.
import type { Database } from 'bun:sqlite'
import { eventFields, inChainOrder, inSeqOrder, parseEventGroup, type StoredGroupEvents } from '../../wire/event-groups.ts'
import { asEventBody, type EventBody } from '../../wire/events/index.ts'
import type { SymbolOf } from '../symbols.ts'

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
  readonly events: StoredGroupEvents
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
      'SELECT height, envelope_idx, events FROM chain.event_groups WHERE height BETWEEN ? AND ? ORDER BY height, envelope_idx',
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
      'SELECT height, envelope_idx, events FROM chain.event_groups WHERE height = ? AND last_seq >= ? AND first_seq < ?',
    )
    .iterate(height, offset, end)) {
    for (const e of eventsOfGroup(g)) if (e.seq >= offset && e.seq < end) events.push(e)
  }
  return inSeqOrder(events).map((e) => eventJson(e, symbolOf))
}

export function eventsOfEnvelope(db: Database, height: number, envelopeIdx: number, symbolOf: SymbolOf) {
  const g = db
    .query<GroupRow, [number, number]>('SELECT height, envelope_idx, events FROM chain.event_groups WHERE height = ? AND envelope_idx = ?')
    .get(height, envelopeIdx)
  return g === null ? [] : eventsOfGroup(g).map((e) => eventJson(e, symbolOf))
}

/** The event at (height, seq): the groups whose seq range holds it are its envelope's and, spanning the block, the block's own. */
export function eventAt(db: Database, height: number, seq: number): IndexedEvent | undefined {
  for (const g of db
    .query<GroupRow, [number, number, number]>(
      'SELECT height, envelope_idx, events FROM chain.event_groups WHERE height = ? AND first_seq <= ? AND last_seq >= ?',
    )
    .iterate(height, seq, seq)) {
    const found = eventsOfGroup(g).find((e) => e.seq === seq)
    if (found !== undefined) return found
  }
  return undefined
}
