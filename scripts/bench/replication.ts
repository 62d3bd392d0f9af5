// Figures of a replicated chain (docs/replication.md, docs/performance.md#replication), on a
// nats-server with JetStream started here (test/support/nats-server.ts) and perpd nodes on
// 127.0.0.1 port 0 with temporary data directories, all stopped by PID at the end:
//   1. leader throughput: the /action load generator (scripts/bench/load.ts, capacity mode) against
//      a dev node alone, then against a --nats leader, one after the other in the same run;
//   2. follower lag under --rate actions/s (load.ts open mode on the leader, a --follow node beside
//      it): for each block, the time from its record reaching the stream (an ordered consumer here)
//      to the follower's health reporting its height (polled every 10 ms), in ms and block times;
//   3. failover: a leader and a --standby; SIGKILL of the leader; the time until the standby's
//      first block (its health polled every 10 ms), with --lease-ttl-ms; --failovers times.
//   bun scripts/bench/replication.ts [--seconds 10] [--rate 2000] [--block-time-ms 200] [--lease-ttl-ms 1000] [--failovers 3]
import { join } from 'node:path'
import { DeliverPolicy, jetstream } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'
import { heightOf } from '../../src/node/replication/chain-stream.ts'
import { startNatsServer } from '../../test/support/nats-server.ts'
import { type BenchNode, startBenchNode, untilRecovered } from './bench-node.ts'
import { percentile } from './stats.ts'

const ROOT = join(import.meta.dir, '..', '..')
/** Time from starting the load generator to the end of its signing and warm-up, roughly (the lag's second figure starts there). */
const SIGN_AND_WARMUP_ALLOWANCE_MS = 15_000

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  defineOptions({
    seconds: { type: 'integer', default: 10, min: 1, max: 600, description: 'length of each timed load section' },
    rate: { type: 'integer', default: 2_000, min: 1, max: 100_000, description: 'actions/s offered while the follower lag is measured' },
    'block-time-ms': { type: 'integer', default: 200, min: 10, max: 60_000, description: 'block time of the nodes' },
    'lease-ttl-ms': { type: 'integer', default: 1_000, min: 200, max: 60_000, description: 'the lease TTL of the failover runs' },
    failovers: { type: 'integer', default: 3, min: 0, max: 20, description: 'failovers measured' },
    'no-lag': { type: 'boolean', description: 'skip the follower lag measurement' },
    'throughput-runs': {
      type: 'integer',
      default: 1,
      min: 0,
      max: 10,
      description: 'pairs of throughput runs, alone then with --nats, alternated (0: none)',
    },
  }),
  {
    usage: 'bun scripts/bench/replication.ts [options]',
    summary: 'Leader throughput with and without --nats, follower lag under load, and failover time, on a local nats-server.',
    program: 'bun scripts/bench/replication.ts',
  },
)

const nodes: BenchNode[] = []

/** Starts src/main.ts with args (see bench-node.ts); resolves once it has recovered. */
async function startNode(args: readonly string[]): Promise<BenchNode> {
  const node = await startBenchNode({ args, blockTimeMs: flags['block-time-ms'], dirPrefix: 'perpd-bench-repl-' })
  nodes.push(node)
  await untilRecovered(node.url)
  return node
}

interface Health {
  status: string
  height: number
  replication?: { role: string; leader_url: string | null; stream: string }
}
async function health(url: string): Promise<Health> {
  try {
    return (await (await fetch(`${url}/api/v1/health`)).json()) as Health
  } catch {
    return { status: 'unreachable', height: -1 }
  }
}
async function until(check: () => Promise<boolean>, timeoutMs = 60_000, everyMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out')
    await Bun.sleep(everyMs)
  }
}

/** Runs the load generator against url (its output goes to this one's); resolves once it exits. */
async function load(url: string, pid: number, args: readonly string[]): Promise<void> {
  const generator = Bun.spawn(
    [
      process.execPath,
      join(import.meta.dir, 'load.ts'),
      '--url',
      url,
      '--node-pid',
      String(pid),
      '--seconds',
      String(flags.seconds),
      ...args,
    ],
    { cwd: ROOT, env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: '16384' }, stdio: ['inherit', 'inherit', 'inherit'] },
  )
  const code = await generator.exited
  if (code !== 0) throw new Error(`the load generator exited with ${code}`)
}

const nats = await startNatsServer()
const natsArgs = ['--nats', nats.url]
try {
  console.log(`nats-server ${nats.url}; block time ${flags['block-time-ms']} ms; numbers measured on this machine as it is loaded now`)

  const leaderArgs = ['--dev', '--no-dev-quoter', ...natsArgs, '--lease-ttl-ms', String(flags['lease-ttl-ms'])]
  for (let run = 1; run <= flags['throughput-runs']; run++) {
    console.log(`\n== 1. leader throughput (capacity mode), run ${run}: a node alone, then a --nats leader (its own chain) ==`)
    const alone = await startNode(['--dev', '--no-dev-quoter'])
    await load(alone.url, alone.pid, ['--mode', 'capacity'])
    await alone.stop()
    console.log('-- with --nats:')
    // A NATS server of its own: the development genesis is the same every time, and on the shared
    // server this leader would first take over the previous run's chain.
    const own = await startNatsServer()
    try {
      const measured = await startNode(['--dev', '--no-dev-quoter', '--nats', own.url])
      await load(measured.url, measured.pid, ['--mode', 'capacity'])
      await measured.stop()
    } finally {
      await own.remove()
    }
  }
  if (!flags['no-lag']) {
    const leader = await startNode(leaderArgs)

    console.log(`\n== 2. follower lag under ${flags.rate} actions/s (open mode on the leader) ==`)
    const follower = await startNode(['--follow', ...natsArgs])
    await until(async () => (await health(follower.url)).height >= (await health(leader.url)).height)
    const stream = (await health(leader.url)).replication!.stream
    const nc = await connect({ servers: nats.url })
    const appendedAt = new Map<number, number>()
    const seenAt = new Map<number, number>()
    const consumer = await jetstream(nc).consumers.get(stream, { deliver_policy: DeliverPolicy.New })
    const messages = await consumer.consume()
    void (async () => {
      for await (const m of messages) appendedAt.set(heightOf(m.seq), performance.now())
    })()
    let sampling = true
    const sampler = (async () => {
      let last = (await health(follower.url)).height
      while (sampling) {
        const h = (await health(follower.url)).height
        const now = performance.now()
        for (let x = last + 1; x <= h; x++) seenAt.set(x, now)
        last = Math.max(last, h)
        await Bun.sleep(10)
      }
    })()
    const loadStarted = performance.now()
    await load(leader.url, leader.pid, ['--mode', 'open', '--rate', String(flags.rate)])
    await until(async () => (await health(follower.url)).height >= (await health(leader.url)).height, 60_000)
    await Bun.sleep(200)
    sampling = false
    await sampler
    messages.stop()
    await nc.close()
    const blockMs = flags['block-time-ms']
    // The load generator signs everything before its warm-up; the follower meets its first full blocks then (JIT).
    const timedFrom = loadStarted + SIGN_AND_WARMUP_ALLOWANCE_MS
    const describe = (label: string, from: number) => {
      const lags = [...appendedAt]
        .filter(([h, t]) => seenAt.has(h) && t >= from)
        .map(([h, t]) => Math.max(0, seenAt.get(h)! - t))
        .sort((a, b) => a - b)
      const p = (q: number) => percentile(lags, q)
      console.log(
        `follower lag, ${label}, over ${lags.length} blocks: p50 ${p(50).toFixed(0)} ms, p90 ${p(90).toFixed(0)} ms, p99 ${p(99).toFixed(0)} ms (${(p(99) / blockMs).toFixed(2)} block times of ${blockMs} ms), max ${(lags.at(-1) ?? 0).toFixed(0)} ms`,
      )
    }
    describe('every block', 0)
    describe(`blocks appended ${SIGN_AND_WARMUP_ALLOWANCE_MS / 1000} s after the load generator started or later`, timedFrom)
    console.log("  (from the record reaching the stream to the follower's health showing its height, polled every 10 ms)")
    await follower.stop()
    await leader.stop()
  }

  console.log(`\n== 3. failover with --lease-ttl-ms ${flags['lease-ttl-ms']} (a chain of its own, no load) ==`)
  const failoverNats = await startNatsServer()
  const failoverArgs = ['--nats', failoverNats.url]
  let current = await startNode(['--dev', '--no-dev-quoter', ...failoverArgs, '--lease-ttl-ms', String(flags['lease-ttl-ms'])])
  const times: number[] = []
  for (let i = 0; i < flags.failovers; i++) {
    const standby = await startNode(['--standby', ...failoverArgs])
    await until(async () => (await health(standby.url)).replication?.leader_url === current.url)
    await until(async () => (await health(standby.url)).height >= (await health(current.url)).height)
    const killed = performance.now()
    const height = (await health(standby.url)).height
    await current.stop('SIGKILL')
    await until(async () => {
      const h = await health(standby.url)
      return h.replication?.role === 'leader' && h.height > height
    })
    const ms = performance.now() - killed
    times.push(ms)
    console.log(`failover ${i + 1}: the standby's first block ${ms.toFixed(0)} ms after SIGKILL of the leader`)
    current = standby
  }
  if (times.length > 0) {
    times.sort((a, b) => a - b)
    console.log(
      `failover: median ${percentile(times, 50).toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms with a lease TTL of ${flags['lease-ttl-ms']} ms (the standby polls the lease every ${Math.min(250, Math.floor(flags['lease-ttl-ms'] / 4))} ms)`,
    )
  }
  for (const n of nodes) await n.stop('SIGKILL').catch(() => undefined)
  await failoverNats.remove()
} finally {
  for (const n of nodes) await n.stop('SIGKILL').catch(() => undefined)
  await nats.remove()
}
