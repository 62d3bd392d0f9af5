// The main thread's handle on the history index: it starts the indexer thread (the one writer of
// history.sqlite) and the reader thread (a read-only connection answering history reads), tells
// the indexer of each committed block, keeps the latest watermarks for /status, and holds the two
// small in-memory parts: the trades not yet in candles and the 24-hour closed-order cache.

import { createLogger, type LogLine, logLine } from '../lib/log.ts'
import { type LiveTrade, PendingTrades } from './candles/live-candles.ts'
import { type ClosedOrder, ClosedOrderCache } from './order-hot-cache.ts'
import { ReadError } from './paging.ts'
import type { PipelineProgress } from './pipeline.ts'
import type { PagedOp, ReadArgs, ReadOp, ReadValue } from './read/ops.ts'
import { historyPath } from './schema.ts'
import type { CandleUpdate } from './stages/candle.ts'
import type { MarketRef } from './symbols.ts'
import type { Watermarks } from './watermarks.ts'
import type { IndexerMessage, IndexerRequest, ReaderMessage, ReaderRequest } from './worker/protocol.ts'

export interface HistoryIndexOptions {
  readonly dataDir: string
  /** Leaderboard snapshot interval in block time (default 5 s). */
  readonly leaderboardRefreshMs?: number
  readonly log?: LogLine
}

/** What the main thread hands the index for each committed block. */
export interface LiveBlock {
  readonly height: number
  readonly timestampMs: number
  readonly trades: readonly LiveTrade[]
  readonly closedOrders: readonly ClosedOrder[]
}

/** A thread of the index that stopped while the index runs (it is not restarted). */
export interface HistoryThreadFailure {
  readonly thread: 'indexer' | 'reader'
  readonly message: string
}

/** A read's value with the watermarks of the snapshot it was read from. */
export interface ReadResult<T> {
  readonly value: T
  readonly watermarks: Watermarks
}

/** Reads waiting for the reader thread at most; more are refused with 503 rather than queued. */
export const READS_IN_FLIGHT_MAX = 4_096
/** A history read fails with 503 after this long (the JSON-RPC deadline is 10 s as well). */
export const READ_TIMEOUT_MS = 10_000
/** A /status sync waits this long for the indexer, then answers with what it last reported. */
const SYNC_WAIT_MS = 400
/** How long start() waits for the threads to open their databases. */
const START_TIMEOUT_MS = 30_000

/**
 * A worker file of ./worker/: beside this module when run from source; in a compiled binary
 * (compile.sh lists the workers as extra entrypoints) at its path under the entrypoints' root, src/.
 */
const workerUrl = (file: string) =>
  import.meta.url.startsWith('file:///$bunfs/') ? `./indexer/worker/${file}` : new URL(`./worker/${file}`, import.meta.url).href

export class HistoryIndex {
  /** Trades of committed blocks the candle stage has not folded yet. */
  readonly pending = new PendingTrades()
  /** Orders closed in the last 24 hours of block time. */
  readonly closedOrders = new ClosedOrderCache()
  private progressNow: PipelineProgress = { watermarks: { ingest: 0, derive: 0, candle: 0, stats: 0 }, blockCount: 0, envelopeTotal: 0 }
  private readonly reads = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  private readonly syncs = new Map<number, (p: PipelineProgress) => void>()
  private readonly progressListeners: ((p: PipelineProgress) => void)[] = []
  private readonly candleListeners: ((updates: readonly CandleUpdate[]) => void)[] = []
  private readonly failureListeners: ((failure: HistoryThreadFailure) => void)[] = []
  private readonly failed = new Map<'indexer' | 'reader', HistoryThreadFailure>()
  private nextId = 1
  private stopped = false
  private readonly log: LogLine

  private constructor(
    private readonly indexer: Worker,
    private readonly reader: Worker,
    options: HistoryIndexOptions,
  ) {
    this.log = options.log ?? logLine(createLogger('history'))
  }

  /** Starts both threads; resolves once the index and its reader are open. */
  static async start(options: HistoryIndexOptions, tip: number, markets: readonly MarketRef[]): Promise<HistoryIndex> {
    const indexer = new Worker(workerUrl('indexer-worker.ts'))
    const reader = new Worker(workerUrl('reader-worker.ts'))
    const index = new HistoryIndex(indexer, reader, options)
    const log = index.log
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the history index did not open in ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS)
      // A thread that fails to load (or throws outside a message) reports here.
      const failed = (which: string) => (ev: ErrorEvent) => {
        clearTimeout(timer)
        reject(new Error(`the history ${which} thread failed: ${ev.message}`))
      }
      indexer.onerror = failed('indexer')
      reader.onerror = failed('reader')
      indexer.onmessage = (ev: MessageEvent<IndexerMessage>) => {
        const m = ev.data
        if (m.type === 'ready') {
          index.progressNow = m.progress
          // The reader opens the file only once the indexer has created (or rebuilt) it.
          reader.onmessage = (rev: MessageEvent<ReaderMessage>) => {
            const r = rev.data
            if (r.type === 'ready') {
              clearTimeout(timer)
              reader.onmessage = (e) => index.onReader(e.data)
              index.watchThread(indexer, 'indexer')
              index.watchThread(reader, 'reader')
              resolve()
            } else if (r.type === 'fatal') {
              clearTimeout(timer)
              reject(new Error(r.message))
            }
          }
          reader.postMessage({ type: 'init', path: historyPath(options.dataDir), markets: [...markets] } satisfies ReaderRequest)
          indexer.onmessage = (e) => index.onIndexer(e.data)
        } else if (m.type === 'log') log(m.line, m.level)
        else if (m.type === 'fatal') {
          clearTimeout(timer)
          reject(new Error(m.message))
        }
      }
    })
    indexer.postMessage({
      type: 'init',
      dataDir: options.dataDir,
      tip,
      leaderboardRefreshMs: options.leaderboardRefreshMs,
    } satisfies IndexerRequest)
    try {
      await ready
    } catch (err) {
      indexer.terminate()
      reader.terminate()
      throw err
    }
    return index
  }

  /**
   * Listens for a thread's end while the index runs: an uncaught error ends a worker thread (its
   * error event, then its close event with the exit code), and so does process.exit inside it.
   */
  private watchThread(worker: Worker, thread: 'indexer' | 'reader'): void {
    let lastError: string | undefined
    worker.onerror = (e) => {
      lastError = e.message
      this.log(`history ${thread} thread error: ${e.message}`, 'error')
    }
    worker.addEventListener('close', (e) => {
      const code = (e as Event & { code?: number }).code
      this.threadFailed(
        thread,
        `the history ${thread} thread exited${code === undefined ? '' : ` with code ${code}`}${lastError === undefined ? '' : `: ${lastError}`}`,
      )
    })
  }

  /** A thread stopped (or reported a fatal error) while the index runs. */
  private threadFailed(thread: 'indexer' | 'reader', message: string): void {
    if (this.stopped || this.failed.has(thread)) return
    const failure: HistoryThreadFailure = { thread, message }
    this.failed.set(thread, failure)
    this.log(`${message}; history ${thread === 'indexer' ? 'indexing' : 'reads'} stopped until a restart`, 'error')
    if (thread === 'reader') {
      for (const r of this.reads.values()) r.reject(new ReadError(503, message))
      this.reads.clear()
    }
    for (const l of this.failureListeners) l(failure)
  }

  /** Runs listener when a thread of the index stops while it runs (see failures). */
  onFailure(listener: (failure: HistoryThreadFailure) => void): void {
    this.failureListeners.push(listener)
  }

  /** The threads that stopped while the index runs (empty while both run). */
  get failures(): HistoryThreadFailure[] {
    return [...this.failed.values()]
  }

  private onIndexer(m: IndexerMessage): void {
    switch (m.type) {
      case 'progress':
        this.progressNow = m.progress
        this.pending.dropThrough(m.progress.watermarks.candle)
        for (const l of this.progressListeners) l(m.progress)
        if (m.candles.length > 0) for (const l of this.candleListeners) l(m.candles)
        return
      case 'synced': {
        this.progressNow = m.progress
        this.pending.dropThrough(m.progress.watermarks.candle)
        const done = this.syncs.get(m.id)
        this.syncs.delete(m.id)
        done?.(m.progress)
        return
      }
      case 'log':
        this.log(m.line, m.level)
        return
      case 'fatal':
        this.threadFailed('indexer', m.message)
        return
      default:
        return
    }
  }

  private onReader(m: ReaderMessage): void {
    if (m.type === 'fatal') {
      this.threadFailed('reader', m.message)
      return
    }
    if (m.type !== 'result') return
    const waiting = this.reads.get(m.id)
    if (waiting === undefined) return
    this.reads.delete(m.id)
    if (m.ok) waiting.resolve(m.value)
    else waiting.reject(new ReadError(m.status, m.message))
  }

  /** A committed block: remember its live parts and tell the indexer of the new tip. */
  notifyBlock(b: LiveBlock): void {
    if (this.stopped) return
    if (b.trades.length > 0) this.pending.add(b.height, b.trades)
    for (const o of b.closedOrders) this.closedOrders.add(o)
    this.indexer.postMessage({ type: 'tip', height: b.height } satisfies IndexerRequest)
  }

  /** The market table symbols are resolved from (send again when markets change). */
  setMarkets(markets: readonly MarketRef[]): void {
    if (!this.stopped) this.reader.postMessage({ type: 'markets', markets: [...markets] } satisfies ReaderRequest)
  }

  /** Runs a history read on the reader thread. Rejects with ReadError for a caller's mistake. */
  read<K extends ReadOp>(op: K, args: ReadArgs<K>): Promise<ReadResult<ReadValue<K>>> {
    return this.send(op, args, false) as Promise<ReadResult<ReadValue<K>>>
  }

  /**
   * Runs a paged read (one whose value is {data, page}) and resolves with the JSON text of
   * {data, page}, serialized on the reader thread so the main thread only sends it on.
   */
  readPagedJson<K extends PagedOp>(op: K, args: ReadArgs<K>): Promise<string> {
    return this.send(op, args, true) as Promise<string>
  }

  private send(op: ReadOp, args: unknown, paged: boolean): Promise<unknown> {
    if (this.stopped) return Promise.reject(new ReadError(503, 'the history index is stopped'))
    const down = this.failed.get('reader')
    if (down !== undefined) return Promise.reject(new ReadError(503, down.message))
    if (this.reads.size >= READS_IN_FLIGHT_MAX)
      return Promise.reject(new ReadError(503, `more than ${READS_IN_FLIGHT_MAX} history reads are waiting; retry shortly`))
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      // A read the reader never answers (the thread died) fails instead of hanging its request.
      const timer = setTimeout(() => {
        if (this.reads.delete(id)) reject(new ReadError(503, `history read ${op} took more than ${READ_TIMEOUT_MS} ms`))
      }, READ_TIMEOUT_MS)
      this.reads.set(id, {
        resolve: (v) => {
          clearTimeout(timer)
          resolve(v)
        },
        reject: (e) => {
          clearTimeout(timer)
          reject(e)
        },
      })
      this.reader.postMessage({ type: 'read', id, op, args, paged } satisfies ReaderRequest)
    })
  }

  /** The latest progress the indexer reported. */
  get progress(): PipelineProgress {
    return this.progressNow
  }

  /** Asks the indexer to catch up to `tip` now (briefly) and resolves with its progress. */
  sync(tip: number): Promise<PipelineProgress> {
    if (this.stopped) return Promise.resolve(this.progressNow)
    const id = this.nextId++
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.syncs.delete(id)
        resolve(this.progressNow)
      }, SYNC_WAIT_MS)
      this.syncs.set(id, (p) => {
        clearTimeout(timer)
        resolve(p)
      })
      this.indexer.postMessage({ type: 'sync', id, tip } satisfies IndexerRequest)
    })
  }

  onProgress(listener: (p: PipelineProgress) => void): void {
    this.progressListeners.push(listener)
  }

  /** Candles the candle stage changed (near the tip), e.g. for the candles.* WebSocket topic. */
  onCandles(listener: (updates: readonly CandleUpdate[]) => void): void {
    this.candleListeners.push(listener)
  }

  /** Stops both threads after the indexer has closed its database (its last batch committed). */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    for (const r of this.reads.values()) r.reject(new ReadError(503, 'the history index stopped'))
    this.reads.clear()
    const stoppedMsg = new Promise<void>((resolve) => {
      // An indexer thread that ended says nothing more.
      if (this.failed.has('indexer')) return resolve()
      const timer = setTimeout(resolve, 2_000)
      this.indexer.onmessage = (ev: MessageEvent<IndexerMessage>) => {
        if (ev.data.type === 'stopped') {
          clearTimeout(timer)
          resolve()
        }
      }
    })
    this.indexer.postMessage({ type: 'stop' } satisfies IndexerRequest)
    this.reader.postMessage({ type: 'stop' } satisfies ReaderRequest)
    await stoppedMsg
    this.indexer.terminate()
    this.reader.terminate()
  }
}
