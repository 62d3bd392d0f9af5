// A block's events as the block store (src/node/block-store.ts) and the history index
// (src/indexer/tables/events.ts) keep them: in groups, the events one envelope raised (or, under the
// block's envelope count, those the block raised itself in its begin and end hooks) in one row, as
// one JSON text. A row per event made the store's commit the block thread's largest cost once
// blocks carried batches: a block of 350 BatchPlaceOrder holds 35,000 events
// (scripts/bench/block-store.ts --events-per-envelope 100). The history index keeps no copy: it
// reads them from the store.
//
// A large group is kept compressed (storedGroupEvents): a 50-order batch's 100 events are about
// 20 KB of JSON whose keys and accounts repeat, which zstd at its fastest level makes about 1 KB.
import type { StoredEvent } from './stored-block.ts'

/** One group as stored: an envelope's events, its seq range and how many are fills. */
export interface EventGroupRow {
  readonly height: number
  readonly envelopeIdx: number
  readonly firstSeq: number
  readonly lastSeq: number
  /** Filled events in the group: the trade rings' seed reads only groups that have some. */
  readonly fills: number
  /**
   * JSON array of [seq, body] pairs, the body as the event's bodyJson, in its stored form
   * (storedGroupEvents). A body holds all of the event's fields (wire/event-view.ts), so its kind,
   * sub kind, market and account are read from it rather than stored twice (they were a third of
   * the bytes of a batch's events).
   */
  readonly events: StoredGroupEvents
}

/** A group's events as the store keeps them: their JSON text, or that text compressed with zstd. */
export type StoredGroupEvents = string | Uint8Array

/**
 * From this many characters of JSON on, a group is stored compressed. A batch's group is well above
 * it (20 KB), a single order's (1-2 events, 300-600 bytes) below. scripts/bench/block-store.ts, CPU
 * per block's commit:
 * - the 50-order batch load (`--envelopes 340 --events-per-envelope 100`): 20.1-25.5 ms instead
 *   of 26.6-34.9 (two runs each), and 0.4 MB of events written instead of 8 MB;
 * - 2,000 single orders (`--envelopes 2000 --events-per-envelope 2`): 11.6-13.0 ms as before, where
 *   compressing every group took 19.1-24.0: so small a group costs more to compress than to write.
 */
export const GROUP_COMPRESSED_FROM_CHARS = 2_048

/** A group's JSON text in its stored form: compressed when it is large (zstd's fastest level). */
export function storedGroupEvents(json: string): StoredGroupEvents {
  return json.length < GROUP_COMPRESSED_FROM_CHARS ? json : Bun.zstdCompressSync(json, { level: 1 })
}

const utf8 = new TextDecoder()

/** A group's JSON text from its stored form: text as it is, compressed (a BLOB) decompressed. */
export function groupEventsJson(stored: StoredGroupEvents): string {
  return typeof stored === 'string' ? stored : utf8.decode(Bun.zstdDecompressSync(stored))
}

/** One event of a group's JSON: its seq and its body, which holds every field of the event. */
export type GroupedEvent = [seq: number, body: { kind: string; sub_kind: string; market_id?: number | null; account?: string | null }]

/** The events of a group as stored (EventGroupRow.events), in seq order. */
export const parseEventGroup = (stored: StoredGroupEvents): GroupedEvent[] => JSON.parse(groupEventsJson(stored)) as GroupedEvent[]

/**
 * A block's events (seq order) in groups, one per envelope that raised any, ordered by envelope
 * index. The bodies go in as the JSON text they already are: the write costs a concatenation.
 */
export function eventGroupsOf(events: readonly StoredEvent[]): EventGroupRow[] {
  const byEnvelope = new Map<number, { height: number; firstSeq: number; lastSeq: number; fills: number; parts: string[] }>()
  for (const e of events) {
    let group = byEnvelope.get(e.envelopeIdx)
    if (group === undefined) {
      group = { height: e.height, firstSeq: e.seq, lastSeq: e.seq, fills: 0, parts: [] }
      byEnvelope.set(e.envelopeIdx, group)
    }
    group.lastSeq = e.seq
    if (e.subKind === 'Filled') group.fills++
    group.parts.push(`[${e.seq},${e.bodyJson}]`)
  }
  return [...byEnvelope]
    .sort(([a], [b]) => a - b)
    .map(([envelopeIdx, g]) => ({
      height: g.height,
      envelopeIdx,
      firstSeq: g.firstSeq,
      lastSeq: g.lastSeq,
      fills: g.fills,
      events: storedGroupEvents(`[${g.parts.join(',')}]`),
    }))
}

/** The columns of an event that its body holds too: every body carries all of its event's fields. */
export function eventFields(body: object): { kind: string; subKind: string; marketId: number | null; account: string | null } {
  const b = body as GroupedEvent[1]
  return { kind: b.kind, subKind: b.sub_kind, marketId: b.market_id ?? null, account: b.account ?? null }
}

/**
 * The events of one group, in seq order. A body is written back to JSON text: the same text as
 * stored, since JSON.stringify wrote it and keeps the key order.
 */
export function eventsOfGroup(height: number, envelopeIdx: number, stored: StoredGroupEvents): StoredEvent[] {
  return parseEventGroup(stored).map(([seq, body]) => ({
    height,
    seq,
    envelopeIdx,
    ...eventFields(body),
    bodyJson: JSON.stringify(body),
  }))
}

/** Events of one block's groups in seq order (its begin-hook events sit in the last group, under the envelope count). */
export function inSeqOrder<E extends { readonly seq: number }>(events: E[]): E[] {
  return events.sort((a, b) => a.seq - b.seq)
}

/**
 * The events of groups read block by block (ascending or descending heights), in chain order within
 * each block, seq ascending or, newestFirst, descending: a block's groups come by envelope index,
 * and its own events (begin and end hooks) sit together in the last one.
 */
export function* inChainOrder<E extends { readonly height: number; readonly seq: number }>(
  events: Iterable<E>,
  newestFirst = false,
): IterableIterator<E> {
  let block: E[] = []
  const ordered = () => (newestFirst ? block.sort((a, b) => b.seq - a.seq) : inSeqOrder(block))
  for (const e of events) {
    if (block.length > 0 && block[0]!.height !== e.height) {
      yield* ordered()
      block = []
    }
    block.push(e)
  }
  yield* ordered()
}
