// The checks behind `degraded` (docs/operations.md#health) that no single event tells: a history
// index that falls further and further behind the chain, a hot feed that stopped following it. Run
// once a second while the node produces blocks; the history index's own thread failures arrive as
// events (HistoryIndex.onFailure) and are recorded at once.
import type { HotFeed } from '../feed/hot-feed.ts'
import type { HistoryIndex } from '../indexer/history-index.ts'
import type { ChainNode } from '../node/chain-node.ts'

export interface HealthMonitorOptions {
  /** INDEXER_LAGGING once the index is more than this many blocks behind the chain tip ... */
  readonly indexerLagBlocks: number
  /** ... and its lag has not shrunk for this long (ms). */
  readonly indexerLagMs: number
  /** How often the checks run (default 1 s). */
  readonly intervalMs?: number
  readonly now?: () => number
}

export const INDEXER_LAG_BLOCKS_DEFAULT = 1_000
export const INDEXER_LAG_MS_DEFAULT = 30_000

/** Checks that a running node's history index keeps up with the chain and that its hot feed follows the chain. */
export class HealthMonitor {
  private timer: ReturnType<typeof setInterval> | undefined
  /** Since when the lag is above the threshold without shrinking, and its least value since. */
  private lagHigh: { sinceMs: number; least: number } | undefined
  private readonly now: () => number

  constructor(
    private readonly node: ChainNode,
    private readonly history: HistoryIndex | undefined,
    private readonly feed: () => HotFeed,
    private readonly options: HealthMonitorOptions,
  ) {
    this.now = options.now ?? Date.now
    for (const f of history?.failures ?? []) this.threadFailed(f.thread, f.message)
    history?.onFailure((f) => this.threadFailed(f.thread, f.message))
  }

  private threadFailed(thread: 'indexer' | 'reader', message: string): void {
    this.node.health.setProblem(thread === 'indexer' ? 'INDEXER_STOPPED' : 'HISTORY_READER_STOPPED', message)
  }

  /** Runs the checks every intervalMs until stop(). */
  start(): this {
    this.timer ??= setInterval(() => this.check(), this.options.intervalMs ?? 1_000)
    return this
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
  }

  /** One round of checks. */
  check(): void {
    const health = this.node.health
    if (health.status === 'halted' || health.status === 'recovering') return
    this.checkIndexerLag()
    this.checkFeed()
  }

  private checkIndexerLag(): void {
    const health = this.node.health
    if (this.history === undefined || this.history.failures.some((f) => f.thread === 'indexer')) {
      this.lagHigh = undefined
      health.clearProblem('INDEXER_LAGGING')
      return
    }
    const wm = this.history.progress.watermarks
    const tip = this.node.tipHeight
    // The fills, orders and flows of a block are readable once derive has passed it.
    const lag = tip - Math.min(wm.ingest, wm.derive)
    const now = this.now()
    if (lag <= this.options.indexerLagBlocks) {
      this.lagHigh = undefined
      health.clearProblem('INDEXER_LAGGING')
      return
    }
    if (this.lagHigh === undefined || lag < this.lagHigh.least) {
      // Above the threshold but catching up (or just crossed it): the clock starts again.
      this.lagHigh = { sinceMs: now, least: lag }
      health.clearProblem('INDEXER_LAGGING')
      return
    }
    if (now - this.lagHigh.sinceMs >= this.options.indexerLagMs) {
      health.setProblem(
        'INDEXER_LAGGING',
        `the history index is ${lag} blocks behind the chain tip ${tip} (ingest ${wm.ingest}, derive ${wm.derive}) and has not caught up any for ${Math.round((now - this.lagHigh.sinceMs) / 1000)} s`,
      )
    }
  }

  private checkFeed(): void {
    const health = this.node.health
    const feed = this.feed()
    const tip = this.node.tipHeight
    // Stale on its own (no block for a while) is the chain's state, not the feed's problem; stale
    // while the chain went on without it is.
    if (feed.stale && feed.height < tip) {
      health.setProblem(
        'FEED_STALE',
        `the hot feed is at height ${feed.height}, the chain at ${tip}; it has not followed the chain for over its stale window`,
      )
    } else {
      health.clearProblem('FEED_STALE')
    }
  }
}
