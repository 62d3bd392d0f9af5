// Read latency while the node takes signed actions: starts a dev node (as actions.ts does), runs the
// load generator (scripts/bench/load.ts) against it, and after its warm-up sends getAccount reads to
// /api/v1/query from --readers loops (each waits --pause-ms between reads) for --read-seconds;
// prints the reads' p50, p90, p99 and max beside the load's own summary. What it is for: a read
// that arrives while the node applies the next block's actions ahead of its tick waits for the
// block's commit (docs/architecture.md#threads); --no-execute-ahead starts the node without that,
// for comparison. Stops the node by its PID and removes its directory.
//   bun scripts/bench/reads-under-load.ts [--mode open --rate 2000] [--read-seconds 8] [--no-execute-ahead]
import { join } from 'node:path'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'
import { startBenchNode } from './bench-node.ts'
import { LOAD_OPTIONS, loadArgs } from './load-options.ts'
import { percentile } from './stats.ts'

const OPTIONS = defineOptions({
  ...LOAD_OPTIONS,
  readers: { type: 'integer', default: 16, min: 1, max: 1_000, description: 'read loops' },
  'pause-ms': { type: 'integer', default: 5, min: 0, max: 10_000, description: "each loop's pause between two reads" },
  'read-seconds': { type: 'integer', default: 8, min: 1, max: 3_600, description: 'seconds of reads, from the load warm-up on' },
  'no-execute-ahead': { type: 'boolean', default: false, description: 'start the node with --no-execute-ahead' },
})
const { values: flags } = parseOptionsOrExit(process.argv.slice(2), OPTIONS, {
  usage: 'bun scripts/bench/reads-under-load.ts [options]',
  summary: 'Starts a dev node, loads it with signed actions (load.ts) and measures /query read latency meanwhile.',
  program: 'bun scripts/bench/reads-under-load.ts',
})

/** Seconds the load generator spends before its timed section: its signers, signing and warm-up. */
const LOAD_SETTLE_MS = 6_000

const node = await startBenchNode({
  args: ['--dev', '--no-dev-quoter', ...(flags['no-execute-ahead'] ? ['--no-execute-ahead'] : [])],
  blockTimeMs: 200,
  dirPrefix: 'perpd-bench-',
  startTimeoutMs: 30_000,
})
let code = 1
try {
  console.log(`node: pid ${node.pid}, ${node.url}${flags['no-execute-ahead'] ? ', --no-execute-ahead' : ''}`)
  const generator = Bun.spawn(
    [process.execPath, join(import.meta.dir, 'load.ts'), '--url', node.url, '--node-pid', String(node.pid), ...loadArgs(flags)],
    {
      cwd: join(import.meta.dir, '..', '..'),
      env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(flags['max-http-requests']) },
      stdio: ['inherit', 'pipe', 'inherit'],
    },
  )
  const summary = new Response(generator.stdout).text()
  await Bun.sleep(LOAD_SETTLE_MS)
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'getAccount',
    params: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
  })
  const latencies: number[] = []
  let errors = 0
  const end = performance.now() + flags['read-seconds'] * 1_000
  await Promise.all(
    Array.from({ length: flags.readers }, async () => {
      while (performance.now() < end) {
        const sent = performance.now()
        const res = await fetch(`${node.url}/api/v1/query`, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
        const reply = (await res.json()) as { result?: unknown }
        if (reply.result === undefined) errors++
        else latencies.push(performance.now() - sent)
        await Bun.sleep(flags['pause-ms'])
      }
    }),
  )
  code = await generator.exited
  for (const line of (await summary).split('\n')) if (/^(capacity|open|batch):|latency/.test(line.trim())) console.log(line)
  latencies.sort((a, b) => a - b)
  const ms = (percent: number) => percentile(latencies, percent).toFixed(1)
  console.log(
    `reads (getAccount, ${flags.readers} loops): ${latencies.length.toLocaleString('en-US')} answered, ${errors} errors; p50 ${ms(50)} ms, p90 ${ms(90)}, p99 ${ms(99)}, max ${latencies.at(-1)?.toFixed(1)}`,
  )
} finally {
  await node.stop()
}
process.exit(code)
