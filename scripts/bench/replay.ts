/**
 * Replay from genesis in actions per second, where its time goes, and what a block costs the block
 * thread outside applyBlock.
 *
 *   bun scripts/bench/replay.ts [--blocks 300] [--block-ops 2000] [--accounts 100] [--runs 3] [--seed 7] [--dir DIR]
 *
 * Build: the real ChainNode (block store, admission's stateful part, produceBlock, the hot feed and
 * the WebSocket hub listening as in src/main.ts) produces --blocks blocks of --block-ops order
 * actions each on the dev genesis plus --accounts funded traders: 88% makers resting off a moving
 * mid (cancelled by client_order_id after a while, or OrderNotFound when they filled first), the
 * rest takers crossing it. The signatures are not computed (replay does not check them): the actions
 * enter through submitPrepared with a recovered signer, as an admission thread hands them over.
 * While building, every block's commit is taken apart (the parts produceBlock runs after applyBlock,
 * each timed again on the same block): the envelopes' JSON, the events' stored form, the digest,
 * the SQLite commit (envelope rows, event rows), the /action reply views and the onBlock listeners.
 *
 * Replay: --runs times a new ChainNode on the directory replays it from genesis (no snapshots)
 * through recover(), as src/main.ts starts (with the state-root thread); actions/s is the
 * envelopes replayed over the wall time.
 * Then one replay by hand on the same store, timed by step: the SQLite reads (the lean rows the
 * node reads, block-store.ts replayEnvelopesOf), the JSON.parse of the stored actions, the edge
 * packing, the execution, the state root, the root and digest checks (all on one thread).
 * With --dir DIR a second run on the same flags reuses the chain built there (no build, no commit
 * breakdown).
 * The bench runs under the node's memory settings (src/node/memory-settings.ts), as a node replays
 * at its start: it starts itself again with them unless its environment sets any.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { feedRuntime } from '../../src/api/ws/runtime.ts'
import { type BlockInput, commitStateRoot, createGenesisState, executeBlock } from '../../src/chain/index.ts'
import { bytesToHex } from '../../src/lib/hex.ts'
import { parseOptionsOrExit } from '../../src/lib/options.ts'
import { mulberry32 } from '../../src/lib/prng.ts'
import type { PreparedAction } from '../../src/node/admission-prepare.ts'
import { blockDigest, genesisDigest } from '../../src/node/block-digest.ts'
import { BlockStore, REPLAY_BATCH_BLOCKS, type StoredBlock } from '../../src/node/block-store.ts'
import { ChainNode, type CommittedBlock } from '../../src/node/chain-node.ts'
import { devGenesis } from '../../src/node/dev-genesis.ts'
import { atTheEdge } from '../../src/node/edge-envelope.ts'
import { applyMemorySettings } from '../../src/node/memory-settings.ts'
import { eventView, storedEventsAndBodies, symbolLookup } from '../../src/node/views.ts'
import type { Genesis } from '../../src/wire/genesis.ts'
import { fastTempDir } from '../../test/support/stored-chain.ts'

applyMemorySettings()

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  {
    blocks: { type: 'integer', default: 300, min: 1, max: 1_000_000, description: 'blocks of the stored chain' },
    'block-ops': { type: 'integer', default: 2_000, min: 1, max: 2_000, description: 'order actions per block (at most max_tx_per_block)' },
    accounts: { type: 'integer', default: 100, min: 40, max: 100_000, description: 'funded traders sending them (a nonce window is 64)' },
    runs: { type: 'integer', default: 3, min: 1, max: 100, description: 'replays from genesis (median printed)' },
    seed: { type: 'integer', default: 7, min: 0, max: 0xffff_ffff, description: 'seed of the order flow' },
    dir: { type: 'string', description: 'data directory to build into and keep (default: a temporary one, removed)' },
  },
  { usage: 'bun scripts/bench/replay.ts [options]', program: 'bun scripts/bench/replay.ts' },
)
const BLOCKS = flags.blocks
const OPS = flags['block-ops']

const genesis: Genesis = devGenesis()
const traders: string[] = []
for (let i = 0; i < flags.accounts; i++) {
  const address = `0x${(0xbe0c0000 + i).toString(16).padStart(40, '0')}`
  traders.push(address)
  ;(genesis.accounts as Genesis['accounts'][number][]).push({ address, balance: '10000000', roles: ['Trader'] })
}
const dataDir = flags.dir ?? fastTempDir('perpd-bench-replay-')
if (flags.dir !== undefined) mkdirSync(dataDir, { recursive: true })

const MARKETS = [
  { id: 1, mid: 650_000, pd: 1, sd: 4, maxLots: 200 },
  { id: 2, mid: 350_000, pd: 2, sd: 3, maxLots: 200 },
  { id: 3, mid: 150_000, pd: 3, sd: 2, maxLots: 500 },
] as const
const dec = (n: number, d: number): string => {
  const s = String(n).padStart(d + 1, '0')
  return d === 0 ? s : `${s.slice(0, -d)}.${s.slice(-d)}`
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

/** Milliseconds per part, summed over the blocks. */
class Parts {
  readonly ms = new Map<string, number>()
  add(part: string, ms: number): void {
    this.ms.set(part, (this.ms.get(part) ?? 0) + ms)
  }
  time<T>(part: string, f: () => T): T {
    const t = performance.now()
    const out = f()
    this.add(part, performance.now() - t)
    return out
  }
  print(blocks: number, total: number, totalLabel: string): void {
    for (const [part, ms] of this.ms)
      console.log(
        `  ${part.padEnd(52)} ${(ms / blocks).toFixed(2).padStart(8)} ms/block  ${((100 * ms) / total).toFixed(1).padStart(5)}% of ${totalLabel}`,
      )
  }
}

/** With --dir holding the chain already (a build of the same flags), the build is skipped. */
const built =
  flags.dir !== undefined &&
  (() => {
    const s = new BlockStore(dataDir)
    const tip = s.tipHeight()
    s.close()
    return tip === BLOCKS
  })()
const actions = BLOCKS * OPS

try {
  if (!built) build()
  else console.log(`chain: ${BLOCKS} blocks x ${OPS} actions in ${dataDir} (built before)`)
  // ---- Replay from genesis through the node ----
  const rates: number[] = []
  for (let run = 1; run <= flags.runs; run++) {
    Bun.gc(true)
    const lines: string[] = []
    const t = performance.now()
    const replayer = new ChainNode({
      dataDir,
      genesis,
      blockTimeMs: 200,
      log: (l) => lines.push(l),
      snapshotEveryBlocks: 0,
      // As src/perpd.ts starts it: the roots are folded on the state-root thread.
      stateRootThread: true,
      deferRecovery: true,
    })
    await replayer.recover()
    const ms = performance.now() - t
    if (replayer.state.height !== BLOCKS) throw new Error(`replayed to ${replayer.state.height}`)
    replayer.stop()
    rates.push(actions / (ms / 1000))
    console.log(
      `replay from genesis, run ${run}: ${fmt(ms)} ms, ${fmt(actions / (ms / 1000))} actions/s (${lines.find((l) => l.startsWith('replayed')) ?? ''})`,
    )
  }
  console.log(`replay from genesis: median ${fmt(median(rates))} actions/s over ${flags.runs} runs`)

  // ---- One replay by hand, timed by step ----
  Bun.gc(true)
  const store = new BlockStore(dataDir)
  const steps = new Parts()
  const { state, stateRoot } = createGenesisState(genesis)
  state.lastDigest = genesisDigest(genesis, bytesToHex(stateRoot))
  const t = performance.now()
  for (let from = 1; from <= BLOCKS; from += REPLAY_BATCH_BLOCKS) {
    const to = Math.min(BLOCKS, from + REPLAY_BATCH_BLOCKS - 1)
    const headers = steps.time('SQLite reads (headers, envelopes)', () => store.headers(from, to, REPLAY_BATCH_BLOCKS))
    for (const header of headers) {
      const mine = steps.time('SQLite reads (headers, envelopes)', () => store.replayEnvelopesOf(header.height))
      const decoded = steps.time('decode the stored actions (JSON.parse)', () =>
        mine.map((x) => JSON.parse(x[4]) as Record<string, unknown>),
      )
      const envelopes = steps.time('edge packing (atTheEdge)', () =>
        mine.map((x, i) => atTheEdge({ signer: x[1], nonce: x[2], action: decoded[i]!, txHash: x[0] }, x[3])),
      )
      const input: BlockInput = { height: header.height, timestampMs: header.timestampMs, envelopes }
      const executed = steps.time('execute (executeBlock)', () => executeBlock(state, input))
      const result = { ...executed, stateRoot: steps.time('state root (commitStateRoot)', () => commitStateRoot(state)) }
      steps.time('root and digest checks', () => {
        const root = bytesToHex(result.stateRoot)
        if (root !== header.stateRoot) throw new Error(`root of ${header.height}`)
        const digest = blockDigest({
          height: header.height,
          parent: state.lastDigest,
          timestampMs: header.timestampMs,
          stateRoot: root,
          envelopes: mine.map((x) => [x[0], x[5]] as const),
          eventCount: result.events.length,
        })
        if (digest !== header.digest) throw new Error(`digest of ${header.height}`)
        state.lastDigest = digest
      })
    }
  }
  const handMs = performance.now() - t
  store.close()
  console.log(`replay by hand: ${fmt(handMs)} ms, ${fmt(actions / (handMs / 1000))} actions/s; by step:`)
  steps.print(BLOCKS, handMs, 'the replay')
} finally {
  if (flags.dir === undefined) rmSync(dataDir, { recursive: true, force: true })
}

/** Builds the chain, taking every block's commit apart. */
function build(): void {
  let clock = genesis.genesis_time_ms
  const node = new ChainNode({ dataDir, genesis, blockTimeMs: 200, now: () => (clock += 200), log: () => {}, snapshotEveryBlocks: 0 })
  node.startManual()
  let listenersStart = 0
  node.onBlock(() => {
    listenersStart = performance.now()
  })
  feedRuntime(node, { log: () => {} })
  let listenersMs = 0
  node.onBlock(() => {
    listenersMs = performance.now() - listenersStart
  })
  const scratch = [fastTempDir('perpd-bench-replay-scratch-'), fastTempDir('perpd-bench-replay-scratch-')]
  const envelopeStore = new BlockStore(scratch[0]!)
  const eventStore = new BlockStore(scratch[1]!)

  const next = mulberry32(flags.seed)
  const int = (n: number): number => next() % n
  const mids: number[] = MARKETS.map((m) => m.mid)
  const nonces = new Array<number>(traders.length).fill(0)
  const due = new Map<number, { account: number; market: number; cloid: string }[]>()
  let opIndex = 0
  let txCount = 0
  const signatureJson = JSON.stringify({ r: `0x${'11'.repeat(32)}`, s: `0x${'22'.repeat(32)}`, v: 27 })
  const submit = (account: number, action: Record<string, unknown>, kind: string): void => {
    const signer = traders[account]!
    const nonce = nonces[account]!++
    const txHash = `0x${(++txCount).toString(16).padStart(64, '0')}`
    const prepared: PreparedAction = {
      ok: true,
      kind,
      nonce,
      action,
      actionJson: JSON.stringify(action),
      signatureJson,
      recovered: { ok: true, signer, txHash, input: atTheEdge({ signer, nonce, action, txHash }, kind) },
    }
    void node.submitPrepared(prepared).then((r) => {
      if (r.status === 'refused') throw new Error(`refused: ${JSON.stringify(r.error)}`)
    })
  }
  const op = (): void => {
    const k = opIndex++
    const cancels = due.get(k)
    if (cancels !== undefined && cancels.length > 0) {
      const c = cancels.pop()!
      if (cancels.length > 0) due.set(k + 1, (due.get(k + 1) ?? []).concat(cancels))
      due.delete(k)
      submit(c.account, { CancelOrder: { market_id: c.market, client_order_id: c.cloid } }, 'CancelOrder')
      return
    }
    const mi = int(MARKETS.length)
    const m = MARKETS[mi]!
    const mid = mids[mi]! + (int(3) - 1)
    mids[mi] = mid
    const side = int(2) === 0 ? 'Bid' : 'Ask'
    const sign = side === 'Bid' ? 1 : -1
    const account = int(traders.length)
    if (int(100) < 88) {
      const cloid = `m${k}`
      const at = k + 1 + int(2_000)
      const list = due.get(at)
      if (list === undefined) due.set(at, [{ account, market: m.id, cloid }])
      else list.push({ account, market: m.id, cloid })
      submit(
        account,
        {
          PlaceOrder: {
            market_id: m.id,
            side,
            price: dec(mid - sign * (5 + int(40)), m.pd),
            qty: dec(1 + int(m.maxLots), m.sd),
            tif: int(10) === 0 ? 'PostOnly' : 'Gtc',
            reduce_only: false,
            client_order_id: cloid,
          },
        },
        'PlaceOrder',
      )
    } else {
      const t = int(20)
      submit(
        account,
        {
          PlaceOrder: {
            market_id: m.id,
            side,
            price: dec(mid + sign * int(40), m.pd),
            qty: dec(1 + int(m.maxLots * 2), m.sd),
            tif: t < 13 ? 'Ioc' : t < 17 ? 'Gtc' : 'Fok',
            reduce_only: false,
          },
        },
        'PlaceOrder',
      )
    }
  }

  const commit = new Parts()
  let reparse = 0
  let produceMs = 0
  let events = 0
  let accepted = 0
  const warm = Math.min(20, Math.floor(BLOCKS / 5))
  const started = performance.now()
  for (let b = 1; b <= BLOCKS; b++) {
    for (let i = 0; i < OPS; i++) op()
    Bun.gc(false)
    const t0 = performance.now()
    const committed: CommittedBlock = node.produceBlock()
    const t1 = performance.now()
    const { stored, result } = committed
    events += stored.events.length
    accepted += result.envelopes.filter((r) => r.status === 'accepted').length
    if (b <= warm) continue
    produceMs += t1 - t0
    commit.add('onBlock listeners (hot feed, WebSocket hub)', listenersMs)
    // The parts of produceBlock after applyBlock, again on the same block.
    const pending = stored.envelopes
    commit.time('envelope JSON (action, signature, reason)', () =>
      pending.map((e) => [
        JSON.stringify(JSON.parse(e.actionJson)),
        JSON.stringify(JSON.parse(e.signatureJson)),
        e.reasonJson === null ? null : JSON.stringify(JSON.parse(e.reasonJson)),
      ]),
    )
    commit.add(
      '  (less the JSON.parse of the re-run)',
      -timeOf(() =>
        pending.map((e) => [
          JSON.parse(e.actionJson),
          JSON.parse(e.signatureJson),
          e.reasonJson === null ? null : JSON.parse(e.reasonJson),
        ]),
      ),
    )
    const { bodies } = commit.time('stored events (bodies to decimal strings, JSON)', () =>
      storedEventsAndBodies(node.state, stored.header.height, result),
    )
    commit.time('block digest (keccak of tx hashes)', () =>
      blockDigest({
        height: stored.header.height,
        parent: stored.header.parent,
        timestampMs: stored.header.timestampMs,
        stateRoot: stored.header.stateRoot,
        envelopes: stored.envelopes.map((e) => [e.txHash, e.status] as const),
        eventCount: stored.events.length,
      }),
    )
    const headerOnly = (eventCount: number): StoredBlock['header'] => ({ ...stored.header, eventCount, envelopeCount: 0 })
    commit.time('SQLite commit: header + envelope rows', () =>
      envelopeStore.commitBlock({
        header: { ...headerOnly(0), envelopeCount: stored.envelopes.length },
        envelopes: stored.envelopes,
        events: [],
      }),
    )
    commit.time('SQLite commit: header + event rows', () =>
      eventStore.commitBlock({ header: headerOnly(stored.events.length), envelopes: [], events: stored.events }),
    )
    commit.time('/action reply views (bodies shared from the stored events)', () => {
      const symbolOf = symbolLookup(node.state)
      for (const r of result.envelopes)
        if (r.status === 'accepted')
          stored.events.slice(r.firstEvent, r.firstEvent + r.eventCount).map((e) => eventView(e, symbolOf, bodies[e.seq]))
    })
    reparse += timeOf(() => {
      const symbolOf = symbolLookup(node.state)
      for (const r of result.envelopes)
        if (r.status === 'accepted') stored.events.slice(r.firstEvent, r.firstEvent + r.eventCount).map((e) => eventView(e, symbolOf))
    })
  }
  const timedBlocks = BLOCKS - warm
  node.stop()
  envelopeStore.close()
  eventStore.close()
  for (const d of scratch) rmSync(d, { recursive: true, force: true })
  console.log(
    `chain: ${BLOCKS} blocks x ${OPS} actions (${fmt(accepted)} accepted, ${fmt(events)} events) built in ${((performance.now() - started) / 1000).toFixed(1)} s in ${dataDir}`,
  )
  const sumParts = [...commit.ms.values()].reduce((a, b) => a + b, 0)
  console.log(
    `block commit on the block thread: produceBlock ${(produceMs / timedBlocks).toFixed(1)} ms/block (${timedBlocks} blocks after ${warm} warm-up); its parts outside applyBlock, each timed again on the same block:`,
  )
  commit.print(timedBlocks, produceMs, 'produceBlock')
  console.log(
    `  reply views with a JSON.parse per body (before this change; not part of produceBlock now): ${(reparse / timedBlocks).toFixed(2)} ms/block`,
  )
  console.log(
    `  ${'applyBlock and the rest (by difference)'.padEnd(52)} ${((produceMs - sumParts) / timedBlocks).toFixed(2).padStart(8)} ms/block  ${((100 * (produceMs - sumParts)) / produceMs).toFixed(1).padStart(5)}% of produceBlock`,
  )
}

function timeOf(f: () => unknown): number {
  const t = performance.now()
  f()
  return performance.now() - t
}
