// Snapshots in a real data directory with the real block store: a node restarts from its newest
// snapshot and replays only the tail; a snapshot that does not agree with the chain (damaged,
// another genesis, above the stored tip) is skipped for the next older one, down to genesis; the
// restored node reaches the same roots as one that replayed everything.
import { afterEach, describe, expect, test } from 'bun:test'
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEV_KEYS } from '../../test/support/node-process.ts'
import { fullStateRoot } from '../chain/index.ts'
import { Signer } from '../client/signer.ts'
import { bytesToHex } from '../lib/hex.ts'
import { ChainNode, type ChainNodeOptions } from './chain-node.ts'
import { codeFingerprint } from './code-fingerprint.ts'
import { devGenesis } from './dev-genesis.ts'
import { SNAPSHOTS_KEPT } from './snapshots.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function options(overrides: Partial<ChainNodeOptions> = {}): ChainNodeOptions & { lines: string[] } {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'perpd-snap-'))
  if (overrides.dataDir === undefined) dirs.push(dataDir)
  let clock = 1_700_000_000_000
  const lines: string[] = []
  return {
    dataDir,
    genesis: devGenesis(),
    blockTimeMs: 200,
    now: () => (clock += 200),
    log: (line) => lines.push(line),
    snapshotEveryBlocks: 5,
    ...overrides,
    lines,
  }
}

/** A node that produces blocks on demand (no timer), with a signer per dev key. */
class Driver {
  readonly node: ChainNode
  private readonly nonces = new Map<number, number>()

  constructor(readonly opts: ChainNodeOptions & { lines: string[] }) {
    this.node = new ChainNode(opts)
    this.node.startManual()
  }

  /** Signs and submits an action for dev key k; it lands in the next block. */
  send(k: number, action: Record<string, unknown>): void {
    const nonce = this.nonces.get(k) ?? this.node.state.nonces.get(new Signer(DEV_KEYS[k]!).address)?.floor ?? 0
    this.nonces.set(k, nonce + 1)
    void this.node.submit(new Signer(DEV_KEYS[k]!).sign(action, nonce, 'dev').params)
  }

  /** Blocks with some trading in each: resting orders, crossing orders, a cancel by client id. */
  trade(blocks: number): void {
    for (let b = 0; b < blocks; b++) {
      const h = this.node.state.height
      const price = String(64_000 + (h % 7))
      this.send(1, {
        PlaceOrder: { market_id: 1, side: 'Bid', price, qty: '0.01', tif: 'Gtc', reduce_only: false, client_order_id: `b${h}` },
      })
      this.send(2, {
        PlaceOrder: { market_id: 1, side: 'Ask', price: String(64_000 + (h % 5)), qty: '0.004', tif: 'Gtc', reduce_only: false },
      })
      if (h % 3 === 0) this.send(1, { CancelOrder: { market_id: 1, client_order_id: `b${h - 1}` } })
      this.node.produceBlock()
    }
  }

  root(): string {
    return bytesToHex(fullStateRoot(this.node.state))
  }
}

const snapshotFiles = (dataDir: string): string[] => {
  const dir = join(dataDir, 'snapshots')
  return existsSync(dir) ? readdirSync(dir).sort() : []
}

describe('snapshots', () => {
  test('every N blocks and at stop; a restart restores the newest and replays nothing', () => {
    const a = new Driver(options())
    a.trade(7)
    // A write that a crash cut short leaves a temporary file, which the next write clears.
    writeFileSync(join(a.opts.dataDir, 'snapshots', 'state-000000000007.snap.tmp'), 'half')
    a.trade(5)
    expect(snapshotFiles(a.opts.dataDir)).toEqual(['state-000000000005.snap', 'state-000000000010.snap'])
    const root = a.root()
    a.node.stop()
    // The stop wrote height 12 and dropped the oldest beyond SNAPSHOTS_KEPT.
    expect(snapshotFiles(a.opts.dataDir)).toEqual(['state-000000000010.snap', 'state-000000000012.snap'])
    expect(SNAPSHOTS_KEPT).toBe(2)

    const b = new Driver(options({ dataDir: a.opts.dataDir }))
    expect(b.opts.lines.join('\n')).toMatch(/restored the state at height 12 from .*state-000000000012\.snap/)
    expect(b.opts.lines.join('\n')).not.toMatch(/replayed/)
    expect(b.node.state.height).toBe(12)
    expect(b.root()).toBe(root)
    b.trade(3)
    b.node.stop()
  })

  test('after a crash: the newest periodic snapshot plus the tail, the same roots as a full replay', () => {
    const a = new Driver(options())
    a.trade(13)
    // Copies taken while it runs, as a crash after block 13 leaves the directory: snapshots at 5 and 10.
    const crashed = copyDir(a.opts.dataDir)
    const noSnapshots = copyDir(a.opts.dataDir)
    rmSync(join(noSnapshots, 'snapshots'), { recursive: true })
    a.node.stop()

    const restored = new Driver(options({ dataDir: crashed }))
    expect(restored.opts.lines.join('\n')).toMatch(/restored the state at height 10 .*\n.*replayed 3 blocks \(11 to 13\)/)
    const replayed = new Driver(options({ dataDir: noSnapshots, snapshotEveryBlocks: 0 }))
    expect(replayed.opts.lines.join('\n')).toMatch(/replayed 13 blocks \(1 to 13\)/)
    expect(restored.root()).toBe(replayed.root())
    // Both go on alike: the same blocks give the same roots.
    restored.trade(4)
    replayed.trade(4)
    for (let h = 14; h <= 17; h++) expect(restored.node.store.header(h)!.stateRoot).toBe(replayed.node.store.header(h)!.stateRoot)
    restored.node.stop()
    replayed.node.stop()
  })

  test('a damaged newest snapshot is skipped for the older one; with none usable, genesis', () => {
    const a = new Driver(options())
    a.trade(12)
    a.node.stop()
    const root = new Driver(options({ dataDir: a.opts.dataDir, snapshotEveryBlocks: 0 }))
    const expected = root.root()
    root.node.stop()
    const [older, newest] = snapshotFiles(a.opts.dataDir).map((f) => join(a.opts.dataDir, 'snapshots', f))
    const bytes = readFileSync(newest!)
    bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff
    writeFileSync(newest!, bytes)
    const b = new Driver(options({ dataDir: a.opts.dataDir, snapshotEveryBlocks: 0 }))
    const log = b.opts.lines.join('\n')
    expect(log).toMatch(/state-000000000012\.snap skipped: damaged: checksum mismatch/)
    expect(log).toMatch(/restored the state at height 10 .*\n.*replayed 2 blocks \(11 to 12\)/)
    expect(b.root()).toBe(expected)
    b.node.stop()

    writeFileSync(older!, 'not a snapshot')
    const c = new Driver(options({ dataDir: a.opts.dataDir, snapshotEveryBlocks: 0 }))
    expect(c.opts.lines.join('\n')).toMatch(/state-000000000010\.snap skipped: not a snapshot file[\s\S]*replayed 12 blocks \(1 to 12\)/)
    expect(c.root()).toBe(expected)
    c.node.stop()
  })

  test('a snapshot above the stored tip, or of another genesis, is skipped', () => {
    const a = new Driver(options())
    a.trade(6)
    a.node.stop()
    const otherGenesis = { ...devGenesis(), network: 'dev-other' }
    const other = new Driver(options({ genesis: otherGenesis, snapshotEveryBlocks: 0 }))
    other.trade(2)
    other.node.stop()
    const foreign = join(a.opts.dataDir, 'snapshots', 'state-000000000006.snap')
    const into = join(other.opts.dataDir, 'snapshots')
    mkdirSync(into)

    copyFileSync(foreign, join(into, 'state-000000000006.snap'))
    const b = new Driver(options({ dataDir: other.opts.dataDir, genesis: otherGenesis, snapshotEveryBlocks: 0 }))
    expect(b.opts.lines.join('\n')).toMatch(
      /state-000000000006\.snap skipped: height 6 is above the stored tip 2[\s\S]*replayed 2 blocks \(1 to 2\)/,
    )
    b.node.stop()

    rmSync(join(into, 'state-000000000006.snap'))
    copyFileSync(foreign, join(into, 'state-000000000002.snap'))
    const c = new Driver(options({ dataDir: other.opts.dataDir, genesis: otherGenesis, snapshotEveryBlocks: 0 }))
    expect(c.opts.lines.join('\n')).toMatch(/state-000000000002\.snap skipped: taken on another genesis[\s\S]*replayed 2 blocks \(1 to 2\)/)
    expect(c.node.state.params.network).toBe('dev-other')
    c.node.stop()
  })

  test('a snapshot written by another version of the code is not restored: the blocks are replayed', () => {
    const a = new Driver(options())
    a.trade(6)
    a.node.stop()
    const upgraded = new Driver(options({ dataDir: a.opts.dataDir, codeFingerprint: 'src:another-version', snapshotEveryBlocks: 0 }))
    expect(upgraded.opts.lines.join('\n')).toMatch(
      /state-000000000006\.snap skipped: written by another version of the code[\s\S]*replayed 6 blocks \(1 to 6\)/,
    )
    upgraded.node.stop()
    // The running code's fingerprint: from source, a hash of src/, the same on every call.
    expect(codeFingerprint()).toMatch(/^src:[0-9a-f]{64}$/)
    expect(codeFingerprint()).toBe(codeFingerprint())
  })

  test('--snapshot-every-blocks 0 writes none', () => {
    const a = new Driver(options({ snapshotEveryBlocks: 0 }))
    a.trade(6)
    a.node.stop()
    expect(snapshotFiles(a.opts.dataDir)).toEqual([])
  })
})

/** A copy of a data directory (the SQLite files with their WAL, and the snapshots), removed after the test. */
function copyDir(from: string): string {
  const to = mkdtempSync(join(tmpdir(), 'perpd-snap-copy-'))
  dirs.push(to)
  cpSync(from, to, { recursive: true })
  return to
}
