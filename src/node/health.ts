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
 * The problem codes of `reasons` (docs/operations.md#health). The first seven make the node degraded
 * (REPLICATION_DIVERGED also stops it serving, REPLICATION_UNAVAILABLE: the replicated log does not
 * answer, docs/replication.md), the last four halt it (REPLAY_FAILED: a stored block did not replay,
 * during recovery; LEADER_FENCED: the replicated log refused a block of this leader).
 */
export type HealthProblemCode =
  | 'INDEXER_STOPPED'
  | 'HISTORY_READER_STOPPED'
  | 'INDEXER_LAGGING'
  | 'FEED_STALE'
  | 'SNAPSHOT_WRITE_FAILED'
  | 'REPLICATION_DIVERGED'
  | 'REPLICATION_UNAVAILABLE'
  | 'STORE_WRITE_FAILED'
  | 'BLOCK_PRODUCTION_FAILED'
  | 'REPLAY_FAILED'
  | 'LEADER_FENCED'

/** What a node of a replicated chain reports besides its health (docs/replication.md#health-and-metrics). */
export interface ReplicationHealth {
  /** leader: produces blocks; follower: applies the leader's; candidate: follows and may take the lease. */
  readonly role: 'leader' | 'follower' | 'candidate'
  /** The HTTP address of the leader (where /action is forwarded), null while none is known. */
  readonly leader_url: string | null
  /** Blocks the replicated log holds beyond this node's tip. */
  readonly lag_blocks: number
  /** The JetStream stream of the chain. */
  readonly stream: string
  /** The newest block this node verified (its state root and digest recomputed) or produced. */
  readonly last_verified_height: number
}

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
  replication?: ReplicationHealth
}

/** What a route other than the probes answers while the node cannot serve it. */
export interface HealthGate {
  readonly reason: 'RECOVERING' | 'HALTED' | 'DIVERGED'
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
  /** The height a halt names, shown instead of the state's (halted's atHeight). */
  private haltHeight: number | undefined
  private replicationInfo: (() => ReplicationHealth) | undefined
  /** Set when a replicated block did not verify: the state is the diverged one and is not served. */
  private divergence: string | undefined

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

  /**
   * Block production stopped for good; storeDirty: the state may be ahead of the block store.
   * atHeight: the height the probes show from now on instead of the state's (a stored block that
   * did not replay: replay may have applied the next one before its root was checked).
   */
  halted(code: HealthProblemCode, message: string, storeDirty: boolean, atHeight?: number): void {
    this.phase = 'halted'
    this.dirty = this.dirty || storeDirty
    if (this.haltProblem === undefined) {
      this.haltProblem = { code, message: brief(message), since_ms: this.now() }
      this.haltHeight = atHeight
    }
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

  /** Adds the replication figures to the probe body (a node of a replicated chain). */
  setReplication(read: () => ReplicationHealth): void {
    this.replicationInfo = read
  }

  /** The replication figures, or undefined on a node that does not replicate. */
  get replication(): ReplicationHealth | undefined {
    return this.replicationInfo?.()
  }

  /**
   * A block from the replicated log did not verify (message: the height and both roots): the node
   * says degraded, and every route but the probes answers 503 DIVERGED from now on.
   */
  diverged(message: string): void {
    this.divergence ??= brief(message)
    this.setProblem('REPLICATION_DIVERGED', message)
    // Whatever recovery was doing, the node is done: degraded, not recovering.
    if (this.phase === 'recovering') this.phase = 'running'
  }

  /** The probe body at chain height `height`. */
  body(height: number): HealthBody {
    const replication = this.replication
    // A diverged node's state is past its last verified block, which is the height it stands by.
    const shown =
      this.haltHeight ?? (this.divergence !== undefined && replication !== undefined ? replication.last_verified_height : height)
    const body: HealthBody = { status: this.status, height: shown, store_dirty: this.dirty, reasons: this.reasons }
    if (replication !== undefined) body.replication = replication
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
    if (this.phase === 'running' && this.divergence !== undefined)
      return {
        reason: 'DIVERGED',
        message: `the node stopped following the replicated chain (${this.divergence}); it does not serve the diverged state`,
        retryAfterMs: RETRY_AFTER_HALTED_MS,
      }
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
