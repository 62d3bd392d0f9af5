// One WebSocket connection: its sequence numbers, subscriptions and bounded outbox
// (docs/websocket.md#websocket-protocol). Frames go straight to the socket while it takes them;
// once the socket reports backpressure they wait in a FIFO outbox, flushed on drain. When the
// outbox is full its frames are dropped and one gap frame takes their place: the client must
// resynchronize. A socket that takes nothing for the send timeout is a slow consumer and is cut.
import type { WsLimits } from './limits.ts'
import type { Subscription } from './topics.ts'

/** What the connection needs of a socket (Bun's ServerWebSocket has it). */
export interface WsTransport {
  /** Bytes sent, -1 when queued behind backpressure, 0 when dropped (closed). */
  send(data: string): number
  getBufferedAmount(): number
  ping(): unknown
  close(code?: number, reason?: string): void
  terminate(): void
  /** Runs the callback with writes batched into one socket write (Bun: uWS cork). */
  cork?(callback: () => void): unknown
}

/**
 * A subscription as the connection holds it: the client's spelling (also JSON-encoded, for frames),
 * its canonical key and its meaning. Two spellings of one key are two subscriptions, each served
 * under its own name.
 */
export interface HeldTopic {
  readonly topic: string
  readonly topicJson: string
  readonly key: string
  readonly sub: Subscription
}

/**
 * Batching shared by a hub's connections (WsHub.startBatches): while it is active a connection's
 * frames wait, and the connections that have some are listed, so that ending a batch visits those
 * alone. A block's replies end and start a batch every hundred replies (ChainNode.onReplies), which
 * must not cost a visit to each of thousands of subscribed connections that have nothing.
 */
export class BatchScope {
  active = false
  /** Connections holding frames of the current batch, each once. */
  readonly holding: WsConnection[] = []

  start(): void {
    this.active = true
  }

  /** Sends every holding connection's frames, each in one corked write. */
  end(): void {
    this.active = false
    const holding = this.holding.splice(0)
    for (const conn of holding) conn.flushBatch()
  }
}

let nextConnectionId = 1

export class WsConnection {
  readonly id = nextConnectionId++
  /** The seq of the last frame handed out. */
  seq = 0
  /** By the client's topic string. */
  readonly topics = new Map<string, HeldTopic>()
  lastActivityMs: number
  /** Since when the socket has refused to take a frame (null: it takes frames). */
  blockedSinceMs: number | null = null
  /** Frames dropped for gaps, over the connection's life. */
  dropped = 0
  gaps = 0
  closed = false
  /** The client address per-IP limits count this connection's posts under (ws/routes.ts). */
  clientAddress = 'unknown'
  /** Posted actions without a reply yet (docs/websocket.md#posting-actions). */
  postsInFlight = 0
  /** Its frames of the scope's batch (a block's replies or pushes), sent together at flushBatch (one socket write). */
  private batch: ((seq: number) => string)[] | undefined
  private readonly outbox: string[] = []
  private outboxHead = 0
  private outboxBytes = 0

  constructor(
    readonly transport: WsTransport,
    private readonly limits: WsLimits,
    private readonly now: () => number,
    private readonly scope: BatchScope = new BatchScope(),
  ) {
    this.lastActivityMs = now()
  }

  get queued(): number {
    return this.outbox.length - this.outboxHead
  }

  /** Sends a frame built around the next seq: `build(seq)` must return the whole JSON text. */
  deliver(build: (seq: number) => string): void {
    if (this.closed) return
    if (this.batch !== undefined) {
      this.batch.push(build)
      return
    }
    if (this.scope.active) {
      this.batch = [build]
      this.scope.holding.push(this)
      return
    }
    this.put(build)
  }

  /** Sends the batched frames in order, corked into one write when the socket can. */
  flushBatch(): void {
    const batch = this.batch
    this.batch = undefined
    if (batch === undefined || batch.length === 0 || this.closed) return
    const send = () => {
      for (const build of batch) this.put(build)
    }
    if (this.transport.cork !== undefined) this.transport.cork(send)
    else send()
  }

  /** Seq assignment, outbox and overflow; seqs are handed out here so a gap frame never goes backwards. */
  private put(build: (seq: number) => string): void {
    if (this.closed) return
    if (this.queued > 0 || this.blockedSinceMs !== null) {
      if (this.queued >= this.limits.outboxFramesMax || this.outboxBytes >= this.limits.outboxBytesMax) this.overflow()
      this.enqueue(build(++this.seq))
      return
    }
    this.write(build(++this.seq))
  }

  /** The frame `{"seq":N,` + rest`: rest is the frame's other fields and its closing brace. */
  deliverRest(rest: string): void {
    this.deliver((seq) => `{"seq":${seq},${rest}`)
  }

  /** Tells the client frames were lost (outside the outbox): a gap frame with the next seq. */
  signalGap(): void {
    this.gaps++
    this.deliver((seq) => `{"type":"gap","seq":${seq}}`)
  }

  /** The socket can take data again: flush the outbox in order. */
  drain(): void {
    while (this.queued > 0 && !this.closed) {
      const frame = this.outbox[this.outboxHead]!
      this.outbox[this.outboxHead] = ''
      this.outboxHead++
      this.outboxBytes -= frame.length
      const r = this.transport.send(frame)
      if (r === 0) return
      if (r === -1) {
        // The socket took it into its buffer but is full again; the next frame waits for the next drain.
        this.blockedSinceMs = this.now()
        this.compact()
        return
      }
    }
    this.compact()
    if (this.queued === 0 && this.transport.getBufferedAmount() === 0) this.blockedSinceMs = null
  }

  private write(frame: string): void {
    const r = this.transport.send(frame)
    if (r === -1 && this.blockedSinceMs === null) this.blockedSinceMs = this.now()
  }

  private enqueue(frame: string): void {
    this.outbox.push(frame)
    this.outboxBytes += frame.length
  }

  /** Drops every waiting frame; a gap frame with the next seq takes their place. */
  private overflow(): void {
    this.dropped += this.queued
    this.gaps++
    this.outbox.length = 0
    this.outboxHead = 0
    this.outboxBytes = 0
    this.enqueue(`{"type":"gap","seq":${++this.seq}}`)
  }

  private compact(): void {
    if (this.outboxHead === 0) return
    if (this.outboxHead === this.outbox.length) {
      this.outbox.length = 0
      this.outboxHead = 0
    } else if (this.outboxHead > 1024 && this.outboxHead * 2 > this.outbox.length) {
      this.outbox.splice(0, this.outboxHead)
      this.outboxHead = 0
    }
  }

  close(code: number, reason: string): void {
    if (this.closed) return
    this.closed = true
    this.transport.close(code, reason)
  }

  /** Cuts the connection without a close handshake (a slow consumer cannot take one). */
  terminate(): void {
    if (this.closed) return
    this.closed = true
    this.transport.terminate()
  }
}
