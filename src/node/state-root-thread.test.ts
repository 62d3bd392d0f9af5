// The roots of produced and replayed blocks on the state-root thread: every header's root is the
// state's, as a from-scratch recomputation gives it and as a replay from genesis checks it; a replay
// on the thread refuses a block that does not replay as that block; a failing thread stops the block
// before it is stored, with what went wrong.
import { Database } from 'bun:sqlite'
import { afterEach, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEV_KEYS } from '../../test/support/node-process.ts'
import { createGenesisState, fullStateRoot, type LeafSink } from '../chain/index.ts'
import { Signer } from '../client/signer.ts'
import { bytesToHex } from '../lib/hex.ts'
import { ChainNode, type ChainNodeOptions } from './chain-node.ts'
import { devGenesis } from './dev-genesis.ts'
import { RING_BYTES, StateRootThread } from './state-root-thread.ts'

const dirs: string[] = []
const nodes: ChainNode[] = []
afterEach(() => {
  for (const node of nodes.splice(0)) node.stop()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function startNode(overrides: Partial<ChainNodeOptions> = {}): ChainNode {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'perpd-root-thread-'))
  if (overrides.dataDir === undefined) dirs.push(dataDir)
  let clock = 1_700_000_000_000
  const node = new ChainNode({ dataDir, genesis: devGenesis(), blockTimeMs: 200, now: () => (clock += 200), log: () => {}, ...overrides })
  nodes.push(node)
  node.startManual()
  return node
}

/** Blocks of orders that rest, cross, fill and are cancelled, from three dev accounts. */
function trade(node: ChainNode, blocks: number, check: (node: ChainNode) => void): void {
  const signers = [1, 2, 3].map((k) => new Signer(DEV_KEYS[k]!))
  const nonces = signers.map((s) => node.state.nonces.get(s.address)?.floor ?? 0)
  const send = (k: number, action: Record<string, unknown>) => void node.submit(signers[k]!.sign(action, nonces[k]!++, 'dev').params)
  for (let b = 0; b < blocks; b++) {
    const h = node.state.height
    for (let i = 0; i < 5; i++) {
      send(0, {
        PlaceOrder: {
          market_id: 1,
          side: 'Bid',
          price: String(64_000 + ((h + i) % 9)),
          qty: '0.01',
          tif: 'Gtc',
          reduce_only: false,
          client_order_id: `b${h}-${i}`,
        },
      })
      send(1, {
        PlaceOrder: { market_id: 1, side: 'Ask', price: String(64_003 + ((h + i) % 7)), qty: '0.004', tif: 'Gtc', reduce_only: false },
      })
    }
    send(2, { PlaceOrder: { market_id: 1, side: 'Ask', price: '63000', qty: '0.02', tif: 'Ioc', reduce_only: false } })
    if (h > 0) send(0, { CancelOrder: { market_id: 1, client_order_id: `b${h - 1}-2` } })
    node.produceBlock()
    check(node)
  }
}

describe('the state-root thread', () => {
  test("every produced block's root is the state's; a replay from genesis reaches each of them", () => {
    const node = startNode({ stateRootThread: true })
    let fills = 0
    node.onBlock((block) => {
      fills += block.stored.events.filter((e) => e.subKind === 'Filled').length
    })
    trade(node, 25, (n) => expect(n.store.header(n.state.height)!.stateRoot).toBe(bytesToHex(fullStateRoot(n.state))))
    expect(node.state.height).toBe(25)
    expect(fills).toBeGreaterThan(0)
    // Only the thread holds the hash now.
    expect(() => node.state.hash.root()).toThrow(/handed to another thread/)
    const tip = node.store.header(25)!
    node.stop()
    // The constructor replays every stored block and checks its root and digest (a mismatch throws).
    const replayed = startNode({ dataDir: node.dataDir })
    expect(replayed.state.height).toBe(25)
    expect(bytesToHex(fullStateRoot(replayed.state))).toBe(tip.stateRoot)
    expect(replayed.state.lastDigest).toBe(tip.digest)
  })

  test('a replay with the thread reaches every stored root, keeps the hash there, and the node produces on from it', () => {
    const inline = startNode()
    trade(inline, 20, () => {})
    const tip = inline.store.header(20)!
    inline.stop()
    // Each block's root is folded on the thread while the next block executes.
    const replayed = startNode({ dataDir: inline.dataDir, stateRootThread: true, replayThreadMinEnvelopes: 0 })
    expect(replayed.state.height).toBe(20)
    expect(replayed.state.lastDigest).toBe(tip.digest)
    expect(bytesToHex(fullStateRoot(replayed.state))).toBe(tip.stateRoot)
    expect(() => replayed.state.hash.root()).toThrow(/handed to another thread/)
    trade(replayed, 5, (n) => expect(n.store.header(n.state.height)!.stateRoot).toBe(bytesToHex(fullStateRoot(n.state))))
    const after = replayed.store.header(25)!
    replayed.stop()
    // And a replay on the block thread agrees with what the thread-replayed node went on to produce.
    const again = startNode({ dataDir: inline.dataDir })
    expect(again.state.lastDigest).toBe(after.digest)
  })

  test('a stored block that does not replay is refused as that block with the thread too, in the middle and at the tip', () => {
    const node = startNode()
    trade(node, 12, () => {})
    const dataDir = node.dataDir
    const root7 = node.store.header(7)!.stateRoot
    node.stop()
    const tamper = (sql: string) => {
      const db = new Database(join(dataDir, 'chain.sqlite'))
      db.exec(sql)
      db.close()
    }
    const replay = () =>
      new ChainNode({ dataDir, genesis: devGenesis(), blockTimeMs: 200, log: () => {}, stateRootThread: true, replayThreadMinEnvelopes: 0 })
    const fakeRoot = `0x${'ab'.repeat(32)}`
    tamper(`UPDATE blocks SET state_root = '${fakeRoot}' WHERE height = 7`)
    expect(replay).toThrow(`replay of block 7 reached state_root ${root7}, stored ${fakeRoot}`)
    tamper(`UPDATE blocks SET state_root = '${root7}' WHERE height = 7`)
    tamper("UPDATE envelopes SET status = 'kept-reject' WHERE height = 12 AND envelope_idx = 0")
    expect(replay).toThrow('replay of block 12 envelope 0 changed status')
    tamper("UPDATE envelopes SET status = 'accepted' WHERE height = 12 AND envelope_idx = 0")
    const intact = replay()
    nodes.push(intact)
    expect(intact.state.height).toBe(12)
  })

  test('from a snapshot: the tail after it replays on the thread to the stored tip', () => {
    const producer = startNode({ snapshotEveryBlocks: 10 })
    trade(producer, 16, () => {})
    const tip = producer.store.header(16)!
    producer.stop()
    // Without the snapshot written at the stop (height 16), the one at 10 leaves a tail of 6 blocks.
    rmSync(join(producer.dataDir, 'snapshots', `state-${'16'.padStart(12, '0')}.snap`))
    const lines: string[] = []
    const restored = startNode({ dataDir: producer.dataDir, stateRootThread: true, replayThreadMinEnvelopes: 0, log: (l) => lines.push(l) })
    expect(restored.state.height).toBe(16)
    expect(lines.some((l) => l.startsWith('restored the state at height 10'))).toBe(true)
    expect(lines.some((l) => l.startsWith('replayed 6 blocks (11 to 16)'))).toBe(true)
    expect(restored.state.lastDigest).toBe(tip.digest)
    expect(bytesToHex(fullStateRoot(restored.state))).toBe(tip.stateRoot)
  })

  test('stopped in the middle of a replay on the thread: the last replayed block is checked, then snapshotted', () => {
    const producer = startNode()
    trade(producer, 12, () => {})
    const tip = producer.store.header(12)!
    producer.stop()
    const options = { dataDir: producer.dataDir, genesis: devGenesis(), blockTimeMs: 200, log: () => {}, stateRootThread: true }
    const stopped = new ChainNode({ ...options, replayThreadMinEnvelopes: 0, snapshotEveryBlocks: 100, deferRecovery: true })
    // Five blocks replayed: the fifth is applied and its root still on the thread when the node stops.
    const steps = (stopped as unknown as { recovery(): Generator<void> }).recovery()
    for (let i = 0; i < 5; i++) steps.next()
    expect(stopped.state.height).toBe(5)
    stopped.stop()
    const lines: string[] = []
    const resumed = new ChainNode({ ...options, log: (l) => lines.push(l) })
    nodes.push(resumed)
    expect(lines.some((l) => l.startsWith('restored the state at height 5'))).toBe(true)
    expect(resumed.state.lastDigest).toBe(tip.digest)
    resumed.stop()
    // The same stop with block 5 stored under another root: the check fails, and no snapshot is taken.
    rmSync(join(producer.dataDir, 'snapshots'), { recursive: true, force: true })
    const db = new Database(join(producer.dataDir, 'chain.sqlite'))
    db.exec(`UPDATE blocks SET state_root = '0x${'cd'.repeat(32)}' WHERE height = 5`)
    db.close()
    const warned: string[] = []
    const damaged = new ChainNode({
      ...options,
      log: (l) => warned.push(l),
      replayThreadMinEnvelopes: 0,
      snapshotEveryBlocks: 100,
      deferRecovery: true,
    })
    const damagedSteps = (damaged as unknown as { recovery(): Generator<void> }).recovery()
    for (let i = 0; i < 5; i++) damagedSteps.next()
    damaged.stop()
    expect(warned.some((l) => l.includes('stopping while replaying: replay of block 5 reached state_root'))).toBe(true)
    expect(existsSync(join(producer.dataDir, 'snapshots')) ? readdirSync(join(producer.dataDir, 'snapshots')) : []).toEqual([])
  })

  test('a replay that fails leaves no snapshot of the state it reached', async () => {
    const producer = startNode()
    trade(producer, 12, () => {})
    producer.stop()
    const db = new Database(join(producer.dataDir, 'chain.sqlite'))
    db.exec(`UPDATE blocks SET state_root = '0x${'cd'.repeat(32)}' WHERE height = 7`)
    db.close()
    for (const replayThreadMinEnvelopes of [0, 1_000_000]) {
      const failing = new ChainNode({
        dataDir: producer.dataDir,
        genesis: devGenesis(),
        blockTimeMs: 200,
        log: () => {},
        stateRootThread: true,
        replayThreadMinEnvelopes,
        snapshotEveryBlocks: 100,
        deferRecovery: true,
      })
      await expect(failing.recover()).rejects.toThrow('replay of block 7 reached state_root')
      failing.stop()
      expect(existsSync(join(producer.dataDir, 'snapshots')) ? readdirSync(join(producer.dataDir, 'snapshots')) : []).toEqual([])
    }
  })

  test('a short replay stays on the block thread: the thread starts with production', () => {
    const inline = startNode()
    trade(inline, 3, () => {})
    inline.stop()
    const threadOf = (node: ChainNode) => (node as unknown as { rootThread?: StateRootThread }).rootThread
    const options = { dataDir: inline.dataDir, genesis: devGenesis(), blockTimeMs: 200, log: () => {}, stateRootThread: true }
    const short = new ChainNode({ ...options, replayThreadMinEnvelopes: 1_000 })
    nodes.push(short)
    expect(short.state.height).toBe(3)
    expect(threadOf(short)).toBeUndefined()
    short.startManual()
    expect(threadOf(short)).toBeInstanceOf(StateRootThread)
    short.stop()
    const long = new ChainNode({ ...options, replayThreadMinEnvelopes: 10 })
    nodes.push(long)
    expect(long.state.height).toBe(3)
    expect(threadOf(long)).toBeInstanceOf(StateRootThread)
  })

  test('the same blocks give the same roots with the thread and without it', () => {
    const threaded = startNode({ stateRootThread: true })
    const inline = startNode()
    trade(threaded, 12, () => {})
    trade(inline, 12, () => {})
    for (let h = 1; h <= 12; h++) expect(threaded.store.header(h)!.digest).toBe(inline.store.header(h)!.digest)
  })

  test("a thread that fails stops the block before it is stored, with the thread's reason", () => {
    const node = startNode({ stateRootThread: true })
    trade(node, 2, () => {})
    // Bytes no writer makes: the thread refuses them and says so to the next wait.
    const thread = (node as unknown as { rootThread: { send(records: Uint8Array): void } }).rootThread
    thread.send(new Uint8Array([9]))
    expect(() => trade(node, 1, () => {})).toThrow(/the state-root thread failed: leaf changes: unknown record 9 at byte 0/)
    // The block's rows were rolled back with it: the store ends at the last good block.
    expect(node.store.tipHeight()).toBe(2)
    expect(node.store.envelopesOf(3)).toEqual([])
  })

  test('changes larger than the ring: chunks wrap around it, wait for room, and one beyond its size goes apart; the same root', () => {
    const { state } = createGenesisState(devGenesis())
    const twin = createGenesisState(devGenesis()).state.hash
    const thread = new StateRootThread(state)
    const value = new Uint8Array(200)
    const write = (sink: LeafSink, round: number) => {
      // About 9 MB of records in 40 KB chunks: two laps of the 4 MiB ring and more.
      for (let i = 0; i < 40_000; i++) {
        value[0] = i & 0xff
        value[1] = round
        sink.setNumbered(1_000_000 + i, `o:1:${1_000_000 + i}`, value)
        if (i % 3 === 0) sink.set(`n:0x${i.toString(16).padStart(40, '0')}`, value)
      }
      if (round === 1) sink.set('big', new Uint8Array(RING_BYTES + 1).fill(7))
      for (let i = 0; i < 40_000; i += 2) sink.deleteNumbered(1_000_000 + i)
    }
    for (let round = 0; round < 2; round++) {
      thread.foldChanges((sink) => write(sink, round))
      write(twin, round)
      expect(bytesToHex(thread.waitRoot())).toBe(bytesToHex(twin.root()))
    }
    thread.stop()
  })

  test('a thread that exited between blocks is said at the next block, without waiting for its root', async () => {
    const node = startNode({ stateRootThread: true })
    trade(node, 1, () => {})
    const thread = (node as unknown as { rootThread: { worker: Worker } }).rootThread
    const closed = new Promise((resolve) => thread.worker.addEventListener('close', resolve))
    thread.worker.terminate()
    await closed
    // Not the timeout's "gave no root in 60000 ms": the exit was seen before the block.
    expect(() => trade(node, 1, () => {})).toThrow(/the state-root thread is gone: it exited/)
    expect(node.store.tipHeight()).toBe(1)
  })

  test('a thread of its own: the state it was given keeps no usable hash; after stop, a block is refused at once', () => {
    const { state, stateRoot } = createGenesisState(devGenesis())
    const thread = new StateRootThread(state)
    expect(() => state.hash.root()).toThrow(/handed to another thread/)
    // A block that changed nothing: the root is the genesis one.
    thread.fold(state)
    expect(bytesToHex(thread.waitRoot())).toBe(bytesToHex(stateRoot))
    thread.stop()
    expect(() => thread.fold(state)).toThrow(/the state-root thread is gone: stopped/)
  })
})
