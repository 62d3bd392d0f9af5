// Read throughput of /api/v1/query while the node produces blocks: getOrderbook and getAccount
// requests per second with p50/p99 latency, and the p50 of a batch of 20 mixed reads.
// Starts a real dev node on 127.0.0.1 port 0 (temporary data dir), seeds a book, keeps trading
// in the background so blocks change state, and drives the reads from a load-generator worker.
// Bounded: a fixed duration per phase; stops by itself.
//   bun scripts/bench/query.ts [--seconds 10] [--connections 64]
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { parseOptionsOrExit } from '../../src/lib/options.ts'
import { DEV_KEYS, removeDir, startNode } from '../../test/support/node-process.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  {
    seconds: { type: 'integer', default: 10, min: 1, max: 3_600, description: 'seconds per phase' },
    connections: { type: 'integer', default: 64, min: 1, max: 10_000, description: 'concurrent request loops' },
  },
  { usage: 'bun scripts/bench/query.ts [options]', program: 'bun scripts/bench/query.ts' },
)
const seconds = flags.seconds
const connections = flags.connections

interface PhaseResult {
  requests: number
  errors: number
  seconds: number
  p50: number
  p99: number
  connections: number
}

/** Runs one phase in a worker: `connections` loops sending `body` for `seconds`. */
function runPhase(url: string, body: string, phaseSeconds: number): Promise<PhaseResult> {
  const worker = new Worker(new URL('./query-load-worker.ts', import.meta.url).href)
  return new Promise((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<PhaseResult>) => {
      worker.terminate()
      resolve(e.data)
    }
    worker.onerror = (e) => {
      worker.terminate()
      reject(e)
    }
    worker.postMessage({ url, body, seconds: phaseSeconds, connections })
  })
}

const node = await startNode({ blockTimeMs: 200 })
let trading = true
try {
  const maker = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] })
  const taker = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[2] })
  // A book with depth on both sides.
  for (let i = 0; i < 20; i++) {
    await maker.send(placeOrder({ market_id: 1, side: 'Bid', price: String(64_000 - i * 10), qty: '0.5', tif: 'Gtc', reduce_only: false }))
    await maker.send(placeOrder({ market_id: 1, side: 'Ask', price: String(66_000 + i * 10), qty: '0.5', tif: 'Gtc', reduce_only: false }))
  }
  // Background activity: a trade and a new order every block, so reads race with block production.
  const background = (async () => {
    let i = 0
    while (trading) {
      await taker
        .send(
          placeOrder({
            market_id: 1,
            side: i % 2 === 0 ? 'Bid' : 'Ask',
            price: i % 2 === 0 ? '66000' : '64000',
            qty: '0.001',
            tif: 'Ioc',
            reduce_only: false,
          }),
        )
        .catch(() => {})
      await maker
        .send(
          placeOrder({
            market_id: 1,
            side: i % 2 === 0 ? 'Ask' : 'Bid',
            price: i % 2 === 0 ? '66000' : '64000',
            qty: '0.001',
            tif: 'Gtc',
            reduce_only: false,
          }),
        )
        .catch(() => {})
      i++
    }
  })()

  const rpc = (method: string, params: object, id = 1) => ({ jsonrpc: '2.0', id, method, params })
  const book = JSON.stringify(rpc('getOrderbook', { market_id: 1, depth: 20 }))
  const account = JSON.stringify(rpc('getAccount', { address: maker.address }))
  const batch = JSON.stringify(
    Array.from(
      { length: 20 },
      (_, i) =>
        [
          rpc('getOrderbook', { market_id: 1 + (i % 3) }, i),
          rpc('getAccount', { address: maker.address }, i),
          rpc('getMarkets', {}, i),
          rpc('getAccountOrders', { address: maker.address }, i),
          rpc('getMarket', { symbol: 'ETH' }, i),
        ][i % 5],
    ),
  )

  const report = (name: string, r: PhaseResult) =>
    console.log(
      `${name}: ${Math.round(r.requests / r.seconds).toLocaleString('en-US')} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms (${r.requests} requests, ${r.errors} errors, ${r.connections} connections, ${r.seconds.toFixed(1)} s)`,
    )
  report('getOrderbook', await runPhase(node.url, book, seconds))
  report('getAccount', await runPhase(node.url, account, seconds))
  // Batch latency is measured without saturating the server: a few connections only.
  const batchRun = await new Promise<PhaseResult>((resolve, reject) => {
    const worker = new Worker(new URL('./query-load-worker.ts', import.meta.url).href)
    worker.onmessage = (e: MessageEvent<PhaseResult>) => {
      worker.terminate()
      resolve(e.data)
    }
    worker.onerror = (e) => {
      worker.terminate()
      reject(e)
    }
    worker.postMessage({ url: node.url, body: batch, seconds: Math.min(seconds, 5), connections: 2 })
  })
  report('batch of 20 mixed reads', batchRun)
  trading = false
  await background
} finally {
  trading = false
  await node.stop()
  removeDir(node.dataDir)
}
