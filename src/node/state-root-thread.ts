// The state root of the blocks this node produces, on a thread of its own. The block thread encodes
// the leaves a block changed (foldDirtyLeaves into a LeafChangeWriter: the part that reads the
// state) and hands the bytes over; the thread, which holds the block's StateHash, digests them,
// expands their vectors and sums them into the accumulator (the costly part) while the block thread
// builds and inserts the block's rows; the block thread then waits for the root, which its header
// needs. Each block's root is waited for before the next block starts, so roots come in block order.
//
// The bytes go through a ring of shared memory, a chunk (a few hundred leaves) at a time, so the
// thread starts on the first before the last is encoded; a message says where each chunk lies. A
// buffer transferred with each chunk instead left the thread a heap of dead buffers that its
// collector, idle between blocks, did not return: 1,012 MiB resident for 1,000,000 resting orders
// against 766 without the thread (scripts/bench/memory.ts).
//
// A node started with it (the stateRootThread option) moves its hash here when it starts producing,
// or earlier in a long replay of its stored chain (chain-node.ts REPLAY_THREAD_MIN_ENVELOPES); from
// then on every block's root is folded here: the blocks it replays (while the block thread executes
// the next one), follows and produces. The waits are Atomics.wait on shared memory, not messages:
// the block thread must not run other tasks while a block is half built.

import type { ChainState, LeafSink, StateHashContents } from '../chain/index.ts'
import { foldDirtyLeaves, LeafChangeWriter } from '../chain/index.ts'

/**
 * The thread's file: beside this module when run from source; in a compiled binary an entrypoint
 * of its own (compile.sh), found by its path from src/.
 */
const workerUrl = () =>
  import.meta.url.startsWith('file:///$bunfs/') ? './node/state-root-worker.ts' : new URL('./state-root-worker.ts', import.meta.url).href

/**
 * Control words of the shared memory: blocks folded so far; whether the thread failed; whether it
 * has the hash; how many bytes of the current block's changes it has read.
 */
export const FOLDED = 0
export const FAILED = 1
export const READY = 2
export const CONSUMED = 3
const CONTROL_WORDS = 4
const ROOT_BYTES = 32
/** An error message written by the thread, UTF-8, cut at this many bytes. */
export const MESSAGE_BYTES = 1_024
/** The ring the changes travel in; a chunk larger than it (a leaf of megabytes) is sent in a message of its own. */
export const RING_BYTES = 4 * 1024 * 1024

/** Shared memory between the two: the control words, the root, a failure's message, the ring. */
export function sharedLayout(buffer: SharedArrayBuffer) {
  return {
    control: new Int32Array(buffer, 0, CONTROL_WORDS),
    root: new Uint8Array(buffer, ROOT_AT, ROOT_BYTES),
    message: new Uint8Array(buffer, MESSAGE_AT, MESSAGE_BYTES),
    ring: new Uint8Array(buffer, RING_AT, RING_BYTES),
  }
}
const ROOT_AT = CONTROL_WORDS * 4
const MESSAGE_AT = ROOT_AT + ROOT_BYTES
const RING_AT = MESSAGE_AT + MESSAGE_BYTES
const SHARED_BYTES = RING_AT + RING_BYTES

export type ToStateRootThread =
  | { readonly type: 'init'; readonly shared: SharedArrayBuffer; readonly contents: StateHashContents }
  /** The block's changes at [start, end) of the block's byte stream, in the ring at start % RING_BYTES. */
  | { readonly type: 'fold'; readonly start: number; readonly end: number }
  /** A chunk too large for the ring, in a buffer of its own. */
  | { readonly type: 'foldLarge'; readonly changes: Uint8Array }
  /** The block's changes are all sent: its root is wanted. */
  | { readonly type: 'root' }

/**
 * The longest wait for one block's root before the node halts: a thread that died while the block
 * thread waits (its exit cannot reach that thread then) is only noticed this way. Far above any
 * block's work: a leaf costs the thread a few microseconds (about 3 ms for the 500 leaf changes of
 * a 400-action block, docs/performance.md).
 */
const ROOT_TIMEOUT_MS = 60_000
/** The longest wait for the thread to load and take the hash when the node starts producing. */
const START_TIMEOUT_MS = 10_000

export class StateRootThread {
  private readonly worker: Worker
  private readonly shared = new SharedArrayBuffer(SHARED_BYTES)
  private readonly layout = sharedLayout(this.shared)
  /** The block's changes leave in chunks as they are encoded, so the thread starts on the first at once. */
  private readonly writer = new LeafChangeWriter((records) => this.send(records))
  /** Blocks handed over; FOLDED reaches it when the thread has folded them all. */
  private handed = 0
  /** Bytes of the current block's changes written to the ring (the stream position, not the ring's). */
  private written = 0
  /** Why the thread is gone, once its error or exit reached this thread (between blocks: not while it waits). */
  private gone: string | undefined

  /** Moves state's hash to a new thread: from now on only this computes the state's roots. */
  constructor(state: ChainState) {
    const contents = state.hash.detach()
    this.worker = new Worker(workerUrl())
    this.worker.addEventListener('error', (event) => {
      this.gone ??= `it failed: ${event.message}`
    })
    this.worker.addEventListener('close', () => {
      this.gone ??= 'it exited'
    })
    const transfer = [
      contents.acc.buffer,
      contents.digests.buffer,
      contents.numbered.keys.buffer,
      contents.numbered.cells.buffer,
      contents.numbered.slab.buffer,
    ]
    this.worker.postMessage({ type: 'init', shared: this.shared, contents } satisfies ToStateRootThread, transfer)
    // Waited for here, so that a thread that cannot load stops the start rather than the first block a minute later.
    try {
      this.waitFor(READY, (ready) => ready !== 0, START_TIMEOUT_MS, 'did not start')
    } catch (err) {
      this.stop()
      throw err
    }
  }

  /** Encodes the leaves the block changed and hands them to the thread, which starts on the root. */
  fold(state: ChainState): void {
    this.foldChanges((sink) => foldDirtyLeaves(state, sink))
  }

  /** Hands the thread the changes `write` makes on a sink, then asks for the root (fold's work). */
  foldChanges(write: (sink: LeafSink) => void): void {
    const { control } = this.layout
    // Known gone: said at once, not after ROOT_TIMEOUT_MS of waiting for an answer that cannot come.
    if (this.gone !== undefined) throw new Error(`the state-root thread is gone: ${this.gone}`)
    // The last block's root was waited for, so the thread has read the ring to its end: start over.
    if (Atomics.load(control, FOLDED) !== this.handed) throw new Error("a block's changes before the last block's root")
    this.written = 0
    Atomics.store(control, CONSUMED, 0)
    write(this.writer)
    this.writer.flush()
    this.handed++
    this.worker.postMessage({ type: 'root' } satisfies ToStateRootThread)
  }

  /** The root after the last block handed over, once the thread has it; throws when it failed. */
  waitRoot(): Uint8Array {
    this.waitFor(FOLDED, (folded) => folded === this.handed, ROOT_TIMEOUT_MS, 'gave no root')
    return this.layout.root.slice()
  }

  stop(): void {
    this.gone ??= 'stopped'
    void this.worker.terminate()
  }

  /** Copies a chunk into the ring (waiting for room while the thread reads older chunks) and tells the thread. */
  private send(records: Uint8Array): void {
    if (records.length > RING_BYTES) {
      this.worker.postMessage({ type: 'foldLarge', changes: records.slice() } satisfies ToStateRootThread)
      return
    }
    // A chunk never wraps around the ring's end: it starts the next lap instead.
    const offset = this.written % RING_BYTES
    const start = offset + records.length > RING_BYTES ? this.written + RING_BYTES - offset : this.written
    const end = start + records.length
    this.waitFor(CONSUMED, (consumed) => end - consumed <= RING_BYTES, ROOT_TIMEOUT_MS, 'read no changes')
    this.layout.ring.set(records, start % RING_BYTES)
    this.written = end
    this.worker.postMessage({ type: 'fold', start, end } satisfies ToStateRootThread)
  }

  /** Waits until the control word satisfies done, or throws when the thread failed or the time ran out. */
  private waitFor(word: number, done: (value: number) => boolean, timeoutMs: number, what: string): void {
    const { control } = this.layout
    const deadline = performance.now() + timeoutMs
    for (;;) {
      if (Atomics.load(control, FAILED) !== 0) throw new Error(`the state-root thread failed: ${this.failure()}`)
      const value = Atomics.load(control, word)
      if (done(value)) return
      const left = deadline - performance.now()
      if (left <= 0) throw new Error(`the state-root thread ${what} in ${timeoutMs} ms`)
      Atomics.wait(control, word, value, left)
    }
  }

  private failure(): string {
    const bytes = this.layout.message
    const end = bytes.indexOf(0)
    return new TextDecoder().decode(bytes.slice(0, end < 0 ? bytes.length : end))
  }
}
