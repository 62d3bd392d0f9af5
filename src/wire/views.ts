// The wire views of events and envelopes (docs/history-api.md#blocks-envelopes-transactions) and
// the reply of /action (docs/protocol.md#replies): the one declaration the node writes, the client
// reads and the tests assert on.

import type { EventBodyOf, EventSubKind } from './events/index.ts'

/** The fields of an EventView besides `sub_kind` and `body`. */
interface EventViewFields {
  height: number
  seq: number
  /** The envelope that caused the event; the block's envelope_count for an event of the block itself. */
  envelope_idx: number
  kind: string
  market_id: number | null
  symbol: string | null
  account: string | null
}

/**
 * EventView (docs/history-api.md#blocks-envelopes-transactions): one event of a block; `body`
 * carries decimal strings at the market's precision, its fields by `sub_kind` (docs/events.md). A
 * union by `sub_kind`: checking `e.sub_kind` (or `e.body.sub_kind`) narrows `e.body` to that
 * event's fields.
 */
export type EventView = { [S in EventSubKind]: EventViewFields & { sub_kind: S; body: EventBodyOf<S> } }[EventSubKind]

/**
 * The signer the admin audit log (getAdminAuditLog) names for an event the chain raised itself (a
 * block hook: a quote-stale halt or resume, a reject storm), which no envelope carries: the zero
 * address, the block producer's marker (docs/rpc.md#getadminauditlog).
 */
export const BLOCK_PRODUCER_SIGNER = '0x0000000000000000000000000000000000000000'

/** EnvelopeView (docs/history-api.md#blocks-envelopes-transactions): one signed transaction of a block with its status and reason. */
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
