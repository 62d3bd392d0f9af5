// Backpressure on a real node (docs/limits.md#websocket): a client that stops reading fills the
// socket, then the connection's bounded outbox; its frames are dropped and a gap frame (with the
// next seq) says so. A client that takes nothing for the send timeout is cut as a slow consumer.
// The node runs with a small outbox and a 2 s send timeout (--ws-limits).
import { describe, expect, test } from 'bun:test'
import { startDevNodeForFile } from '../support/dev-node.ts'
import { RawWs, until } from './ws-support.ts'

const SEND_TIMEOUT_MS = 2_000

const { node } = await startDevNodeForFile({
  blockTimeMs: 50,
  extraArgs: ['--ws-limits', `outbox_frames=8,send_timeout_ms=${SEND_TIMEOUT_MS}`],
})

/** 1,000 account topics: every subscribe answers with 1,000 snapshots (about 300 KB). */
const ACCOUNT_TOPICS = Array.from({ length: 1_000 }, (_, i) => `account.${(i + 1).toString(16).padStart(40, '0')}`)
const SUBSCRIBE = JSON.stringify({ op: 'subscribe', topics: ACCOUNT_TOPICS })

/** Subscribes sent while not reading: about 12 MB of snapshots, far beyond the socket buffers (about 4 MB). */
const FLOOD_SUBSCRIBES = 40

async function flood(raw: RawWs): Promise<void> {
  for (let i = 0; i < FLOOD_SUBSCRIBES; i++) {
    raw.sendText(SUBSCRIBE)
    await Bun.sleep(5)
  }
  await Bun.sleep(300)
}

describe('slow consumers', () => {
  test('a client that stops reading gets a gap frame in place of the dropped frames, and seq stays monotonic', async () => {
    const raw = await RawWs.open(node.url)
    raw.pause()
    await flood(raw)
    raw.resume()
    const frames = await until(
      () => {
        const all = raw.frames()
        const last = all.at(-1)
        // Settled: the last subscribe's last snapshot (or a gap after it) has arrived.
        return last !== undefined && all.some((f) => f.type === 'gap') && last.topic === ACCOUNT_TOPICS.at(-1) && all.length > 1_000
          ? all
          : undefined
      },
      10_000,
      'the gap and the last snapshot',
    )
    expect(raw.ended).toBe(false)
    const gaps = frames.filter((f) => f.type === 'gap')
    expect(gaps.length).toBeGreaterThan(0)
    expect(Object.keys(gaps[0]!).sort()).toEqual(['seq', 'type'])
    const seqs = frames.map((f) => f.seq as number)
    expect(seqs.every((s, i) => i === 0 || s > seqs[i - 1]!)).toBe(true)
    // Frames were dropped: the seq jumps right before a gap frame.
    const at = frames.indexOf(gaps[0]!)
    expect(frames[at]!.seq - frames[at - 1]!.seq).toBeGreaterThan(1)
    expect(frames.length).toBeLessThan(FLOOD_SUBSCRIBES * 1_001)
    raw.destroy()
  }, 15_000)

  test(`a client that takes nothing for ${SEND_TIMEOUT_MS} ms is cut as a slow consumer`, async () => {
    const raw = await RawWs.open(node.url)
    raw.pause()
    await flood(raw)
    await Bun.sleep(SEND_TIMEOUT_MS + 1_200)
    raw.resume()
    await until(() => raw.ended, 5_000, 'the cut')
    expect(node.output()).toContain('(slow consumer)')
  }, 15_000)
})
