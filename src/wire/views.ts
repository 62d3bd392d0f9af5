// The wire views of events and envelopes (spec §2.3) and the reply of /action (PROTOCOL §3): the one
// declaration the node writes, the client reads and the tests assert on.

import type { EventBodyOf, EventSubKind } from './events/index.ts'

/** The fields of an EventView besides `sub_kind` and `body`. */
interface EventViewFields {
  height: number
  seq: number
  envelope_idx: number | null
  kind: string
  market_id: number | null
  symbol: string | null
  account: string | null
}

/**
 * EventView (spec §2.3): one event of a block; `body` carries decimal strings at the market's
 * precision, its fields by `sub_kind` (docs/events.md). A union by `sub_kind`: checking
 * `e.sub_kind` (or `e.body.sub_kind`) narrows `e.body` to that event's fields.
 */
export type EventView = { [S in EventSubKind]: EventViewFields & { sub_kind: S; body: EventBodyOf<S> } }[EventSubKind]

/** EnvelopeView (spec §2.3): one signed transaction of a block with its status and reason. */
export interface EnvelopeView {
  height: number
  envelope_idx: number
  tx_hash: string
  signer: string
  nonce: number
  status: string
  action_kind: string
  market_id: number | null
  symbol: string | null
  action: unknown
  reason: unknown
}

/** The result of /action for an envelope that reached a block: accepted with its events, or kept-reject with its reason. */
export type ActionReply =
  | { status: 'accepted'; tx_hash: string; height: number; envelope_idx: number; events: EventView[] }
  | { status: 'kept-reject'; tx_hash: string; height: number; envelope_idx: number; reason: { code: string; message: string } }
