// The indexer pipeline: ingest -> derive -> candle -> stats over the block store, each stage in
// batches of whole blocks, each batch one transaction with the stage's watermark. It runs the same
// way after a restart (catching up from the watermarks) as while following the tip.
import type { Database } from 'bun:sqlite'
import { existsSync, rmSync } from 'node:fs'
import { assert } from '../lib/assert.ts'
import { createLogger, type LogLine, logLine } from '../lib/log.ts'
import { attachChain, chainBlocks, chainMeta, chainTip } from './chain-source.ts'
import {
  dropBlockStoreCopies,
  getMeta,
  hasBlockStoreCopies,
  historyPath,
  INDEX_VERSION,
  openHistoryWriter,
  setMeta,
  UPGRADABLE_INDEX_VERSIONS,
} from './schema.ts'
import { type CandleUpdate, candleBlocks } from './stages/candle.ts'
import { readCounter } from './stages/counters.ts'
import { deriveBlocks } from './stages/derive.ts'
import { ingestBlocks } from './stages/ingest.ts'
import { statsBlocks } from './stages/stats.ts'
import { hasTxHashIndex, upgradeFromTxHashIndex } from './tables/tx-runs.ts'
import { readWatermarks, type Watermarks } from './watermarks.ts'

/** Blocks one batch takes at most. */
export const BATCH_BLOCKS_MAX = 1_000
/** Events one batch takes at most (a batch always takes at least one whole block). */
export const BATCH_EVENTS_MAX = 25_000
/** Default leaderboard refresh: a snapshot at most once per this much block time. */
export const LEADERBOARD_REFRESH_MS_DEFAULT = 5_000

export interface PipelineOptions {
  readonly dataDir: string
  readonly leaderboardRefreshMs?: number
  readonly log?: LogLine
}

export interface PipelineProgress {
  readonly watermarks: Watermarks
  readonly blockCount: number
  readonly envelopeTotal: number
}

/** What one step did. */
export interface StepResult {
  /** Whether any stage had work. */
  readonly worked: boolean
  /** Candles changed by the candle stage in this step. */
  readonly candles: CandleUpdate[]
}

export class Pipeline {
  readonly db: Database
  private readonly refreshMs: number
  private readonly log: LogLine
  private wm: Watermarks
  /**
   * The index has the tx-hash index or the event rows of older versions: the first step moves them
   * to runs (tables/tx-runs.ts) and groups (tables/events.ts), rather than the constructor, so the
   * index reports ready at once; its readers use the older form until then.
   */
  private upgradePending: boolean

  constructor(options: PipelineOptions) {
    this.log = options.log ?? logLine(createLogger('indexer'))
    this.refreshMs = options.leaderboardRefreshMs ?? LEADERBOARD_REFRESH_MS_DEFAULT
    this.db = this.openChecked(historyPath(options.dataDir), options.dataDir)
    this.wm = readWatermarks(this.db)
    this.upgradePending = hasTxHashIndex(this.db) || hasBlockStoreCopies(this.db)
  }

  /**
   * Opens history.sqlite, rebuilding it when it belongs to another chain or another index
   * version, or is ahead of the block store: it is derived data, the block store is the truth.
   */
  private openChecked(path: string, dataDir: string): Database {
    let db = openHistoryWriter(path)
    attachChain(db, dataDir)
    const problem = this.mismatch(db)
    if (problem !== undefined) {
      this.log(`indexer: rebuilding ${path} from the block store: ${problem}`, 'warn')
      db.close()
      for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) rmSync(path + suffix)
      db = openHistoryWriter(path)
      attachChain(db, dataDir)
    }
    setMeta(db, 'index_version', INDEX_VERSION)
    setMeta(db, 'genesis_root', chainMeta(db, 'genesis_root') ?? '')
    return db
  }

  private mismatch(db: Database): string | undefined {
    const version = getMeta(db, 'index_version')
    const wm = readWatermarks(db)
    if (version === undefined) return wm.ingest === 0 ? undefined : 'no index version'
    if (version !== INDEX_VERSION && !UPGRADABLE_INDEX_VERSIONS.has(version))
      return `index version ${version}, this node writes ${INDEX_VERSION}`
    if (getMeta(db, 'genesis_root') !== (chainMeta(db, 'genesis_root') ?? '')) return 'it indexes another chain (genesis root differs)'
    if (wm.ingest > 0) {
      const mine = db.query<{ digest: string }, [number]>('SELECT digest FROM main.blocks WHERE height = ?').get(wm.ingest)?.digest
      const chain = chainBlocks(db, wm.ingest, wm.ingest)[0]?.digest
      if (chain === undefined) return `it is at height ${wm.ingest}, beyond the block store's tip ${chainTip(db)}`
      if (mine !== chain) return `block ${wm.ingest} differs from the block store's`
    }
    return undefined
  }

  get watermarks(): Watermarks {
    return { ...this.wm }
  }

  progress(): PipelineProgress {
    return {
      watermarks: this.watermarks,
      blockCount: readCounter(this.db, 'block_count'),
      envelopeTotal: readCounter(this.db, 'envelope_total'),
    }
  }

  /** The block store's tip, read directly (for a start without a notification). */
  sourceTip(): number {
    return chainTip(this.db)
  }

  /** Ingests up to `tip` (at most one batch); returns whether there was work. */
  ingest(tip: number): boolean {
    if (this.wm.ingest >= tip) return false
    const to = this.sourceBatchEnd(this.wm.ingest + 1, tip)
    ingestBlocks(this.db, this.wm.ingest + 1, to)
    this.wm.ingest = to
    return true
  }

  /** Runs one batch of every stage that has work, in pipeline order, up to `tip`. */
  step(tip: number): StepResult {
    if (this.upgradePending) {
      this.upgradePending = false
      const started = performance.now()
      if (upgradeFromTxHashIndex(this.db))
        this.log(
          `indexer: moved the tx-hash index of ${this.db.filename} to sorted runs in ${Math.round(performance.now() - started)} ms (once, on the first start of this version)`,
          'info',
        )
      const dropping = performance.now()
      if (dropBlockStoreCopies(this.db))
        this.log(
          `indexer: dropped the copies of the block store's actions and events from ${this.db.filename} in ${Math.round(performance.now() - dropping)} ms (once, on the first start of this version; VACUUM it while the node is stopped to give the space back to the file system)`,
          'info',
        )
      return { worked: true, candles: [] }
    }
    let worked = false
    let candles: CandleUpdate[] = []
    if (this.ingest(tip)) worked = true
    if (this.wm.derive < this.wm.ingest) {
      const to = this.batchEnd(this.wm.derive + 1, this.wm.ingest)
      deriveBlocks(this.db, this.wm.derive + 1, to)
      this.wm.derive = to
      worked = true
    }
    if (this.wm.candle < this.wm.derive) {
      const to = this.batchEnd(this.wm.candle + 1, this.wm.derive)
      candles = candleBlocks(this.db, this.wm.candle + 1, to)
      this.wm.candle = to
      worked = true
    }
    if (this.wm.stats < this.wm.derive) {
      const to = this.batchEnd(this.wm.stats + 1, this.wm.derive)
      statsBlocks(this.db, this.wm.stats + 1, to, this.blockTime(to), this.refreshMs)
      this.wm.stats = to
      worked = true
    }
    return { worked, candles }
  }

  /** Whether every stage has reached `tip`. */
  caughtUp(tip: number): boolean {
    return (
      !this.upgradePending &&
      this.wm.ingest >= tip &&
      this.wm.derive >= this.wm.ingest &&
      this.wm.candle >= this.wm.derive &&
      this.wm.stats >= this.wm.derive
    )
  }

  /** Last height of a batch of the block store's blocks from `from`, whole blocks up to the batch limits. */
  private sourceBatchEnd(from: number, tip: number): number {
    const blocks = chainBlocks(this.db, from, Math.min(tip, from + BATCH_BLOCKS_MAX - 1))
    assert(blocks.length > 0 && blocks[0]!.height === from, `the block store has no block ${from} (tip ${tip})`)
    let events = 0
    for (let i = 0; i < blocks.length; i++) {
      events += blocks[i]!.event_count
      if (events > BATCH_EVENTS_MAX && i > 0) return blocks[i - 1]!.height
    }
    return blocks[blocks.length - 1]!.height
  }

  /** Last height of a batch of ingested blocks from `from`, at most `limit`. */
  private batchEnd(from: number, limit: number): number {
    const rows = this.db
      .query<{ height: number; event_count: number }, [number, number]>(
        'SELECT height, event_count FROM main.blocks WHERE height BETWEEN ? AND ? ORDER BY height',
      )
      .all(from, Math.min(limit, from + BATCH_BLOCKS_MAX - 1))
    let events = 0
    for (let i = 0; i < rows.length; i++) {
      events += rows[i]!.event_count
      if (events > BATCH_EVENTS_MAX && i > 0) return rows[i - 1]!.height
    }
    return rows[rows.length - 1]!.height
  }

  private blockTime(height: number): number {
    return this.db.query<{ t: number }, [number]>('SELECT timestamp_ms AS t FROM main.blocks WHERE height = ?').get(height)?.t ?? 0
  }

  close(): void {
    this.db.close()
  }
}
