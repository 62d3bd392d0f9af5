// Signed actions per second accepted end to end over HTTP, and the p50/p99 latency of /action.
// Starts a real dev node on 127.0.0.1 port 0 with a temporary data directory, pre-signs a seeded
// order workload for the ten development accounts (signing is the client's cost, not the node's),
// then sends it with bounded concurrency per signer (inside the nonce window) and stops by itself.
//   bun scripts/bench/actions.ts [--actions 20000] [--in-flight 32] [--block-time-ms 200] [--url URL]
// With --url it drives an already running dev node (e.g. one started with --cpu-prof) instead.
import { placeOrder } from '../../src/client/actions.ts'
import { RpcClient } from '../../src/client/rpc-client.ts'
import { Signer } from '../../src/client/signer.ts'
import { mulberry32Unit } from '../../src/lib/prng.ts'
import { DEV_KEYS, removeDir, startNode } from '../../test/support/node-process.ts'
import { parseOptionsOrExit } from '../../src/lib/options.ts'
import { percentile } from './stats.ts'

const { values: flags } = parseOptionsOrExit(process.argv.slice(2), {
  actions: { type: 'integer', default: 20_000, min: 1, max: 10_000_000, description: 'signed actions to send' },
  'in-flight': { type: 'integer', default: 32, min: 1, max: 64, description: 'requests in flight per signer (the nonce window allows 64)' },
  'block-time-ms': { type: 'integer', default: 200, min: 10, max: 60_000, description: 'block time of the node started here' },
  url: { type: 'string', valueName: 'URL', description: 'drive an already running dev node instead of starting one' },
}, { usage: 'bun scripts/bench/actions.ts [options]', program: 'bun scripts/bench/actions.ts' })
const actionsTotal = flags.actions
const inFlightPerSigner = flags['in-flight']
const blockTimeMs = flags['block-time-ms']
const external = flags.url
const node = external === undefined ? await startNode({ blockTimeMs }) : { url: external, dataDir: '', stop: async () => 0 }
try {
  const rpc = new RpcClient(node.url, 60_000)
  const signers = DEV_KEYS.slice(1).map((k) => new Signer(k))
  const perSigner = Math.ceil(actionsTotal / signers.length)
  // Seeded, so every run sends the same workload.
  const rand = mulberry32Unit(42)
  const signedAt = performance.now()
  // Prices around 65,000 on BTC-USD: bids below, asks above, one in ten crosses.
  const firstNonce = await Promise.all(signers.map(async (s) => (await rpc.query<{ nonce: number }>('getAccount', { address: s.address })).data.nonce))
  const workloads = signers.map((signer, si) => Array.from({ length: perSigner }, (_, i) => {
    const nonce = firstNonce[si]! + i
    const bid = rand() < 0.5
    const crosses = rand() < 0.1
    const offset = Math.floor(rand() * 500) + 1
    const price = bid ? (crosses ? 65_000 + offset : 65_000 - offset) : (crosses ? 65_000 - offset : 65_000 + offset)
    const action = placeOrder({ market_id: 1, side: bid ? 'Bid' : 'Ask', price: String(price), qty: '0.001', tif: crosses ? 'Ioc' : 'Gtc', reduce_only: false })
    return signer.sign(action, nonce, 'dev').params
  }))
  console.log(`signed ${perSigner * signers.length} actions in ${Math.round(performance.now() - signedAt)} ms (client side, not measured)`)

  const latencies: number[] = []
  let accepted = 0
  let rejected = 0
  let refused = 0
  const started = performance.now()
  await Promise.all(workloads.map(async (list) => {
    let next = 0
    const lane = async () => {
      while (next < list.length) {
        const params = list[next++]!
        const t0 = performance.now()
        try {
          const r = await rpc.action<{ status: string }>(params)
          if (r.status === 'accepted') accepted++
          else rejected++
        } catch {
          refused++
        }
        latencies.push(performance.now() - t0)
      }
    }
    await Promise.all(Array.from({ length: inFlightPerSigner }, lane))
  }))
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => percentile(latencies, p).toFixed(1)
  console.log(`actions: ${Math.round(accepted / seconds)} accepted/s end to end over HTTP (${accepted} accepted, ${rejected} kept-reject, ${refused} refused in ${seconds.toFixed(1)} s; ${signers.length} signers x ${inFlightPerSigner} in flight; block time ${blockTimeMs} ms)`)
  console.log(`/action latency: p50 ${pct(50)} ms, p99 ${pct(99)} ms`)
} finally {
  await node.stop()
  if (external === undefined) removeDir(node.dataDir)
}
