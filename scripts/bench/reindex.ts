// The history index built from scratch over a node's block store: copies --data-dir's chain.sqlite
// to a temporary directory, runs the indexer pipeline (src/indexer/pipeline.ts) on this thread
// until it reaches the store's tip, and prints its CPU per envelope and per event. Run a node under
// load first (scripts/bench/actions.ts with a --url node of your own, or the node's own
// --data-dir), stop it, and point this at its data directory: it measures what the indexer thread
// spends per action of that load, away from the node's other threads.
//   bun scripts/bench/reindex.ts --data-dir DIR
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Pipeline } from '../../src/indexer/pipeline.ts'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  defineOptions({
    'data-dir': {
      type: 'string',
      valueName: 'DIR',
      description: "a stopped node's data directory (its chain.sqlite is copied, not changed)",
    },
  }),
  {
    usage: 'bun scripts/bench/reindex.ts --data-dir DIR',
    summary: "CPU per envelope and per event of building the history index from a node's block store.",
    program: 'bun scripts/bench/reindex.ts',
  },
)
const source = flags['data-dir']
if (source === undefined || !existsSync(join(source, 'chain.sqlite'))) {
  console.error('--data-dir must name a data directory holding chain.sqlite')
  process.exit(2)
}

const dir = mkdtempSync(join(tmpdir(), 'perpd-bench-reindex-'))
try {
  for (const suffix of ['', '-wal'])
    if (existsSync(join(source, `chain.sqlite${suffix}`)))
      copyFileSync(join(source, `chain.sqlite${suffix}`), join(dir, `chain.sqlite${suffix}`))
  const pipeline = new Pipeline({ dataDir: dir, log: () => {} })
  const tip = pipeline.sourceTip()
  const cpu0 = process.cpuUsage()
  const started = performance.now()
  let steps = 0
  while (pipeline.step(tip).worked) steps++
  const wallMs = performance.now() - started
  const cpu = process.cpuUsage(cpu0)
  const cpuUs = cpu.user + cpu.system
  const count = (table: string) => pipeline.db.query<{ n: number }, []>(`SELECT COUNT(*) AS n FROM main.${table}`).get()!.n
  const envelopes = count('envelopes')
  const events = count('events')
  console.log(
    `indexed ${tip} blocks, ${envelopes.toLocaleString('en-US')} envelopes, ${events.toLocaleString('en-US')} events in ${steps} steps: ${(wallMs / 1000).toFixed(1)} s wall, ${(cpuUs / 1e6).toFixed(1)} s CPU; ${(cpuUs / Math.max(1, envelopes)).toFixed(1)} µs CPU per envelope, ${(cpuUs / Math.max(1, events)).toFixed(2)} µs per event`,
  )
  pipeline.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
}
