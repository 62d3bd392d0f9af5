// Resident memory of a node holding N resting orders (default 1,000,000) across the three native
// dev markets. A resting-order cap of 1,000 per account (docs/limits.md) means N / 1,000 accounts,
// so this writes a genesis (the dev markets, `--accounts` funded traders with deterministic keys)
// to a temporary directory, starts `src/main.ts --genesis` there on 127.0.0.1 port 0, and has every
// account rest its 1,000 orders through 50-order BatchPlaceOrder actions (signed ahead on Worker
// threads, nothing crosses). It lets the node idle (--idle-seconds: the load's garbage takes the
// node's collector and the allocators' scavengers some 20 s to return), prints the node's resident
// set (VmRSS) and peak (VmHWM) from /proc before and after (anonymous and file-backed parts apart)
// and the resting-order count the node reports, and stops the node by its PID.
//   bun scripts/bench/memory.ts [--accounts 1000] [--orders-per-account 1000] [--in-flight 256]
//   bun scripts/bench/memory.ts --accounts 1000 --idle-seconds 60 --heap-stats   # docs/performance.md#memory
//   bun scripts/bench/memory.ts --accounts 200 --heap-stats --admission-threads 0
// --heap-stats preloads heap-stats-preload.ts into the node and, once the orders rest, has it run a
// full collection that returns free pages (Bun.gc(true)) and print its main thread's JavaScript heap:
// with the resident set before and after that collection, it tells the main heap apart from the rest
// (worker threads, SQLite caches, the allocators' free pages). --admission-threads is passed to the
// node (0: no admission threads, to see what they hold).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { batchPlaceOrder } from '../../src/client/actions.ts'
import { bytesToHex } from '../../src/lib/hex.ts'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'
import { devGenesis } from '../../src/node/dev-genesis.ts'
import { addressOfPrivateKey } from '../../src/wire/signing.ts'
import { startBenchNode } from './bench-node.ts'
import { type SignJob, signBodies, signingLibrary } from './bench-sign.ts'

const BATCH = 50
/** The dev network's block time. */
const BLOCK_TIME_MS = 200

const OPTIONS = defineOptions({
  accounts: { type: 'integer', default: 1_000, min: 1, max: 100_000, description: 'funded trader accounts' },
  'orders-per-account': {
    type: 'integer',
    default: 1_000,
    min: BATCH,
    max: 1_000,
    description: 'resting orders each account places (a multiple of 50)',
  },
  'in-flight': { type: 'integer', default: 256, min: 1, max: 4_096, description: 'actions in flight at once' },
  'sign-workers': { type: 'integer', default: 2, min: 0, max: 64, description: 'Worker threads that sign ahead' },
  'admission-threads': { type: 'integer', min: 0, max: 256, description: "the node's --admission-threads (default: the node's default)" },
  'idle-seconds': {
    type: 'integer',
    default: 30,
    min: 0,
    max: 3_600,
    description: 'how long the node idles after the load before the reading (its resident set printed every 10 s meanwhile)',
  },
  'heap-stats': { type: 'boolean', description: "print the node's main-thread heap after a full collection (heap-stats-preload.ts)" },
})
const { values: flags } = parseOptionsOrExit(process.argv.slice(2), OPTIONS, {
  usage: 'bun scripts/bench/memory.ts [options]',
  summary: 'Starts a node with many funded accounts, rests N orders on it and prints its resident memory.',
  program: 'bun scripts/bench/memory.ts',
})
const batchesPerAccount = Math.floor(flags['orders-per-account'] / BATCH)
const ordersWanted = flags.accounts * batchesPerAccount * BATCH

/** Kernel figures of a process, in MiB. */
interface Memory {
  readonly rss: number
  readonly peak: number
  readonly anon: number
  readonly file: number
}
function memoryMiB(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0)
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024, anon: kib('RssAnon') / 1024, file: kib('RssFile') / 1024 }
}

// Accounts: key i = keccak256("perpd memory bench " + i), funded well beyond the margin of its orders.
const keys = Array.from({ length: flags.accounts }, (_, i) => bytesToHex(keccak_256(new TextEncoder().encode(`perpd memory bench ${i}`))))
const genesis = devGenesis()
genesis.network = 'membench'
genesis.max_tx_per_block = 5_000
genesis.accounts = [
  ...genesis.accounts,
  ...keys.map((k) => ({ address: addressOfPrivateKey(k), balance: '10000000', roles: ['Trader' as const] })),
]

// Prices: bids 40-90 % of the mark, asks 110-160 %, on distinct ticks spread over the range, so the
// book holds many levels (nothing crosses). Markets 1-3 are the native dev markets.
const markets = genesis.markets.filter((m) => m.routing === 'native')
function order(account: number, k: number) {
  const m = markets[k % markets.length]!
  const bid = (k >> 1) % 2 === 0
  const mark = Number(m.mark_price)
  const spread = ((account * 7_919 + k * 104_729) % 10_000) / 10_000
  const price = mark * (bid ? 0.4 + 0.5 * spread : 1.1 + 0.5 * spread)
  return {
    market_id: m.market_id,
    side: bid ? ('Bid' as const) : ('Ask' as const),
    price: price.toFixed(m.price_decimals),
    qty: m.min_order_qty ?? '1',
    tif: 'Gtc' as const,
    reduce_only: false,
  }
}

// The genesis file's directory (the node's data directory is startBenchNode's own).
const dataDir = mkdtempSync(join(tmpdir(), 'perpd-membench-'))
const genesisFile = join(dataDir, 'genesis.json')
writeFileSync(genesisFile, JSON.stringify(genesis))

const signStarted = performance.now()
// Fresh accounts: nonces start at 0 (docs/protocol.md#nonces).
const firstNonce = 0
const jobs: SignJob[] = keys.map((key, a) => ({
  key,
  items: Array.from({ length: batchesPerAccount }, (_, b) => ({
    action: batchPlaceOrder(Array.from({ length: BATCH }, (_, i) => order(a, b * BATCH + i))),
    nonce: firstNonce + b,
  })),
}))
const bodies = await signBodies(jobs, genesis.network, flags['sign-workers'])
console.log(
  `signed ${bodies.length * batchesPerAccount} BatchPlaceOrder actions (${ordersWanted.toLocaleString('en-US')} orders) with ${signingLibrary} in ${((performance.now() - signStarted) / 1000).toFixed(1)} s (not timed)`,
)

const node = await startBenchNode({
  runtimeArgs: flags['heap-stats'] ? ['--preload', join(import.meta.dir, 'heap-stats-preload.ts')] : [],
  args: [
    ...(flags['admission-threads'] === undefined ? [] : ['--admission-threads', String(flags['admission-threads'])]),
    '--genesis',
    genesisFile,
    '--snapshot-every-blocks',
    '0',
    '--log-format',
    'plain',
  ],
  blockTimeMs: BLOCK_TIME_MS,
  dirPrefix: 'perpd-membench-node-',
})
const { url, pid } = node

try {
  for (let i = 0; i < 600; i++) {
    const health = await fetch(`${url}/health`).catch(() => undefined)
    if (health?.ok) break
    await Bun.sleep(100)
  }
  const before = memoryMiB(pid)
  console.log(`node ${url} (pid ${pid}) started: ${before.rss.toFixed(0)} MiB resident`)

  // Each account's batches go in nonce order, one at a time; accounts run side by side.
  const started = performance.now()
  let accepted = 0
  let rejectedItems = 0
  let next = 0
  const lane = async () => {
    for (;;) {
      const a = next++
      if (a >= bodies.length) return
      for (const body of bodies[a]!) {
        const res = await fetch(`${url}/api/v1/action`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        const reply = (await res.json()) as { result?: { status?: string; events?: { sub_kind: string }[] }; error?: unknown }
        if (reply.result?.status !== 'accepted') throw new Error(`account ${a}: ${JSON.stringify(reply).slice(0, 300)}`)
        accepted++
        for (const e of reply.result.events ?? []) if (e.sub_kind === 'BatchItemRejected') rejectedItems++
      }
    }
  }
  const progress = setInterval(() => console.log(`  ${(accepted * BATCH).toLocaleString('en-US')} orders placed`), 10_000)
  await Promise.all(Array.from({ length: Math.min(flags['in-flight'], bodies.length) }, lane))
  clearInterval(progress)
  const seconds = (performance.now() - started) / 1000
  // The node idles (its last blocks commit, the indexer catches up, its own collector and the
  // allocators' scavengers run) before the reading.
  for (let waited = 0; waited < flags['idle-seconds']; waited += 10) {
    await Bun.sleep(Math.min(10, flags['idle-seconds'] - waited) * 1_000)
    if (flags['idle-seconds'] > 10)
      console.log(`  idle ${Math.min(waited + 10, flags['idle-seconds'])} s: ${memoryMiB(pid).rss.toFixed(0)} MiB resident`)
  }
  const after = memoryMiB(pid)
  let collected:
    | {
        memory: Memory
        heap: { heapMiB: number; capacityMiB: number; extraMiB: number; objects: number; topTypes: [string, number][] }
      }
    | undefined
  if (flags['heap-stats']) {
    process.kill(pid, 'SIGUSR2')
    let line: string | undefined
    for (let i = 0; i < 600 && line === undefined; i++) {
      line = /HEAP_STATS (\{.*\})\n/.exec(node.tail())?.[1]
      if (line === undefined) await Bun.sleep(100)
    }
    if (line === undefined) throw new Error('the node printed no HEAP_STATS line')
    collected = { memory: memoryMiB(pid), heap: JSON.parse(line) }
  }

  // The node's own count (getExchangeStats: resting orders across the markets).
  const stats = await fetch(`${url}/api/v1/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getExchangeStats', params: {} }),
  })
  const resting = ((await stats.json()) as { result: { data: { open_orders: number } } }).result.data.open_orders
  console.log(
    `placed ${(accepted * BATCH - rejectedItems).toLocaleString('en-US')} orders (${rejectedItems} items rejected) in ${seconds.toFixed(1)} s; the node reports ${resting.toLocaleString('en-US')} resting`,
  )
  console.log(
    `node resident: ${after.rss.toFixed(0)} MiB with ${resting.toLocaleString('en-US')} resting orders (${before.rss.toFixed(0)} MiB at start, peak ${after.peak.toFixed(0)} MiB); ${(((after.rss - before.rss) * 1024 * 1024) / Math.max(1, resting)).toFixed(0)} bytes per resting order`,
  )
  console.log(
    `  anonymous ${after.anon.toFixed(0)} MiB, file-backed ${after.file.toFixed(0)} MiB (at start: ${before.anon.toFixed(0)} and ${before.file.toFixed(0)})`,
  )
  if (collected !== undefined) {
    const { memory, heap } = collected
    console.log(
      `  after a full collection: resident ${memory.rss.toFixed(0)} MiB (anonymous ${memory.anon.toFixed(0)}); main-thread heap ${heap.heapMiB.toFixed(0)} MiB live of ${heap.capacityMiB.toFixed(0)} MiB + ${heap.extraMiB.toFixed(0)} MiB outside it, ${heap.objects.toLocaleString('en-US')} objects (${(((heap.heapMiB + heap.extraMiB) * 1024 * 1024) / Math.max(1, resting)).toFixed(0)} bytes per resting order)`,
    )
    console.log(`  most numerous: ${heap.topTypes.map(([type, n]) => `${type} ${n.toLocaleString('en-US')}`).join(', ')}`)
  }
} finally {
  await node.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
