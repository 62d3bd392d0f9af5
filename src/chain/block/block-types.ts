// What a block is to the chain and what applying it gives (apply.ts): the block and its envelopes as
// the edge hands them over, the per-envelope results, the events and the state root. Types only.
import type { ChainEvent } from '../core/events.ts'
import type { RejectReason } from '../core/reasons.ts'

/** A signed action as the block carries it; the signer was recovered at admission. */
export interface EnvelopeInput {
  readonly signer: string
  readonly nonce: number
  /** The action object exactly as signed: one key, the action kind. */
  readonly action: Record<string, unknown>
  readonly txHash: string
  /**
   * The action's kind and its payload as the edge validated and prepared them (the node's
   * admission and replay; src/node/edge-envelope.ts atTheEdge), so applying the envelope reads neither
   * through the action's wrapper object, whose first touch is a cache miss in a large block. For
   * the busy order kinds the payload's fields are the envelope's own and `payload` is the envelope
   * (one cold object read instead of two; 6 alternated pairs: median 1.08M -> 1.12M ops/s).
   * Absent (tests, tools), both are read from `action`, with the same outcome.
   */
  readonly kind?: string
  readonly payload?: Record<string, unknown>
}

export interface BlockInput {
  readonly height: number
  readonly timestampMs: number
  readonly envelopes: readonly EnvelopeInput[]
}

export interface EnvelopeResult {
  readonly status: 'accepted' | 'kept-reject'
  readonly reason: { readonly code: RejectReason; readonly message: string } | null
  readonly actionKind: string
  readonly marketId: number | null
  /** Index of the envelope's first event in BlockResult.events, and how many it has. */
  readonly firstEvent: number
  readonly eventCount: number
}

export interface BlockResult {
  readonly envelopes: EnvelopeResult[]
  /** The block's events in sequence order: an event's seq is its index. Kept flat, so a block of
   * many events builds no wrapper per event; an envelope's events are the run its firstEvent and
   * eventCount name (eventEnvelopeIndexes), the rest are block-level (begin and end hooks). */
  readonly events: ChainEvent[]
  readonly stateRoot: Uint8Array
}
