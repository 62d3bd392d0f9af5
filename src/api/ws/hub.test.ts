// WsHub on a fake clock and scripted sockets: the timers (heartbeat, idle timeout, slow consumer,
// account fallback), the connection limit, one corked write per connection per block (visiting
// only the connections with frames), and the gap frame every connection gets when the feed had to
// be rebuilt.
import { describe, expect, test } from 'bun:test'
import { ALICE, BTC, place } from '../../../test/support/chain/test-chain.ts'
import { FeedHarness } from '../../../test/support/feed.ts'
import { HotFeed } from '../../feed/hot-feed.ts'
import { WsConnection, type WsTransport } from './connection.ts'
import { CLOSE_IDLE, CLOSE_TOO_MANY, WsHub } from './hub.ts'
import { WS_LIMITS_DEFAULT } from './limits.ts'

class Socket implements WsTransport {
  readonly frames: Record<string, any>[] = []
  pings = 0
  corks = 0
  result = 1
  closed: number | 'terminated' | undefined
  send(data: string): number {
    this.frames.push(JSON.parse(data))
    return this.result
  }
  getBufferedAmount(): number {
    return this.result === -1 ? 1 : 0
  }
  ping(): void {
    this.pings++
  }
  close(code?: number): void {
    this.closed = code
  }
  terminate(): void {
    this.closed = 'terminated'
  }
  cork(callback: () => void): void {
    this.corks++
    callback()
  }
}

/** A node's settled reads (ChainNode.whenSettled) driven by the test: open() a block, settle() it. */
function scriptedReads() {
  let waiters: (() => void)[] | undefined
  return {
    isSettled: () => waiters === undefined,
    whenSettled: () => (waiters === undefined ? undefined : new Promise<void>((resolve) => waiters!.push(resolve))),
    open: () => {
      waiters = []
    },
    settle: () => {
      const w = waiters ?? []
      waiters = undefined
      for (const resolve of w) resolve()
    },
  }
}

function setup(limits = {}, reads?: ReturnType<typeof scriptedReads>) {
  const h = new FeedHarness()
  let now = 0
  const logs: string[] = []
  const hub = new WsHub(h.feed, h.source, { ...WS_LIMITS_DEFAULT, ...limits }, { now: () => now, log: (l) => logs.push(l), reads })
  const open = () => {
    const s = new Socket()
    return { s, conn: hub.open(s)! }
  }
  return {
    h,
    hub,
    open,
    logs,
    at: (ms: number) => {
      now = ms
      hub.tick()
    },
  }
}

describe('WsHub timers', () => {
  test('pings every ping interval; a connection silent past the idle timeout is closed with 1001', () => {
    const { hub, open, at } = setup({ pingIntervalMs: 15_000, idleTimeoutMs: 30_000 })
    const a = open()
    const b = open()
    at(15_000)
    expect([a.s.pings, b.s.pings]).toEqual([1, 1])
    hub.activity(b.conn) // b answers (pong)
    at(30_001)
    expect(a.s.closed).toBe(CLOSE_IDLE)
    expect(b.s.closed).toBeUndefined()
    expect(hub.connectionCount).toBe(1)
  })

  test('a socket that takes nothing for the send timeout is cut as a slow consumer', () => {
    const { hub, open, at, logs } = setup({ sendTimeoutMs: 5_000, idleTimeoutMs: 60_000 })
    const a = open()
    a.s.result = -1
    hub.message(a.conn, JSON.stringify({ op: 'subscribe', topics: ['block'] }))
    at(4_000)
    expect(a.s.closed).toBeUndefined()
    at(5_001)
    expect(a.s.closed).toBe('terminated')
    expect(logs.join()).toContain('slow consumer')
  })

  test('account topics are pushed again on the fallback interval', () => {
    const { hub, open, at } = setup({ accountRefreshMs: 3_000 })
    const a = open()
    hub.message(a.conn, JSON.stringify({ op: 'subscribe', topics: [`account.${ALICE}`] }))
    expect(a.s.frames.map((f) => f.topic ?? f.op)).toEqual(['subscribed', `account.${ALICE}`])
    at(2_999)
    expect(a.s.frames).toHaveLength(2)
    at(3_000)
    expect(a.s.frames.at(-1)).toMatchObject({ seq: 3, topic: `account.${ALICE}`, address: ALICE })
  })

  test('while the node holds a block open, a subscription and the account re-pushes wait for it', async () => {
    const reads = scriptedReads()
    const { hub, open, at } = setup({ accountRefreshMs: 3_000 }, reads)
    const a = open()
    hub.message(a.conn, JSON.stringify({ op: 'subscribe', topics: [`account.${ALICE}`] }))
    expect(a.s.frames).toHaveLength(2)
    reads.open()
    at(3_000)
    const b = open()
    hub.message(b.conn, JSON.stringify({ op: 'subscribe', topics: [`account.${ALICE}`] }))
    await Bun.sleep(0)
    expect(a.s.frames).toHaveLength(2)
    expect(b.s.frames).toHaveLength(0)
    // A subscribe then an unsubscribe sent while the block is open: handled in that order after it.
    const c = open()
    hub.message(c.conn, JSON.stringify({ op: 'subscribe', topics: ['block'] }))
    hub.message(c.conn, JSON.stringify({ op: 'unsubscribe', topics: ['block'] }))
    reads.settle()
    await Bun.sleep(0)
    expect(b.s.frames.map((f) => f.topic ?? f.op)).toEqual(['subscribed', `account.${ALICE}`])
    expect(c.s.frames.map((f) => f.op)).toEqual(['subscribed', 'unsubscribed'])
    // The re-push skipped while the block was open comes at the next tick.
    at(3_001)
    expect(a.s.frames.at(-1)).toMatchObject({ topic: `account.${ALICE}`, address: ALICE })
    expect(a.s.frames).toHaveLength(3)
  })

  test('the accounts the hot feed is asked about: those of the per-account topics held, whoever holds them, until the last is dropped', () => {
    const { hub, open } = setup()
    const interest = hub.accountInterest
    const bob = `0x${'b0'.repeat(20)}`
    const watchedNow = () =>
      [ALICE, bob].flatMap((a) =>
        (['orderUpdates', 'triggerUpdates', 'userFills'] as const).filter((t) => interest[t](a)).map((t) => `${t}:${a}`),
      )
    expect(watchedNow()).toEqual([])
    const a = open()
    const b = open()
    // Two spellings of one address (with and without 0x, upper case) and two connections.
    hub.message(
      a.conn,
      JSON.stringify({
        op: 'subscribe',
        topics: [`orderUpdates.${ALICE}`, `orderUpdates.${ALICE.slice(2).toUpperCase()}`, `userFills.${bob}`],
      }),
    )
    hub.message(b.conn, JSON.stringify({ op: 'subscribe', topics: [`orderUpdates.${ALICE}`, `triggerUpdates.${bob}`, `account.${ALICE}`] }))
    expect(watchedNow()).toEqual([`orderUpdates:${ALICE}`, `triggerUpdates:${bob}`, `userFills:${bob}`])
    hub.message(a.conn, JSON.stringify({ op: 'unsubscribe', topics: [`userFills.${bob}`] }))
    expect(watchedNow()).toEqual([`orderUpdates:${ALICE}`, `triggerUpdates:${bob}`])
    hub.closed(b.conn)
    expect(watchedNow()).toEqual([`orderUpdates:${ALICE}`])
    hub.message(a.conn, JSON.stringify({ op: 'subscribe', topics: ['block'] }))
    expect(watchedNow()).toEqual([])
  })

  test('past the connection limit a socket is closed with 1013', () => {
    const { hub } = setup({ connectionsMax: 2 })
    hub.open(new Socket())
    hub.open(new Socket())
    const third = new Socket()
    expect(hub.open(third)).toBeUndefined()
    expect(third.closed).toBe(CLOSE_TOO_MANY)
  })
})

describe('WsHub blocks', () => {
  test("a block's frames reach each connection in one corked write, in order, with consecutive seq", () => {
    const { h, hub, open } = setup()
    const a = open()
    hub.message(a.conn, JSON.stringify({ op: 'subscribe', topics: ['book.BTC', 'trades.BTC', 'block', `orderUpdates.${ALICE}`] }))
    const before = a.s.corks
    const { delta } = h.block([{ by: ALICE, action: place(BTC, 'Bid', '64000', '0.1') }])
    hub.onBlock(delta)
    expect(a.s.corks).toBe(before + 1)
    expect(a.s.frames.map((f) => f.topic ?? f.op)).toEqual(['subscribed', 'book.BTC', 'book.BTC', `orderUpdates.${ALICE}`, 'block'])
    expect(a.s.frames.map((f) => f.seq)).toEqual([1, 2, 3, 4, 5])
  })

  test('a batch holds frames until it ends and visits only the connections that have some', () => {
    const { hub, open } = setup()
    const idle = Array.from({ length: 500 }, () => open())
    const busy = open()
    hub.message(busy.conn, JSON.stringify({ op: 'subscribe', topics: ['marks'] }))
    const framesBefore = busy.s.frames.length
    const flushed: unknown[] = []
    const flushBatch = WsConnection.prototype.flushBatch
    WsConnection.prototype.flushBatch = function (this: WsConnection) {
      flushed.push(this)
      flushBatch.call(this)
    }
    try {
      hub.startBatches()
      busy.conn.deliverRest('"op":"test","n":1}')
      busy.conn.deliverRest('"op":"test","n":2}')
      expect(busy.s.frames.length).toBe(framesBefore)
      hub.endBatches()
    } finally {
      WsConnection.prototype.flushBatch = flushBatch
    }
    expect(flushed).toEqual([busy.conn])
    expect(busy.s.frames.slice(framesBefore).map((f) => f.n)).toEqual([1, 2])
    expect(busy.s.corks).toBe(1)
    for (const { s } of idle) expect(s.corks).toBe(0)
    // Outside a batch a frame goes out at once.
    busy.conn.deliverRest('"op":"test","n":3}')
    expect(busy.s.frames.at(-1)?.n).toBe(3)
  })

  test('when the feed is rebuilt every connection gets a gap frame', () => {
    const { h, hub, open } = setup()
    const a = open()
    hub.message(a.conn, JSON.stringify({ op: 'subscribe', topics: ['marks'] }))
    const feed = new HotFeed(h.source)
    feed.seed()
    hub.replaceFeed(feed)
    expect(a.s.frames.at(-1)).toEqual({ type: 'gap', seq: 3 })
  })

  test('blocks.live following the history index: each block once the index has ingested it', () => {
    const { h, hub, open } = setup()
    const a = open()
    hub.message(a.conn, JSON.stringify({ op: 'subscribe', topics: ['blocks.live'] }))
    hub.followIngest(0)
    for (let i = 0; i < 3; i++) hub.onBlock(h.block([]).delta)
    expect(a.s.frames).toHaveLength(1)
    const status = (w: number) => ({ watermark: w, block_count: w, node_tip: 3, behind: 3 - w })
    hub.ingested(2, status(2))
    expect(a.s.frames.slice(1).map((f) => [f.block.height, f.watermark, f.behind])).toEqual([
      [1, 2, 1],
      [2, 2, 1],
    ])
    hub.ingested(3, status(3))
    expect(a.s.frames.slice(1).map((f) => f.block.height)).toEqual([1, 2, 3])
    expect(a.s.frames.map((f) => f.seq)).toEqual([1, 2, 3, 4])
  })
})
