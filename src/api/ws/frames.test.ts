// Split frames (docs/websocket.md#split-frames): a push whose frame would pass the frame limit goes
// out as parts, each within the limit, that the client library puts back together exactly; the hub
// sends a deep book and a big blocks.live that way, with consecutive seqs; external_quote is pushed
// every block with the quote's age.
import { describe, expect, test } from 'bun:test'
import { ALICE, BOB, BTC, place, XAU } from '../../../test/support/chain/test-chain.ts'
import { FeedHarness } from '../../../test/support/feed.ts'
import { mergeParts, type WsFrame } from '../../client/ws-client.ts'
import { DEV_QUOTER } from '../../node/dev-genesis.ts'
import type { WsTransport } from './connection.ts'
import { FRAME_PREFIX_BYTES_MAX, framesOf, push } from './frames.ts'
import { WsHub } from './hub.ts'
import { WS_LIMITS_DEFAULT } from './limits.ts'

const bytes = (s: string) => Buffer.byteLength(s, 'utf8')
/** Whole frames as the hub would send them: `{"seq":N,"topic":T,` and each part. */
const asFrames = (parts: string[], topic = 'x', seq = 1) => parts.map((p, i) => `{"seq":${seq + i},"topic":${JSON.stringify(topic)},${p}`)

describe('framesOf', () => {
  test('a body that fits is one frame, unchanged; one that does not is split into parts within the limit', () => {
    const small = push({ height: 7, rows: [1, 2, 3] }, ['rows'])
    expect(framesOf(small, 65_536)).toEqual([small.rest])
    const rows = Array.from({ length: 3_000 }, (_, i) => ({ i, text: `row ${i} ${'x'.repeat(40)}` }))
    const body = { height: 7, timestamp_ms: 1_000, rows, tail: 'kept' }
    const big = push(body, ['rows'])
    expect(bytes(big.rest)).toBeGreaterThan(65_536)
    const parts = framesOf(big, 65_536)
    expect(parts.length).toBeGreaterThan(1)
    const frames = asFrames(parts, 'x'.repeat(128)).map((t) => JSON.parse(t) as WsFrame)
    for (const t of asFrames(parts, 'x'.repeat(128))) expect(bytes(t)).toBeLessThanOrEqual(65_536)
    frames.forEach((f, i) => {
      expect(Object.keys(f)).toEqual(['seq', 'topic', 'part', 'parts', 'height', 'timestamp_ms', 'rows', 'tail'])
      expect(f).toMatchObject({ part: i + 1, parts: parts.length, height: 7, timestamp_ms: 1_000, tail: 'kept' })
      expect((f.rows as unknown[]).length).toBeGreaterThan(0)
    })
    const { seq: _s, topic: _t, ...merged } = mergeParts(frames)
    expect(merged).toEqual(body)
  })

  test('UTF-8 bytes count, not characters: multi-byte text splits where ASCII of the same length would not', () => {
    const rows = Array.from({ length: 400 }, () => 'é'.repeat(100))
    const p = push({ rows }, ['rows'])
    expect(p.rest.length).toBeLessThan(65_536 - FRAME_PREFIX_BYTES_MAX)
    const parts = framesOf(p, 65_536)
    expect(parts.length).toBe(2)
    for (const t of asFrames(parts)) expect(bytes(t)).toBeLessThanOrEqual(65_536)
    expect(mergeParts(asFrames(parts).map((t) => JSON.parse(t))).rows).toEqual(rows)
  })

  test('two lists split in order (bids, then asks); maps split between entries', () => {
    const level = (i: number) => ({ price: String(1000 - i), qty: '1.5', cumulative_qty: String(1.5 * (i + 1)) })
    const book = {
      symbol: 'BTC-USD',
      height: 3,
      bids: Array.from({ length: 60 }, (_, i) => level(i)),
      asks: Array.from({ length: 60 }, (_, i) => level(-i)),
    }
    const parts = framesOf(push(book, ['bids', 'asks']), FRAME_PREFIX_BYTES_MAX + 1_000).map((p) => JSON.parse(`{${p}`) as WsFrame)
    expect(parts.length).toBeGreaterThan(4)
    // Every bid comes before every ask: once a part has asks, no later part has bids.
    const firstAsks = parts.findIndex((p) => (p.asks as unknown[]).length > 0)
    expect(parts.slice(firstAsks + 1).every((p) => (p.bids as unknown[]).length === 0)).toBe(true)
    expect(parts.slice(0, firstAsks).every((p) => (p.asks as unknown[]).length === 0)).toBe(true)
    expect(mergeParts(parts)).toMatchObject({ bids: book.bids, asks: book.asks })

    const marks = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`M${i}-USD`, `${i}.5`]))
    const mapParts = framesOf(push({ height: 1, marks }, ['marks']), FRAME_PREFIX_BYTES_MAX + 500).map(
      (p) => JSON.parse(`{${p}`) as WsFrame,
    )
    expect(mapParts.length).toBeGreaterThan(2)
    expect(mergeParts(mapParts).marks).toEqual(marks)
  })
})

class Socket implements WsTransport {
  readonly texts: string[] = []
  send(data: string): number {
    this.texts.push(data)
    return 1
  }
  getBufferedAmount = () => 0
  ping() {}
  close() {}
  terminate() {}
}

function setup(frameBytesMax: number) {
  const h = new FeedHarness()
  const hub = new WsHub(h.feed, h.source, { ...WS_LIMITS_DEFAULT, frameBytesMax }, { now: () => 0, log: () => {} })
  const s = new Socket()
  const conn = hub.open(s)!
  return { h, hub, s, conn, frames: () => s.texts.map((t) => JSON.parse(t) as WsFrame) }
}

describe('WsHub split pushes', () => {
  test('a book snapshot larger than a frame: parts with part/parts, one height and state_hash, consecutive seqs, that reassemble to the snapshot', () => {
    const { h, hub, s, conn, frames } = setup(4_096)
    const levels = (side: 'Bid' | 'Ask', by: string) =>
      Array.from({ length: 120 }, (_, i) => ({ by, action: place(BTC, side, String(side === 'Bid' ? 60_000 - i : 70_000 + i), '0.0123') }))
    h.block([...levels('Bid', ALICE), ...levels('Ask', BOB)])
    hub.message(conn, JSON.stringify({ op: 'subscribe', topics: ['book.BTC.500'] }))
    const snap = frames().slice(1)
    expect(snap.length).toBeGreaterThan(3)
    for (const t of s.texts) expect(bytes(t)).toBeLessThanOrEqual(4_096)
    expect(snap.map((f) => [f.seq, f.part, f.parts])).toEqual(snap.map((_, i) => [i + 2, i + 1, snap.length]))
    expect(new Set(snap.map((f) => `${f.height}|${f.timestamp_ms}|${f.state_hash}|${f.symbol}`)).size).toBe(1)
    const whole = mergeParts(snap)
    const book = h.feed.orderbook(h.feed.market(BTC)!, 500)
    expect({ bids: whole.bids, asks: whole.asks }).toEqual({ bids: book.bids, asks: book.asks })
    expect(whole.state_hash).toBe(
      `0x${new Bun.CryptoHasher('sha256').update(JSON.stringify({ bids: whole.bids, asks: whole.asks })).digest('hex')}`,
    )

    // A change: the next snapshot is split again, its parts right after one another.
    const before = s.texts.length
    hub.onBlock(h.block([{ by: ALICE, action: place(BTC, 'Bid', '60001', '1') }]).delta)
    const next = frames().slice(before)
    expect(next.map((f) => f.part)).toEqual(next.map((_, i) => i + 1))
    expect(next.map((f) => f.seq)).toEqual(next.map((_, i) => (snap.at(-1)!.seq as number) + 1 + i))
    expect((mergeParts(next).bids as { price: string }[])[0]!.price).toBe('60001')
  })

  test('blocks.live of a big block: envelopes across parts, the header and watermarks in each', () => {
    const { h, hub, s, conn, frames } = setup(8_192)
    hub.message(conn, JSON.stringify({ op: 'subscribe', topics: ['blocks.live', 'block'] }))
    const { delta } = h.block(
      Array.from({ length: 100 }, (_, i) => ({ by: i % 2 === 0 ? ALICE : BOB, action: place(BTC, 'Bid', String(50_000 + i), '0.01') })),
    )
    hub.onBlock(delta)
    const live = frames().filter((f) => f.topic === 'blocks.live')
    expect(live.length).toBeGreaterThan(2)
    for (const t of s.texts) expect(bytes(t)).toBeLessThanOrEqual(8_192)
    for (const f of live)
      expect(Object.keys(f)).toEqual([
        'seq',
        'topic',
        'part',
        'parts',
        'block',
        'envelopes',
        'watermark',
        'block_count',
        'node_tip',
        'behind',
      ])
    expect(new Set(live.map((f) => JSON.stringify(f.block))).size).toBe(1)
    const whole = mergeParts(live)
    expect((whole.envelopes as { envelope_idx: number }[]).map((e) => e.envelope_idx)).toEqual(Array.from({ length: 100 }, (_, i) => i))
    // `block`, then the parts of blocks.live back to back close the block's frames.
    expect(frames().map((f) => f.topic ?? f.op)).toEqual(['subscribed', 'block', ...live.map(() => 'blocks.live')])
    expect(frames().map((f) => f.seq)).toEqual(frames().map((_, i) => i + 1))
  })

  test('replies stay within the frame limit too: a confirmation crammed with rejections, huge topics and ops', () => {
    const { hub, s, conn, frames } = setup(65_536)
    // 9,000 one-character topics fit in one client frame; their rejections would not fit in one reply.
    hub.message(
      conn,
      JSON.stringify({
        op: 'subscribe',
        topics: [...Array.from({ length: 9_000 }, (_, i) => String.fromCharCode(0x41 + (i % 26))), 'block'],
      }),
    )
    const confirmed = frames()[0]!
    expect(confirmed.topics).toEqual(['block'])
    const rejected = confirmed.rejected as string[]
    expect(rejected[0]).toBe('A: unknown topic')
    expect(rejected.at(-1)).toBe(
      `0 more topics and ${9_000 - (rejected.length - 1)} more rejections not listed: the frame limit is 65536 bytes`,
    )
    hub.message(conn, JSON.stringify({ op: 'subscribe', topics: [{ huge: 'x'.repeat(70_000) }] }))
    expect((frames()[1]!.rejected as string[])[0]!.length).toBeLessThan(200)
    hub.message(conn, JSON.stringify({ op: 'y'.repeat(70_000), topics: [] }))
    expect((frames()[2]!.message as string).length).toBeLessThan(200)
    for (const t of s.texts) expect(bytes(t)).toBeLessThanOrEqual(65_536)
  })

  test('external_quote is pushed every block once there is a quote, with age_ms = block time - source_ts_ms', () => {
    const { h, hub, conn, frames } = setup(65_536)
    hub.message(conn, JSON.stringify({ op: 'subscribe', topics: ['external_quote.XAU'] }))
    hub.onBlock(h.block([]).delta)
    expect(frames().filter((f) => f.topic === 'external_quote.XAU')).toEqual([])
    const ts = h.chain.state.timestampMs + 1_000
    hub.onBlock(
      h.block([
        {
          by: DEV_QUOTER,
          action: {
            SubmitOracleQuote: {
              quotes: [
                {
                  market_id: XAU,
                  bid_price: '2400.1',
                  ask_price: '2400.5',
                  mark_price: '2400.3',
                  source_ts_ms: ts,
                  last_price: '2400.2',
                  volume: '3',
                },
              ],
            },
          },
        },
      ]).delta,
    )
    for (let i = 0; i < 3; i++) hub.onBlock(h.block([]).delta)
    const quotes = frames().filter((f) => f.topic === 'external_quote.XAU')
    expect(quotes.map((f) => f.age_ms)).toEqual([0, 1_000, 2_000, 3_000])
    expect(quotes.map((f) => f.height)).toEqual([2, 3, 4, 5])
    for (const f of quotes) {
      expect(f.quote).toEqual({
        bid_price: '2400.1',
        ask_price: '2400.5',
        mark_price: '2400.3',
        source_ts_ms: ts,
        quoter: DEV_QUOTER,
        last_price: '2400.2',
        volume: '3',
      })
      expect(f.age_ms).toBe((f.timestamp_ms as number) - ts)
    }
  })
})
