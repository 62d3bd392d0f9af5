// What a derive module sees and does. Each derived table has one module: it names the event
// sub_kinds it reads and turns each into rows keyed by (height, seq), so a new event kind of the
// chain is one new module (or one more sub_kind of an existing one) in derive/registry.ts.
import type { Database } from 'bun:sqlite'
import type { EventBody } from '../../wire/events/index.ts'
import type { OrderArchiveBatch } from '../tables/orders.ts'

/** An ingested event with what its block and envelope add. Switch on body.sub_kind to read its fields. */
export interface DeriveEvent {
  readonly height: number
  readonly seq: number
  /** The envelope that caused it, or the block's envelope_count for an event of the block itself. */
  readonly envelopeIdx: number
  readonly timestampMs: number
  readonly kind: string
  readonly subKind: string
  readonly marketId: number | null
  readonly account: string | null
  readonly body: EventBody
  /** Numbers parsed from the body by the first module that needs them (derive/filled.ts). */
  memo?: unknown
}

export interface BlockRef {
  readonly height: number
  readonly timestampMs: number
}

/** One batch's worth of a derive module, created per transaction. */
export interface BlockDeriver {
  /** Called for each event of a sub_kind the module reads, in chain order. */
  event(e: DeriveEvent): void
  /** Called after each block's events (per-block aggregates flush here). */
  endBlock?(block: BlockRef): void
  /** Called once at the end of the batch, inside its transaction (rows buffered for sorted writes). */
  endBatch?(): void
}

/** What the modules of one batch share: the order archive's writes and reads (tables/orders.ts). */
export interface DeriveBatch {
  readonly orders: OrderArchiveBatch
}

export interface DeriveModule {
  /** The table the module writes. */
  readonly table: string
  /** Event sub_kinds it reads; '*' reads every event. */
  readonly subKinds: readonly string[] | '*'
  readonly create: (db: Database, batch: DeriveBatch) => BlockDeriver
}
