// The replicated block log of one chain on NATS JetStream (docs/replication.md): the stream of
// records (block-record.ts), appended with the height as message id and the expected last sequence
// as a fence, so two writers can never both append at one height; read by sequence or consumed in
// order from a height.
import {
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream'
import type { NatsConnection } from '@nats-io/transport-node'
import type { StoredBlock } from '../block-store.ts'
import {
  type BlockRecord,
  decodeBlockRecord,
  decodeGenesisRecord,
  encodeBlockRecord,
  encodeGenesisRecord,
  type GenesisRecord,
  RecordError,
} from './block-record.ts'
import { CHAIN_SUBJECTS, type ChainStreamNames, heightOf, namesOfStream, sequenceOf } from './chain-stream.ts'

/** JetStream's error code for an expected last sequence that is not the stream's. */
const WRONG_LAST_SEQUENCE = 10071
/** How long a publish waits for the stream's acknowledgement before it is sent again. */
const PUBLISH_TIMEOUT_MS = 5_000

/** The outcome of appending a block: taken (now or earlier, the same block), or refused by the fence. */
export type AppendOutcome = { readonly ok: true } | { readonly ok: false; readonly holder: string }

/** The genesis of a chain found in the log, with the names of its stream. */
export interface FoundChain {
  readonly names: ChainStreamNames
  readonly genesis: ReturnType<typeof decodeGenesisRecord>
}

export class ChainLog {
  private constructor(
    readonly names: ChainStreamNames,
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
  ) {}

  /** The log of an existing stream; throws when it does not exist. */
  static async open(nc: NatsConnection, names: ChainStreamNames): Promise<ChainLog> {
    const jsm = await jetstreamManager(nc)
    await jsm.streams.info(names.stream)
    return new ChainLog(names, jsm, jetstream(nc))
  }

  /** Whether the stream of names exists. */
  static async exists(nc: NatsConnection, names: ChainStreamNames): Promise<boolean> {
    const jsm = await jetstreamManager(nc)
    try {
      await jsm.streams.info(names.stream)
      return true
    } catch (err) {
      if (err instanceof JetStreamApiError && err.status === 404) return false
      throw err
    }
  }

  /**
   * Creates the stream of a new chain (replicas: its JetStream replica count) and appends its
   * genesis record as record 1; when the stream exists already, opens it.
   */
  static async create(nc: NatsConnection, names: ChainStreamNames, genesis: GenesisRecord, replicas: number): Promise<ChainLog> {
    const jsm = await jetstreamManager(nc)
    if (!(await ChainLog.exists(nc, names))) {
      await jsm.streams.add({
        name: names.stream,
        subjects: [names.subject],
        num_replicas: replicas,
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.New,
        max_msgs: -1,
        max_bytes: -1,
        max_age: 0,
      })
    }
    const log = new ChainLog(names, jsm, jetstream(nc))
    if ((await log.lastSequence()) === 0) {
      try {
        await log.js.publish(names.subject, encodeGenesisRecord(genesis), { msgID: '0', expect: { lastSequence: 0 } })
      } catch (err) {
        // Another node created the chain at the same moment: its genesis record is checked by the caller.
        if (!(err instanceof JetStreamApiError && err.code === WRONG_LAST_SEQUENCE)) throw err
      }
    }
    return log
  }

  /**
   * The chain of this NATS system: the one named `stream`, or the only one there is (throws when
   * there is none or more than one, naming them).
   */
  static async find(nc: NatsConnection, stream: string | undefined): Promise<FoundChain> {
    const jsm = await jetstreamManager(nc)
    let name = stream
    if (name === undefined) {
      const names: string[] = []
      for await (const n of jsm.streams.names(CHAIN_SUBJECTS)) names.push(n)
      if (names.length === 0) throw new Error('the NATS system holds no perpd chain yet (start the leader with its genesis first)')
      if (names.length > 1)
        throw new Error(`the NATS system holds ${names.length} perpd chains (${names.join(', ')}); choose one with --nats-stream`)
      name = names[0]!
    }
    const log = await ChainLog.open(nc, namesOfStream(name))
    return { names: log.names, genesis: await log.genesis() }
  }

  /** The genesis record (record 1). */
  async genesis(): Promise<ReturnType<typeof decodeGenesisRecord>> {
    const m = await this.jsm.streams.getMessage(this.names.stream, { seq: 1 })
    if (m === null) throw new RecordError(`stream ${this.names.stream} holds no genesis record`)
    return decodeGenesisRecord(m.data)
  }

  /** The stream's last sequence (0: empty). */
  async lastSequence(): Promise<number> {
    return (await this.jsm.streams.info(this.names.stream)).state.last_seq
  }

  /** The height of the newest block in the log (0: only the genesis). */
  async tipHeight(): Promise<number> {
    return Math.max(0, heightOf(await this.lastSequence()))
  }

  /** The raw record of the block at height, or undefined when the log does not hold it. */
  async recordBytes(height: number): Promise<Uint8Array | undefined> {
    const m = await this.jsm.streams.getMessage(this.names.stream, { seq: sequenceOf(height) })
    return m === null ? undefined : m.data
  }

  /** The block at height, decoded (RecordError when it is not a block record of that height), or undefined. */
  async block(height: number): Promise<BlockRecord | undefined> {
    const bytes = await this.recordBytes(height)
    return bytes === undefined ? undefined : decodeBlockRecord(bytes, height)
  }

  /**
   * Appends block as the record after the block before it: the stream takes it only when its last
   * sequence is that block's (the fence). A block the stream took already (a publish retried after
   * a lost acknowledgement) counts as taken; another block at its height is a refusal, naming the
   * digest that holds the height. Retries when the stream does not answer, until it does.
   */
  async append(block: StoredBlock, onRetry: (err: unknown) => void): Promise<AppendOutcome> {
    const height = block.header.height
    const data = encodeBlockRecord(block)
    for (let attempt = 0; ; attempt++) {
      try {
        const ack = await this.js.publish(this.names.subject, data, {
          msgID: String(height),
          expect: { lastSequence: sequenceOf(height - 1) },
          timeout: PUBLISH_TIMEOUT_MS,
        })
        if (ack.seq === sequenceOf(height) && !ack.duplicate) return { ok: true }
        // A duplicate message id: some record of this height was taken within the window; ours only if its digest is.
        return await this.heldBy(block)
      } catch (err) {
        if (err instanceof JetStreamApiError && err.code === WRONG_LAST_SEQUENCE) return await this.heldBy(block)
        onRetry(err)
        await Bun.sleep(Math.min(1_000, 50 * 2 ** Math.min(attempt, 5)))
      }
    }
  }

  /** Whether the record at block's height is block (taken) or another one (refused). */
  private async heldBy(block: StoredBlock): Promise<AppendOutcome> {
    const held = await this.block(block.header.height).catch(() => undefined)
    if (held !== undefined && held.header.digest === block.header.digest) return { ok: true }
    return { ok: false, holder: held?.header.digest ?? 'a record this node cannot read' }
  }

  /**
   * Delivers the records from height `fromHeight` on, in order, to onRecord (awaited one at a
   * time) until stop() is called on what it returns. onRecord gets the raw bytes, the height and
   * how many records the stream holds beyond it.
   */
  async follow(
    fromHeight: number,
    onRecord: (bytes: Uint8Array, height: number, pendingAfter: number) => Promise<void> | void,
  ): Promise<{ stop(): void; readonly done: Promise<void> }> {
    const consumer = await this.js.consumers.get(this.names.stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: sequenceOf(fromHeight),
      filter_subjects: this.names.subject,
    })
    const messages = await consumer.consume()
    const done = (async () => {
      for await (const m of messages) await onRecord(m.data, heightOf(m.seq), m.info.pending)
    })()
    return { stop: () => void messages.stop(), done }
  }
}
