// The chain node: genesis, replay of the stored chain, the mempool and the block producer. It owns
// the state; everything downstream sees committed blocks through onBlock listeners. It never ends
// the process: a block it cannot produce or store halts it, and its owner hears of it (onHalt) and
// decides when to exit (docs/operations.md#health).
import {
  applyBlock,
  BlockExecution,
  type BlockInput,
  type BlockResult,
  type ChainState,
  commitStateRoot,
  createGenesisState,
  executeBlock,
  foldDirtyLeaves,
} from '../chain/index.ts'
import { assert } from '../lib/assert.ts'
import { bytesToHex } from '../lib/hex.ts'
import { createLogger, type LogLine, logLine } from '../lib/log.ts'
import { RateLimiter } from '../lib/rate-limit.ts'
import type { EventBody } from '../wire/events/index.ts'
import type { Genesis } from '../wire/genesis.ts'
import { RPC, rpcError } from '../wire/rpc-errors.ts'
import { type ActionResult, acceptedResult } from './action-result.ts'
import { admitPrepared } from './admission.ts'
import { type PreparedAction, prepareAdmission } from './admission-prepare.ts'
import { blockDigest, genesisDigest } from './block-digest.ts'
import { BlockRows } from './block-rows.ts'
import {
  BlockStore,
  REPLAY_BATCH_BLOCKS,
  type ReplayEnvelope,
  type StoredBlock,
  type StoredBlockHeader,
  type StoredEnvelope,
} from './block-store.ts'
import { codeFingerprint } from './code-fingerprint.ts'
import { atTheEdge } from './edge-envelope.ts'
import { type HealthProblemCode, NodeHealth, type ReplayProgress } from './health.ts'
import { Mempool, type PendingTx } from './mempool.ts'
import { SnapshotStore } from './snapshots.ts'
import { StateRootThread } from './state-root-thread.ts'
import { storedEventsAndBodies, symbolLookup } from './views.ts'

export interface ChainNodeOptions {
  readonly dataDir: string
  readonly genesis: Genesis
  readonly blockTimeMs: number
  /**
   * Compute the state roots on a thread of its own (state-root-thread.ts): the blocks it produces,
   * and from a long replay of the stored chain on, the blocks it replays and follows too; default
   * false (the root on the block thread).
   */
  readonly stateRootThread?: boolean
  /** With stateRootThread, replay moves the hash to the thread once this many envelopes lie ahead (REPLAY_THREAD_MIN_ENVELOPES; tests: 0). */
  readonly replayThreadMinEnvelopes?: number
  /** Actions per second one signer may send (default 20, docs/limits.md#action-rate-limits); 0 or absent disables. */
  readonly signerRatePerSec?: number
  /** Wall clock in ms; injected so tests can drive time. */
  readonly now?: () => number
  readonly log?: LogLine
  /** A state snapshot every this many blocks, and one at stop (snapshots.ts); 0 or absent: none. */
  readonly snapshotEveryBlocks?: number
  /** The code's fingerprint for snapshots (default: code-fingerprint.ts); tests stand in an upgrade with another. */
  readonly codeFingerprint?: string
  /**
   * Leave restoring the snapshot and replaying the stored chain to recover(), so the owner can
   * serve its probes meanwhile (src/main.ts); without it the constructor recovers before returning.
   */
  readonly deferRecovery?: boolean
  /** Replay every stored block from genesis, ignoring the snapshots (`perpd replay --verify`). */
  readonly fromGenesis?: boolean
  /**
   * On the block clock, apply admitted envelopes ahead of the block's tick (startExecutingAhead);
   * default true. False (`--no-execute-ahead`): a block's envelopes are applied at its tick, all at
   * once, and readers never wait for an open block.
   */
  readonly executeAhead?: boolean
}

/**
 * A block executed ahead of its tick stays open at least this long before it (ChainNode.aheadLeadMs):
 * the envelopes waiting at that point are applied then, and those admitted later as they arrive.
 */
const AHEAD_LEAD_MIN_MS = 5
/**
 * A block executed ahead of its tick opens at most this long before it: readers wait from then to
 * its commit. Under a saturating load the work at the lead time takes about 30 ms, and a lead of
 * twice that made a tenth of the reads wait over 65 ms (getAccount p90 65-67 ms, 22 with this cap,
 * scripts/bench/reads-under-load.ts --mode capacity) for no gain: the thread is busy either way, and
 * the tick comes late by the work's overrun.
 */
const AHEAD_LEAD_MAX_MS = 25

/** The block being executed ahead of its tick. */
interface OpenBlock {
  readonly execution: BlockExecution
  /** Its envelopes so far, in the order they were applied (their arrival order). */
  readonly txs: PendingTx[]
  /** Whether the leaves its first envelopes changed were folded into the state hash ahead of the tick. */
  folded: boolean
  /** Its stored rows, those of its first envelopes built ahead of the tick (rowsAhead). */
  readonly rows: BlockRows
  /** Whether those rows were inserted into the block store, in the transaction the tick commits. */
  inserted: boolean
  /** The time spent on it before its tick (BlockPhases.aheadMs). */
  aheadMs: number
}

/** Why block production stopped for good (onHalt). */
export interface NodeHalt {
  readonly code: HealthProblemCode
  readonly message: string
  /** The state went ahead of the block store (a block was applied but not stored): a restart replays. */
  readonly storeDirty: boolean
  readonly error: unknown
}

/**
 * Where a leader appends each block it produced before anyone hears of it (src/node/replication/):
 * resolves once the replicated log acknowledged the block; rejects (a HaltError) when the log
 * refused it, and then the node halts without storing it.
 */
export type BlockPublisher = (block: StoredBlock) => Promise<void>

/** An error that halts the node with its own health code (a block the replicated log refused). */
export class HaltError extends Error {
  constructor(
    readonly code: HealthProblemCode,
    message: string,
  ) {
    super(message)
  }
}

/** A stored block that does not re-execute to its own state root, digest or statuses (replay, or a replicated block). */
export class BlockMismatch extends Error {
  constructor(
    message: string,
    readonly height: number,
    readonly what: 'state_root' | 'digest' | 'status',
    readonly computed: string,
    readonly expected: string,
  ) {
    super(message)
  }
}

/** An envelope of a block produced elsewhere, as signed, with the status its producer gave it. */
export interface FollowedEnvelope {
  readonly txHash: string
  readonly signer: string
  readonly nonce: number
  readonly actionKind: string
  readonly actionJson: string
  readonly signatureJson: string
  readonly status: StoredEnvelope['status']
}

/** A committed block as listeners see it. */
export interface CommittedBlock {
  readonly stored: StoredBlock
  readonly result: BlockResult
  /** How long applying the block and committing it to the store took (ms; the /metrics histogram). */
  readonly productionMs: number
  /**
   * Its events' bodies as objects (index i is stored.events[i]'s bodyJson parsed), when this node
   * produced the block: listeners use them instead of parsing the JSON again. Shared: not to be changed.
   */
  readonly bodies?: readonly EventBody[]
}

/**
 * Where the time of a block this node produced went, phase by phase, in ms (the /metrics histogram
 * perpd_block_phase_seconds, docs/operator.md#metrics). An action's reply waits for every phase up
 * to `replies`: with 200 ms blocks, its latency is the wait for the next block plus these.
 */
export interface BlockPhases {
  /**
   * Before the tick (no reply waits for it): the envelopes applied ahead of it, at the block's lead
   * time and as they arrived, their leaves handed to the state root and their rows built and inserted.
   */
  readonly aheadMs: number
  /** At the tick: the block's last envelopes and its end hooks applied to the state (the engine). */
  readonly applyMs: number
  /**
   * The state root, this thread's part: the changed leaves encoded and the wait for the state-root
   * thread's root (the thread works meanwhile), or the whole fold without that thread.
   */
  readonly stateRootMs: number
  /** The block's rows made: its envelopes, its events' JSON, its digest. */
  readonly rowsMs: number
  /** The replicated log's acknowledgement, on a node that publishes its blocks (--nats); else undefined. */
  readonly replicateMs: number | undefined
  /** The block store's transaction, with its fsync (and the rows inserted while the root is computed). */
  readonly commitMs: number
  /** The block's actions answered: their results made and the reply frames written. */
  readonly repliesMs: number
  /** The onBlock listeners (hot feed, WebSocket pushes, history index, metrics), and a snapshot when one is due. */
  readonly announceMs: number
}

/** What onReplies wraps around a block's replies. */
export interface ReplyBatch {
  start(): void
  end(): void
}

/** A block applied to the state, with what its replies need, before it is stored. */
interface ProducedBlock {
  readonly txs: readonly PendingTx[]
  readonly stored: StoredBlock
  readonly result: BlockResult
  readonly bodies: readonly EventBody[]
  /** performance.now() when its production started. */
  readonly producing: number
  /** The phases so far (ahead of the tick, apply, state root, rows). */
  readonly aheadMs: number
  readonly applyMs: number
  readonly stateRootMs: number
  readonly rowsMs: number
  /** The rows inserted before the header (applyNextBlock's insertRows), else undefined. */
  readonly insertedMs: number | undefined
}

/** A stored block executed at replay, whose state root is still being folded. */
interface ExecutedBlock {
  readonly header: StoredBlockHeader
  readonly envelopes: readonly ReplayEnvelope[]
  readonly executed: Omit<BlockResult, 'stateRoot'>
}

/** A block's envelopes are as many as its header counts (a stored or a followed block). */
function assertEnvelopeCount(header: StoredBlockHeader, envelopes: readonly unknown[]): void {
  assert(
    envelopes.length === header.envelopeCount,
    `block ${header.height} holds ${envelopes.length} envelopes, its header ${header.envelopeCount}`,
  )
}

/**
 * The checks of a block executed already, given the state root it reached and its parent's
 * digest: its digest when it reaches the header's root, statuses and digest, else the mismatch.
 */
function verifiedDigest(
  { header, envelopes, executed }: ExecutedBlock,
  stateRoot: Uint8Array,
  parent: string,
  what: string,
): string | BlockMismatch {
  const reached = (field: 'state_root' | 'digest', got: string, stored: string) =>
    new BlockMismatch(`${what} ${header.height} reached ${field} ${got}, stored ${stored}`, header.height, field, got, stored)
  const root = bytesToHex(stateRoot)
  if (root !== header.stateRoot) return reached('state_root', root, header.stateRoot)
  for (let i = 0; i < envelopes.length; i++) {
    const status = executed.envelopes[i]!.status
    if (status !== envelopes[i]![5])
      return new BlockMismatch(`${what} ${header.height} envelope ${i} changed status`, header.height, 'status', status, envelopes[i]![5])
  }
  const digest = blockDigest({
    height: header.height,
    parent,
    timestampMs: header.timestampMs,
    stateRoot: root,
    envelopes: envelopes.map((e) => [e[0], e[5]] as const),
    eventCount: executed.events.length,
  })
  if (digest !== header.digest) return reached('digest', digest, header.digest)
  return digest
}

/**
 * A stored block as the chain applies it. The stored action is JSON: JSON.parse is the cheapest
 * decoding there is here (msgpackr's unpack of the actions' canonical msgpack was as fast for single
 * orders and 3-6 times slower for 50-order batches, scripts/bench/action-decode.ts).
 */
function replayInput(header: StoredBlockHeader, envelopes: readonly ReplayEnvelope[]): BlockInput {
  return {
    height: header.height,
    timestampMs: header.timestampMs,
    envelopes: envelopes.map(([txHash, signer, nonce, kind, actionJson]) =>
      atTheEdge({ signer, nonce, action: JSON.parse(actionJson) as Record<string, unknown>, txHash }, kind),
    ),
  }
}

/**
 * A block's replies leave in chunks of this many (the onReplies batches end and start again), so
 * the first do not wait while the rest are built: building them took 2.6-3.3 ms for a block of
 * 400 and 16-24 ms for one of 2,000. Against one write per connection per block, alternated
 * (medians of seven and nine runs): at 2,000 actions/s p50 118.5 → 117.3 ms, p99 217.6 → 215.4;
 * at 5,000/s p50 132.0 → 131.8, p99 235.6 → 232.6; capacity unchanged (docs/performance.md, eighth
 * session). Small, and free: the CPU per action did not move.
 */
const REPLY_CHUNK = 100
/** Envelopes waiting at most, as a multiple of max_tx_per_block. */
const MEMPOOL_BLOCKS_MAX = 8
/**
 * Replay moves the state's hash to the state-root thread (with the stateRootThread option) once a
 * batch of headers ahead holds this many envelopes. The thread costs 230-270 ms before its first
 * root (its start 100-130, then the warm-up of its code, state-root-worker.ts; genesis state, five
 * runs on the eleventh session's machine), about what replaying 25,000 actions takes there, and each
 * block then a round trip to it: a short replay, or one of empty blocks, stays here, and the thread
 * starts when the node starts producing.
 */
const REPLAY_THREAD_MIN_ENVELOPES = 20_000
/** recover() gives the event loop a turn after replaying for this long, so the API answers meanwhile. */
const REPLAY_TURN_MS = 20

export class ChainNode {
  readonly store: BlockStore
  readonly genesisDigest: string
  /** What the probes report (health.ts); parts outside the node add their problems to it. */
  readonly health: NodeHealth
  private current: ChainState
  private mempool: Mempool
  private readonly signerLimiter: RateLimiter
  private readonly listeners: ((block: CommittedBlock) => void)[] = []
  private readonly stopListeners: (() => void)[] = []
  private readonly replyBatches: ReplyBatch[] = []
  private readonly haltListeners: ((halt: NodeHalt) => void)[] = []
  private readonly phaseListeners: ((phases: BlockPhases) => void)[] = []
  /** Whether the snapshot is restored and the stored chain replayed. */
  private recovered = false
  /** Height of a block applied to the state but not (yet) in the store; 0: none. */
  private unstoredHeight = 0
  /** Whether the block store is writing that block (else it is being applied). */
  private storing = false
  /** The envelopes of the block being produced (refused if it never commits). */
  private blockTxs: readonly PendingTx[] = []
  private readonly now: () => number
  private readonly log: LogLine
  private timer: ReturnType<typeof setTimeout> | undefined
  /** Starts the next block's execution ahead of its tick (executeAhead). */
  private aheadTimer: ReturnType<typeof setTimeout> | undefined
  /**
   * The block executed ahead of its tick, from its first envelope to its tick: the state holds it,
   * unfinished, and readers of the state wait for it (whenSettled). Undefined otherwise.
   */
  private open: OpenBlock | undefined
  /** From the next block's lead time to its tick: admitted envelopes are applied at once. */
  private executingAhead = false
  /** How long applying the waiting envelopes took at the last block's lead time (ms): the next lead follows it. */
  private aheadWorkMs = 0
  /** Readers waiting for the open block's tick (whenSettled). */
  private settledWaiters: (() => void)[] = []
  private running = false
  private stopped = false
  private readonly snapshots: SnapshotStore
  /** Height of the newest snapshot written or restored (0: none). */
  private snapshotHeight = 0
  /** Set on a leader of a replicated chain: blocks are stored and announced once it resolves. */
  private publisher: BlockPublisher | undefined
  /** Holds the state's hash from a long replay or the first block on, with the stateRootThread option. */
  private rootThread: StateRootThread | undefined
  /** The replayed block whose root the state-root thread is folding: applied, not checked yet. */
  private replayFolding: ExecutedBlock | undefined
  /**
   * Set when a block did not verify (replayed or followed) or the replay failed otherwise: the state
   * is not the chain's any more, and no snapshot is taken of it.
   */
  private stateDiverged = false

  constructor(private readonly options: ChainNodeOptions) {
    this.now = options.now ?? Date.now
    this.log = options.log ?? logLine(createLogger('node'))
    this.health = new NodeHealth(this.now, undefined, this.log)
    this.store = new BlockStore(options.dataDir)
    if (this.store.rebuiltWithoutTxIndex)
      this.log('block store: rebuilt its envelopes table without the tx-hash index of older stores (getTx reads the history index)')
    if (this.store.groupedLegacyEvents)
      this.log('block store: moved the events of an older store from a row each into a row per envelope (event_groups)')
    const stored = this.store.getMeta('genesis')
    const genesis: Genesis = stored === undefined ? options.genesis : JSON.parse(stored)
    if (stored !== undefined && stored !== JSON.stringify(options.genesis)) {
      this.log(`data directory ${options.dataDir} holds a chain of network ${genesis.network}; using its stored genesis`)
    }
    const { state: genesisState, stateRoot } = createGenesisState(genesis)
    this.genesisDigest = genesisDigest(genesis, bytesToHex(stateRoot))
    if (stored === undefined) {
      this.store.setMeta('genesis', JSON.stringify(genesis))
      this.store.setMeta('genesis_root', bytesToHex(stateRoot))
    } else {
      assert(this.store.getMeta('genesis_root') === bytesToHex(stateRoot), 'the genesis state root differs from the stored one')
    }
    genesisState.lastDigest = this.genesisDigest
    this.snapshots = new SnapshotStore(options.dataDir, options.codeFingerprint ?? codeFingerprint(), this.log)
    this.current = genesisState
    this.mempool = new Mempool(this.current.params.maxTxPerBlock * MEMPOOL_BLOCKS_MAX)
    this.signerLimiter = new RateLimiter(options.signerRatePerSec ?? 0, 1_000, this.now)
    if (options.deferRecovery !== true)
      for (const _ of this.recovery()) {
        /* to the end, without turns */
      }
  }

  /** Envelopes waiting in the mempool (the /metrics gauge). */
  get mempoolDepth(): number {
    return this.mempool.size
  }

  /**
   * The chain state: genesis until the recovery restores or replays, then the tip's. Between a
   * block's lead time and its tick it also holds that block's first envelopes (executeAhead):
   * readers that show it to others wait for whenSettled first.
   */
  get state(): ChainState {
    return this.current
  }

  /** The height of the last block committed (replayed, followed or produced): the state's, but while a block is executed ahead of its tick. */
  get tipHeight(): number {
    return this.open === undefined ? this.current.height : this.current.height - 1
  }

  /** Whether the state holds no block executed ahead of its tick (whenSettled would not wait). */
  isSettled(): boolean {
    return this.open === undefined
  }

  /** Whether the snapshot is restored and the stored chain replayed (the state is the stored tip's). */
  get isRecovered(): boolean {
    return this.recovered
  }

  /**
   * Restores the newest usable snapshot and replays the stored blocks after it (with deferRecovery),
   * giving the event loop a turn every REPLAY_TURN_MS so an API bound before answers its probes
   * meanwhile; onProgress hears of the progress at each turn and at the end. Resolves false when the
   * node was stopped first; rejects when a stored block does not replay to its stored root and digest.
   */
  async recover(onProgress?: (progress: ReplayProgress) => void): Promise<boolean> {
    let turn = performance.now()
    for (const _ of this.recovery()) {
      if (performance.now() - turn < REPLAY_TURN_MS) continue
      const progress = this.health.replay
      if (progress !== undefined) onProgress?.(progress)
      // setImmediate, not setTimeout(0): pending I/O is served either way, but the timer turn (1 ms
      // floor, a turn per block on big blocks) held replay to 72k actions/s against 88k (+22%,
      // medians of 7 alternated runs, scripts/bench/replay.ts).
      await new Promise((resolve) => setImmediate(resolve))
      if (this.stopped) return false
      turn = performance.now()
    }
    const progress = this.health.replay
    if (progress !== undefined) onProgress?.(progress)
    return true
  }

  /** The recovery, one step per replayed block (recover() and the constructor drive it). */
  private *recovery(): Generator<void, void, undefined> {
    assert(!this.recovered, 'the node is recovered already')
    const restored = this.restoreSnapshot()
    if (restored !== undefined) {
      this.current = restored
      this.mempool = new Mempool(this.current.params.maxTxPerBlock * MEMPOOL_BLOCKS_MAX)
    }
    try {
      yield* this.replay()
    } catch (err) {
      // The chain does not replay: this node will not produce, and the thread would outlive it.
      this.stateDiverged = true
      this.rootThread?.stop()
      this.rootThread = undefined
      throw err
    }
    this.recovered = true
  }

  /** The newest usable snapshot's state (snapshots.ts says which are), or undefined to start from genesis. */
  private restoreSnapshot(): ChainState | undefined {
    const tip = this.store.tipHeight()
    if (tip === 0 || this.options.fromGenesis === true) return undefined
    const started = performance.now()
    const restored = this.snapshots.restore(tip, this.genesisDigest, (height) => this.store.header(height))
    if (restored === undefined) return undefined
    this.snapshotHeight = restored.header.height
    this.log(
      `restored the state at height ${restored.header.height} from ${restored.file} in ${Math.round(performance.now() - started)} ms`,
    )
    return restored.state
  }

  /**
   * Replays the stored blocks after the state's height, asserting each state root and digest; a step
   * per block. With the state-root thread (a node started with it, once REPLAY_THREAD_MIN_ENVELOPES
   * lie ahead in a batch of headers: the thread holds the hash from then on), a block's root is
   * folded there while this thread reads, decodes and executes the next block, and checked before
   * the next block's leaves are handed over: a stored block that does not replay is still refused as
   * the block it is, one block later.
   */
  private *replay(): Generator<void, void, undefined> {
    const tip = this.store.tipHeight()
    const first = this.state.height + 1
    const started = performance.now()
    this.health.replaying({ replayedHeight: this.state.height, targetHeight: tip, fromHeight: this.state.height, startedMs: started })
    if (first > tip) return
    for (let from = first; from <= tip; from += REPLAY_BATCH_BLOCKS) {
      const to = Math.min(tip, from + REPLAY_BATCH_BLOCKS - 1)
      const headers = this.store.headers(from, to, REPLAY_BATCH_BLOCKS)
      if (this.rootThread === undefined) {
        let ahead = 0
        for (const h of headers) ahead += h.envelopeCount
        if (ahead >= (this.options.replayThreadMinEnvelopes ?? REPLAY_THREAD_MIN_ENVELOPES)) this.startRootThread()
      }
      const rootThread = this.rootThread
      for (const header of headers) {
        // A block's envelopes at a time, the lean rows (block-store.ts replayEnvelopesOf).
        const envelopes = this.store.replayEnvelopesOf(header.height)
        if (rootThread === undefined) {
          assertEnvelopeCount(header, envelopes)
          this.verifyAndApply(header, envelopes, 'replay of block')
        } else {
          let executed: Omit<BlockResult, 'stateRoot'>
          try {
            assertEnvelopeCount(header, envelopes)
            executed = executeBlock(this.state, replayInput(header, envelopes))
          } finally {
            // The block before, checked also when this one failed: it may be why, and its mismatch
            // is then the one reported.
            this.checkReplayFolding(rootThread)
          }
          rootThread.fold(this.state)
          this.replayFolding = { header, envelopes, executed }
        }
        this.health.replaying({ replayedHeight: header.height, targetHeight: tip, fromHeight: first - 1, startedMs: started })
        yield
      }
    }
    if (this.rootThread !== undefined) this.checkReplayFolding(this.rootThread)
    this.log(
      `replayed ${tip - first + 1} blocks (${first} to ${tip}) in ${Math.round(performance.now() - started)} ms; state_root ${this.store.header(tip)!.stateRoot}`,
    )
  }

  /** Checks the replayed block whose root the thread is folding, if there is one (its root waited for). */
  private checkReplayFolding(rootThread: StateRootThread): void {
    const folding = this.replayFolding
    if (folding === undefined) return
    this.verifyExecuted(folding, rootThread.waitRoot(), 'replay of block')
    this.replayFolding = undefined
  }

  /**
   * Applies a block whose header and statuses are known (a stored one at replay, or one produced
   * elsewhere) and checks that it reaches the header's state root, the envelopes' statuses and the
   * header's digest; throws a BlockMismatch naming `what` (e.g. "replay of block") otherwise. The
   * state is mutated either way: after a mismatch it is the diverged one.
   */
  private verifyAndApply(header: StoredBlockHeader, envelopes: readonly ReplayEnvelope[], what: string): BlockResult {
    const input = replayInput(header, envelopes)
    const rootThread = this.rootThread
    if (rootThread === undefined) {
      const result = applyBlock(this.state, input)
      this.verifyExecuted({ header, envelopes, executed: result }, result.stateRoot, what)
      return result
    }
    const executed = executeBlock(this.state, input)
    rootThread.fold(this.state)
    const stateRoot = rootThread.waitRoot()
    this.verifyExecuted({ header, envelopes, executed }, stateRoot, what)
    return { ...executed, stateRoot }
  }

  /** verifyAndApply's checks of a block executed already, given the state root it reached; sets the tip's digest when they pass. */
  private verifyExecuted(block: ExecutedBlock, stateRoot: Uint8Array, what: string): void {
    const digest = verifiedDigest(block, stateRoot, this.state.lastDigest, what)
    if (digest instanceof BlockMismatch) {
      this.stateDiverged = true
      throw digest
    }
    this.state.lastDigest = digest
  }

  /**
   * Applies, verifies, stores and announces a block produced by another node (a follower of a
   * replicated chain, src/node/replication/), through the checks replay makes: its parent must be
   * the tip's digest, and it must reach its own state root, statuses and digest. Throws a
   * BlockMismatch when it does not; the state is then the diverged one, and its owner must stop
   * serving it. Only on a node that does not produce blocks.
   */
  followBlock(header: StoredBlockHeader, envelopes: readonly FollowedEnvelope[]): CommittedBlock {
    assert(this.recovered && !this.running, 'followBlock runs on a recovered node that does not produce blocks')
    assert(header.height === this.state.height + 1, `block ${header.height} does not follow the tip ${this.state.height}`)
    assertEnvelopeCount(header, envelopes)
    if (header.parent !== this.state.lastDigest)
      throw new BlockMismatch(
        `block ${header.height} names parent ${header.parent}, the tip's digest is ${this.state.lastDigest}`,
        header.height,
        'digest',
        this.state.lastDigest,
        header.parent,
      )
    const started = performance.now()
    this.unstoredHeight = header.height
    const result = this.verifyAndApply(
      header,
      envelopes.map((e) => [e.txHash, e.signer, e.nonce, e.actionKind, e.actionJson, e.status] as const),
      'replicated block',
    )
    const height = header.height
    const stored: StoredBlock = {
      header,
      envelopes: envelopes.map((e, i) => {
        const r = result.envelopes[i]!
        return {
          height,
          envelopeIdx: i,
          txHash: e.txHash,
          signer: e.signer,
          nonce: e.nonce,
          actionKind: e.actionKind,
          marketId: r.marketId,
          actionJson: e.actionJson,
          signatureJson: e.signatureJson,
          status: r.status,
          reasonJson: r.reason === null ? null : JSON.stringify(r.reason),
        }
      }),
      events: storedEventsAndBodies(this.state, height, result).events,
    }
    this.storing = true
    this.store.commitBlock(stored)
    this.storing = false
    this.unstoredHeight = 0
    return this.announce({ stored, result, productionMs: performance.now() - started })
  }

  /** The data directory (block store, snapshots, and what other parts keep beside them). */
  get dataDir(): string {
    return this.options.dataDir
  }

  /** Runs listener when the node stops, before its block store closes (state at the last block). */
  onStop(listener: () => void): void {
    this.stopListeners.push(listener)
  }

  /**
   * Wraps each block's replies, REPLY_CHUNK at a time: batch.start() runs before a chunk of its
   * actions is answered (submitWith's callbacks) and batch.end() after it, all before the block is
   * announced. The WebSocket connections gather a chunk's reply frames into one write each this way.
   */
  onReplies(batch: ReplyBatch): void {
    this.replyBatches.push(batch)
  }

  /** Subscribes to committed blocks (called after the block is durable). */
  onBlock(listener: (block: CommittedBlock) => void): void {
    this.listeners.push(listener)
  }

  /** Tells listener where the time of each block this node produces went, once it is announced. */
  onBlockPhases(listener: (phases: BlockPhases) => void): void {
    this.phaseListeners.push(listener)
  }

  /**
   * Runs listener once block production stops for good (an assertion, or a block the store would
   * not take): the owner logs it, keeps the probes answering for a moment, and exits.
   */
  onHalt(listener: (halt: NodeHalt) => void): void {
    this.haltListeners.push(listener)
  }

  /**
   * Makes every block this node produces from now on wait for publisher (the replicated log's
   * acknowledgement) before it is stored, answered and announced. Set before start().
   */
  setBlockPublisher(publisher: BlockPublisher): void {
    assert(!this.running, 'set the block publisher before the node produces blocks')
    this.publisher = publisher
  }

  /**
   * Serves without producing: blocks come from followBlock (a follower of a replicated chain); the
   * probes say ok (or degraded) from now on. start() later makes it produce (a standby promoted).
   */
  startFollowing(): void {
    assert(this.recovered, 'start the node after recover()')
    this.health.ready()
  }

  /** Accepts actions without the block clock: blocks come from calling produceBlock (tests, benchmarks). */
  startManual(): void {
    assert(this.recovered, 'start the node after recover()')
    this.startRootThread()
    this.running = true
    this.health.ready()
  }

  /** Starts the block clock; the probes say ok (or degraded) from now on. */
  start(): void {
    if (this.running) return
    assert(this.recovered, 'start the node after recover()')
    this.startRootThread()
    this.running = true
    this.health.ready()
    this.nextBlockDueMs = performance.now()
    this.schedule()
  }

  /** Moves the state's hash to the state-root thread (stateRootThread option), once: from then on every block's root is folded there. */
  private startRootThread(): void {
    if (this.options.stateRootThread === true && this.rootThread === undefined) this.rootThread = new StateRootThread(this.state)
  }

  /** performance.now() at which the next block is due: blocks start every blockTimeMs, however long
   * producing (and announcing) the previous one took, so the block rate is 1000 / blockTimeMs. */
  private nextBlockDueMs = 0

  private schedule(): void {
    if (!this.running) return
    const now = performance.now()
    // After a stall, start from now instead of producing a burst of catch-up blocks.
    this.nextBlockDueMs = Math.max(this.nextBlockDueMs + this.options.blockTimeMs, now)
    if (this.options.executeAhead !== false)
      this.aheadTimer = setTimeout(() => this.startExecutingAhead(), Math.max(0, this.nextBlockDueMs - this.aheadLeadMs() - now))
    this.timer = setTimeout(() => {
      const publisher = this.publisher
      if (publisher !== undefined) {
        // The replicated log acknowledges the block before it is stored, answered or announced;
        // the next block is produced after that.
        this.produceAndPublish(publisher).then(
          () => this.schedule(),
          (err: unknown) => this.halt(err),
        )
        return
      }
      try {
        this.produceBlock()
      } catch (err) {
        // A failure here is a bug (an assertion) or a broken disk: stop rather than go on with a
        // state that may not match what is stored.
        this.halt(err)
        return
      }
      this.schedule()
    }, this.nextBlockDueMs - now)
  }

  /**
   * How long before its tick a block starts executing: long enough for the envelopes waiting then
   * to be applied before the tick (twice what that took for the last block, and AHEAD_LEAD_MIN_MS),
   * at most AHEAD_LEAD_MAX_MS and half the block time. Readers of the state wait from the first envelope applied to the
   * tick, so the lead is kept as short as that allows.
   */
  private aheadLeadMs(): number {
    return Math.min(this.options.blockTimeMs / 2, AHEAD_LEAD_MAX_MS, AHEAD_LEAD_MIN_MS + 2 * this.aheadWorkMs)
  }

  /**
   * The next block's lead time: the envelopes waiting are applied now, their changed leaves handed
   * to the state hash, and every envelope admitted from now to the tick is applied as it arrives.
   * What is left for the tick is the end of the block: its last envelopes, its end hooks, its rows,
   * its root and its commit. A block's time (its begin hooks, its timestamp) is the time it opens.
   */
  private startExecutingAhead(): void {
    if (!this.running) return
    this.executingAhead = true
    const started = performance.now()
    try {
      if (this.applyArrivals() === 0) return
      const open = this.open!
      if (this.rootThread !== undefined) this.rootThread.fold(this.state)
      else foldDirtyLeaves(this.state, this.state.hash)
      open.folded = true
      this.rowsAhead(open)
    } catch (err) {
      this.halt(err)
      return
    }
    this.aheadWorkMs = performance.now() - started
    this.open!.aheadMs += this.aheadWorkMs
  }

  /**
   * Applies the mempool's envelopes to the open block (opening it), as many as it has room for;
   * returns how many. A throw (an assertion) leaves them in the open block, refused by the halt.
   */
  private applyArrivals(): number {
    if (this.mempool.size === 0) return 0
    const open = this.open ?? this.openBlock()
    const room = open.execution.maxEnvelopes - open.txs.length
    if (room <= 0) return 0
    const txs = this.mempool.take(room)
    for (const tx of txs) open.txs.push(tx)
    open.execution.apply(txs.map((t) => t.envelope.input))
    return txs.length
  }

  /**
   * Builds the rows of the open block's envelopes applied so far and inserts them into the block
   * store, in a transaction the tick commits (not on a leader of a replicated chain: its block's rows
   * wait for the log's acknowledgement outside a transaction).
   */
  private rowsAhead(open: OpenBlock): void {
    const part = open.rows.addApplied(this.state, open.execution, open.txs)
    if (this.publisher !== undefined) return
    this.storing = true
    this.store.beginBlock(part.envelopes, part.events)
    this.storing = false
    open.inserted = true
  }

  /** Opens the next block at the current time (its begin hooks run): from now the state is ahead of the store. */
  private openBlock(): OpenBlock {
    const height = this.state.height + 1
    const timestampMs = Math.max(this.now(), this.state.timestampMs)
    // From here until the block is in the store, a failure leaves the state ahead of the store.
    this.unstoredHeight = height
    const open: OpenBlock = {
      execution: new BlockExecution(this.state, height, timestampMs),
      txs: [],
      folded: false,
      rows: new BlockRows(),
      inserted: false,
      aheadMs: 0,
    }
    this.open = open
    this.blockTxs = open.txs
    return open
  }

  /**
   * Resolves once the state holds no block executed ahead of its tick, at once when it holds none
   * (undefined then, so a reader need not wait a turn). What reads the state for others (the query
   * routes, the WebSocket's subscriptions) waits for it, so that it only ever shows committed blocks.
   */
  whenSettled(): Promise<void> | undefined {
    if (this.open === undefined) return undefined
    return new Promise((resolve) => this.settledWaiters.push(resolve))
  }

  /** The open block is closed (or dropped): its waiting readers go on, after the task that closed it. */
  private releaseReaders(): void {
    if (this.settledWaiters.length === 0) return
    const waiters = this.settledWaiters
    this.settledWaiters = []
    for (const resolve of waiters) resolve()
  }

  /** No more blocks from the clock, nor envelopes applied ahead of a tick (halt, stop). */
  private stopClock(): void {
    this.running = false
    this.executingAhead = false
    if (this.timer !== undefined) clearTimeout(this.timer)
    if (this.aheadTimer !== undefined) clearTimeout(this.aheadTimer)
  }

  /**
   * Stops block production for good after produceBlock failed: refuses what waits, marks the probes
   * halted (store_dirty when the failed block reached the state but not the store) and tells the owner.
   */
  private halt(err: unknown): void {
    if (this.stopped) return
    this.abortStoring()
    this.stopClock()
    const storeDirty = this.unstoredHeight > 0
    const stored = (() => {
      try {
        return String(this.store.tipHeight())
      } catch {
        return 'unknown'
      }
    })()
    const why = err instanceof Error ? err.message : String(err)
    const message = storeDirty
      ? `block ${this.unstoredHeight} was applied but not stored (${why}); the state is at height ${this.state.height}, the block store at ${stored}`
      : `block production failed after block ${this.state.height} was stored: ${why}`
    const code: HealthProblemCode = err instanceof HaltError ? err.code : this.storing ? 'STORE_WRITE_FAILED' : 'BLOCK_PRODUCTION_FAILED'
    this.log(`halted: ${message}: ${(err as Error).stack ?? err}`, 'error')
    if (storeDirty)
      this.log(
        'the in-memory state may be ahead of the block store: no more blocks are produced; a restart replays the stored chain',
        'error',
      )
    this.health.halted(code, message, storeDirty)
    const refusal = rpcError(RPC.limited, 'SHUTTING_DOWN', 'the node halted before this action reached a stored block')
    for (const tx of this.blockTxs) this.answer(tx.resolve, { status: 'refused', error: refusal })
    this.blockTxs = []
    this.open = undefined
    this.releaseReaders()
    for (const tx of this.mempool.drain()) this.answer(tx.resolve, { status: 'refused', error: refusal })
    const halt: NodeHalt = { code, message, storeDirty, error: err }
    for (const listener of this.haltListeners) {
      try {
        listener(halt)
      } catch (e) {
        this.log(`on halt: ${(e as Error).message}`, 'warn')
      }
    }
  }

  /** Admits a signed action and resolves once its block commits (or with the refusal). */
  submit(params: unknown): Promise<ActionResult> {
    return this.submitPrepared(prepareAdmission(params, this.state.params.network))
  }

  /**
   * Admits an action whose stateless checks ran already (admission-prepare.ts, inline or on an
   * admission thread) and resolves once its block commits (or with the refusal). Envelopes enter
   * the mempool in the order of these calls.
   */
  submitPrepared(prepared: PreparedAction): Promise<ActionResult> {
    return new Promise((resolve) => this.submitWith(prepared, resolve))
  }

  /**
   * submitPrepared with a callback instead of a promise: `done` runs at once with a refusal, or,
   * for an admitted action, inside its block's commit, after the block is durable and before it is
   * announced (so a reply can leave before the block's pushes; see onReplies). `done` must not
   * throw: a throw is logged, and neither the block nor this call is stopped by it.
   */
  submitWith(prepared: PreparedAction, answer: (result: ActionResult) => void): void {
    const done = (result: ActionResult) => this.answer(answer, result)
    if (!this.running) {
      done({ status: 'refused', error: rpcError(RPC.limited, 'SHUTTING_DOWN', 'the node is not producing blocks') })
      return
    }
    const admission = admitPrepared(this.state, prepared, (signer, nonce) => this.mempool.has(signer, nonce))
    if (!admission.ok) {
      done({ status: 'refused', error: admission.error })
      return
    }
    // Counted on the recovered signer (lowercase), so casing cannot dodge it; refused like any
    // admission refusal, so the nonce stays usable.
    if (!this.signerLimiter.allow(admission.envelope.signer)) {
      done({
        status: 'refused',
        error: rpcError(
          RPC.limited,
          'RATE_LIMITED',
          `${admission.envelope.signer} is over ${this.signerLimiter.capacity} actions per second; retry shortly`,
          { signer: admission.envelope.signer, limit_per_sec: this.signerLimiter.capacity },
        ),
      })
      return
    }
    if (!this.mempool.add({ envelope: admission.envelope, resolve: answer })) {
      done({
        status: 'refused',
        error: rpcError(RPC.limited, 'MEMPOOL_FULL', `the mempool holds ${this.mempool.capacity} envelopes; retry shortly`),
      })
      return
    }
    if (this.executingAhead) {
      const started = performance.now()
      try {
        this.applyArrivals()
      } catch (err) {
        this.halt(err)
        return
      }
      this.open!.aheadMs += performance.now() - started
    }
  }

  /** Tells an action its outcome; a throwing callback (a bug of the caller) must not stop the block. */
  private answer(resolve: (result: ActionResult) => void, result: ActionResult): void {
    try {
      resolve(result)
    } catch (err) {
      this.log(`an action's reply callback threw: ${(err as Error).stack ?? err}`, 'error')
    }
  }

  /** Produces, commits and announces one block from the mempool (empty blocks too); not on a node with a publisher. */
  produceBlock(): CommittedBlock {
    assert(this.publisher === undefined, 'a node that publishes its blocks produces them on its clock (produceAndPublish)')
    let produced: ProducedBlock
    try {
      produced = this.applyNextBlock(true)
    } catch (err) {
      this.abortStoring()
      throw err
    }
    return this.commitProduced(produced, undefined)
  }

  /** Rolls back the rows of a block that failed before its commit (its own failure is the lesser one). */
  private abortStoring(): void {
    try {
      this.store.abortBlock()
    } catch (err) {
      this.log(`rolling back a failed block's rows: ${(err as Error).message}`, 'warn')
    }
  }

  /** Produces a block, has the publisher append it to the replicated log, then commits and announces it. */
  private async produceAndPublish(publisher: BlockPublisher): Promise<void> {
    // Its rows wait for the log's acknowledgement outside a transaction: other tasks run meanwhile.
    const produced = this.applyNextBlock(false)
    const publishing = performance.now()
    await publisher(produced.stored)
    // Stopped while the log was acknowledging it: the store is closed; the block is in the log,
    // and the next start takes it from there (stop() told the waiting actions).
    if (this.stopped) return
    this.commitProduced(produced, performance.now() - publishing)
  }

  /**
   * Applies the next block from the mempool to the state; it is neither stored nor announced yet.
   * With insertRows, its envelopes and events are inserted into the block store (beginBlock) while
   * the state-root thread works on its root, and commitProduced commits them with the header.
   */
  private applyNextBlock(insertRows: boolean): ProducedBlock {
    const producing = performance.now()
    // The block opened ahead of the tick, or one opened now: the envelopes still waiting go in, as
    // many as it has room for, and its end hooks run.
    this.executingAhead = false
    const open = this.open ?? this.openBlock()
    this.applyArrivals()
    const { height, timestampMs } = open.execution
    const txs = open.txs
    // applyBlock in its two parts, timed apart (BlockPhases). With a state-root thread, the root is
    // computed there while this thread builds the block's rows.
    const executed = open.execution.close()
    this.open = undefined
    // Readers waiting for the block go on once this task ends: after the commit, or, on a leader of
    // a replicated chain, while the log acknowledges it (as they did before blocks were executed ahead).
    this.releaseReaders()
    const applied = performance.now()
    const rootThread = this.rootThread
    let root: Uint8Array | undefined
    if (rootThread === undefined) root = commitStateRoot(this.state)
    else {
      // The changes folded at the lead time are folded by now (a block's lead is milliseconds).
      if (open.folded) rootThread.waitRoot()
      rootThread.fold(this.state)
    }
    const folded = performance.now()
    const { envelopes, events, bodies, rest } = open.rows.finish(this.state, height, executed, txs)
    const rowsBuilt = performance.now()
    if (insertRows) {
      this.storing = true
      if (open.inserted) this.store.continueBlock(rest.envelopes, rest.events)
      else this.store.beginBlock(envelopes, events)
      this.storing = false
    }
    const inserted = performance.now()
    root ??= rootThread!.waitRoot()
    const rooted = performance.now()
    const result: BlockResult = { ...executed, stateRoot: root }
    const stateRoot = bytesToHex(root)
    const digest = blockDigest({
      height,
      parent: this.state.lastDigest,
      timestampMs,
      stateRoot,
      envelopes: envelopes.map((e) => [e.txHash, e.status] as const),
      eventCount: events.length,
    })
    const stored: StoredBlock = {
      header: {
        height,
        parent: this.state.lastDigest,
        digest,
        timestampMs,
        envelopeCount: envelopes.length,
        eventCount: events.length,
        stateRoot,
      },
      envelopes,
      events,
    }
    return {
      txs,
      stored,
      result,
      bodies,
      producing,
      aheadMs: open.aheadMs,
      applyMs: applied - producing,
      // This thread's part: the leaves encoded (and, without the thread, folded), then the wait.
      stateRootMs: folded - applied + (rooted - inserted),
      rowsMs: rowsBuilt - folded + (performance.now() - rooted),
      insertedMs: insertRows ? inserted - rowsBuilt : undefined,
    }
  }

  /** Stores a produced block, answers its actions and announces it. */
  private commitProduced(produced: ProducedBlock, replicateMs: number | undefined): CommittedBlock {
    const { txs, stored, result, bodies, producing } = produced
    const committing = performance.now()
    this.storing = true
    if (produced.insertedMs === undefined) this.store.commitBlock(stored)
    else this.store.finishBlock(stored)
    this.storing = false
    const answering = performance.now()
    this.unstoredHeight = 0
    this.state.lastDigest = stored.header.digest
    this.mempool.release(txs)
    for (const batch of this.replyBatches) batch.start()
    try {
      this.reply(txs, stored, result, bodies)
    } finally {
      for (const batch of this.replyBatches) batch.end()
    }
    this.blockTxs = []
    const announcing = performance.now()
    const committed = this.announce({ stored, result, bodies, productionMs: announcing - producing })
    if (this.phaseListeners.length > 0) {
      const phases: BlockPhases = {
        aheadMs: produced.aheadMs,
        applyMs: produced.applyMs,
        stateRootMs: produced.stateRootMs,
        rowsMs: produced.rowsMs,
        replicateMs,
        commitMs: answering - committing + (produced.insertedMs ?? 0),
        repliesMs: announcing - answering,
        announceMs: performance.now() - announcing,
      }
      for (const listener of this.phaseListeners) listener(phases)
    }
    return committed
  }

  /** Tells the listeners of a stored block, and snapshots the state when one is due. */
  private announce(committed: CommittedBlock): CommittedBlock {
    for (const listener of this.listeners) listener(committed)
    const every = this.options.snapshotEveryBlocks ?? 0
    if (every > 0 && committed.stored.header.height % every === 0) this.writeSnapshot(committed.stored.header.stateRoot)
    return committed
  }

  /** Snapshots the state just committed with root stateRoot. A failure is logged, not fatal: the
   * blocks are in the store, and the next restart replays a longer tail. */
  private writeSnapshot(stateRoot: string): void {
    const started = performance.now()
    try {
      const header = this.snapshots.write(this.state, stateRoot, this.genesisDigest)
      this.snapshotHeight = header.height
      this.log(`snapshot at height ${header.height}: ${header.bodyBytes} bytes in ${Math.round(performance.now() - started)} ms`)
      this.health.clearProblem('SNAPSHOT_WRITE_FAILED')
    } catch (err) {
      this.log(`snapshot at height ${this.state.height} failed: ${(err as Error).message}`, 'warn')
      this.health.setProblem(
        'SNAPSHOT_WRITE_FAILED',
        `the state snapshot at height ${this.state.height} could not be written (${(err as Error).message}); a restart replays more blocks`,
      )
    }
  }

  /**
   * Ends the reply batches and starts them again (REPLY_CHUNK). A throwing batch (a bug of its
   * owner) is logged: the block's other actions must still be answered and the block announced.
   */
  private sendReplyChunk(): void {
    for (const batch of this.replyBatches) {
      try {
        batch.end()
        batch.start()
      } catch (err) {
        this.log(`a reply batch threw: ${(err as Error).stack ?? err}`, 'error')
      }
    }
  }

  /** bodies: the events' body objects, stored.events[i]'s bodyJson parsed (views.ts storedEventsAndBodies). */
  private reply(txs: readonly PendingTx[], stored: StoredBlock, result: BlockResult, bodies: readonly EventBody[]): void {
    const symbolOf = symbolLookup(this.state)
    for (let i = 0; i < txs.length; i++) {
      if (i > 0 && i % REPLY_CHUNK === 0) this.sendReplyChunk()
      const r = result.envelopes[i]!
      const env = stored.envelopes[i]!
      if (r.status === 'accepted') {
        const events = stored.events.slice(r.firstEvent, r.firstEvent + r.eventCount)
        this.answer(txs[i]!.resolve, acceptedResult(env.txHash, env.height, i, events, bodies, symbolOf))
      } else {
        this.answer(txs[i]!.resolve, { status: 'kept-reject', tx_hash: env.txHash, height: env.height, envelope_idx: i, reason: r.reason! })
      }
    }
  }

  /** Stops the clock; waiting envelopes are refused (they were never in a block). */
  stop(): void {
    if (this.stopped) return
    this.stopped = true
    this.stopClock()
    for (const listener of this.stopListeners) {
      try {
        listener()
      } catch (err) {
        this.log(`on stop: ${(err as Error).message}`, 'warn')
      }
    }
    const inNoBlock: ActionResult = {
      status: 'refused',
      error: rpcError(RPC.limited, 'SHUTTING_DOWN', 'the node stopped before this action reached a block'),
    }
    for (const tx of this.mempool.drain()) this.answer(tx.resolve, inNoBlock)
    // A block executed ahead of its tick never left this node: its actions are in no block. The
    // state holds it (unstoredHeight), so no snapshot is taken below.
    if (this.open !== undefined) {
      this.abortStoring()
      for (const tx of this.open.txs) this.answer(tx.resolve, inNoBlock)
      this.blockTxs = []
      this.open = undefined
      this.releaseReaders()
    }
    // A block the replicated log was acknowledging: it may be in the chain, so the reply says so.
    for (const tx of this.blockTxs)
      this.answer(tx.resolve, {
        status: 'refused',
        error: rpcError(
          RPC.limited,
          'SHUTTING_DOWN',
          `the node stopped while the block of this action was being replicated; it may be in the chain: look up its tx_hash ${tx.envelope.txHash}`,
        ),
      })
    this.blockTxs = []
    // Stopped while replaying on the thread: the last replayed block is checked now, so that the
    // snapshot below is of a state whose root is known good; one that cannot be is not the chain's.
    if (this.rootThread !== undefined) {
      try {
        this.checkReplayFolding(this.rootThread)
      } catch (err) {
        this.stateDiverged = true
        this.log(`stopping while replaying: ${(err as Error).message}`, 'warn')
      }
    }
    this.rootThread?.stop()
    // The next start then replays nothing. The state is the last committed block's (or, stopped
    // while recovering, the last replayed one's): no block is being applied. Not after a halt that
    // left the state ahead of the store: that state is in no stored block; nor after a block that
    // did not verify, or one whose check could not end: that state is not the chain's.
    if (
      (this.options.snapshotEveryBlocks ?? 0) > 0 &&
      this.state.height > this.snapshotHeight &&
      !this.health.storeDirty &&
      this.unstoredHeight === 0 &&
      !this.stateDiverged
    ) {
      this.writeSnapshot(this.store.header(this.state.height)!.stateRoot)
    }
    this.store.close()
  }
}
