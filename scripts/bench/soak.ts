// A node under a steady load for minutes, watched for what grows: starts a dev node, runs the load
// generator (scripts/bench/load.ts) in open mode at --rate actions/s for --seconds, and every
// --sample-seconds prints the node's block production time per block (from its /metrics
// histogram), its CPU (cores, µs per action), resident memory and the history index's lag. A
// figure that climbs from row to row under the same load is a cost that grows with the chain or
// with time: the closed-order cache that walked every close before it (order-hot-cache.ts), the
// block store's tx-hash index (block-store.ts) were found so. Stops the node by its PID and
// removes its directory.
//   bun scripts/bench/soak.ts [--rate 3000] [--seconds 180] [--sample-seconds 15] [--transport ws]
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'
import { startBenchNode } from './bench-node.ts'
import { cpuBetween, sampleCpu } from './proc-cpu.ts'

const ROOT = join(import.meta.dir, '..', '..')

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  defineOptions({
    rate: { type: 'integer', default: 3_000, min: 1, max: 100_000, description: 'actions offered per second' },
    seconds: { type: 'integer', default: 180, min: 10, max: 3_600, description: 'length of the load' },
    'sample-seconds': { type: 'integer', default: 15, min: 1, max: 600, description: 'seconds per printed row' },
    transport: { type: 'string', choices: ['http', 'ws'], default: 'ws', description: 'how the generator posts the actions' },
    'block-time-ms': { type: 'integer', default: 200, min: 10, max: 60_000, description: 'block time of the node' },
  }),
  {
    usage: 'bun scripts/bench/soak.ts [options]',
    summary: 'A dev node under a steady open-mode load, its block time, CPU, memory and index lag sampled as it runs.',
    program: 'bun scripts/bench/soak.ts',
  },
)

/** A sample of the node's /metrics text: the line `name` + `labels` exactly. */
function metric(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `))
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1))
}

/** The sum of a metric's samples whose labels include `label` (perpd_actions_total over kinds). */
function metricSum(text: string, name: string, label: string): number {
  let sum = 0
  for (const l of text.split('\n')) if (l.startsWith(`${name}{`) && l.includes(label)) sum += Number(l.slice(l.lastIndexOf(' ') + 1))
  return sum
}

const residentMiB = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m === null ? Number.NaN : Number(m[1]) / 1024
}

const node = await startBenchNode({
  args: ['--dev', '--no-dev-quoter'],
  blockTimeMs: flags['block-time-ms'],
  dirPrefix: 'perpd-soak-',
  startTimeoutMs: 30_000,
})
process.on('SIGINT', () => void node.stop().finally(() => process.exit(130)))
let code = 1
try {
  console.log(
    `soak: node pid ${node.pid} at ${node.url}, ${flags.rate} actions/s offered over ${flags.transport} for ${flags.seconds} s, a row every ${flags['sample-seconds']} s`,
  )
  const generator = Bun.spawn(
    [
      process.execPath,
      join(import.meta.dir, 'load.ts'),
      '--url',
      node.url,
      '--node-pid',
      String(node.pid),
      '--mode',
      'open',
      '--rate',
      String(flags.rate),
      '--seconds',
      String(flags.seconds),
      '--transport',
      flags.transport,
    ],
    { cwd: ROOT, env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: '16384' }, stdout: 'pipe', stderr: 'inherit' },
  )
  // The generator signs every action first; the rows start once it says it has.
  const lines: string[] = []
  let signed: () => void = () => {}
  const signingDone = new Promise<void>((resolve) => {
    signed = resolve
  })
  const reading = (async () => {
    const decoder = new TextDecoder()
    let pending = ''
    for await (const chunk of generator.stdout) {
      pending += decoder.decode(chunk, { stream: true })
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end)
        pending = pending.slice(end + 1)
        lines.push(line)
        if (line.startsWith('signed ')) signed()
      }
    }
  })()
  await Promise.race([signingDone, generator.exited])
  console.log('   t s | blocks | ms per block | node cores | µs CPU per action | resident MiB | index lag (derive)')
  let last: { cpu: ReturnType<typeof sampleCpu>; sum: number; count: number; actions: number } | undefined
  let elapsed = 0
  const sampler = setInterval(async () => {
    const text = await fetch(`${node.url}/metrics`)
      .then((r) => r.text())
      .catch(() => '')
    const cpu = sampleCpu(node.pid)
    const sum = metric(text, 'perpd_block_production_seconds_sum') ?? 0
    const count = metric(text, 'perpd_block_production_seconds_count') ?? 0
    const actions = metricSum(text, 'perpd_actions_total', 'outcome="accepted"')
    const lag = metric(text, 'perpd_indexer_lag_blocks', '{stage="derive"}')
    if (last !== undefined && last.cpu !== undefined && cpu !== undefined) {
      elapsed += flags['sample-seconds']
      const blocks = count - last.count
      const use = cpuBetween(last.cpu, cpu)
      const done = actions - last.actions
      console.log(
        [
          String(elapsed).padStart(6),
          String(blocks).padStart(6),
          (blocks > 0 ? ((sum - last.sum) * 1000) / blocks : 0).toFixed(1).padStart(12),
          use.cores.toFixed(2).padStart(10),
          (done > 0 ? (use.cpuSeconds * 1e6) / done : 0).toFixed(0).padStart(17),
          residentMiB(node.pid).toFixed(0).padStart(12),
          String(lag ?? '?').padStart(18),
        ].join(' | '),
      )
    }
    last = { cpu, sum, count, actions }
  }, flags['sample-seconds'] * 1000)
  code = await generator.exited
  clearInterval(sampler)
  await reading
  console.log(lines.filter((l) => /^(open| {2}\/action| {2}blocks| {2}node CPU)/.test(l)).join('\n'))
  if (code !== 0) console.error(`load generator exited with ${code}; the node's last output:\n${node.tail().slice(-3_000)}`)
} finally {
  await node.stop()
}
process.exit(code)
