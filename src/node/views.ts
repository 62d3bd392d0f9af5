// Stored rows <-> wire views of events and envelopes
// (docs/history-api.md#blocks-envelopes-transactions).
import { type BlockResult, type ChainEvent, type ChainState, eventEnvelopeIndexes } from '../chain/index.ts'
import { eventBody } from '../wire/event-view.ts'
import type { EventBody, EventSubKind } from '../wire/events/index.ts'
import type { StoredEnvelope, StoredEvent } from '../wire/stored-block.ts'
import type { EnvelopeView, EventView } from '../wire/views.ts'

/**
 * The stored form of a block's events; bodies carry decimal strings at each market's precision.
 * An event the block raised itself (a begin or end hook: no envelope caused it) gets the block's
 * envelope count as its envelope_idx, an index no envelope has (docs/history-api.md#blocks-envelopes-transactions).
 */
export function storedEvents(state: ChainState, height: number, result: Pick<BlockResult, 'envelopes' | 'events'>): StoredEvent[] {
  return storedEventsAndBodies(state, height, result).events
}

/**
 * storedEvents with each event's body object too (bodies[seq], what its bodyJson is the JSON of):
 * the block producer's /action replies take their bodies from it instead of parsing the JSON it
 * just wrote (a JSON.parse per event of a block, scripts/bench/replay.ts).
 */
export function storedEventsAndBodies(
  state: ChainState,
  height: number,
  result: Pick<BlockResult, 'envelopes' | 'events'>,
): { events: StoredEvent[]; bodies: EventBody[] } {
  const envelopeOf = eventEnvelopeIndexes(result)
  const blockLevel = result.envelopes.length
  return storedEventRange(state, height, result.events, 0, result.events.length, (seq) => envelopeOf[seq] ?? blockLevel)
}

/**
 * storedEventsAndBodies of a block's events from seq `from` to `to` (excluded), each with the
 * envelope index envelopeIdxOf gives: the producer builds the rows of a block's first envelopes
 * before the block ends (ChainNode's execution ahead of the tick), the rest when it ends.
 */
export function storedEventRange(
  state: ChainState,
  height: number,
  blockEvents: readonly ChainEvent[],
  from: number,
  to: number,
  envelopeIdxOf: (seq: number) => number,
): { events: StoredEvent[]; bodies: EventBody[] } {
  const bodies: EventBody[] = []
  const events: StoredEvent[] = []
  for (let seq = from; seq < to; seq++) {
    const event = blockEvents[seq]!
    const marketId = event.market_id ?? null
    const market = marketId === null ? undefined : state.markets.get(marketId)
    const body = eventBody(event, market)
    bodies.push(body)
    events.push({
      height,
      seq,
      envelopeIdx: envelopeIdxOf(seq),
      kind: event.kind,
      subKind: event.sub_kind,
      marketId,
      account: event.account ?? null,
      bodyJson: JSON.stringify(body),
    })
  }
  return { events, bodies }
}

export type SymbolOf = (marketId: number | null) => string | null

/** body: the event's body when the caller has it as an object (storedEventsAndBodies), else parsed from the row. */
export function eventView(e: StoredEvent, symbolOf: SymbolOf, body?: EventBody): EventView {
  // The row's sub_kind is its body's (storedEvents writes both from one event), which the EventView union pairs.
  return {
    height: e.height,
    seq: e.seq,
    envelope_idx: e.envelopeIdx,
    kind: e.kind,
    sub_kind: e.subKind as EventSubKind,
    market_id: e.marketId,
    symbol: symbolOf(e.marketId),
    account: e.account,
    body: body ?? (JSON.parse(e.bodyJson) as EventBody),
  } as EventView
}

/**
 * The events' views as JSON, comma-separated: JSON.stringify(eventView(e, symbolOf)) of each, from
 * the row's bodyJson, which is JSON.stringify of its body (the same keys in the same order), without
 * serializing the body again. The fields from kind to account are written once for each distinct
 * (kind, sub kind, market, account) of the last two, and the text is built by appending: a 50-order
 * batch's events (one account and market, OrderAccepted and OrderDone in turn) took 35-47 µs
 * instead of 113-121 as JSON.stringify of those fields for every event, joined; a single order's
 * about the same (1.2-1.5 µs).
 */
export function eventViewsJson(events: readonly StoredEvent[], symbolOf: SymbolOf): string {
  let a: StoredEvent | undefined
  let aFields = ''
  let b: StoredEvent | undefined
  let bFields = ''
  let out = ''
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!
    let fields: string
    if (a !== undefined && sameFields(a, e)) fields = aFields
    else if (b !== undefined && sameFields(b, e)) fields = bFields
    else {
      fields = `"kind":${JSON.stringify(e.kind)},"sub_kind":${JSON.stringify(e.subKind)},"market_id":${e.marketId},"symbol":${JSON.stringify(symbolOf(e.marketId))},"account":${JSON.stringify(e.account)}`
      b = a
      bFields = aFields
      a = e
      aFields = fields
    }
    out += `${i === 0 ? '' : ','}{"height":${e.height},"seq":${e.seq},"envelope_idx":${e.envelopeIdx},${fields},"body":${e.bodyJson}}`
  }
  return out
}

const sameFields = (x: StoredEvent, y: StoredEvent) =>
  x.subKind === y.subKind && x.account === y.account && x.marketId === y.marketId && x.kind === y.kind

export function envelopeView(e: StoredEnvelope, symbolOf: SymbolOf): EnvelopeView {
  return {
    height: e.height,
    envelope_idx: e.envelopeIdx,
    tx_hash: e.txHash,
    signer: e.signer,
    nonce: e.nonce,
    status: e.status,
    action_kind: e.actionKind,
    market_id: e.marketId,
    symbol: symbolOf(e.marketId),
    action: JSON.parse(e.actionJson),
    reason: e.reasonJson === null ? null : JSON.parse(e.reasonJson),
  }
}

/** Symbol lookup over the live market table (symbols are resolved at read time). */
export function symbolLookup(state: ChainState): SymbolOf {
  return (id) => (id === null ? null : (state.markets.get(id)?.symbol ?? null))
}
