// The history index's tx-hash lookup (src/indexer/tables/tx-runs.ts) as the index grows: blocks
// of --envelopes envelopes with random tx hashes are ingested into a fresh history.sqlite one
// transaction per block, as the indexer does while it follows the tip (the envelope rows with
// their other indexes, plus the block's run and any merge it fills). Prints the CPU µs per
// envelope and the slowest block (a merge) every --every blocks, then the µs per lookup.
// --with-tx-index maintains an index on envelopes.tx_hash instead, as indexes did before
// 2026-11-26, for comparison: a random key, a page write per envelope once it outgrows the cache.
//   bun scripts/bench/tx-runs.ts [--blocks 2000] [--envelopes 1000] [--every 200] [--with-tx-index]
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { historyPath, openHistoryWriter } from '../../src/indexer/schema.ts'
import { addTxRun, txLocation } from '../../src/indexer/tables/tx-runs.ts'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  defineOptions({
    blocks: { type: 'integer', default: 2_000, min: 1, max: 1_000_000, description: 'blocks ingested' },
    envelopes: { type: 'integer', default: 1_000, min: 1, max: 100_000, description: 'envelopes per block' },
    every: { type: 'integer', default: 200, min: 1, max: 1_000_000, description: 'blocks per printed row' },
    lookups: { type: 'integer', default: 20_000, min: 1, max: 10_000_000, description: 'lookups timed at the end' },
    'with-tx-index': { type: 'boolean', default: false, description: 'an index on envelopes.tx_hash instead of the runs' },
  }),
  {
    usage: 'bun scripts/bench/tx-runs.ts [options]',
    summary: "CPU per envelope of the history index's tx-hash lookup as the index grows, and the cost of a lookup.",
    program: 'bun scripts/bench/tx-runs.ts',
  },
)

const dir = mkdtempSync(join(tmpdir(), 'perpd-bench-tx-runs-'))
try {
  const db = openHistoryWriter(historyPath(dir))
  const withIndex = flags['with-tx-index']
  if (withIndex) db.exec('CREATE INDEX envelopes_tx ON envelopes (tx_hash)')
  // The block store's envelopes, as tx-runs.ts reads them (attached as `chain`), one block at a time.
  db.exec("ATTACH ':memory:' AS chain")
  db.exec(
    'CREATE TABLE chain.envelopes (height INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, tx_hash TEXT NOT NULL, PRIMARY KEY (height, envelope_idx)) WITHOUT ROWID',
  )
  const signers = Array.from({ length: 150 }, () => `0x${randomBytes(20).toString('hex')}`)
  const toChain = db.prepare('INSERT INTO chain.envelopes VALUES (?, ?, ?)')
  const copy =
    db.prepare(`INSERT INTO main.envelopes (height, envelope_idx, tx_hash, signer, nonce, action_kind, market_id, action, status, reason)
    SELECT c.height, c.envelope_idx, c.tx_hash, ?, c.envelope_idx, 'PlaceOrder', 1, '{"PlaceOrder":{}}', 'accepted', NULL FROM chain.envelopes c WHERE c.envelope_idx = ?`)
  const sample: string[] = []
  const env = flags.envelopes
  console.log(
    `tx-hash lookup of the history index, ${withIndex ? 'index on envelopes.tx_hash' : 'sorted runs'}: ${flags.blocks} blocks of ${env} envelopes`,
  )
  let cpu0 = process.cpuUsage()
  let slowestMs = 0
  for (let height = 1; height <= flags.blocks; height++) {
    db.exec('DELETE FROM chain.envelopes')
    db.transaction(() => {
      for (let i = 0; i < env; i++) {
        const hash = `0x${randomBytes(32).toString('hex')}`
        toChain.run(height, i, hash)
        if (i === 0 && sample.length < flags.lookups) sample.push(hash)
      }
    })()
    const t0 = performance.now()
    db.transaction(() => {
      for (let i = 0; i < env; i++) copy.run(signers[i % signers.length]!, i)
      if (!withIndex) addTxRun(db, height, height)
    })()
    slowestMs = Math.max(slowestMs, performance.now() - t0)
    if (height % flags.every === 0) {
      const cpu = process.cpuUsage(cpu0)
      const perEnvelopeUs = (cpu.user + cpu.system) / (flags.every * env)
      // The rows generated above (random bytes, the chain table) are part of the figure for both variants alike.
      console.log(
        `  ${(height * env).toLocaleString('en-US').padStart(11)} envelopes: ${perEnvelopeUs.toFixed(1)} µs CPU per envelope, slowest block ${slowestMs.toFixed(0)} ms`,
      )
      cpu0 = process.cpuUsage()
      slowestMs = 0
    }
  }
  const lookup = withIndex
    ? (h: string) => db.query('SELECT height, envelope_idx FROM envelopes WHERE tx_hash = ?').get(h)
    : (h: string) => txLocation(db, h)
  const runs = withIndex ? 0 : db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM tx_runs').get()!.n
  const t0 = performance.now()
  for (const h of sample) if (lookup(h) === null) throw new Error(`lookup of ${h} found nothing`)
  const missT0 = performance.now()
  for (let i = 0; i < sample.length; i++) lookup(`0x${randomBytes(32).toString('hex')}`)
  const missUs = ((performance.now() - missT0) * 1000) / sample.length
  console.log(
    `lookup: ${(((missT0 - t0) * 1000) / sample.length).toFixed(1)} µs for a hash present, ${missUs.toFixed(1)} µs for one absent${withIndex ? '' : ` (${runs} runs)`}`,
  )
  db.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
}
