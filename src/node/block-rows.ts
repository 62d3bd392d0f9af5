// The stored rows of a block the node produces: its envelopes' rows, its events' rows and their body
// objects (views.ts), built in two parts when the block is executed ahead of its tick (ChainNode):
// those of the envelopes applied by the block's lead time first, inserted into the block store then,
// and the rest at the tick. Together they are the rows of the block built at once, in order
// (execute-ahead.test.ts re-executes stored blocks and compares).
import type { BlockExecution, BlockResult, ChainState, EnvelopeResult } from '../chain/index.ts'
import { eventEnvelopeIndexes } from '../chain/index.ts'
import type { EventBody } from '../wire/events/index.ts'
import type { StoredEnvelope, StoredEvent } from '../wire/stored-block.ts'
import type { PendingTx } from './mempool.ts'
import { storedEventRange, storedEventsAndBodies } from './views.ts'

/** Rows to insert: the block's whole rows, or those not inserted yet. */
export interface RowsPart {
  readonly envelopes: StoredEnvelope[]
  readonly events: StoredEvent[]
}

/** A produced block's stored row of its envelope envelopeIdx. */
export function envelopeRow(height: number, envelopeIdx: number, tx: PendingTx, r: EnvelopeResult): StoredEnvelope {
  return {
    height,
    envelopeIdx,
    txHash: tx.envelope.txHash,
    signer: tx.envelope.signer,
    nonce: tx.envelope.nonce,
    actionKind: tx.envelope.kind,
    marketId: r.marketId,
    actionJson: tx.envelope.actionJson,
    signatureJson: tx.envelope.signatureJson,
    status: r.status,
    reasonJson: r.reason === null ? null : JSON.stringify(r.reason),
  }
}

/** The rows of an open block, built as its envelopes are applied and finished at its tick. */
export class BlockRows {
  /** The rows of the envelopes built so far, their events' rows and bodies in seq order. */
  private readonly envelopes: StoredEnvelope[] = []
  private readonly events: StoredEvent[] = []
  private readonly bodies: EventBody[] = []

  /**
   * The rows of the envelopes applied since the last call (none before the block's end hooks ran):
   * returned for the block store. Their events follow the begin hooks' (block-level, whose envelope
   * index is the envelope count, known at the tick) and come before any end hook's.
   */
  addApplied(state: ChainState, execution: BlockExecution, txs: readonly PendingTx[]): RowsPart {
    const { height, results, events } = execution
    const from = this.envelopes.length
    const envelopes: StoredEnvelope[] = []
    if (from === results.length) return { envelopes, events: [] }
    for (let i = from; i < results.length; i++) envelopes.push(envelopeRow(height, i, txs[i]!, results[i]!))
    let envelope = from
    const built = storedEventRange(state, height, events, results[from]!.firstEvent, events.length, (seq) => {
      while (seq >= results[envelope]!.firstEvent + results[envelope]!.eventCount) envelope++
      return envelope
    })
    for (const e of envelopes) this.envelopes.push(e)
    for (const e of built.events) this.events.push(e)
    for (const b of built.bodies) this.bodies.push(b)
    return { envelopes, events: built.events }
  }

  /**
   * The block's rows once it is closed (executed: its end hooks ran): all of them in order, with the
   * events' bodies, and `rest`, those addApplied did not return.
   */
  finish(
    state: ChainState,
    height: number,
    executed: Omit<BlockResult, 'stateRoot'>,
    txs: readonly PendingTx[],
  ): RowsPart & { readonly bodies: EventBody[]; readonly rest: RowsPart } {
    const count = executed.envelopes.length
    const ahead = this.envelopes.length
    const envelopes = this.envelopes
    for (let i = ahead; i < count; i++) envelopes.push(envelopeRow(height, i, txs[i]!, executed.envelopes[i]!))
    if (ahead === 0) {
      const { events, bodies } = storedEventsAndBodies(state, height, executed)
      return { envelopes, events, bodies, rest: { envelopes, events } }
    }
    const envelopeOf = eventEnvelopeIndexes(executed)
    const indexOf = (seq: number) => envelopeOf[seq] ?? count
    const beginEnd = executed.envelopes[0]!.firstEvent
    const begin = storedEventRange(state, height, executed.events, 0, beginEnd, indexOf)
    const rest = storedEventRange(state, height, executed.events, beginEnd + this.events.length, executed.events.length, indexOf)
    return {
      envelopes,
      events: begin.events.concat(this.events, rest.events),
      bodies: begin.bodies.concat(this.bodies, rest.bodies),
      rest: { envelopes: envelopes.slice(ahead), events: begin.events.concat(rest.events) },
    }
  }
}
