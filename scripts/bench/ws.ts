// WebSocket fan-out: N connections (default 1,000) subscribed to book.BTC-USD and trades.BTC-USD on
// a real dev node at 5 blocks per second, while a maker and a taker change the book and trade every
// block. Checks that every connection gets every block's book and trades push with no seq gap and no
// gap frame, and reports the delivery delay percentiles. Starts the node on 127.0.0.1 port 0 with a
// temporary data directory and stops by itself.
//   bun scripts/bench/ws.ts [--connections 1000] [--seconds 15] [--block-time-ms 200]
//
// Delay: the client's receive time minus the frame's timestamp_ms. timestamp_ms is stamped when the
// producer starts the block, so this includes applying the block and its durable (fsync'd) commit: an
// upper bound of the delay from commit to delivery. The spread (last minus first delivery of one
// block's push across all connections) is the fan-out time after the commit.
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { parseOptionsOrExit } from '../../src/lib/options.ts'
import { DEV_KEYS, removeDir, startNode } from '../../test/support/node-process.ts'
import { percentile } from './stats.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  {
    connections: { type: 'integer', default: 1_000, min: 1, max: 100_000, description: 'WebSocket connections' },
    seconds: { type: 'integer', default: 15, min: 1, max: 3_600, description: 'seconds measured' },
    'block-time-ms': { type: 'integer', default: 200, min: 10, max: 60_000, description: 'block time of the node started here' },
  },
  { usage: 'bun scripts/bench/ws.ts [options]', program: 'bun scripts/bench/ws.ts' },
)
const connections = flags.connections
const seconds = flags.seconds
const blockTimeMs = flags['block-time-ms']
const WARMUP_MS = 2_000
const TOPICS = ['book.BTC-USD', 'trades.BTC-USD']

/** What one connection saw: the heights of its book and trades pushes, and its delays. */
interface Seen {
  lastSeq: number
  seqGaps: number
  gapFrames: number
  closed: boolean
  book: Map<number, number>
  trades: Map<number, number>
}

// The first fields of every push: {"seq":N,"topic":"...","symbol":"BTC-USD","height":H,"timestamp_ms":T
const HEAD = /^\{"seq":(\d+),"topic":"([^"]+)","symbol":"[^"]*","height":(\d+),"timestamp_ms":(\d+)/

const node = await startNode({ blockTimeMs })
const sockets: WebSocket[] = []
let driving = true
try {
  const wsUrl = `${node.url.replace('http', 'ws')}/api/v1/ws`
  const seen: Seen[] = []
  /** Receive time of each (height, topic) push on every connection, for delays and spread. */
  const deliveries = new Map<string, { ts: number; times: number[] }>()
  let measuring = false

  const openOne = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const s: Seen = { lastSeq: 0, seqGaps: 0, gapFrames: 0, closed: false, book: new Map(), trades: new Map() }
      seen[i] = s
      const ws = new WebSocket(wsUrl)
      sockets[i] = ws
      ws.onopen = () => ws.send(JSON.stringify({ op: 'subscribe', topics: TOPICS }))
      ws.onerror = () => reject(new Error(`connection ${i} failed`))
      ws.onclose = () => {
        s.closed = true
      }
      ws.onmessage = (e) => {
        const now = Date.now()
        const text = String(e.data)
        if (text.startsWith('{"type":"gap"')) {
          s.gapFrames++
          return
        }
        const head = HEAD.exec(text)
        if (head === null) {
          // The subscription confirmation.
          const seq = (JSON.parse(text) as { seq: number }).seq
          if (seq !== s.lastSeq + 1) s.seqGaps++
          s.lastSeq = seq
          resolve()
          return
        }
        const seq = Number(head[1])
        if (seq !== s.lastSeq + 1) s.seqGaps++
        s.lastSeq = seq
        const topic = head[2]!
        const height = Number(head[3])
        const ts = Number(head[4])
        ;(topic === 'book.BTC-USD' ? s.book : s.trades).set(height, now - ts)
        if (!measuring) return
        const key = `${height}:${topic}`
        let d = deliveries.get(key)
        if (d === undefined) {
          d = { ts, times: [] }
          deliveries.set(key, d)
        }
        d.times.push(now)
      }
    })

  const openedAt = performance.now()
  for (let i = 0; i < connections; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, connections - i) }, (_, k) => openOne(i + k)))
  }
  console.log(`${connections} connections subscribed to ${TOPICS.join(' + ')} in ${Math.round(performance.now() - openedAt)} ms`)

  // The book changes every block: the maker adds a bid each block (cycling over 20 prices), the
  // taker sells into the best bid each block (a trade and a new top level).
  const maker = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] })
  const taker = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[2] })
  let blocksDriven = 0
  const drive = async (client: PerpdClient, build: (i: number) => Record<string, unknown>) => {
    for (let i = 0; driving; i++) {
      await client.send(build(i))
      blocksDriven++
    }
  }
  const drivers = [
    drive(maker, (i) =>
      placeOrder({ market_id: 1, side: 'Bid', price: String(64_000 + (i % 20) * 10), qty: '0.01', tif: 'Gtc', reduce_only: false }),
    ),
    drive(taker, () => placeOrder({ market_id: 1, side: 'Ask', price: '60000', qty: '0.002', tif: 'Ioc', reduce_only: false })),
  ]
  await Bun.sleep(WARMUP_MS)
  const startHeight =
    Number(((await (await fetch(`${node.url}/api/v1/market/orderbook/BTC-USD`)).json()) as { chain_height: number }).chain_height) + 1
  measuring = true
  await Bun.sleep(seconds * 1_000)
  measuring = false
  const endHeight =
    Number(((await (await fetch(`${node.url}/api/v1/market/orderbook/BTC-USD`)).json()) as { chain_height: number }).chain_height) - 1
  driving = false
  await Promise.all(drivers)
  await Bun.sleep(500)

  // Every block of the window had a fill (the taker's IOC): every connection must hold its pushes.
  const heights: number[] = []
  for (let h = startHeight; h <= endHeight; h++) if (deliveries.has(`${h}:trades.BTC-USD`)) heights.push(h)
  let missing = 0
  const delays: number[] = []
  for (const s of seen) {
    for (const h of heights) {
      for (const m of [s.book, s.trades]) {
        const d = m.get(h)
        if (d === undefined) missing++
        else delays.push(d)
      }
    }
  }
  delays.sort((a, b) => a - b)
  const spreads: number[] = []
  for (const d of deliveries.values()) spreads.push(Math.max(...d.times) - Math.min(...d.times))
  spreads.sort((a, b) => a - b)
  const blocksInWindow = endHeight - startHeight + 1
  const gaps = seen.reduce((n, s) => n + s.seqGaps + s.gapFrames, 0)
  const closed = seen.filter((s) => s.closed).length

  console.log(
    `window: blocks ${startHeight}..${endHeight} (${blocksInWindow} blocks in ${seconds} s = ${(blocksInWindow / seconds).toFixed(2)} blocks/s), ${heights.length} with a trade`,
  )
  console.log(
    `pushes checked: ${connections} connections x ${heights.length} blocks x 2 topics = ${connections * heights.length * 2}; missing ${missing}; seq gaps + gap frames ${gaps}; closed ${closed}`,
  )
  console.log(`delay block timestamp -> delivery (ms): p50 ${percentile(delays, 50)}  p99 ${percentile(delays, 99)}  max ${delays.at(-1)}`)
  console.log(
    `fan-out spread per push across connections (ms): p50 ${percentile(spreads, 50)}  p99 ${percentile(spreads, 99)}  max ${spreads.at(-1)}`,
  )
  console.log(`actions driven: ${blocksDriven}`)
  if (missing > 0 || gaps > 0 || closed > 0 || heights.length === 0) process.exitCode = 1
} finally {
  driving = false
  for (const ws of sockets) ws?.close()
  await node.stop()
  removeDir(node.dataDir)
}
