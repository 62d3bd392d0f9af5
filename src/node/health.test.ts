// The probe states of NodeHealth (docs/operations.md#health): which status, which HTTP code on each
// probe, which body, and what the other routes are told, from recovering to ok, degraded and halted.
import { expect, test } from 'bun:test'
import { NodeHealth } from './health.ts'
import { progressText, replayReporter } from './replay-progress.ts'

function clocks() {
  const c = { wall: 1_000_000, perf: 0 }
  return {
    c,
    health: new NodeHealth(
      () => c.wall,
      () => c.perf,
    ),
  }
}

test('recovering: 503 on /health, 200 on /health/live, replay progress in the body, the other routes gated', () => {
  const { c, health } = clocks()
  expect(health.status).toBe('recovering')
  health.replaying({ replayedHeight: 100, targetHeight: 100, fromHeight: 100, startedMs: 0 })
  c.perf = 2_000
  health.replaying({ replayedHeight: 2_100, targetHeight: 10_100, fromHeight: 100, startedMs: 0 })
  expect(health.httpStatus('ready')).toBe(503)
  expect(health.httpStatus('live')).toBe(200)
  expect(health.body(2_100)).toEqual({
    status: 'recovering',
    height: 2_100,
    store_dirty: false,
    reasons: [],
    replayed_height: 2_100,
    target_height: 10_100,
    blocks_per_sec: 1_000,
    eta_ms: 8_000,
  })
  const gate = health.gate()!
  expect(gate.reason).toBe('RECOVERING')
  expect(gate.retryAfterMs).toBe(8_000)
  expect(gate.message).toContain('block 2100 of 10100')
})

test('ok once ready; degraded while a problem lasts, with its reasons; ok again when it clears', () => {
  const { c, health } = clocks()
  health.ready()
  expect(health.status).toBe('ok')
  expect(health.gate()).toBeUndefined()
  expect(health.httpStatus('ready')).toBe(200)
  expect(health.body(7)).toEqual({ status: 'ok', height: 7, store_dirty: false, reasons: [] })

  expect(health.setProblem('INDEXER_LAGGING', 'behind\n  at some stack frame')).toBe(true)
  c.wall += 5_000
  expect(health.setProblem('INDEXER_LAGGING', 'further behind')).toBe(false)
  health.setProblem('FEED_STALE', 'x'.repeat(1_000))
  expect(health.status).toBe('degraded')
  expect(health.httpStatus('ready')).toBe(503)
  expect(health.httpStatus('live')).toBe(200)
  expect(health.gate()).toBeUndefined()
  const reasons = health.body(8).reasons
  expect(reasons.map((r) => r.code)).toEqual(['INDEXER_LAGGING', 'FEED_STALE'])
  // The first time it was seen is kept; the message is the latest, one line, bounded.
  expect(reasons[0]).toEqual({ code: 'INDEXER_LAGGING', message: 'further behind', since_ms: 1_000_000 })
  expect(reasons[1]!.message.length).toBeLessThanOrEqual(300)

  health.clearProblem('INDEXER_LAGGING')
  health.clearProblem('FEED_STALE')
  expect(health.status).toBe('ok')
})

test('halted: 503 on both probes, store_dirty, the halt last in reasons, the other routes gated', () => {
  const { health } = clocks()
  health.ready()
  health.setProblem('INDEXER_STOPPED', 'the indexer thread exited')
  health.halted('STORE_WRITE_FAILED', 'block 12 was applied but not stored (database or disk is full)', true)
  // A second report does not replace the first cause.
  health.halted('BLOCK_PRODUCTION_FAILED', 'later', false)
  expect(health.status).toBe('halted')
  expect(health.httpStatus('ready')).toBe(503)
  expect(health.httpStatus('live')).toBe(503)
  const body = health.body(12)
  expect(body.store_dirty).toBe(true)
  expect(body.reasons.map((r) => r.code)).toEqual(['INDEXER_STOPPED', 'STORE_WRITE_FAILED'])
  expect(health.gate()?.reason).toBe('HALTED')
  // Ready after a halt does not make it serve again.
  health.ready()
  expect(health.status).toBe('halted')
})

test("halted at a height: the probes show the block the halt names, not the state's", () => {
  const { health } = clocks()
  // Replay on the state-root thread applied block 151 before it found block 150's root different.
  health.halted('REPLAY_FAILED', 'the stored chain does not replay: replay of block 150 reached state_root 0x01, stored 0x02', false, 150)
  health.halted('BLOCK_PRODUCTION_FAILED', 'later', false, 160)
  expect(health.body(151)).toMatchObject({ status: 'halted', height: 150, store_dirty: false })
  expect(health.body(151).reasons.map((r) => r.code)).toEqual(['REPLAY_FAILED'])
})

test('replay progress: one line redrawn in place on a terminal, a log line every few seconds otherwise', () => {
  let now = 0
  const written: string[] = []
  const logged: string[] = []
  const p = (h: number) => ({ replayedHeight: h, targetHeight: 10_000, fromHeight: 0, startedMs: 0 })
  const tty = replayReporter({ tty: true, write: (t) => written.push(t), log: (l) => logged.push(l), now: () => now })
  now = 500
  tty.report(p(500)) // under a second in: nothing yet
  for (now = 1_000; now <= 3_000; now += 50) tty.report(p(now))
  tty.done()
  expect(logged).toEqual([])
  expect(written.length).toBeGreaterThanOrEqual(15)
  expect(written[0]).toBe(`\r\x1b[2K${progressText(p(1_000), 1_000)}`)
  expect(written[0]).toContain('replaying block 1000 of 10000 (10.0%), 1000 blocks/s, 9.0 s left')
  expect(written.at(-1)).toBe('\r\x1b[2K')

  const plain = replayReporter({ tty: false, write: (t) => written.push(t), log: (l) => logged.push(l), now: () => now, logEveryMs: 5_000 })
  written.length = 0
  for (now = 0; now <= 12_000; now += 50) plain.report(p(Math.min(now / 2, 10_000)))
  plain.done()
  expect(written).toEqual([])
  expect(logged).toEqual([progressText(p(500), 1_000), progressText(p(3_000), 6_000), progressText(p(5_500), 11_000)])
})
