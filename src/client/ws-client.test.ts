// PerpdWsClient against a scripted server: resubscription after a disconnect, seq-gap and gap-frame
// detection, and the resync hooks; OpenOrderSet's maintenance rules with a scripted getAccountOrders.
import { afterEach, describe, expect, test } from 'bun:test'
import type { RpcClient } from './rpc-client.ts'
import { OpenOrderSet, PerpdWsClient, type ResyncReason, subtractDecimal } from './ws-client.ts'

interface Conn {
  ws: import('bun').ServerWebSocket<unknown>
  seq: number
  subscribes: string[][]
}

/** A server that confirms every subscribe with the next seq and lets the test push frames. */
function scriptedServer() {
  const conns: Conn[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req, s) {
      if (s.upgrade(req, { data: undefined })) return undefined
      return new Response('no', { status: 400 })
    },
    websocket: {
      open(ws) {
        conns.push({ ws, seq: 0, subscribes: [] })
      },
      message(ws, msg) {
        const c = conns.find((x) => x.ws === ws)!
        const f = JSON.parse(String(msg)) as { op: string; topics: string[] }
        if (f.op === 'subscribe') {
          c.subscribes.push(f.topics)
          ws.send(JSON.stringify({ seq: ++c.seq, op: 'subscribed', topics: f.topics }))
        }
      },
    },
  })
  const push = (c: Conn, frame: Record<string, unknown>, seq = ++c.seq) => {
    c.seq = seq
    c.ws.send(JSON.stringify({ seq, ...frame }))
  }
  return { server, conns, push, url: `ws://127.0.0.1:${server.port}` }
}

const until = async (cond: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out')
    await Bun.sleep(5)
  }
}

let stops: (() => void)[] = []
afterEach(() => {
  for (const s of stops) s()
  stops = []
})

describe('PerpdWsClient', () => {
  test('resubscribes after the server drops the connection, and runs the resync hooks', async () => {
    const s = scriptedServer()
    const ws = new PerpdWsClient({ url: s.url, reconnectDelayMs: 20 })
    stops.push(() => {
      ws.close()
      s.server.stop(true)
    })
    const reasons: ResyncReason[] = []
    ws.onResync((r) => {
      reasons.push(r)
    })
    await ws.connect()
    await ws.subscribe(['block', 'marks'])
    s.conns[0]!.ws.close()
    await until(() => s.conns.length === 2 && s.conns[1]!.subscribes.length === 1)
    expect(s.conns[1]!.subscribes[0]).toEqual(['block', 'marks'])
    await until(() => reasons.length === 3)
    expect(reasons).toEqual(['connect', 'subscribe', 'reconnect'])
  })

  test('a seq jump and a gap frame each make the client start over on a new connection', async () => {
    const s = scriptedServer()
    const ws = new PerpdWsClient({ url: s.url, reconnectDelayMs: 20 })
    stops.push(() => {
      ws.close()
      s.server.stop(true)
    })
    const reasons: ResyncReason[] = []
    const blocks: number[] = []
    ws.onResync((r) => {
      reasons.push(r)
    })
    ws.on('block', (f) => blocks.push(f.height as number))
    await ws.connect()
    await ws.subscribe(['block'])
    s.push(s.conns[0]!, { topic: 'block', height: 1 })
    s.push(s.conns[0]!, { topic: 'block', height: 3 }, 5) // seq 3 and 4 were lost
    await until(() => s.conns.length === 2 && s.conns[1]!.subscribes.length === 1)
    expect(ws.stats.seqGaps).toBe(1)
    expect(blocks).toEqual([1])
    await until(() => reasons.at(-1) === 'seq')
    s.push(s.conns[1]!, { topic: 'block', height: 4 })
    s.conns[1]!.ws.send(JSON.stringify({ type: 'gap', seq: ++s.conns[1]!.seq }))
    await until(() => s.conns.length === 3 && s.conns[2]!.subscribes.length === 1)
    expect(ws.stats.gapFrames).toBe(1)
    await until(() => reasons.at(-1) === 'gap')
    expect(blocks).toEqual([1, 4])
  })

  test('the parts of a split push reach the handlers as one message (docs/websocket.md#split-frames)', async () => {
    const s = scriptedServer()
    const ws = new PerpdWsClient({ url: s.url, reconnectDelayMs: 20 })
    stops.push(() => {
      ws.close()
      s.server.stop(true)
    })
    const books: Record<string, unknown>[] = []
    const all: Record<string, unknown>[] = []
    ws.on('book.BTC.500', (f) => books.push(f))
    ws.on('*', (f) => all.push(f))
    await ws.connect()
    await ws.subscribe(['book.BTC.500'])
    const c = s.conns[0]!
    const head = { topic: 'book.BTC.500', symbol: 'BTC-USD', height: 9, timestamp_ms: 5, state_hash: '0xab' }
    s.push(c, { ...head, part: 1, parts: 3, bids: [{ price: '3' }, { price: '2' }], asks: [] })
    s.push(c, { ...head, part: 2, parts: 3, bids: [{ price: '1' }], asks: [{ price: '4' }] })
    expect(books).toEqual([])
    s.push(c, { ...head, part: 3, parts: 3, bids: [], asks: [{ price: '5' }] })
    await until(() => books.length === 1)
    expect(books[0]).toEqual({
      seq: c.seq,
      ...head,
      bids: [{ price: '3' }, { price: '2' }, { price: '1' }],
      asks: [{ price: '4' }, { price: '5' }],
    })
    expect(all.filter((f) => f.topic === 'book.BTC.500')).toHaveLength(1)
    expect(ws.stats.reassembled).toBe(1)
  })

  test('a missing part is a loss: the client drops the half message and starts over as after a gap', async () => {
    const s = scriptedServer()
    const ws = new PerpdWsClient({ url: s.url, reconnectDelayMs: 20 })
    stops.push(() => {
      ws.close()
      s.server.stop(true)
    })
    const reasons: ResyncReason[] = []
    const lives: unknown[] = []
    ws.onResync((r) => {
      reasons.push(r)
    })
    ws.on('blocks.live', (f) => lives.push(f))
    await ws.connect()
    await ws.subscribe(['blocks.live', 'block'])
    const c = s.conns[0]!
    const block = { height: 4, envelopes: [] }
    s.push(c, { topic: 'blocks.live', part: 1, parts: 2, block, envelopes: [{ envelope_idx: 0 }], watermark: 4 })
    // The server's seqs run on, but part 2 never came: another frame sits where it belongs.
    s.push(c, { topic: 'block', height: 4 })
    await until(() => s.conns.length === 2 && s.conns[1]!.subscribes.length === 1)
    await until(() => reasons.at(-1) === 'gap')
    expect(ws.stats.partGaps).toBe(1)
    expect(lives).toEqual([])
    // On the new connection a complete split push is delivered.
    const d = s.conns[1]!
    s.push(d, {
      topic: 'blocks.live',
      part: 1,
      parts: 2,
      block: { height: 5, envelopes: [] },
      envelopes: [{ envelope_idx: 0 }],
      watermark: 5,
    })
    s.push(d, {
      topic: 'blocks.live',
      part: 2,
      parts: 2,
      block: { height: 5, envelopes: [] },
      envelopes: [{ envelope_idx: 1 }],
      watermark: 5,
    })
    await until(() => lives.length === 1)
    expect(lives[0]).toEqual({
      seq: d.seq,
      topic: 'blocks.live',
      block: { height: 5, envelopes: [] },
      envelopes: [{ envelope_idx: 0 }, { envelope_idx: 1 }],
      watermark: 5,
    })
  })
})

describe('OpenOrderSet', () => {
  test('resting upserts, done removes, accepted only confirms; rows at or below the re-read height are skipped', async () => {
    const s = scriptedServer()
    const ws = new PerpdWsClient({ url: s.url, reconnectDelayMs: 20 })
    stops.push(() => {
      ws.close()
      s.server.stop(true)
    })
    let release!: () => void
    const gate = new Promise<void>((r) => {
      release = r
    })
    const rpc = {
      query: async () => {
        await gate
        return {
          height: 10,
          chain_height: 10,
          stale: false,
          data: [
            {
              order_id: 1,
              market_id: 2,
              symbol: 'ETH-USD',
              side: 'Ask',
              price: '3600',
              qty: '2',
              remaining: '2',
              tif: 'Gtc',
              reduce_only: false,
              client_order_id: 'x',
            },
          ],
        }
      },
    } as unknown as RpcClient
    const set = new OpenOrderSet(ws, rpc, `0x${'ab'.repeat(20)}`)
    await ws.connect()
    await set.start()
    const c = s.conns[0]!
    const topic = `orderUpdates.0x${'ab'.repeat(20)}`
    const fills = `userFills.0x${'ab'.repeat(20)}`
    // Arrive while getAccountOrders is in flight: the block-10 row is already in the read, block 11's is not.
    s.push(c, {
      topic,
      height: 10,
      updates: [
        { block_height: 10, event_seq: 0, order_id: 1, market_id: 2, symbol: 'ETH-USD', kind: 'done', remaining: '2', reason: 'Cancelled' },
      ],
    })
    s.push(c, {
      topic,
      height: 11,
      updates: [
        {
          block_height: 11,
          event_seq: 0,
          order_id: 2,
          market_id: 2,
          symbol: 'ETH-USD',
          kind: 'accepted',
          remaining: '1',
          side: 'Bid',
          price: '3000',
          qty: '1',
          tif: 'Gtc',
        },
        {
          block_height: 11,
          event_seq: 1,
          order_id: 2,
          market_id: 2,
          symbol: 'ETH-USD',
          kind: 'resting',
          remaining: '1',
          side: 'Bid',
          price: '3000',
          qty: '1',
          tif: 'Gtc',
          reduce_only: true,
        },
      ],
    })
    await Bun.sleep(50)
    release()
    await until(() => set.orders.size === 2)
    await set.settled()
    expect(set.orders.get(1)).toMatchObject({ remaining: '2', client_order_id: 'x' })
    expect(set.orders.get(2)).toEqual({
      order_id: 2,
      market_id: 2,
      symbol: 'ETH-USD',
      side: 'Bid',
      price: '3000',
      qty: '1',
      remaining: '1',
      tif: 'Gtc',
      reduce_only: true,
    })
    // Block 12: order 3 rests, then is hit as a maker later in the same block (userFills come first).
    s.push(c, {
      topic: fills,
      height: 12,
      fills: [
        { block_height: 12, event_seq: 1, order_id: 1, qty: '0.5', is_taker: false },
        { block_height: 12, event_seq: 5, order_id: 3, qty: '0.25', is_taker: false },
        { block_height: 12, event_seq: 6, order_id: 9, qty: '0.25', is_taker: true },
      ],
    })
    s.push(c, {
      topic,
      height: 12,
      updates: [
        {
          block_height: 12,
          event_seq: 3,
          order_id: 3,
          market_id: 2,
          symbol: 'ETH-USD',
          kind: 'resting',
          remaining: '1',
          side: 'Ask',
          price: '3500',
          qty: '1',
          tif: 'Gtc',
          reduce_only: false,
        },
        {
          block_height: 12,
          event_seq: 7,
          order_id: 2,
          market_id: 2,
          symbol: 'ETH-USD',
          kind: 'expired',
          remaining: '1',
          reason: 'Expired',
        },
      ],
    })
    await until(() => set.orders.has(3))
    expect(set.orders.get(1)!.remaining).toBe('1.5')
    expect(set.orders.get(3)!.remaining).toBe('0.75')
    expect(set.orders.has(2)).toBe(false)
  })

  test('subtractDecimal is exact at the larger precision', () => {
    expect(subtractDecimal('1.5', '0.25')).toBe('1.25')
    expect(subtractDecimal('3', '3')).toBe('0')
    expect(subtractDecimal('0.1', '0.3')).toBe('-0.2')
  })
})
