// A committed block as the block store keeps it and hands it to its listeners (the hot feed, the
// history index): header, envelopes with status and reason, and events with their EventView body
// as JSON text. Declared here, beside the wire views, so the node and the feed share one shape.

/** The block store's file in a data directory (its -wal and -shm beside it): node/block-store.ts writes it, the history index attaches it. */
export const BLOCK_STORE_FILE = 'chain.sqlite'

/** A block header: its place in the chain, time, counts and state root. */
export interface StoredBlockHeader {
  readonly height: number
  readonly parent: string
  readonly digest: string
  readonly timestampMs: number
  readonly envelopeCount: number
  readonly eventCount: number
  readonly stateRoot: string
}

/** A signed transaction of a block with its outcome. */
export interface StoredEnvelope {
  readonly height: number
  readonly envelopeIdx: number
  readonly txHash: string
  readonly signer: string
  readonly nonce: number
  readonly actionKind: string
  readonly marketId: number | null
  /** The action object as signed, JSON text (key order preserved). */
  readonly actionJson: string
  readonly signatureJson: string
  readonly status: 'accepted' | 'kept-reject'
  /** {code, message} JSON when kept-reject. */
  readonly reasonJson: string | null
}

/**
 * An event of a block in sequence order. envelopeIdx is the envelope that caused it, or for an
 * event of the block itself (its begin and end hooks) the block's envelope count. Rows written
 * before that rule hold NULL there; the stores' reads map it to the envelope count.
 */
export interface StoredEvent {
  readonly height: number
  readonly seq: number
  readonly envelopeIdx: number
  readonly kind: string
  readonly subKind: string
  readonly marketId: number | null
  readonly account: string | null
  /** EventView body JSON (decimal strings). */
  readonly bodyJson: string
}

/** A committed block: header, envelopes and events. */
export interface StoredBlock {
  readonly header: StoredBlockHeader
  readonly envelopes: StoredEnvelope[]
  readonly events: StoredEvent[]
}
