// The history index built from scratch over a node's block store: copies --data-dir's chain.sqlite
// to a temporary directory, runs the indexer pipeline (src/indexer/pipeline.ts) on this thread
// until it reaches the store's tip, and prints its CPU per envelope and per event. Run a node under
// load first (scripts/bench/actions.ts with a --url node of your own, or the node's own
// --data-dir), stop it, and point this at its data directory: it measures what the indexer thread
// spends per action of that load, away from the node's other threads. --upgrade then gives the
// index the copies of the block store's actions and events that earlier builds
// kept, and times their drop, which the first start of this build does (schema.ts dropBlockStoreCopies).
// --blocks-per-step N hands the pipeline the tip N blocks at a time, as a node following its chain
// does (a block or two per batch at 200 ms blocks: indexer-worker.ts waits 250 ms after a new tip),
// instead of a catch-up's batches of up to 1,000 blocks; small batches cost more per envelope.
//   bun scripts/bench/reindex.ts --data-dir DIR [--blocks-per-step N] [--upgrade]
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Pipeline } from '../../src/indexer/pipeline.ts'
import { dropBlockStoreCopies } from '../../src/indexer/schema.ts'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'
import { copyBlockStoreFiles } from '../../src/node/block-store.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  defineOptions({
    'data-dir': {
      type: 'string',
      valueName: 'DIR',
      description: "a stopped node's data directory (its chain.sqlite is copied, not changed)",
    },
    'blocks-per-step': {
      type: 'integer',
      default: 0,
      min: 0,
      max: 1_000_000,
      valueName: 'N',
      description:
        'move the tip the pipeline sees N blocks at a time, as when following the chain (0: the whole store at once, as a catch-up)',
    },
    upgrade: { type: 'boolean', default: false, description: "then time the drop of an older index's copies of actions and events" },
  }),
  {
    usage: 'bun scripts/bench/reindex.ts --data-dir DIR [--blocks-per-step N] [--upgrade]',
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
  copyBlockStoreFiles(source, dir)
  const pipeline = new Pipeline({ dataDir: dir, log: () => {} })
  const tip = pipeline.sourceTip()
  const cpu0 = process.cpuUsage()
  const started = performance.now()
  const perStep = flags['blocks-per-step'] > 0 ? flags['blocks-per-step'] : tip
  let steps = 0
  for (let seen = Math.min(tip, perStep); ; seen = Math.min(tip, seen + perStep)) {
    while (pipeline.step(seen).worked) steps++
    if (seen === tip) break
  }
  const wallMs = performance.now() - started
  const cpu = process.cpuUsage(cpu0)
  const cpuUs = cpu.user + cpu.system
  const count = (sql: string) => pipeline.db.query<{ n: number | null }, []>(sql).get()!.n ?? 0
  const envelopes = count('SELECT COUNT(*) AS n FROM main.envelopes')
  // The events stay in the block store (src/indexer/tables/events.ts).
  const events = count('SELECT SUM(event_count) AS n FROM chain.blocks')
  console.log(
    `indexed ${tip} blocks, ${envelopes.toLocaleString('en-US')} envelopes, ${events.toLocaleString('en-US')} events in ${steps} steps (${flags['blocks-per-step'] > 0 ? `the tip moved ${perStep} blocks at a time` : 'the whole store at once'}): ${(wallMs / 1000).toFixed(1)} s wall, ${(cpuUs / 1e6).toFixed(1)} s CPU; ${(cpuUs / Math.max(1, envelopes)).toFixed(1)} µs CPU per envelope, ${(cpuUs / Math.max(1, events)).toFixed(2)} µs per event`,
  )
  if (flags.upgrade) {
    // The copies an index of an earlier build held, made again from the block store.
    const db = pipeline.db
    db.exec(`CREATE TABLE main.event_groups (
      height INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
      events TEXT NOT NULL, PRIMARY KEY (height, envelope_idx))`)
    db.exec('INSERT INTO main.event_groups SELECT height, envelope_idx, first_seq, last_seq, events FROM chain.event_groups')
    db.exec(`ALTER TABLE main.envelopes ADD COLUMN action TEXT NOT NULL DEFAULT ''`)
    db.exec('ALTER TABLE main.envelopes ADD COLUMN reason TEXT')
    db.exec(`UPDATE main.envelopes SET (action, reason) = (SELECT c.action, c.reason FROM chain.envelopes c
      WHERE c.height = envelopes.height AND c.envelope_idx = envelopes.envelope_idx)`)
    const upgradeCpu0 = process.cpuUsage()
    const upgradeStarted = performance.now()
    dropBlockStoreCopies(db)
    const upgradeMs = performance.now() - upgradeStarted
    const upgradeCpu = process.cpuUsage(upgradeCpu0)
    console.log(
      `dropped the copies of ${envelopes.toLocaleString('en-US')} envelopes' actions and ${events.toLocaleString('en-US')} events in ${(upgradeMs / 1000).toFixed(1)} s wall, ${((upgradeCpu.user + upgradeCpu.system) / 1e6).toFixed(1)} s CPU: ${((upgradeMs / Math.max(1, envelopes)) * 1000).toFixed(2)} s per million envelopes`,
    )
  }
  pipeline.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
}
