// The mempool: admitted envelopes waiting for a block, FIFO, bounded, with the (signer, nonce)
// pairs in flight so a second envelope with the same nonce is refused at admission.

import type { ActionResult } from './action-result.ts'
import type { AdmittedEnvelope } from './admission.ts'

export interface PendingTx {
  readonly envelope: AdmittedEnvelope
  readonly resolve: (result: ActionResult) => void
}

export class Mempool {
  /** Waiting envelopes from `head` on; slots before it are emptied as they are taken. */
  private queue: (PendingTx | undefined)[] = []
  private head = 0
  private readonly inFlight = new Set<string>()

  /** capacity: envelopes waiting at most (a full mempool refuses with -32000). */
  constructor(readonly capacity: number) {}

  get size(): number {
    return this.queue.length - this.head
  }

  has(signer: string, nonce: number): boolean {
    return this.inFlight.has(`${signer}:${nonce}`)
  }

  /** Adds an envelope; false when full. */
  add(tx: PendingTx): boolean {
    if (this.size >= this.capacity) return false
    this.queue.push(tx)
    this.inFlight.add(`${tx.envelope.signer}:${tx.envelope.nonce}`)
    return true
  }

  /** Takes up to max envelopes in arrival order. Their nonces stay in flight until release(). */
  take(max: number): PendingTx[] {
    const end = Math.min(this.queue.length, this.head + max)
    const out = this.queue.slice(this.head, end) as PendingTx[]
    // A taken slot would keep its envelope and, through the resolved reply promise, the block's
    // results alive until the next compaction: thousands of blocks' events at a low rate.
    this.queue.fill(undefined, this.head, end)
    this.head = end
    if (this.head === this.queue.length) {
      this.queue.length = 0
      this.head = 0
    } else if (this.head > 4096 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head)
      this.head = 0
    }
    return out
  }

  /** Forgets the in-flight nonces of envelopes whose block is committed. */
  release(txs: readonly PendingTx[]): void {
    for (const tx of txs) this.inFlight.delete(`${tx.envelope.signer}:${tx.envelope.nonce}`)
  }

  /** Empties the mempool (shutdown), returning what was waiting. */
  drain(): PendingTx[] {
    const out = this.take(this.size)
    this.release(out)
    return out
  }
}
