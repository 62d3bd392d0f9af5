// What the node's probes report (docs/operations.md#health): one object per node that the parts
// able to tell that something is wrong write to, and the probe routes and the request gate read.
//
//   recovering  the port is bound, the stored chain is being replayed (or the history index and hot
//               feed opened); every route but the probes answers 503 RECOVERING
//   ok          producing blocks, nothing known to be wrong
//   degraded    producing blocks, but a part is not keeping up (the problems are listed in `reasons`)
//   halted      block production stopped on an assertion or a store failure; the process exits soon
import type { LogLevel } from '../lib/log.ts'

export type HealthStatus = 'ok' | 'recovering' | 'degraded' | 'halted'

/** One problem the node knows of: a code that names it, what happened, and since when (wall ms). */
export interface HealthProblem {
  readonly code: HealthProblemCode
  readonly message: string
  readonly since_ms: number
}

/**
 * The problem codes of `reasons` (docs/operations.md#health). The first five make the node degraded,
 * the last three halt it (REPLAY_FAILED: a stored block did not replay, during recovery).
 */
export type HealthProblemCode =
  | 'INDEXER_STOPPED'
  | 'HISTORY_READER_STOPPED'
  | 'INDEXER_LAGGING'
  | 'FEED_STALE'
  | 'SNAPSHOT_WRITE_FAILED'
  | 'STORE_WRITE_FAILED'
  | 'BLOCK_PRODUCTION_FAILED'
  | 'REPLAY_FAILED'

/** Replay progress while recovering. */
export interface ReplayProgress {
  /** Height of the state (the snapshot's, then each replayed block's). */
  readonly replayedHeight: number
  /** The block store's tip: where the replay ends. */
  readonly targetHeight: number
  /** Height the replay started from (the snapshot's or 0), and performance.now() then. */
  readonly fromHeight: number
  readonly startedMs: number
}

/** The body of GET /api/v1/health and /api/v1/health/live. */
export interface HealthBody {
  status: HealthStatus
  height: number
  store_dirty: boolean
  reasons: HealthProblem[]
  replayed_height?: number
  target_height?: number
  blocks_per_sec?: number
  eta_ms?: number | null
}

/** What a route other than the probes answers while the node cannot serve it. */
export interface HealthGate {
  readonly reason: 'RECOVERING' | 'HALTED'
  readonly message: string
  readonly retryAfterMs: number
}

/** How long a client is told to wait, at least and at most, while the node recovers. */
const RETRY_AFTER_MIN_MS = 1_000
const RETRY_AFTER_MAX_MS = 30_000
/** What a client is told to wait while the node is halted: the process exits and is restarted. */
const RETRY_AFTER_HALTED_MS = 10_000

/** Longest message a problem carries (the log has the whole story, stack included). */
const MESSAGE_CHARS_MAX = 300

/** A message as the probe body carries it: its first line, at most MESSAGE_CHARS_MAX characters. */
function brief(message: string): string {
  const line = message.split('\n', 1)[0]!.trim()
  return line.length > MESSAGE_CHARS_MAX ? `${line.slice(0, MESSAGE_CHARS_MAX - 3)}...` : line
}

export class NodeHealth {
  private phase: 'recovering' | 'running' | 'halted' = 'recovering'
  private progress: ReplayProgress | undefined
  private dirty = false
  private readonly problems = new Map<HealthProblemCode, HealthProblem>()
  private haltProblem: HealthProblem | undefined

  constructor(
    private readonly now: () => number = Date.now,
    private readonly perfNow: () => number = () => performance.now(),
    private readonly log?: (line: string, level?: LogLevel) => void,
  ) {}

  get status(): HealthStatus {
    if (this.phase === 'halted') return 'halted'
    if (this.phase === 'recovering') return 'recovering'
    return this.problems.size > 0 ? 'degraded' : 'ok'
  }

  /** Whether the in-memory state may be ahead of the block store (a block write failed). */
  get storeDirty(): boolean {
    return this.dirty
  }

  get replay(): ReplayProgress | undefined {
    return this.progress
  }

  /** The problems now known, oldest first (the halt's last). */
  get reasons(): HealthProblem[] {
    const list = [...this.problems.values()]
    if (this.haltProblem !== undefined) list.push(this.haltProblem)
    return list
  }

  /** Replay progress (the node calls it between blocks while it recovers). */
  replaying(progress: ReplayProgress): void {
    this.progress = progress
  }

  /** Blocks per second of the replay so far (0 before the first replayed block). */
  blocksPerSec(): number {
    const p = this.progress
    if (p === undefined) return 0
    const seconds = (this.perfNow() - p.startedMs) / 1000
    const done = p.replayedHeight - p.fromHeight
    return seconds > 0 && done > 0 ? done / seconds : 0
  }

  /** Time the replay still needs at its rate so far; null before there is a rate. */
  etaMs(): number | null {
    const p = this.progress
    if (p === undefined) return null
    const rate = this.blocksPerSec()
    const left = p.targetHeight - p.replayedHeight
    if (left <= 0) return 0
    return rate > 0 ? Math.round((left / rate) * 1000) : null
  }

  /** The node serves (blocks are produced): the probes say ok or degraded from now on. */
  ready(): void {
    if (this.phase === 'recovering') this.phase = 'running'
  }

  /** Block production stopped for good; storeDirty: the state may be ahead of the block store. */
  halted(code: HealthProblemCode, message: string, storeDirty: boolean): void {
    this.phase = 'halted'
    this.dirty = this.dirty || storeDirty
    this.haltProblem ??= { code, message: brief(message), since_ms: this.now() }
  }

  /** Records a problem (keeping the time it was first seen); says whether it is new. */
  setProblem(code: HealthProblemCode, message: string): boolean {
    const known = this.problems.get(code)
    this.problems.set(code, { code, message: brief(message), since_ms: known?.since_ms ?? this.now() })
    if (known === undefined) this.log?.(`health: degraded: ${code}: ${brief(message)}`, 'warn')
    return known === undefined
  }

  /** Forgets a problem that went away. */
  clearProblem(code: HealthProblemCode): void {
    if (this.problems.delete(code))
      this.log?.(`health: ${code} cleared${this.problems.size === 0 && this.phase === 'running' ? '; ok' : ''}`)
  }

  hasProblem(code: HealthProblemCode): boolean {
    return this.problems.has(code)
  }

  /** The probe body at chain height `height`. */
  body(height: number): HealthBody {
    const body: HealthBody = { status: this.status, height, store_dirty: this.dirty, reasons: this.reasons }
    if (this.phase === 'recovering') {
      const p = this.progress
      body.replayed_height = p?.replayedHeight ?? height
      body.target_height = p?.targetHeight ?? height
      body.blocks_per_sec = Math.round(this.blocksPerSec())
      body.eta_ms = this.etaMs()
    }
    return body
  }

  /** HTTP status of GET /api/v1/health (ready: 200 only when ok) or /api/v1/health/live (503 only when halted). */
  httpStatus(probe: 'ready' | 'live'): number {
    const status = this.status
    if (probe === 'live') return status === 'halted' ? 503 : 200
    return status === 'ok' ? 200 : 503
  }

  /** What the other routes answer now: undefined when they serve. */
  gate(): HealthGate | undefined {
    if (this.phase === 'running') return undefined
    if (this.phase === 'halted') {
      return {
        reason: 'HALTED',
        message: `the node halted (${this.haltProblem?.message ?? 'block production stopped'}); it exits and is restarted`,
        retryAfterMs: RETRY_AFTER_HALTED_MS,
      }
    }
    const p = this.progress
    const eta = this.etaMs()
    const retryAfterMs = Math.min(RETRY_AFTER_MAX_MS, Math.max(RETRY_AFTER_MIN_MS, eta ?? RETRY_AFTER_MIN_MS))
    const where =
      p === undefined || p.replayedHeight >= p.targetHeight
        ? 'starting'
        : `replaying the stored chain, block ${p.replayedHeight} of ${p.targetHeight}`
    return { reason: 'RECOVERING', message: `the node is recovering (${where}); retry later`, retryAfterMs }
  }
}
