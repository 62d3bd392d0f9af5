// The disk's part of a block's commit: how long an fdatasync takes after a block's worth of WAL
// writes, as the block store's COMMIT does with synchronous = FULL (src/node/block-store.ts). Every
// produced block waits for one before any of its replies, so the tail of this distribution is a
// floor under the node's p99 /action latency that no code change removes: a sync that stalls 150 ms
// holds that block's replies, and the next block's start, as long. Writes --bytes to a temporary
// file in --dir (the data directory's file system is the one that matters), syncs it, waits
// --interval-ms (a block's other work), --syncs times, and prints the sync's percentiles.
//   bun scripts/bench/fsync.ts [--dir DIR] [--syncs 300] [--bytes 262144] [--interval-ms 20]
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseOptionsOrExit } from '../../src/lib/options.ts'
import { percentile } from './stats.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  {
    dir: { type: 'string', default: tmpdir(), description: 'directory on the file system to measure (a temporary file is made there)' },
    syncs: { type: 'integer', default: 300, min: 10, max: 100_000, description: 'syncs timed' },
    bytes: {
      type: 'integer',
      default: 262_144,
      min: 512,
      max: 64 * 1024 * 1024,
      description: 'bytes written before each sync (256 KiB: about a 400-action block of single orders)',
    },
    'interval-ms': { type: 'integer', default: 20, min: 0, max: 10_000, description: 'ms between two syncs' },
  },
  {
    usage: 'bun scripts/bench/fsync.ts [options]',
    summary: 'fdatasync latency after a block-sized write, as the block store commits: p50, p90, p99, max.',
    program: 'bun scripts/bench/fsync.ts',
  },
)

const dir = mkdtempSync(join(flags.dir, 'perpd-bench-fsync-'))
const fd = openSync(join(dir, 'wal'), 'w')
try {
  const block = Buffer.alloc(flags.bytes, 0x5a)
  const ms: number[] = []
  for (let i = 0; i < flags.syncs; i++) {
    writeSync(fd, block)
    const started = performance.now()
    fdatasyncSync(fd)
    ms.push(performance.now() - started)
    if (flags['interval-ms'] > 0) Bun.sleepSync(flags['interval-ms'])
  }
  ms.sort((a, b) => a - b)
  const at = (p: number) => percentile(ms, p).toFixed(2)
  const slow = ms.filter((x) => x > 10).length
  console.log(
    `fdatasync after ${flags.bytes.toLocaleString('en-US')} bytes written, ${flags.syncs} times in ${flags.dir}: p50 ${at(50)} ms, p90 ${at(90)}, p99 ${at(99)}, max ${ms.at(-1)!.toFixed(2)}; ${slow} over 10 ms`,
  )
} finally {
  closeSync(fd)
  rmSync(dir, { recursive: true, force: true })
}
