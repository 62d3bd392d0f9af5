// Read latency while the node takes signed actions: starts a dev node (as actions.ts does), runs the
// load generator (scripts/bench/load.ts) against it, and from the start of its timed section (its
// sending began, then --warmup-seconds) sends getAccount reads to /api/v1/query from --readers loops
// (each waits --pause-ms between reads) for --seconds; prints the reads' p50, p90, p99 and max beside
// the load's own summary. What it is for: a read that arrives while the node applies the next
// block's actions ahead of its tick waits for the block's commit (docs/architecture.md#threads);
// --no-execute-ahead starts the node without that, for comparison. Stops the node by its PID and
// removes its directory.
//   bun scripts/bench/reads-under-load.ts [--mode open --rate 2000] [--seconds 10] [--no-execute-ahead]
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'
import { startBenchNode } from './bench-node.ts'
import { LOAD_OPTIONS, spawnLoadGenerator } from './load-options.ts'
import { percentile } from './stats.ts'

const OPTIONS = defineOptions({
  ...LOAD_OPTIONS,
  readers: { type: 'integer', default: 16, min: 1, max: 1_000, description: 'read loops' },
  'pause-ms': { type: 'integer', default: 5, min: 0, max: 10_000, description: "each loop's pause between two reads" },
  'no-execute-ahead': { type: 'boolean', default: false, description: 'start the node with --no-execute-ahead' },
})
const { values: flags } = parseOptionsOrExit(process.argv.slice(2), OPTIONS, {
  usage: 'bun scripts/bench/reads-under-load.ts [options]',
  summary: 'Starts a dev node, loads it with signed actions (load.ts) and measures /query read latency meanwhile.',
  program: 'bun scripts/bench/reads-under-load.ts',
})

/** load.ts prints this line just before it starts sending (its warm-up, then its timed section). */
const SENDING_STARTS = 'one signature recovery as the node admits'

const node = await startBenchNode({
  args: ['--dev', '--no-dev-quoter', ...(flags['no-execute-ahead'] ? ['--no-execute-ahead'] : [])],
  blockTimeMs: 200,
  dirPrefix: 'perpd-bench-',
  startTimeoutMs: 30_000,
})
let code = 1
try {
  console.log(`node: pid ${node.pid}, ${node.url}${flags['no-execute-ahead'] ? ', --no-execute-ahead' : ''}`)
  const generator = spawnLoadGenerator(node.url, node.pid, flags, 'pipe')
  // Its output, kept for the summary; the reads start with its timed section.
  let output = ''
  let sending: () => void = () => {}
  const sendingStarted = new Promise<void>((resolve) => {
    sending = resolve
  })
  const drained = (async () => {
    const decoder = new TextDecoder()
    for await (const chunk of generator.stdout as ReadableStream<Uint8Array>) {
      output += decoder.decode(chunk, { stream: true })
      if (output.includes(SENDING_STARTS)) sending()
    }
  })()
  await Promise.race([sendingStarted, generator.exited])
  await Bun.sleep(flags['warmup-seconds'] * 1_000)
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'getAccount',
    params: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
  })
  const latencies: number[] = []
  let errors = 0
  const end = performance.now() + flags.seconds * 1_000
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
  await drained
  for (const line of output.split('\n')) if (/^(capacity|open|batch):|latency/.test(line.trim())) console.log(line)
  latencies.sort((a, b) => a - b)
  const ms = (percent: number) => percentile(latencies, percent).toFixed(1)
  console.log(
    `reads (getAccount, ${flags.readers} loops): ${latencies.length.toLocaleString('en-US')} answered, ${errors} errors; p50 ${ms(50)} ms, p90 ${ms(90)}, p99 ${ms(99)}, max ${latencies.at(-1)?.toFixed(1)}`,
  )
} finally {
  await node.stop()
}
process.exit(code)
