// Split frames on a real node (docs/websocket.md#split-frames): no frame the server sends passes
// 65,536 bytes. A full block (2,000 envelopes) reaches blocks.live as parts, and a 500-level book
// as parts of its snapshot; every part is within the limit, the parts take consecutive seqs, and
// the project's client puts them back together equal to the block of getBlock and the book of
// getOrderbook.
import { describe, expect, test } from 'bun:test'
import { activateMarket, batchPlaceOrder, createMarket, noop, registerAgent } from '../../src/client/actions.ts'
import { Signer } from '../../src/client/signer.ts'
import { PerpdWsClient, type WsFrame } from '../../src/client/ws-client.ts'
import { NODE_OPTIONS } from '../../src/config.ts'
import { accepted, startDevNodeForFile } from '../support/dev-node.ts'
import { DEV_KEYS } from '../support/node-process.ts'
import { rawRequest } from '../support/raw-http.ts'
import { type Frame, until, WsProbe } from './ws-support.ts'

const FRAME_BYTES_MAX = 65_536
/** Long enough for the node to admit a full block's worth of envelopes between two blocks. */
const BLOCK_MS = 3_000
// The development quoter (when this node has one) would use the nonces of the Quoter key, which signs here too.
const NO_DEV_QUOTER = 'no-dev-quoter' in NODE_OPTIONS ? ['--no-dev-quoter'] : []
const { node, rpc, client } = await startDevNodeForFile({ blockTimeMs: BLOCK_MS, extraArgs: NO_DEV_QUOTER })
// Reads are refused while the node is still starting (up to its first block).
await waitUntilServing()

async function waitUntilServing(): Promise<void> {
  for (const deadline = Date.now() + 60_000; ; await Bun.sleep(100)) {
    try {
      await rpc.query('getExchangeConfig')
      return
    } catch (err) {
      if (Date.now() > deadline) throw err
    }
  }
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8')

/** Posts signed action params on a connection of its own (fetch would queue past 256 at a time). */
async function post(params: unknown): Promise<Record<string, any>> {
  const reply = await rawRequest(node.url, {
    method: 'POST',
    path: '/api/v1/action',
    headers: [['Content-Type', 'application/json']],
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'action', params }),
    timeoutMs: 120_000,
  })
  const body = JSON.parse(reply.text) as { result?: Record<string, any>; error?: unknown }
  if (body.result === undefined) throw new Error(`action refused: ${reply.text}`)
  return body.result
}

const nonceOf = async (address: string) => (await rpc.query<{ nonce: number }>('getNonce', { address })).data.nonce

/** Every raw frame a probe got is within the frame limit. */
function expectFramesWithinLimit(ws: WsProbe): void {
  const over = ws.texts.filter((t) => bytes(t) > FRAME_BYTES_MAX).map((t) => `${bytes(t)} bytes: ${t.slice(0, 80)}`)
  expect(over).toEqual([])
}

/** The parts of one split push in a probe's frames: consecutive seqs, part 1..n of n, one topic. */
function expectParts(frames: Frame[]): void {
  expect(frames.length).toBeGreaterThan(1)
  const n = frames.length
  expect(frames.map((f) => [f.part, f.parts])).toEqual(frames.map((_, i) => [i + 1, n]))
  expect(frames.map((f) => f.seq)).toEqual(frames.map((_, i) => frames[0]!.seq + i))
  expect(new Set(frames.map((f) => f.topic)).size).toBe(1)
}

describe('split frames', () => {
  test('a full block of 2,000 envelopes: blocks.live in parts of at most 65,536 bytes, reassembled equal to getBlock', async () => {
    const config = (await rpc.query<{ max_tx_per_block: number }>('getExchangeConfig')).data
    expect(config.max_tx_per_block).toBe(2_000)
    // A signer may have 64 nonces in flight (the nonce window): 40 signers, the ten development
    // accounts and three agents of each, send 60 envelopes each, more than a block takes.
    const masters = DEV_KEYS.map((k) => new Signer(k))
    const agents = masters.flatMap((_, i) =>
      [0, 1, 2].map((j) => new Signer(`0x${'a7'.repeat(30)}${i.toString(16).padStart(2, '0')}${j.toString(16).padStart(2, '0')}`)),
    )
    const registrations = await Promise.all(
      masters.map(async (m, i) => {
        const first = await nonceOf(m.address)
        return [0, 1, 2].map(
          (j) =>
            m.sign(
              registerAgent({ network: 'dev', agent: agents[i * 3 + j]!.address, role: 'Trader', name: `split-${j}`, nonce: first + j }),
              first + j,
              'dev',
            ).params,
        )
      }),
    )
    for (const r of await Promise.all(registrations.flat().map(post))) expect(r.status).toBe('accepted')

    const ws = await WsProbe.open(node.url)
    await ws.subscribe(['blocks.live', 'block'])
    const live = new PerpdWsClient({ url: node.url })
    const reassembled: WsFrame[] = []
    live.on('blocks.live', (f) => reassembled.push(f))
    await live.connect()
    await live.subscribe(['blocks.live'])
    try {
      const signers = [...masters, ...agents]
      const next = new Map<string, number>()
      for (const s of signers) next.set(s.address, await nonceOf(s.address))
      let full: number | undefined
      // Envelopes arrive over a few seconds on a loaded machine: when a block fires in the middle of
      // a round, neither block is full, and the next round tries again.
      for (let round = 0; round < 4 && full === undefined; round++) {
        const signed = signers.flatMap((s) => Array.from({ length: 60 }, (_, k) => s.sign(noop(), next.get(s.address)! + k, 'dev').params))
        for (const s of signers) next.set(s.address, next.get(s.address)! + 60)
        // Right after a block, so the round has a whole block time to arrive.
        const mark = ws.frames.length
        await ws.next((f) => f.topic === 'block', mark, 4 * BLOCK_MS)
        const replies = await Promise.all(signed.map(post))
        const perBlock = new Map<number, number>()
        for (const r of replies) perBlock.set(r.height, (perBlock.get(r.height) ?? 0) + 1)
        full = [...perBlock].find(([, n]) => n === config.max_tx_per_block)?.[0]
      }
      if (full === undefined) throw new Error('no block took 2,000 envelopes in 4 rounds')
      const height = full
      const block = (await rpc.query<Record<string, any>>('getBlock', { height })).data
      expect(block.envelope_count).toBe(2_000)

      const parts = await until(
        () => {
          const got = ws.frames.filter((f) => f.topic === 'blocks.live' && f.block.height === height)
          return got.length > 0 && got.length === got[0]!.parts ? got : undefined
        },
        60_000,
        `the parts of blocks.live for block ${height}`,
      )
      expectParts(parts)
      const { envelopes: _e, ...header } = block
      for (const p of parts) {
        expect(Object.keys(p)).toEqual([
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
        expect(p.block).toEqual({ ...header, envelopes: [] })
      }
      // Every envelope once, in order, across the parts.
      expect(parts.flatMap((p) => p.envelopes.map((e: Frame) => e.envelope_idx))).toEqual(Array.from({ length: 2_000 }, (_, i) => i))
      expectFramesWithinLimit(ws)

      const whole = await until(() => reassembled.find((f) => (f.block as Frame).height === height), 60_000, 'the reassembled block')
      expect(whole.part).toBeUndefined()
      expect(whole.block).toEqual({ ...header, envelopes: [] })
      expect(whole.envelopes).toEqual(block.envelopes.map((e: Frame) => ({ ...e, timestamp_ms: block.timestamp_ms })))
      expect(live.stats.partGaps + live.stats.seqGaps + live.stats.gapFrames).toBe(0)
    } finally {
      live.close()
      ws.close()
    }
  }, 240_000)

  test('a 500-level book: the snapshot in parts (bids, then asks) of at most 65,536 bytes, reassembled equal to getOrderbook', async () => {
    // Six decimals of price and size make levels long enough that 500 a side pass one frame.
    const admin = client(0)
    const created = accepted(
      await admin.send(
        createMarket({
          symbol: 'DEEP-USD',
          price_decimals: 6,
          size_decimals: 6,
          maker_fee_bps: 0,
          taker_fee_bps: 0,
          max_leverage: 10,
          maintenance_margin_bps: 500,
          mark_price: '1',
          min_order_qty: '0.000001',
        }),
      ),
    )
    const marketId = created.events[0]!.market_id!
    accepted(await admin.send(activateMarket({ market_id: marketId })))
    const decimal6 = (units: number) => (units / 1e6).toFixed(6)
    const level = (side: 'Bid' | 'Ask', i: number) => ({
      market_id: marketId,
      side,
      tif: 'Gtc' as const,
      reduce_only: false,
      price: decimal6(side === 'Bid' ? 900_000 - i * 137 : 1_100_000 + i * 137),
      qty: decimal6(123_456_789 + i * 1_013),
    })
    // 550 levels a side, 50 orders a batch: Alice bids, Bob asks.
    const batches = (key: string, side: 'Bid' | 'Ask') => async () => {
      const s = new Signer(key)
      const first = await nonceOf(s.address)
      return Array.from(
        { length: 11 },
        (_, b) => s.sign(batchPlaceOrder(Array.from({ length: 50 }, (_, k) => level(side, b * 50 + k))), first + b, 'dev').params,
      )
    }
    const signed = [...(await batches(DEV_KEYS[1], 'Bid')()), ...(await batches(DEV_KEYS[2], 'Ask')())]
    for (const r of await Promise.all(signed.map(post))) expect(r.status).toBe('accepted')
    const book = (await rpc.query<{ height: number; bids: Frame[]; asks: Frame[] }>('getOrderbook', { market_id: marketId, depth: 500 }))
      .data
    expect([book.bids.length, book.asks.length]).toEqual([500, 500])
    const levels = (side: Frame[]) => side.map(({ price, qty, cumulative_qty }) => ({ price, qty, cumulative_qty }))

    const ws = await WsProbe.open(node.url)
    const books = new PerpdWsClient({ url: node.url })
    const snapshots: WsFrame[] = []
    books.on('book.DEEP.500', (f) => snapshots.push(f))
    await books.connect()
    try {
      await ws.subscribe(['book.DEEP.500'])
      await books.subscribe(['book.DEEP.500'])
      const parts = await until(
        () => {
          const got = ws.frames.filter((f) => f.topic === 'book.DEEP.500')
          return got.length > 0 && got.length === got[0]!.parts ? got : undefined
        },
        30_000,
        'the parts of the book snapshot',
      )
      expectParts(parts)
      expect(parts[0]!.seq).toBe(2) // right after the confirmation
      for (const p of parts) {
        expect(Object.keys(p)).toEqual(['seq', 'topic', 'part', 'parts', 'symbol', 'height', 'timestamp_ms', 'state_hash', 'bids', 'asks'])
        expect(p).toMatchObject({
          symbol: 'DEEP-USD',
          height: parts[0]!.height,
          timestamp_ms: parts[0]!.timestamp_ms,
          state_hash: parts[0]!.state_hash,
        })
      }
      // Bids first, then asks: once a part has asks, no later part has bids.
      const firstAsks = parts.findIndex((p) => p.asks.length > 0)
      expect(parts.slice(firstAsks + 1).every((p) => p.bids.length === 0)).toBe(true)
      expect(parts.slice(0, firstAsks).every((p) => p.asks.length === 0)).toBe(true)
      expectFramesWithinLimit(ws)

      const whole = await until(() => snapshots[0], 30_000, 'the reassembled snapshot')
      expect(whole.part).toBeUndefined()
      expect({ bids: whole.bids, asks: whole.asks }).toEqual({ bids: levels(book.bids), asks: levels(book.asks) })
      // The state_hash of the parts is the whole snapshot's.
      expect(whole.state_hash).toBe(
        `0x${new Bun.CryptoHasher('sha256').update(JSON.stringify({ bids: whole.bids, asks: whole.asks })).digest('hex')}`,
      )

      // A change pushes the next snapshot, split again.
      const mark = ws.frames.length
      const alice = new Signer(DEV_KEYS[1])
      expect(
        (await post(alice.sign(batchPlaceOrder([{ ...level('Bid', 0), price: '0.95' }]), await nonceOf(alice.address), 'dev').params))
          .status,
      ).toBe('accepted')
      const next = await until(
        () => {
          const got = ws.frames.slice(mark).filter((f) => f.topic === 'book.DEEP.500')
          return got.length > 0 && got.length === got[0]!.parts ? got : undefined
        },
        30_000,
        'the parts of the next snapshot',
      )
      expectParts(next)
      const after = await until(() => snapshots[1], 30_000, 'the next reassembled snapshot')
      const now = (await rpc.query<{ bids: Frame[]; asks: Frame[] }>('getOrderbook', { market_id: marketId, depth: 500 })).data
      expect({ bids: after.bids, asks: after.asks }).toEqual({ bids: levels(now.bids), asks: levels(now.asks) })
      expect((after.bids as Frame[])[0]!.price).toBe('0.95')
      expectFramesWithinLimit(ws)
      expect(books.stats.partGaps + books.stats.seqGaps + books.stats.gapFrames).toBe(0)
    } finally {
      books.close()
      ws.close()
    }
  }, 120_000)
})
