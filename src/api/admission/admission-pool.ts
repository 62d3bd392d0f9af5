// The admission threads (--admission-threads N, docs/architecture.md#threads): Worker threads that
// run the stateless part of /action (action-intake.ts: JSON parse, schemas, signature recovery,
// hashes, decimal packing) off the block thread. The block thread reads the body, applies the
// per-IP limit, sends the body's text to the least busy thread, and runs the stateful part
// (ChainNode.submitPrepared) when the answer comes back, so envelopes enter the mempool in the
// order their answers arrive. While the threads hold nothing, a turn's first bodies are admitted
// on the block thread instead (intake, --admission-inline). A thread that dies is restarted; the
// requests it held fail with AdmissionUnavailable (HTTP 503), never hang.
//
// Bodies travel in batches: those that arrive in one turn of the event loop go to a thread as one
// message, and it answers in messages of up to REPLY_BATCH_MAX, because each message between
// threads has a fixed cost on both sides. Under load a turn of the loop reads many frames: node
// CPU per action 343 → 300 µs, 5,000 → 5,500 actions/s (`bun scripts/bench/actions.ts --mode
// capacity --transport ws`, medians of three alternated runs on the 2-core development machine).
import { availableParallelism } from 'node:os'
import type { LogLine } from '../../lib/log.ts'
import { nativeRecoveryAvailable } from '../../wire/native-secp256k1.ts'
import { type ActionIntake, actionIntake } from './action-intake.ts'
import { type PostIntake, postIntake } from './post-intake.ts'

/** A body to admit, by its request id: an /action body, or a WebSocket post frame (post: true, post-intake.ts). */
export interface AdmissionBody {
  readonly id: number
  readonly text: string
  readonly post: boolean
}
/** What a thread made of a body: the intake (a PostIntake for a post frame), or the message of an exception (a bug). */
export type AdmissionAnswer =
  | { readonly id: number; readonly intake: ActionIntake | PostIntake; readonly error?: undefined }
  | { readonly id: number; readonly error: string }
/** Block thread → admission thread. */
export type ToAdmissionThread =
  | { readonly type: 'init'; readonly network: string }
  | { readonly type: 'bodies'; readonly bodies: readonly AdmissionBody[] }
/** Admission thread → block thread: it has loaded (once), then the answers to the bodies, in their order. */
export type FromAdmissionThread = { readonly type: 'loaded' } | { readonly type: 'answers'; readonly answers: readonly AdmissionAnswer[] }

/** An admission thread answers a batch of bodies in messages of at most this many answers, so the first wait less. */
export const REPLY_BATCH_MAX = 16

/** A request the pool cannot serve: its thread died with it in hand, or no thread runs. HTTP 503. */
export class AdmissionUnavailable extends Error {}

/**
 * The default --admission-threads: one per core, at least 1 and at most DEFAULT_THREADS_MAX. The
 * block thread and the history index's thread need a core too, but admission is the busiest stage
 * (a signature recovery per action), and a thread fewer than the cores left CPU idle under load
 * while its one thread waited its turn: on two cores, with the load generator beside the node,
 * capacity over WebSocket did 8,199, 9,080 and 8,610 actions/s with one thread against 9,375,
 * 8,596 and 10,138 with two (runs alternated; the node used 1.55-1.58 cores against 1.75-1.77), and
 * the p50 at 2,000 actions/s did not move (116.4-118.9 ms either way).
 */
export function defaultAdmissionThreads(): number {
  const cores =
    typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : availableParallelism()
  return Math.min(DEFAULT_THREADS_MAX, Math.max(1, cores))
}

/**
 * No more admission threads by default than the block thread can keep busy: it takes about 40 µs
 * per action (25,000 actions/s), an admission thread about 80-95 µs (docs/performance.md), so
 * three already keep up with it; each thread holds about 17 MiB. --admission-threads sets more.
 */
const DEFAULT_THREADS_MAX = 8

/**
 * The worker file: beside this module when run from source; in a compiled binary an entrypoint of
 * its own (compile.sh), found by its path from src/ (as src/indexer/history-index.ts finds its threads).
 */
const workerUrl = () =>
  import.meta.url.startsWith('file:///$bunfs/')
    ? './api/admission/admission-worker.ts'
    : new URL('./admission-worker.ts', import.meta.url).href

/** A thread that dies this soon after it started is restarted only after RESTART_DELAY_MS (no spin). */
const EARLY_DEATH_MS = 1_000
const RESTART_DELAY_MS = 1_000

interface Pending {
  readonly resolve: (intake: ActionIntake | PostIntake) => void
  readonly reject: (err: Error) => void
}

interface Thread {
  readonly worker: Worker
  readonly startedAt: number
  readonly inFlight: Map<number, Pending>
  /** Bodies for it not sent yet (sent together at the end of this turn of the event loop). */
  outbox: AdmissionBody[]
  dead: boolean
  /**
   * Whether its modules have loaded (its 'loaded' message). A thread is terminated only once they
   * have: Bun aborts the whole process when a Worker is terminated while it loads the native
   * secp256k1 addon (seen once in `npm test`, a pool stopped just after a thread's restart).
   */
  loaded: boolean
  /** Terminate it as soon as it has loaded. */
  terminateWhenLoaded: boolean
  lastError?: string
}

/**
 * The default --admission-inline: while the threads hold nothing, up to this many bodies a turn of
 * the event loop are admitted on the calling (block) thread (AdmissionPool.intake): about 1.2 ms
 * of single actions.
 */
export const INLINE_PER_TURN_DEFAULT = 16

export class AdmissionPool {
  private readonly threads: (Thread | undefined)[]
  private nextId = 1
  private turn = 0
  private stopped = false
  private flushScheduled = false
  /** Bodies admitted on the calling thread in this turn of the event loop; reset by endTurn. */
  private inlineThisTurn = 0
  private readonly inlinePerTurnMax: number
  /** Threads restarted after dying (for tests and logs). */
  restarts = 0
  /** Bodies admitted on the calling thread, not sent to a thread (tests, logs). */
  inlineTotal = 0

  /**
   * inlinePerTurn: at most this many bodies a turn of the event loop are admitted on the calling
   * thread while the threads hold nothing (intake; 0: every body goes to a thread). Only with the
   * native signature recovery: with noble's, ten times slower, every body goes to a thread.
   */
  constructor(
    size: number,
    private readonly network: string,
    private readonly log: LogLine = () => {},
    inlinePerTurn = INLINE_PER_TURN_DEFAULT,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`an admission pool needs at least one thread, not ${size}`)
    this.inlinePerTurnMax = nativeRecoveryAvailable ? inlinePerTurn : 0
    this.threads = Array.from({ length: size }, (_, i) => this.spawn(i))
  }

  get size(): number {
    return this.threads.length
  }

  /** Requests sent to a thread and not answered yet. */
  get inFlight(): number {
    let n = 0
    for (const t of this.threads) n += t?.inFlight.size ?? 0
    return n
  }

  /**
   * Runs the stateless part of /action on a body's text: on the least busy thread, or here while
   * the threads hold nothing, for the first inlinePerTurn bodies of a turn of the event loop. At a
   * moderate rate the actions arrive one or two a turn, and the message to a thread, its wake-up
   * and the answer back cost more than the admission itself: the node's CPU per action went from
   * 334 to 233-244 µs at 2,000 actions/s and from 198-216 to 175-193 µs at 5,000/s, the p50s and
   * the capacity unchanged (alternated runs, docs/performance.md). Under
   * load the threads always hold something, so every body goes to them. Order is kept: a body
   * admitted here is answered before the next one is read, and none is while earlier ones wait.
   */
  intake(text: string): Promise<ActionIntake> {
    return this.admit(text, false, actionIntake)
  }

  /** intake for the text of a WebSocket post frame (post-intake.ts). */
  postIntake(text: string): Promise<PostIntake> {
    return this.admit(text, true, postIntake)
  }

  private admit<T extends ActionIntake | PostIntake>(
    text: string,
    post: boolean,
    inline: (text: string, network: string) => T,
  ): Promise<T> {
    if (this.inlineThisTurn < this.inlinePerTurnMax && this.inFlight === 0 && !this.stopped) {
      if (this.inlineThisTurn++ === 0) setImmediate(this.endTurn)
      this.inlineTotal++
      // A throw (a bug) rejects, as a thread's error answer does.
      return new Promise((resolve) => resolve(inline(text, this.network)))
    }
    const thread = this.pick()
    if (thread === undefined) {
      return Promise.reject(
        new AdmissionUnavailable(
          this.stopped
            ? 'the node is stopping: admission threads are stopped'
            : 'no admission thread is running (restarting after a failure); retry shortly',
        ),
      )
    }
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      // The thread answers a body with the intake of its form (admission-worker.ts).
      thread.inFlight.set(id, { resolve: resolve as (intake: ActionIntake | PostIntake) => void, reject })
      thread.outbox.push({ id, text, post })
      if (!this.flushScheduled) {
        this.flushScheduled = true
        setImmediate(this.flush)
      }
    })
  }

  private readonly endTurn = () => {
    this.inlineThisTurn = 0
  }

  /** Sends each thread the bodies gathered for it in this turn of the event loop, as one message. */
  private readonly flush = () => {
    this.flushScheduled = false
    for (const t of this.threads) {
      if (t === undefined || t.dead || t.outbox.length === 0) continue
      t.worker.postMessage({ type: 'bodies', bodies: t.outbox } satisfies ToAdmissionThread)
      t.outbox = []
    }
  }

  /** Stops every thread; requests in hand fail with AdmissionUnavailable. */
  stop(): void {
    if (this.stopped) return
    this.stopped = true
    for (let i = 0; i < this.threads.length; i++) {
      const t = this.threads[i]
      if (t === undefined) continue
      this.threadGone(i, t, 'the node is stopping')
      this.terminate(t)
    }
  }

  /** Ends thread i as a crash would (tests: the pool's handling of a dying thread). */
  killThread(i: number): void {
    const t = this.threads[i]
    if (t !== undefined) this.terminate(t)
  }

  /** Terminates a thread now, or once it has loaded (Thread.loaded). */
  private terminate(t: Thread): void {
    if (t.loaded) t.worker.terminate()
    else t.terminateWhenLoaded = true
  }

  /** The running thread with the fewest requests in hand; ties go round-robin. */
  private pick(): Thread | undefined {
    const n = this.threads.length
    let best: Thread | undefined
    for (let k = 0; k < n; k++) {
      const t = this.threads[(this.turn + k) % n]
      if (t === undefined || t.dead) continue
      if (best === undefined || t.inFlight.size < best.inFlight.size) best = t
      if (best.inFlight.size === 0) break
    }
    this.turn = (this.turn + 1) % n
    return best
  }

  private spawn(i: number): Thread {
    const worker = new Worker(workerUrl())
    const thread: Thread = {
      worker,
      startedAt: performance.now(),
      inFlight: new Map(),
      outbox: [],
      dead: false,
      loaded: false,
      terminateWhenLoaded: false,
    }
    worker.postMessage({ type: 'init', network: this.network } satisfies ToAdmissionThread)
    worker.onmessage = (event: MessageEvent<FromAdmissionThread>) => {
      const m = event.data
      if (m.type === 'loaded') {
        thread.loaded = true
        if (thread.terminateWhenLoaded) worker.terminate()
        return
      }
      for (const a of m.answers) {
        const pending = thread.inFlight.get(a.id)
        if (pending === undefined) continue
        thread.inFlight.delete(a.id)
        if (a.error !== undefined) pending.reject(new Error(`admission thread: ${a.error}`))
        else pending.resolve(a.intake)
      }
    }
    // An uncaught error ends a worker thread (its error event, then its close event).
    worker.onerror = (e) => {
      thread.lastError = e.message
      this.log(`admission thread ${i} error: ${e.message}`, 'error')
    }
    worker.addEventListener('close', () =>
      this.threadGone(i, thread, `admission thread ${i} stopped${thread.lastError === undefined ? '' : `: ${thread.lastError}`}`),
    )
    // The threads never keep the process alive: the node decides when it exits.
    worker.unref()
    return thread
  }

  /** Thread i ended (or the pool stops): fail what it held, and start another in its place. */
  private threadGone(i: number, thread: Thread, why: string): void {
    if (thread.dead) return
    thread.dead = true
    const held = [...thread.inFlight.values()]
    thread.inFlight.clear()
    thread.outbox = []
    for (const p of held) p.reject(new AdmissionUnavailable(`${why}; the action was not admitted, send it again`))
    if (this.stopped || this.threads[i] !== thread) return
    this.log(`${why} with ${held.length} requests in hand; restarting it`, 'error')
    const restart = () => {
      if (this.stopped || this.threads[i] !== thread) return
      this.restarts++
      this.threads[i] = this.spawn(i)
    }
    if (performance.now() - thread.startedAt < EARLY_DEATH_MS) {
      setTimeout(restart, RESTART_DELAY_MS).unref()
    } else {
      restart()
    }
  }
}
