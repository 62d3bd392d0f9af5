// WsConnection's outbox against a scripted socket: frames pass straight through until the socket
// reports backpressure, then wait in order; a full outbox is dropped for one gap frame; drain flushes.
import { describe, expect, test } from 'bun:test'
import { WsConnection, type WsTransport } from './connection.ts'
import { WS_LIMITS_DEFAULT } from './limits.ts'

class ScriptedSocket implements WsTransport {
  readonly sent: string[] = []
  /** Results of the next sends: 1 (taken), -1 (taken into a full buffer), 0 (dropped). */
  results: number[] = []
  buffered = 0
  closed: string | undefined
  send(data: string): number {
    this.sent.push(data)
    return this.results.shift() ?? 1
  }
  getBufferedAmount(): number {
    return this.buffered
  }
  ping(): void {}
  close(code?: number, reason?: string): void {
    this.closed = `${code} ${reason}`
  }
  terminate(): void {
    this.closed = 'terminated'
  }
}

const limits = { ...WS_LIMITS_DEFAULT, outboxFramesMax: 3 }
const seqOf = (frame: string) => (JSON.parse(frame) as { seq: number }).seq

describe('WsConnection outbox', () => {
  test('frames go straight to the socket with seq 1, 2, 3', () => {
    const s = new ScriptedSocket()
    const c = new WsConnection(s, limits, () => 0)
    for (let i = 0; i < 3; i++) c.deliverRest('"topic":"block"}')
    expect(s.sent.map(seqOf)).toEqual([1, 2, 3])
    expect(c.blockedSinceMs).toBeNull()
  })

  test('after backpressure frames wait in order and drain flushes them', () => {
    let now = 100
    const s = new ScriptedSocket()
    const c = new WsConnection(s, limits, () => now)
    s.results = [-1]
    s.buffered = 10
    c.deliverRest('"a":1}')
    expect(c.blockedSinceMs).toBe(100)
    c.deliverRest('"a":2}')
    c.deliverRest('"a":3}')
    expect(s.sent).toHaveLength(1)
    expect(c.queued).toBe(2)
    now = 150
    s.buffered = 0
    c.drain()
    expect(s.sent.map(seqOf)).toEqual([1, 2, 3])
    expect(c.queued).toBe(0)
    expect(c.blockedSinceMs).toBeNull()
  })

  test('a full outbox is dropped for one gap frame carrying the next seq; later frames follow it', () => {
    const s = new ScriptedSocket()
    const c = new WsConnection(s, limits, () => 0)
    s.results = [-1]
    s.buffered = 1
    for (let i = 0; i < 6; i++) c.deliverRest(`"i":${i}}`)
    // seq 1 went out; 2, 3, 4 waited; the 5th frame found the outbox full: 2..4 dropped, gap seq 5, then 6 and 7.
    s.buffered = 0
    c.drain()
    expect(s.sent).toEqual(['{"seq":1,"i":0}', '{"type":"gap","seq":5}', '{"seq":6,"i":4}', '{"seq":7,"i":5}'])
    expect([c.dropped, c.gaps]).toEqual([3, 1])
  })

  test('a drain that fills the socket again keeps the rest waiting and restarts the send clock', () => {
    let now = 0
    const s = new ScriptedSocket()
    const c = new WsConnection(s, limits, () => now)
    s.results = [-1]
    c.deliverRest('"i":0}')
    c.deliverRest('"i":1}')
    c.deliverRest('"i":2}')
    now = 40
    s.results = [-1]
    c.drain()
    expect(s.sent.map(seqOf)).toEqual([1, 2])
    expect(c.queued).toBe(1)
    expect(c.blockedSinceMs).toBe(40)
  })

  test('closed connections take no frames', () => {
    const s = new ScriptedSocket()
    const c = new WsConnection(s, limits, () => 0)
    c.close(1001, 'idle')
    c.deliverRest('"i":0}')
    expect(s.sent).toEqual([])
    expect(s.closed).toBe('1001 idle')
  })
})
