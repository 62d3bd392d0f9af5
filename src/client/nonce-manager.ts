// Per-signer nonces inside the node's window (docs/protocol.md#nonces). The node takes a nonce n
// while lowest_unused <= n < lowest_unused + 64, in any order inside that window; a nonce outside
// it, used or already pending is refused with NONCE_REPLAY and consumes nothing.
//
// The manager hands nonces out and keeps the ones still outstanding: in flight (handed out, no
// reply yet) or given back after a refusal (free again, handed out first). The node's
// lowest_unused is never above the lowest outstanding nonce, so the manager never hands out a
// nonce 64 or more above it: when the window is full, take() waits, first come first served,
// until the oldest outstanding action completes. A slow request therefore holds later ones back
// instead of letting them run out of the window and be refused.
//
// After a NONCE_REPLAY (another client used the key, or an action whose reply was lost left a
// gap) the manager re-reads the signer's nonce record with getNonce (the lowest unused nonce, the
// same number getAccount reports, and the used nonces above it; it also answers for agent keys)
// and hands out from the lowest unused nonce again, skipping the used ones and its own in flight.
import type { QueryResult } from './rpc-client.ts'

/** The nonce window of the node (docs/protocol.md#nonces; LIMITS.nonceWindow in src/chain). */
export const NONCE_WINDOW = 64

/** What the manager needs from the node: getNonce. RpcClient has it. */
export interface NonceSource {
  query<T = unknown>(method: string, params?: Record<string, unknown>): Promise<QueryResult<T>>
}

/** getNonce's data (docs/rpc.md). */
interface NonceRecord {
  nonce: number
  used_above: number[]
}

export class NonceManager {
  /** The lowest nonce never handed out since the last resync; undefined before the first one. */
  private next: number | undefined
  /** Refused nonces (not consumed), ascending: handed out again before `next`. */
  private returned: number[] = []
  /** Nonces handed out with no outcome yet, and the resync epoch each was handed out in. */
  private readonly inFlight = new Map<number, number>()
  /** Nonces at or above `next` the node reported used at the last resync. */
  private used = new Set<number>()
  /** take() calls waiting for the window, oldest first. */
  private readonly waiting: { resolve: (nonce: number) => void; reject: (err: unknown) => void }[] = []
  private syncing: Promise<void> | undefined
  /** Counts completed resyncs. */
  private epoch = 0

  constructor(
    private readonly rpc: NonceSource,
    readonly address: string,
    readonly window = NONCE_WINDOW,
  ) {}

  /** Nonces handed out and not completed yet. */
  get inFlightCount(): number {
    return this.inFlight.size
  }

  /** take() calls waiting for a slot in the window. */
  get waitingCount(): number {
    return this.waiting.length
  }

  /**
   * The next nonce to sign with, once the window has room for it. The caller reports the
   * outcome with complete, giveBack or replayed; until then the nonce counts as in flight.
   */
  take(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject })
      if (this.next === undefined && this.syncing === undefined) this.resync().catch(() => {})
      else this.pump()
    })
  }

  /**
   * The action with this nonce got its reply (accepted or kept-reject: the nonce is consumed), or
   * its outcome is unknown (transport failure). Frees its slot; if it was the oldest outstanding
   * nonce, waiting take() calls move on. An unknown outcome that left a gap shows up later as a
   * NONCE_REPLAY, and the resync then hands the gap out again.
   */
  complete(nonce: number): void {
    this.inFlight.delete(nonce)
    this.pump()
  }

  /** The action with this nonce was refused at admission (not consumed): hand it out again first. */
  giveBack(nonce: number): void {
    if (!this.inFlight.delete(nonce)) return
    if (this.next !== undefined && nonce < this.next && !this.returned.includes(nonce)) {
      this.returned.push(nonce)
      this.returned.sort((a, b) => a - b)
    }
    this.pump()
  }

  /**
   * The action with this nonce was refused with NONCE_REPLAY: resyncs with the node, unless a
   * resync finished after this nonce was handed out (then the refusal is old news).
   */
  async replayed(nonce: number): Promise<void> {
    const epoch = this.inFlight.get(nonce)
    this.inFlight.delete(nonce)
    if (epoch === undefined || epoch === this.epoch) await this.resync()
    else this.pump()
  }

  /**
   * Re-reads the signer's lowest unused nonce and used nonces above it; hands out from there.
   * Concurrent calls share one read. Throws when the node cannot be read (the nonces stay as they
   * were; before the first successful read, waiting take() calls fail with the same error).
   */
  resync(): Promise<void> {
    if (this.syncing !== undefined) return this.syncing
    const sync = (async () => {
      try {
        const r = await this.rpc.query<NonceRecord>('getNonce', { address: this.address })
        this.next = r.data.nonce
        this.used = new Set(r.data.used_above)
        this.returned = []
        this.epoch++
      } catch (err) {
        if (this.next === undefined) for (const w of this.waiting.splice(0)) w.reject(err)
        throw err
      } finally {
        this.syncing = undefined
        this.pump()
      }
    })()
    this.syncing = sync
    return sync
  }

  /** Hands nonces to waiting take() calls while the window has room, oldest call first. */
  private pump(): void {
    if (this.next === undefined || this.syncing !== undefined) return
    while (this.waiting.length > 0) {
      const nonce = this.candidate()
      if (nonce - this.lowestOutstanding(nonce) >= this.window) return
      if (this.returned[0] === nonce) this.returned.shift()
      else this.next = nonce + 1
      this.inFlight.set(nonce, this.epoch)
      this.waiting.shift()!.resolve(nonce)
    }
  }

  /** The nonce the next take() gets: the lowest given back, else the lowest free from `next` on. */
  private candidate(): number {
    if (this.returned.length > 0) return this.returned[0]!
    let n = this.next!
    while (this.used.has(n) || this.inFlight.has(n)) n++
    return n
  }

  /** The lowest of the outstanding nonces and `candidate`. The in-flight map holds at most `window` entries. */
  private lowestOutstanding(candidate: number): number {
    let low = candidate
    for (const n of this.inFlight.keys()) if (n < low) low = n
    if (this.returned.length > 0 && this.returned[0]! < low) low = this.returned[0]!
    return low
  }
}
