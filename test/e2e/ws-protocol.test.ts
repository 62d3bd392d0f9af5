// The WebSocket protocol on a real node (docs/websocket.md#websocket-protocol,
// docs/limits.md#websocket): seq on every frame, subscribe as full replacement, incremental
// unsubscribe, rejected topics, error frames, depth clamp, frame size, heartbeat, idle timeout and
// the connection limit. The node runs with short timers (--ws-limits) so the timeouts take a
// second, not 30.
import { describe, expect, test } from 'bun:test'
import { batchPlaceOrder } from '../../src/client/actions.ts'
import { startDevNodeForFile } from '../support/dev-node.ts'
import { type Frame, RawWs, until, WsProbe } from './ws-support.ts'

const PING_MS = 300
const IDLE_MS = 1_500
const CONNECTIONS = 4

const { node, client } = await startDevNodeForFile({
  blockTimeMs: 50,
  extraArgs: ['--ws-limits', `ping_ms=${PING_MS},idle_ms=${IDLE_MS},connections=${CONNECTIONS}`],
})
const alice = client(1)

const seqs = (frames: Frame[]) => frames.map((f) => f.seq)
const increasing = (xs: number[]) => xs.every((x, i) => x === i + 1)

describe('WebSocket protocol', () => {
  test('every frame carries seq 1, 2, 3...; subscribed lists the topics; rejected only when not empty', async () => {
    const ws = await WsProbe.open(node.url)
    const sub = await ws.subscribe(['block', 'marks'])
    expect(sub).toEqual({ seq: 1, op: 'subscribed', topics: ['block', 'marks'] })
    await ws.next((f) => f.topic === 'block', 0, 3_000)
    await ws.next((f) => f.topic === 'block' && f.seq > 3, 0, 3_000)
    expect(increasing(seqs(ws.frames))).toBe(true)
    ws.close()
  })

  test('unknown and invalid topics come back in rejected, the valid ones are kept', async () => {
    const ws = await WsProbe.open(node.url)
    const sub = await ws.subscribe([
      'no.such.topic',
      'book.NOSUCH',
      'account.0x12',
      'candles.BTC-USD.7m',
      'book.BTC-USD.x',
      'external_quote.BTC-USD',
      'bogus',
      42 as unknown as string,
      'bbo.btc',
      'account.70997970C51812dc3A010C7d01b50e0d17dc79C8',
      'candles.ETH.1h',
    ])
    expect(sub.topics).toEqual(['bbo.btc', 'account.70997970C51812dc3A010C7d01b50e0d17dc79C8', 'candles.ETH.1h'])
    expect(sub.rejected).toEqual([
      'no.such.topic: unknown topic',
      'book.NOSUCH: market not found',
      'account.0x12: not a 20-byte hex address',
      'candles.BTC-USD.7m: unknown interval 7m (1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 8h, 12h, 1d, 3d, 1w, 1M)',
      'book.BTC-USD.x: the depth must be a non-negative integer',
      'external_quote.BTC-USD: BTC-USD is not an external-peg market',
      'bogus: unknown topic',
      '42: a topic must be a string',
    ])
    // The bbo and account snapshots follow the confirmation, with the client's own spelling of the topic.
    await ws.next((f) => f.topic === 'bbo.btc' && f.symbol === 'BTC-USD')
    await ws.next(
      (f) => f.topic === 'account.70997970C51812dc3A010C7d01b50e0d17dc79C8' && f.address === '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    )
    ws.close()
  })

  test('subscribe replaces the whole set; unsubscribe removes incrementally and accepts topics not held', async () => {
    const ws = await WsProbe.open(node.url)
    await ws.subscribe(['block', 'blocks.live'])
    await ws.next((f) => f.topic === 'blocks.live')
    await ws.subscribe(['block'])
    const mark = ws.frames.length
    await ws.next((f) => f.topic === 'block', mark)
    await ws.next((f) => f.topic === 'block' && f.seq > ws.frames[mark]!.seq + 2, mark)
    expect(ws.ofTopic('blocks.live', mark + 1)).toEqual([])
    ws.send({ op: 'unsubscribe', topics: ['trades.ETH', 'block', 'nope'] })
    const unsub = await ws.next((f) => f.op === 'unsubscribed')
    expect(unsub).toMatchObject({ op: 'unsubscribed', topics: ['trades.ETH', 'block'], rejected: ['nope: unknown topic'] })
    const after = ws.frames.length
    await Bun.sleep(300)
    expect(ws.frames.slice(after)).toEqual([])
    // An empty set keeps the connection open.
    expect(ws.socket.readyState).toBe(WebSocket.OPEN)
    expect(increasing(seqs(ws.frames))).toBe(true)
    ws.close()
  })

  test('invalid JSON, a non-object and an unknown op get error frames with seq', async () => {
    const ws = await WsProbe.open(node.url)
    ws.send('{not json')
    ws.send('[1,2]')
    ws.send({ op: 'ping' })
    ws.send({ op: 'subscribe', topics: 'block' })
    // A subscribe wrapped in a JSON string is a string, not a subscribe.
    ws.send(JSON.stringify(JSON.stringify({ op: 'subscribe', topics: ['block'] })))
    await until(() => ws.frames.length >= 5)
    expect(ws.frames).toEqual([
      { seq: 1, op: 'error', message: 'invalid JSON' },
      { seq: 2, op: 'error', message: 'a frame must be a JSON object with op and topics' },
      { seq: 3, op: 'error', message: 'unknown op "ping": use subscribe, unsubscribe or post' },
      { seq: 4, op: 'error', message: 'topics must be an array of strings' },
      { seq: 5, op: 'error', message: 'a frame must be a JSON object with op and topics' },
    ])
    // Leading whitespace and a binary frame still carry a subscribe.
    ws.send(`  ${JSON.stringify({ op: 'subscribe', topics: ['block'] })}`)
    expect(await ws.next((f) => f.op === 'subscribed')).toMatchObject({ op: 'subscribed', topics: ['block'] })
    ws.socket.send(new TextEncoder().encode(JSON.stringify({ op: 'subscribe', topics: ['marks'] })))
    expect(await ws.next((f) => f.op === 'subscribed' && f.topics[0] === 'marks')).toMatchObject({ op: 'subscribed', topics: ['marks'] })
    ws.close()
  })

  test('book depth: default 50, explicit depth, above 500 clamped to 500; REST caps at 50', async () => {
    // 520 bid levels: 11 batches of at most 50 orders.
    for (let b = 0; b < 11; b++) {
      const orders = Array.from({ length: b === 10 ? 20 : 50 }, (_, i) => ({
        market_id: 1,
        side: 'Bid' as const,
        price: String(40_000 + b * 50 + i),
        qty: '0.0001',
        tif: 'Gtc' as const,
        reduce_only: false,
      }))
      const r = await alice.send(batchPlaceOrder(orders))
      expect(r.status).toBe('accepted')
    }
    const ws = await WsProbe.open(node.url)
    await ws.subscribe(['book.BTC-USD.9999', 'book.BTC-USD', 'book.BTC-USD.0', 'book.BTC-USD.7'])
    const levels = async (topic: string) => (await ws.next((f) => f.topic === topic)).bids.length
    expect(await levels('book.BTC-USD.9999')).toBe(500)
    expect(await levels('book.BTC-USD')).toBe(50)
    expect(await levels('book.BTC-USD.0')).toBe(50)
    expect(await levels('book.BTC-USD.7')).toBe(7)
    const full = ws.ofTopic('book.BTC-USD.9999')[0]!
    expect(full.bids[0]).toEqual({ price: '40519', qty: '0.0001', cumulative_qty: '0.0001' })
    expect(full.bids[499]).toEqual({ price: '40020', qty: '0.0001', cumulative_qty: '0.05' })
    const rest = (await (await fetch(`${node.url}/api/v1/market/orderbook/BTC-USD?depth=9999`)).json()) as { data: { bids: unknown[] } }
    expect(rest.data.bids).toHaveLength(50)
    ws.close()
  }, 15_000)

  test('a client frame over 65,536 bytes closes the connection with 1009; one just under is served', async () => {
    const ok = await WsProbe.open(node.url)
    const padded = JSON.stringify({ op: 'subscribe', topics: ['block'], pad: 'x'.repeat(65_000) })
    expect(padded.length).toBeLessThan(65_536)
    ok.send(padded)
    await ok.next((f) => f.op === 'subscribed')
    ok.close()
    const big = await WsProbe.open(node.url)
    big.send(JSON.stringify({ op: 'subscribe', topics: ['block'], pad: 'x'.repeat(70_000) }))
    await until(() => big.closeCode, 3_000, 'the close')
    expect(big.closeCode).toBe(1009)
  })

  test('the server pings on its heartbeat and answers a client ping', async () => {
    const raw = await RawWs.open(node.url)
    raw.sendPing()
    await until(() => raw.pongs >= 1, 2_000, 'a pong')
    await until(() => raw.pings >= 2, 3 * PING_MS + 1_000, 'two heartbeat pings')
    raw.destroy()
  })

  test('idle timeout: a client that sends nothing (not even pongs) is disconnected; one that answers pings stays', async () => {
    const silent = await RawWs.open(node.url)
    const alive = await WsProbe.open(node.url)
    const started = Date.now()
    await until(() => silent.ended, IDLE_MS + 3_000, 'the idle disconnect')
    expect(Date.now() - started).toBeGreaterThanOrEqual(IDLE_MS - 100)
    expect(silent.closeCode).toBe(1001)
    await Bun.sleep(IDLE_MS)
    expect(alive.socket.readyState).toBe(WebSocket.OPEN)
    alive.close()
  }, 15_000)

  test(`the connection limit: past ${CONNECTIONS} connections a new one is closed with 1013`, async () => {
    await Bun.sleep(200) // earlier tests' sockets finish closing
    const open: WsProbe[] = []
    for (let i = 0; i < CONNECTIONS; i++) open.push(await WsProbe.open(node.url))
    const extra = await WsProbe.open(node.url)
    await until(() => extra.closeCode, 2_000, 'the refusal')
    expect(extra.closeCode).toBe(1013)
    for (const p of open) expect(p.socket.readyState).toBe(WebSocket.OPEN)
    open[0]!.close()
    await Bun.sleep(200)
    const again = await WsProbe.open(node.url)
    expect((await again.subscribe(['block'])).op).toBe('subscribed')
    for (const p of [...open, again]) p.close()
  })
})
