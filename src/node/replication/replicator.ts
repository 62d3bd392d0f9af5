// A node's part in a replicated chain (docs/replication.md): it appends the blocks it produces to
// the chain's stream before anyone hears of them (leader), or applies and verifies the stream's
// blocks (follower, candidate), and it keeps track of the lease: who leads, and, on a candidate,
// taking it when the leader stops renewing it.
import { randomUUID } from 'node:crypto'
import { JetStreamApiError } from '@nats-io/jetstream'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import type { LogLine } from '../../lib/log.ts'
import type { Genesis } from '../../wire/genesis.ts'
import { BlockStore } from '../block-store.ts'
import { BlockMismatch, type ChainNode, HaltError } from '../chain-node.ts'
import type { ReplicationHealth } from '../health.ts'
import { decodeBlockRecord } from './block-record.ts'
import { ChainLog } from './chain-log.ts'
import { type ChainStreamNames, chainStreamNames } from './chain-stream.ts'
import { Lease, type LeaseValue } from './lease.ts'
import { refuseUnfinishedPeerStart, startFromPeer } from './start-from-peer.ts'

export interface ReplicationOptions {
  /** NATS server URLs, comma-separated (nats://HOST:PORT[,...]). */
  readonly servers: string
  /** The JetStream replica count of a stream this node creates (1 or 3). */
  readonly replicas: number
  /** follow: never leads; candidate: follows, and takes the lease when nobody holds it. */
  readonly mode: 'follow' | 'candidate'
  /** The lease TTL of a lease bucket this node creates. */
  readonly leaseTtlMs: number
  /** The chain's stream when the NATS system holds several. */
  readonly stream?: string
  readonly log: LogLine
}

/** A follower behind the stream that applied nothing for this long replaces its consumer. */
const FOLLOW_STALL_MS = 5_000
/** The wait before following again after the stream did not answer. */
const REFOLLOW_DELAY_MS = 500
/** How often every node reads the lease and the stream's tip (at most; a short TTL polls faster). */
const POLL_MS_MAX = 250
/** A candidate waits this much per block it is behind before it takes a free lease, so the newest tip tends to win. */
const TAKE_DELAY_PER_BLOCK_MS = 20
const TAKE_DELAY_MAX_MS = 1_000

/** Connects to the NATS servers (comma-separated URLs), retrying while they come up. */
export function connectNats(servers: string): Promise<NatsConnection> {
  return connect({
    servers: servers.split(',').map((s) => s.trim()),
    name: 'perpd',
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    timeout: 5_000,
  })
}

/**
 * The genesis of the chain to run: the one given (--genesis, --dev), else the one a data directory
 * stored, else the one the stream holds (a new follower needs no genesis file).
 */
export async function resolveGenesis(nc: NatsConnection, given: Genesis | undefined, dataDir: string, stream?: string): Promise<Genesis> {
  if (given !== undefined) return given
  const store = new BlockStore(dataDir)
  try {
    const stored = store.getMeta('genesis')
    if (stored !== undefined) return JSON.parse(stored) as Genesis
  } finally {
    store.close()
  }
  return (await ChainLog.find(nc, stream)).genesis.genesis
}

export class Replication {
  readonly names: ChainStreamNames
  private chainLog: ChainLog | undefined
  private lease: Lease | undefined
  private role: ReplicationHealth['role']
  private leaderUrl: string | null = null
  private lagBlocks = 0
  private lastVerifiedHeight = 0
  private readonly nodeId = randomUUID()
  private advertiseUrl = ''
  /** The lease revision this node holds as leader, and when it was last renewed (performance.now()). */
  private leaseRevision: number | undefined
  private renewedAt = 0
  private leaseLost = false
  private following: { stop(): void; readonly done: Promise<void> } | undefined
  private poller: ReturnType<typeof setTimeout> | undefined
  private renewer: ReturnType<typeof setInterval> | undefined
  private stopped = false
  private diverged = false
  /** Whether a promotion (catch-up, then production) is under way. */
  private promoting = false
  /** When the follower last applied a block or was level with the stream (performance.now()). */
  private progressAt = 0

  constructor(
    private readonly nc: NatsConnection,
    private readonly node: ChainNode,
    private readonly options: ReplicationOptions,
  ) {
    this.names = chainStreamNames(node.state.params.network, node.genesisDigest)
    this.role = options.mode === 'follow' ? 'follower' : 'candidate'
    node.health.setReplication(() => this.health())
    // A leader that halted gives its lease up at once: its process exits in a moment anyway.
    node.onHalt(() => void this.resign())
  }

  /** The figures of the probes and /metrics. */
  health(): ReplicationHealth {
    return {
      role: this.role,
      leader_url: this.leaderUrl,
      lag_blocks: this.lagBlocks,
      stream: this.names.stream,
      last_verified_height: this.lastVerifiedHeight,
    }
  }

  /**
   * Where /action goes: undefined when this node admits it (the leader), the leader's URL when it
   * forwards, null when no leader is known (the reply asks to retry).
   */
  forwardTarget(): string | null | undefined {
    if (this.role === 'leader') return undefined
    return this.promoting || this.leaderUrl === this.advertiseUrl ? null : this.leaderUrl
  }

  /**
   * Opens the chain's stream (creating it with the genesis record on a candidate), checks that its
   * genesis is this node's, and opens the lease bucket. Before recovery.
   */
  async open(): Promise<void> {
    const node = this.node
    refuseUnfinishedPeerStart(node.store)
    const genesisJson = node.store.getMeta('genesis')!
    const genesisRoot = node.store.getMeta('genesis_root')!
    const exists = await ChainLog.exists(this.nc, this.names)
    if (!exists && this.options.mode === 'follow')
      throw new Error(`the NATS system holds no stream ${this.names.stream} of this chain (start its leader first)`)
    this.chainLog = exists
      ? await ChainLog.open(this.nc, this.names)
      : await ChainLog.create(this.nc, this.names, { genesisJson, genesisRoot, genesisDigest: node.genesisDigest }, this.options.replicas)
    const genesis = await this.chainLog.genesis()
    if (genesis.genesisDigest !== node.genesisDigest || genesis.genesisRoot !== genesisRoot)
      throw new Error(`stream ${this.names.stream} holds the genesis ${genesis.genesisDigest}, this node's is ${node.genesisDigest}`)
    this.lease = await Lease.open(this.nc, this.names.leaseBucket, this.options.leaseTtlMs, this.options.replicas)
  }

  /**
   * Fills an empty data directory from the newest snapshot and the block rows of the node at
   * peerUrl, checked against the stream (start-from-peer.ts). After open(), before recovery.
   */
  async startFromPeer(peerUrl: string): Promise<void> {
    await startFromPeer(this.node, this.chainLog!, peerUrl, this.options.log)
  }

  /**
   * Starts replicating, on a recovered node whose API answers at advertiseUrl: checks that the local
   * chain is a prefix of the stream's (or the stream of it), then follows the stream; a candidate
   * also competes for the lease.
   */
  async start(advertiseUrl: string): Promise<void> {
    this.advertiseUrl = advertiseUrl
    const node = this.node
    this.lastVerifiedHeight = node.state.height
    node.startFollowing()
    this.leaderUrl = (await this.lease!.holder())?.value.url ?? null
    if (!(await this.reconcile())) return
    await this.follow()
    this.poll()
  }

  /** Checks the local tip against the stream: false (and diverged) when they disagree. */
  private async reconcile(): Promise<boolean> {
    const log = this.chainLog!
    const logTip = await log.tipHeight()
    const localTip = this.node.state.height
    const common = Math.min(logTip, localTip)
    if (common > 0) {
      let digest: string
      try {
        digest = (await log.block(common))!.header.digest
      } catch (err) {
        this.refuse(`the stream's record of block ${common} is refused: ${(err as Error).message}`)
        return false
      }
      const local = this.node.store.header(common)!.digest
      if (digest !== local) {
        this.refuse(`block ${common}: the local store holds digest ${local}, the stream ${digest}`)
        return false
      }
    }
    if (localTip > logTip && this.options.mode === 'follow') {
      this.refuse(`the local store holds blocks up to ${localTip}, the stream only up to ${logTip}`)
      return false
    }
    this.lagBlocks = Math.max(0, logTip - localTip)
    return true
  }

  /**
   * Follows the stream from the block after the tip. A consumer that ends (its server went away
   * and it could not resume) or stalls behind the stream's tip is replaced by a new one from the tip.
   */
  private async follow(): Promise<void> {
    const following = await this.chainLog!.follow(this.node.state.height + 1, (bytes, height, pending) => {
      if (this.stopped || this.diverged || this.role === 'leader' || height <= this.node.state.height) return
      // Records come in order from the tip; one past a gap means this consumer lost its place.
      if (height > this.node.state.height + 1) {
        this.refollow()
        return
      }
      if (this.apply(bytes, height)) this.progressAt = performance.now()
      this.lagBlocks = pending
    })
    this.following = following
    this.progressAt = performance.now()
    const ended = (err: unknown) => {
      if (this.following !== following) return
      this.following = undefined
      this.log(
        `the stream's consumer ended (${err === undefined ? 'closed' : (err as Error).message}); following again from the tip`,
        'warn',
      )
      this.refollow()
    }
    following.done.then(() => ended(undefined), ended)
  }

  /** Replaces the consumer (ended or stalled) with a new one from the tip, retrying while the stream does not answer. */
  private refollow(): void {
    const old = this.following
    this.following = undefined
    old?.stop()
    if (this.stopped || this.diverged || this.role === 'leader' || this.promoting) return
    this.follow().catch((err: unknown) => {
      this.unavailable(err)
      setTimeout(() => this.refollow(), REFOLLOW_DELAY_MS)
    })
  }

  /** Verifies and applies the record of the block at height; refuses (diverged) one that does not verify. */
  private apply(bytes: Uint8Array, height: number): boolean {
    let record: ReturnType<typeof decodeBlockRecord>
    try {
      record = decodeBlockRecord(bytes, height)
    } catch (err) {
      this.refuse(`the stream's record of block ${height} is refused: ${(err as Error).message}`)
      return false
    }
    try {
      this.node.followBlock(record.header, record.envelopes)
    } catch (err) {
      if (err instanceof BlockMismatch) {
        this.refuse(
          err.what === 'status'
            ? `block ${err.height}: ${err.message}`
            : `block ${err.height}: ${err.what} computed ${err.computed}, the stream's ${err.expected}`,
        )
      } else this.refuse(`block ${height} could not be applied: ${(err as Error).message}`)
      return false
    }
    this.lastVerifiedHeight = height
    return true
  }

  /** Stops following for good: the node says degraded and serves nothing but its probes. */
  private refuse(message: string): void {
    if (this.diverged) return
    this.diverged = true
    const following = this.following
    this.following = undefined
    following?.stop()
    this.log(`stopped following the replicated chain: ${message}`, 'error')
    this.node.health.diverged(message)
  }

  /** Reads the lease and the stream's tip every poll; a candidate takes a free lease. */
  private poll(): void {
    if (this.stopped) return
    const every = Math.min(POLL_MS_MAX, Math.max(20, Math.floor((this.lease?.ttlMs ?? 1_000) / 4)))
    this.poller = setTimeout(() => {
      this.pollOnce().then(
        () => this.poll(),
        (err: unknown) => {
          this.unavailable(err)
          this.poll()
        },
      )
    }, every)
  }

  private async pollOnce(): Promise<void> {
    if (this.stopped || this.role === 'leader' || this.diverged) return
    const held = await this.lease!.holder()
    const logTip = await this.chainLog!.tipHeight()
    this.node.health.clearProblem('REPLICATION_UNAVAILABLE')
    this.lagBlocks = Math.max(0, logTip - this.node.state.height)
    if (this.lagBlocks === 0) this.progressAt = performance.now()
    else if (this.following !== undefined && !this.promoting && performance.now() - this.progressAt > FOLLOW_STALL_MS) {
      this.log(`no block applied for ${FOLLOW_STALL_MS} ms, ${this.lagBlocks} behind the stream: following again from the tip`, 'warn')
      this.refollow()
    }
    if (held !== undefined) {
      this.leaderUrl = held.value.url
      return
    }
    this.leaderUrl = null
    if (this.options.mode !== 'candidate' || this.promoting) return
    await Bun.sleep(Math.min(TAKE_DELAY_MAX_MS, this.lagBlocks * TAKE_DELAY_PER_BLOCK_MS) + Math.floor(Math.random() * 50))
    if (this.stopped || this.diverged) return
    const revision = await this.lease!.take(this.leaseValue())
    if (revision === undefined) return
    this.leaseRevision = revision
    this.leaseLost = false
    this.renewedAt = performance.now()
    await this.promote()
  }

  private leaseValue(): LeaseValue {
    return { node_id: this.nodeId, url: this.advertiseUrl, since_ms: Date.now() }
  }

  /**
   * Holding the lease: stops following, applies what the stream holds beyond the tip, appends what
   * the local store holds beyond the stream's (a chain that ran before it was replicated), and
   * produces from the stream's last block.
   */
  private async promote(): Promise<void> {
    this.promoting = true
    this.leaderUrl = this.advertiseUrl
    this.renewer = setInterval(() => void this.renew(), Math.max(10, Math.floor(this.lease!.ttlMs / 3)))
    let leading = false
    try {
      const following = this.following
      this.following = undefined
      following?.stop()
      await following?.done.catch(() => undefined)
      const log = this.chainLog!
      for (let tip = await log.tipHeight(); this.node.state.height < tip; tip = await log.tipHeight()) {
        for (let h = this.node.state.height + 1; h <= tip; h++) {
          const bytes = await log.recordBytes(h)
          if (bytes === undefined) throw new Error(`the stream holds no record of block ${h}`)
          if (!this.apply(bytes, h)) return
        }
      }
      // A chain that ran before it was replicated: its blocks beyond the stream's tip go to the stream.
      const localTip = this.node.state.height
      for (let h = (await log.tipHeight()) + 1; h <= localTip; h++) {
        const header = this.node.store.header(h)!
        const outcome = await log.append({ header, envelopes: this.node.store.envelopesOf(h), events: [] }, (err) => this.unavailable(err))
        if (!outcome.ok) {
          this.refuse(`block ${h}: the local store holds digest ${header.digest}, the stream ${outcome.holder}`)
          return
        }
      }
      this.lagBlocks = 0
      this.lastVerifiedHeight = this.node.state.height
      if (this.leaseLost || this.stopped) return
      this.node.setBlockPublisher((block) => this.publish(block))
      this.role = 'leader'
      this.node.start()
      leading = true
      this.log(`leading the chain from height ${this.node.state.height} (stream ${this.names.stream})`)
    } catch (err) {
      this.log(`taking the lead failed (${(err as Error).message}); following again`, 'warn')
      this.unavailable(err)
    } finally {
      this.promoting = false
      if (!leading) await this.resign()
    }
  }

  /**
   * Stops renewing and gives the lease up while this node still holds it (a failed promotion, a
   * halted leader), so another candidate takes over without waiting for it to expire; a node that
   * does not lead follows again.
   */
  private async resign(): Promise<void> {
    if (this.renewer !== undefined) clearInterval(this.renewer)
    this.renewer = undefined
    const revision = this.leaseRevision
    this.leaseRevision = undefined
    if (this.leaderUrl === this.advertiseUrl) this.leaderUrl = null
    if (revision !== undefined && !this.leaseLost) await this.lease?.release(revision).catch(() => undefined)
    if (this.role !== 'leader' && this.following === undefined) this.refollow()
  }

  /** Renews the lease; retakes it when it expired unheld; marks it lost when another node holds it. */
  private async renew(): Promise<void> {
    if (this.stopped || this.leaseLost || this.leaseRevision === undefined) return
    try {
      let revision = await this.lease!.renew(this.leaseValue(), this.leaseRevision)
      if (revision === undefined) {
        const held = await this.lease!.holder()
        if (held === undefined) revision = await this.lease!.take(this.leaseValue())
        else if (held.value.node_id === this.nodeId) revision = held.revision
      }
      if (revision === undefined) {
        this.leaseLost = true
        this.log('the lease is held by another node: this node stops producing', 'error')
        return
      }
      this.leaseRevision = revision
      this.renewedAt = performance.now()
      this.node.health.clearProblem('REPLICATION_UNAVAILABLE')
    } catch (err) {
      this.unavailable(err)
    }
  }

  /**
   * The leader's block publisher: waits while the lease is not known to be held (a renewal overdue),
   * then appends the block to the stream; a lost lease or a block the fence refused halts the node.
   */
  private async publish(block: Parameters<ChainLog['append']>[0]): Promise<void> {
    const ttl = this.lease!.ttlMs
    while (!this.leaseLost && !this.stopped && performance.now() - this.renewedAt > ttl) await Bun.sleep(20)
    if (this.leaseLost) throw new HaltError('LEADER_FENCED', `another node holds the lease; block ${block.header.height} was not appended`)
    const outcome = await this.chainLog!.append(block, (err) => this.unavailable(err))
    if (!outcome.ok)
      throw new HaltError(
        'LEADER_FENCED',
        `the stream holds another block at height ${block.header.height} (${outcome.holder}): another node leads; this one's was never acknowledged`,
      )
    this.node.health.clearProblem('REPLICATION_UNAVAILABLE')
    this.lastVerifiedHeight = block.header.height
  }

  /** The stream or the lease did not answer: degraded until they do. */
  private unavailable(err: unknown): void {
    if (this.stopped) return
    const message = err instanceof JetStreamApiError ? `${err.message} (code ${err.code})` : (err as Error).message
    if (this.node.health.setProblem('REPLICATION_UNAVAILABLE', `the replicated log does not answer: ${message}`))
      this.log(`the replicated log does not answer: ${message}`, 'warn')
  }

  /** Stops following and renewing; a leader gives its lease up so a standby takes over at once. */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    if (this.poller !== undefined) clearTimeout(this.poller)
    const following = this.following
    this.following = undefined
    following?.stop()
    await this.resign()
    await this.nc.close().catch(() => undefined)
  }

  private log(line: string, level?: Parameters<LogLine>[1]): void {
    this.options.log(line, level)
  }
}
