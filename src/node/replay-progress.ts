// Replay progress as the operator sees it while the node recovers (docs/operations.md#start-up): on a
// terminal one line on stderr, redrawn in place, with blocks/s and the time left; otherwise (a log
// file, a supervisor's journal) a plain log line every few seconds. The node logs the total when the
// replay ends ("replayed N blocks ...").
import type { ReplayProgress } from './health.ts'

export interface ReplayReporterOptions {
  /** Whether stderr is a terminal (process.stderr.isTTY). */
  readonly tty: boolean
  /** Writes raw text to the terminal (stderr). */
  readonly write: (text: string) => void
  /** Logs one progress line (when not on a terminal). */
  readonly log: (line: string) => void
  /** A log line at most this often, off a terminal (default 5 s). */
  readonly logEveryMs?: number
  /** Redraws at most this often on a terminal (default 100 ms). */
  readonly redrawEveryMs?: number
  readonly now?: () => number
}

/** Replays shorter than this print no progress at all (the final line says enough). */
const QUIET_BELOW_MS = 1_000

/** `12.3 s`, `4 min 05 s`, `1 h 02 min`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  if (ms < 60_000) return `${(Math.max(0, ms) / 1000).toFixed(1)} s`
  if (s < 3_600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
  return `${Math.floor(s / 3_600)} h ${String(Math.floor((s % 3_600) / 60)).padStart(2, '0')} min`
}

/** The progress text: `replaying block 12000 of 20000 (60.0%), 9512 blocks/s, 0.8 s left`. */
export function progressText(p: ReplayProgress, nowMs: number): string {
  const total = p.targetHeight - p.fromHeight
  const done = p.replayedHeight - p.fromHeight
  const seconds = (nowMs - p.startedMs) / 1000
  const rate = seconds > 0 ? done / seconds : 0
  const pct = total > 0 ? ((100 * done) / total).toFixed(1) : '100.0'
  const left = rate > 0 ? formatDuration(((p.targetHeight - p.replayedHeight) / rate) * 1000) : '?'
  return `replaying block ${p.replayedHeight} of ${p.targetHeight} (${pct}%), ${Math.round(rate)} blocks/s, ${left} left`
}

/**
 * A progress callback for ChainNode.recover(): call it with each progress report; its `done()`
 * clears the terminal line once the replay ends.
 */
export function replayReporter(options: ReplayReporterOptions): { report: (p: ReplayProgress) => void; done: () => void } {
  const now = options.now ?? (() => performance.now())
  const logEvery = options.logEveryMs ?? 5_000
  const redrawEvery = options.redrawEveryMs ?? 100
  let last = -Infinity
  let drawn = false
  return {
    report(p) {
      const t = now()
      if (t - p.startedMs < QUIET_BELOW_MS || p.replayedHeight >= p.targetHeight) return
      if (t - last < (options.tty ? redrawEvery : logEvery)) return
      last = t
      if (options.tty) {
        // \r and "erase line": the line is redrawn in place.
        options.write(`\r\x1b[2K${progressText(p, t)}`)
        drawn = true
      } else {
        options.log(progressText(p, t))
      }
    },
    done() {
      if (drawn) options.write('\r\x1b[2K')
      drawn = false
    },
  }
}
