// The indexer thread: runs the pipeline over the block store, told of each new tip by the main
// thread. It works in short slices so tip notices and /status syncs are answered between batches,
// and reports its watermarks (and the candles it changed) after each slice.

import type { LogLevel } from '../../lib/log.ts'
import { Pipeline } from '../pipeline.ts'
import type { IndexerMessage, IndexerRequest } from './protocol.ts'

declare const self: Worker

/** Longest run of batches before the thread looks at its messages again. */
const SLICE_MS = 25
/**
 * How long an idle indexer waits after a new tip before indexing it, so that at high block rates a
 * batch holds several blocks: each transaction writes every page it touched once, and the fill
 * table's pages are spread over accounts, so fewer, larger batches write far less. A /status sync
 * does not wait.
 */
const COALESCE_MS = 250
/** Longest a /status sync may spend catching up before it answers. */
const SYNC_BUDGET_MS = 150
/** Catch-up progress is logged at most this often. */
const LOG_EVERY_MS = 2_000
/** Wait after a failed batch before trying again (a disk error may pass; a bug repeats). */
const RETRY_MS = 1_000
/** A catch-up this many blocks long is logged when it starts and ends. */
const CATCH_UP_LOGGED_BLOCKS = 100

let pipeline: Pipeline | undefined
let tip = 0
let scheduled = false
let stopping = false
let lastLog = 0
let catchUp: { from: number; startedMs: number } | undefined

const post = (m: IndexerMessage) => self.postMessage(m)
const log = (line: string, level?: LogLevel) => post(level === undefined ? { type: 'log', line } : { type: 'log', line, level })

function schedule(delayMs = 0): void {
  if (scheduled || stopping) return
  scheduled = true
  setTimeout(() => {
    scheduled = false
    runSlice(SLICE_MS)
  }, delayMs)
}

/** Runs batches for up to budgetMs; returns whether every stage reached the tip. */
function runSlice(budgetMs: number): boolean {
  const p = pipeline
  if (p === undefined || stopping) return false
  const started = performance.now()
  const candles = []
  try {
    while (!p.caughtUp(tip) && performance.now() - started < budgetMs) {
      const r = p.step(tip)
      candles.push(...r.candles)
      if (!r.worked) break
    }
  } catch (err) {
    log(`indexer: batch failed, retrying in ${RETRY_MS} ms: ${(err as Error).stack ?? err}`, 'warn')
    schedule(RETRY_MS)
    return false
  }
  const done = p.caughtUp(tip)
  // Candle pushes matter only near the tip; during a long catch-up they would flood the feed.
  post({ type: 'progress', progress: p.progress(), candles: done ? candles : [] })
  logProgress(p, done)
  if (!done) schedule()
  return done
}

function logProgress(p: Pipeline, done: boolean): void {
  const wm = p.watermarks
  const now = performance.now()
  if (!done && catchUp === undefined && tip - wm.stats >= CATCH_UP_LOGGED_BLOCKS) {
    catchUp = { from: wm.stats, startedMs: now }
    log(`indexer: catching up from height ${wm.stats} to ${tip}`)
    lastLog = now
  }
  if (catchUp === undefined) return
  if (done) {
    log(`indexer: caught up at height ${tip} (${tip - catchUp.from} blocks in ${Math.round(now - catchUp.startedMs)} ms)`)
    catchUp = undefined
  } else if (now - lastLog >= LOG_EVERY_MS) {
    log(`indexer: catching up: ingest ${wm.ingest}, derive ${wm.derive}, candle ${wm.candle}, stats ${wm.stats} of ${tip}`)
    lastLog = now
  }
}

self.onmessage = (ev: MessageEvent<IndexerRequest>) => {
  const m = ev.data
  switch (m.type) {
    case 'init': {
      try {
        pipeline = new Pipeline({
          dataDir: m.dataDir,
          log,
          ...(m.leaderboardRefreshMs === undefined ? {} : { leaderboardRefreshMs: m.leaderboardRefreshMs }),
        })
      } catch (err) {
        post({ type: 'fatal', message: `indexer: cannot open the history index: ${(err as Error).stack ?? err}` })
        return
      }
      tip = Math.max(m.tip, pipeline.sourceTip())
      post({ type: 'ready', progress: pipeline.progress() })
      schedule()
      return
    }
    case 'tip': {
      const p = pipeline
      const idle = p?.caughtUp(tip)
      tip = Math.max(tip, m.height)
      if (p !== undefined && idle) {
        // Ingest (one copy inside SQLite) goes at once, so blocks.live and /blocks follow the
        // chain closely; the other stages wait a moment to take several blocks per batch.
        try {
          if (p.ingest(tip)) post({ type: 'progress', progress: p.progress(), candles: [] })
        } catch (err) {
          log(`indexer: ingest failed, retrying: ${(err as Error).stack ?? err}`, 'warn')
        }
      }
      schedule(idle ? COALESCE_MS : 0)
      return
    }
    case 'sync': {
      tip = Math.max(tip, m.tip)
      if (pipeline !== undefined) runSlice(SYNC_BUDGET_MS)
      if (pipeline !== undefined) post({ type: 'synced', id: m.id, progress: pipeline.progress() })
      return
    }
    case 'stop':
      stopping = true
      pipeline?.close()
      pipeline = undefined
      post({ type: 'stopped' })
      return
  }
}
