// The block store: blocks, envelopes (with status and reason) and events in SQLite (WAL,
// synchronous=FULL). A block is committed in one transaction and is durable when commitBlock
// returns, before any reply or push that depends on it. Events are stored a row per envelope that
// raised any (wire/event-groups.ts), not a row each.
import { Database, type Statement } from 'bun:sqlite'
import { copyFileSync, existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { assert } from '../lib/assert.ts'
import { eventGroupsOf, eventsOfGroup, inChainOrder, inSeqOrder, type StoredGroupEvents } from '../wire/event-groups.ts'
import { BLOCK_STORE_FILE, type StoredBlock, type StoredBlockHeader, type StoredEnvelope, type StoredEvent } from '../wire/stored-block.ts'
import { BLOCK_PRODUCER_SIGNER } from '../wire/views.ts'

// The row shapes are declared beside the wire views (the hot feed shares them); the store's users import them from here.
export type { StoredBlock, StoredBlockHeader, StoredEnvelope, StoredEvent } from '../wire/stored-block.ts'

/**
 * Copies the block store of dataDir, which nothing writes meanwhile, to toDir: its file and its
 * WAL (for the history index built over a copy: benchmarks and tests).
 */
export function copyBlockStoreFiles(dataDir: string, toDir: string): void {
  for (const suffix of ['', '-wal']) {
    const from = join(dataDir, BLOCK_STORE_FILE + suffix)
    if (existsSync(from)) copyFileSync(from, join(toDir, BLOCK_STORE_FILE + suffix))
  }
}

/** An Ops event with its block time and the signer of its envelope (BLOCK_PRODUCER_SIGNER for block-level events). */
export interface AuditEventRow extends StoredEvent {
  readonly timestampMs: number
  readonly signer: string
}

/** Filters of auditEvents: a height window, an inclusive block-time window, a signer, a page. */
export interface AuditQuery {
  readonly fromHeight: number
  readonly toHeight: number
  readonly startMs: number
  readonly endMs: number
  readonly signer: string | null
  readonly offset: number
  readonly limit: number
}

/**
 * The envelopes table's columns. No index on tx_hash: a random key, whose index cost a page write
 * per envelope once it outgrew SQLite's cache (a 2,000-envelope block's commit 15 ms without it,
 * 60 ms with it at 600,000 envelopes and 98 ms at 3M: scripts/bench/block-store.ts). getTx finds a
 * hash through the history index's, and here scans only the blocks that index has not reached
 * (envelopeInBlocksAfter). A store made with that index is rebuilt without it when opened
 * (dropLegacyTxIndex).
 */
const ENVELOPES_COLUMNS = `
  height INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, tx_hash TEXT NOT NULL, signer TEXT NOT NULL,
  nonce INTEGER NOT NULL, action_kind TEXT NOT NULL, market_id INTEGER, action TEXT NOT NULL, signature TEXT NOT NULL,
  status TEXT NOT NULL, reason TEXT, PRIMARY KEY (height, envelope_idx)`

/** An Ops event as a row of audit_events. */
const AUDIT_EVENT_COLUMNS = `
  height INTEGER NOT NULL, seq INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, kind TEXT NOT NULL, sub_kind TEXT NOT NULL,
  market_id INTEGER, account TEXT, body TEXT NOT NULL, PRIMARY KEY (height, seq)`

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS blocks (
  height INTEGER PRIMARY KEY, parent TEXT NOT NULL, digest TEXT NOT NULL UNIQUE, timestamp_ms INTEGER NOT NULL,
  envelope_count INTEGER NOT NULL, event_count INTEGER NOT NULL, state_root TEXT NOT NULL);
-- No index on tx_hash (see ENVELOPES_COLUMNS).
CREATE TABLE IF NOT EXISTS envelopes (${ENVELOPES_COLUMNS});
-- A block's events, one row per envelope that raised any (wire/event-groups.ts); the block's own
-- events under its envelope count.
CREATE TABLE IF NOT EXISTS event_groups (
  height INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
  fills INTEGER NOT NULL, events TEXT NOT NULL, PRIMARY KEY (height, envelope_idx));
-- The admin audit log's Ops events (market, lifecycle, role changes: a few per day), also a row each
-- here so its filters and pages are one query.
CREATE TABLE IF NOT EXISTS audit_events (${AUDIT_EVENT_COLUMNS}) WITHOUT ROWID;
`

/** Headers read per query while replaying, so memory stays bounded on long chains. */
export const REPLAY_BATCH_BLOCKS = 2_000

/**
 * An envelope as replay reads it, positionally: tx hash, signer, nonce, action kind, action JSON,
 * status. Only what applyBlock and the digest check need (not the signature, reason or market),
 * as an array rather than an object with named keys: reading the rows was a quarter of a replay's
 * time, and half of that went to columns and keys replay does not use (scripts/bench/replay.ts).
 */
export type ReplayEnvelope = readonly [
  txHash: string,
  signer: string,
  nonce: number,
  actionKind: string,
  actionJson: string,
  status: StoredEnvelope['status'],
]

/** How long a statement waits for a lock another connection holds before it fails. */
const BUSY_TIMEOUT_MS = 5_000

/**
 * The page size of a new store, 16 KiB instead of SQLite's 4 KiB, with the two tables of large rows
 * (envelopes, whose action is 4-5 KB for a 50-order batch, and event_groups, about 20 KB for its
 * 100 events) as rowid tables rather than WITHOUT ROWID: a WITHOUT ROWID table is a B-tree of keys,
 * which keeps at most about a quarter of a page of a row on the page and chains the rest through
 * overflow pages, while a rowid table keeps a row up to a whole page. A block of the batch load
 * (350 envelopes, 35,000 events) committed in 44-50 ms of CPU before and 30-37 after, and a block
 * of 2,000 single orders in 15 against 11-12 (scripts/bench/block-store.ts). A store made
 * before this keeps its 4 KiB pages and its tables (SQLite changes a page size only by rewriting
 * the file): it works as before, at the old speed.
 */
const PAGE_SIZE_BYTES = 16_384

export class BlockStore {
  private readonly db: Database
  /** Every statement made with prepare(), for close. */
  private readonly prepared: Statement[] = []
  private readonly insertBlock: Statement
  private readonly insertEnvelope: Statement
  private readonly insertEventGroup: Statement
  private readonly insertAuditEvent: Statement
  private readonly commitTx: (block: StoredBlock) => void
  private readonly commitManyTx: (blocks: readonly StoredBlock[]) => void
  private readonly replayEnvelopes: Statement
  /** Whether opening this store dropped the tx-hash index of an older store (dropLegacyTxIndex). */
  rebuiltWithoutTxIndex = false
  /** Whether opening this store moved an older store's event rows into groups (groupLegacyEvents). */
  groupedLegacyEvents = false

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true })
    this.db = new Database(join(dataDir, BLOCK_STORE_FILE), { create: true, strict: true })
    // Other connections open this file too (the history index attaches it; an operator's sqlite3
    // may read it), and SQLite answers a lock one of them holds for a moment with SQLITE_BUSY at
    // once unless told to wait: a block's commit would fail and halt the node. Seen: the commit
    // after the history index stopped, in 2 of 15 runs of src/api/methods/get-tx.test.ts (0 of 20 with it).
    // First of all, since setting the journal mode below takes a lock too: a node started while
    // the last connection of an earlier one closed (and checkpointed) failed there with SQLITE_BUSY.
    this.db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    // Takes effect only on a new file (before WAL mode and the first table): see PAGE_SIZE_BYTES.
    this.db.exec(`PRAGMA page_size = ${PAGE_SIZE_BYTES}`)
    this.db.exec('PRAGMA journal_mode = WAL')
    // FULL: the WAL is fsynced at every commit, so a committed block survives a power loss.
    this.db.exec('PRAGMA synchronous = FULL')
    this.db.exec(SCHEMA)
    this.dropLegacyTxIndex()
    this.insertBlock = this.prepare(
      'INSERT INTO blocks VALUES ($height, $parent, $digest, $timestampMs, $envelopeCount, $eventCount, $stateRoot)',
    )
    this.insertEnvelope = this.prepare(
      'INSERT INTO envelopes VALUES ($height, $envelopeIdx, $txHash, $signer, $nonce, $actionKind, $marketId, $actionJson, $signatureJson, $status, $reasonJson)',
    )
    this.insertEventGroup = this.prepare('INSERT INTO event_groups VALUES ($height, $envelopeIdx, $firstSeq, $lastSeq, $fills, $events)')
    this.insertAuditEvent = this.prepare(
      'INSERT INTO audit_events VALUES ($height, $seq, $envelopeIdx, $kind, $subKind, $marketId, $account, $bodyJson)',
    )
    this.replayEnvelopes = this.prepare(
      'SELECT tx_hash, signer, nonce, action_kind, action, status FROM envelopes WHERE height = ? ORDER BY envelope_idx',
    )
    this.commitTx = this.db.transaction((block: StoredBlock) => {
      this.insertBlock.run(block.header as never)
      this.insertBody(block.envelopes, block.events)
    })
    this.commitManyTx = this.db.transaction((blocks: readonly StoredBlock[]) => {
      for (const block of blocks) this.commitTx(block)
    })
    this.groupLegacyEvents()
  }

  /**
   * A store created before 2026-11-26 has `tx_hash ... UNIQUE` in its envelopes table, an index
   * SQLite can only drop by copying the table (ENVELOPES_COLUMNS says why it goes): done once, in
   * one transaction, so a failure leaves the store as it was.
   */
  private dropLegacyTxIndex(): void {
    const table = this.db.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'envelopes'").get()
    if (table === null || !/tx_hash TEXT NOT NULL UNIQUE/i.test(table.sql)) return
    this.db.transaction(() => {
      this.db.exec(`CREATE TABLE envelopes_rebuilt (${ENVELOPES_COLUMNS})`)
      this.db.exec('INSERT INTO envelopes_rebuilt SELECT * FROM envelopes')
      this.db.exec('DROP TABLE envelopes')
      this.db.exec('ALTER TABLE envelopes_rebuilt RENAME TO envelopes')
    })()
    this.rebuiltWithoutTxIndex = true
  }

  /**
   * A store created before 2026-11-27 has an events table, a row per event: its rows are moved into
   * event groups and audit rows, in one transaction, once, when it is opened (about 2.5 s per
   * million events: scripts/bench/block-store.ts --upgrade).
   */
  private groupLegacyEvents(): void {
    const table = this.db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'events'").get()
    if (table === null) return
    this.db.transaction(() => {
      // Rows written before block-level events carried the envelope count hold NULL there.
      const rows = this.db
        .query<StoredEvent, []>(
          'SELECT height, seq, COALESCE(envelope_idx, (SELECT envelope_count FROM blocks b WHERE b.height = events.height)) AS envelopeIdx, kind, sub_kind AS subKind, market_id AS marketId, account, body AS bodyJson FROM events ORDER BY height, seq',
        )
        .iterate()
      let block: StoredEvent[] = []
      const flush = () => {
        for (const g of eventGroupsOf(block)) this.insertEventGroup.run(g as never)
        block = []
      }
      for (const e of rows) {
        if (block.length > 0 && block[0]!.height !== e.height) flush()
        block.push(e)
        if (e.kind === 'Ops') this.insertAuditEvent.run(e as never)
      }
      flush()
      this.db.exec('DROP TABLE events')
    })()
    this.groupedLegacyEvents = true
  }

  /** Reads a meta value (genesis document, genesis root). */
  getMeta(key: string): string | undefined {
    const row = this.db.query<{ value: string }, [string]>('SELECT value FROM meta WHERE key = ?').get(key)
    return row?.value
  }

  setMeta(key: string, value: string): void {
    this.db.query('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value)
  }

  /** Commits one block atomically and durably. */
  commitBlock(block: StoredBlock): void {
    assert(block.header.envelopeCount === block.envelopes.length, 'envelope count mismatch')
    assert(block.header.eventCount === block.events.length, 'event count mismatch')
    this.commitTx(block)
  }

  /**
   * commitBlock in two steps, for a block whose header is not known yet when its rows are (the
   * node's state root is computed on another thread meanwhile): this opens the transaction and
   * inserts the envelopes and events; finishBlock adds the header and commits, abortBlock rolls it
   * back. Nothing else may write to the store in between, and what reads it through this connection
   * sees the open block's rows: the node inserts a block's first envelopes ahead of its tick
   * (continueBlock adds the rest), and its readers wait for the tick (ChainNode.whenSettled).
   */
  beginBlock(envelopes: readonly StoredEnvelope[], events: readonly StoredEvent[]): void {
    assert(!this.db.inTransaction, 'a block is being written already')
    this.db.exec('BEGIN')
    this.continueBlock(envelopes, events)
  }

  /** More rows of the block beginBlock started (the node inserts a block's first envelopes ahead of its tick, the rest at it). */
  continueBlock(envelopes: readonly StoredEnvelope[], events: readonly StoredEvent[]): void {
    assert(this.db.inTransaction, 'continueBlock without beginBlock')
    try {
      this.insertBody(envelopes, events)
    } catch (err) {
      this.abortBlock()
      throw err
    }
  }

  /** Ends what beginBlock started: the header is inserted and the block committed (durable on return). */
  finishBlock(block: StoredBlock): void {
    assert(this.db.inTransaction, 'finishBlock without beginBlock')
    try {
      assert(block.header.envelopeCount === block.envelopes.length, 'envelope count mismatch')
      assert(block.header.eventCount === block.events.length, 'event count mismatch')
      this.insertBlock.run(block.header as never)
      this.db.exec('COMMIT')
    } catch (err) {
      this.abortBlock()
      throw err
    }
  }

  /** Rolls back a block beginBlock started and finishBlock did not commit (nothing when none is open). */
  abortBlock(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK')
  }

  /** A block's envelope and event rows, inside the caller's transaction. */
  private insertBody(envelopes: readonly StoredEnvelope[], events: readonly StoredEvent[]): void {
    for (const e of envelopes) this.insertEnvelope.run(e as never)
    for (const g of eventGroupsOf(events)) this.insertEventGroup.run(g as never)
    for (const e of events) if (e.kind === 'Ops') this.insertAuditEvent.run(e as never)
  }

  /**
   * Commits consecutive blocks in one transaction (a new node storing a peer's block rows,
   * replication/start-from-peer.ts): one fsync for the lot instead of one per block.
   */
  commitBlocks(blocks: readonly StoredBlock[]): void {
    for (const block of blocks) {
      assert(block.header.envelopeCount === block.envelopes.length, 'envelope count mismatch')
      assert(block.header.eventCount === block.events.length, 'event count mismatch')
    }
    this.commitManyTx(blocks)
  }

  tipHeight(): number {
    const row = this.db.query<{ h: number | null }, []>('SELECT MAX(height) AS h FROM blocks').get()
    return row?.h ?? 0
  }

  header(height: number): StoredBlockHeader | undefined {
    return this.db.query<StoredBlockHeader, [number]>(`${HEADER_SELECT} WHERE height = ?`).get(height) ?? undefined
  }

  headerByDigest(digest: string): StoredBlockHeader | undefined {
    return this.db.query<StoredBlockHeader, [string]>(`${HEADER_SELECT} WHERE digest = ?`).get(digest) ?? undefined
  }

  /** Headers in [from, to] ascending, at most limit. */
  headers(from: number, to: number, limit: number): StoredBlockHeader[] {
    return this.db
      .query<StoredBlockHeader, [number, number, number]>(`${HEADER_SELECT} WHERE height BETWEEN ? AND ? ORDER BY height LIMIT ?`)
      .all(from, to, limit)
  }

  /**
   * The envelopes of one block as replay reads them (ReplayEnvelope). Replay reads them a block at a
   * time: a batch of thousands of blocks of thousands of envelopes, all alive until its last block
   * replayed, made the collector mark millions of rows over and over (scripts/bench/replay.ts).
   */
  replayEnvelopesOf(height: number): ReplayEnvelope[] {
    return this.replayEnvelopes.values(height) as unknown as ReplayEnvelope[]
  }

  envelopesOf(height: number): StoredEnvelope[] {
    return this.db.query<StoredEnvelope, [number]>(`${ENVELOPE_SELECT} WHERE height = ? ORDER BY envelope_idx`).all(height)
  }

  /** Envelopes of blocks in [from, to], ascending by (height, idx). */
  envelopesBetween(from: number, to: number): StoredEnvelope[] {
    return this.db
      .query<StoredEnvelope, [number, number]>(`${ENVELOPE_SELECT} WHERE height BETWEEN ? AND ? ORDER BY height, envelope_idx`)
      .all(from, to)
  }

  /** Events of blocks in [from, to], ascending by (height, seq). */
  eventsBetween(from: number, to: number): StoredEvent[] {
    const groups = this.db
      .query<GroupRead, [number, number]>(`${GROUP_SELECT} WHERE height BETWEEN ? AND ? ORDER BY height, envelope_idx`)
      .iterate(from, to)
    return [...inChainOrder(eventsOfGroups(groups))]
  }

  /**
   * The envelope with this tx hash in a block above afterHeight. Without an index on the hash it
   * reads every envelope of those blocks (getTx asks only for the blocks the history index has not
   * reached, at most TX_SCAN_BLOCKS_MAX).
   */
  envelopeInBlocksAfter(txHash: string, afterHeight: number): StoredEnvelope | undefined {
    return (
      this.db.query<StoredEnvelope, [number, string]>(`${ENVELOPE_SELECT} WHERE height > ? AND tx_hash = ?`).get(afterHeight, txHash) ??
      undefined
    )
  }

  envelopeAt(height: number, envelopeIdx: number): StoredEnvelope | undefined {
    return (
      this.db
        .query<StoredEnvelope, [number, number]>(`${ENVELOPE_SELECT} WHERE height = ? AND envelope_idx = ?`)
        .get(height, envelopeIdx) ?? undefined
    )
  }

  eventsOfEnvelope(height: number, envelopeIdx: number): StoredEvent[] {
    const g = this.db.query<GroupRead, [number, number]>(`${GROUP_SELECT} WHERE height = ? AND envelope_idx = ?`).get(height, envelopeIdx)
    return g === null ? [] : eventsOfGroup(height, envelopeIdx, g.events)
  }

  /** Events offset .. offset + limit - 1 (by seq) of one block: only the groups that hold some are read. */
  eventsOf(height: number, offset: number, limit: number): StoredEvent[] {
    const end = offset + limit
    const events: StoredEvent[] = []
    for (const g of this.db
      .query<GroupRead, [number, number, number]>(`${GROUP_SELECT} WHERE height = ? AND last_seq >= ? AND first_seq < ?`)
      .iterate(height, offset, end)) {
      for (const e of eventsOfGroup(g.height, g.envelopeIdx, g.events)) if (e.seq >= offset && e.seq < end) events.push(e)
    }
    return inSeqOrder(events)
  }

  /**
   * Filled events of the blocks in [from, to], newest first, at most limit, each with its block time:
   * what the hot feed's trade rings are seeded from at start-up.
   */
  filledEventsBetween(from: number, to: number, limit: number): TimedEvent[] {
    const out: TimedEvent[] = []
    for (const e of this.filledEventsNewestFirst(from, to)) {
      if (out.length >= limit) break
      out.push(e)
    }
    return out
  }

  /**
   * The same Filled events, newest first, read block by block from the groups that hold fills: the
   * trade rings take the newest of each market from it and stop reading once every market's ring is full.
   */
  *filledEventsNewestFirst(from: number, to: number): IterableIterator<TimedEvent> {
    const groups = this.db
      .query<GroupRead & { timestampMs: number }, [number, number]>(
        `SELECT g.height, g.envelope_idx AS envelopeIdx, g.events, b.timestamp_ms AS timestampMs
         FROM event_groups g JOIN blocks b ON b.height = g.height
         WHERE g.height BETWEEN ? AND ? AND g.fills > 0
         ORDER BY g.height DESC, g.envelope_idx DESC`,
      )
      .iterate(from, to)
    const fills = function* () {
      for (const g of groups)
        for (const e of eventsOfGroup(g.height, g.envelopeIdx, g.events))
          if (e.subKind === 'Filled') yield { ...e, timestampMs: g.timestampMs }
    }
    yield* inChainOrder(fills(), true)
  }

  /**
   * Ops events (the admin audit log, docs/rpc.md#getadminauditlog) matching q, newest first, through
   * the ops_events index. An event no envelope carries is signed by BLOCK_PRODUCER_SIGNER, and a
   * signer filter of that address selects those.
   */
  auditEvents(q: AuditQuery): AuditEventRow[] {
    return this.db
      .query<AuditEventRow, [string, number, number, number, number, string | null, string, string | null, number, number]>(
        `SELECT e.height, e.seq, e.envelope_idx AS envelopeIdx, e.kind, e.sub_kind AS subKind, e.market_id AS marketId, e.account, e.body AS bodyJson,
        b.timestamp_ms AS timestampMs, COALESCE(v.signer, ?) AS signer
       FROM audit_events e JOIN blocks b ON b.height = e.height
       LEFT JOIN envelopes v ON v.height = e.height AND v.envelope_idx = e.envelope_idx
       WHERE e.height BETWEEN ? AND ? AND b.timestamp_ms BETWEEN ? AND ? AND (? IS NULL OR COALESCE(v.signer, ?) = ?)
       ORDER BY e.height DESC, e.seq DESC LIMIT ? OFFSET ?`,
      )
      .all(
        BLOCK_PRODUCER_SIGNER,
        q.fromHeight,
        q.toHeight,
        q.startMs,
        q.endMs,
        q.signer,
        BLOCK_PRODUCER_SIGNER,
        q.signer,
        q.limit,
        q.offset,
      )
  }

  /**
   * Closes the file now. bun:sqlite's close leaves a connection with unfinalized statements open
   * until the collector finalizes them (sqlite3_close_v2); its close then checkpoints the WAL under
   * an exclusive lock, at a moment nobody chose, against whatever opened the file since (a node
   * started on this directory by the process that stopped this one).
   */
  close(): void {
    for (const statement of this.prepared) statement.finalize()
    this.db.close()
  }

  /** A statement kept for the store's life; close finalizes it. */
  private prepare(sql: string): Statement {
    const statement = this.db.prepare(sql)
    this.prepared.push(statement)
    return statement
  }
}

const HEADER_SELECT =
  'SELECT height, parent, digest, timestamp_ms AS timestampMs, envelope_count AS envelopeCount, event_count AS eventCount, state_root AS stateRoot FROM blocks'
const ENVELOPE_SELECT =
  'SELECT height, envelope_idx AS envelopeIdx, tx_hash AS txHash, signer, nonce, action_kind AS actionKind, market_id AS marketId, action AS actionJson, signature AS signatureJson, status, reason AS reasonJson FROM envelopes'
/** An event group as the reads take it. */
interface GroupRead {
  readonly height: number
  readonly envelopeIdx: number
  readonly events: StoredGroupEvents
}
const GROUP_SELECT = 'SELECT height, envelope_idx AS envelopeIdx, events FROM event_groups'

function* eventsOfGroups(groups: Iterable<GroupRead>): IterableIterator<StoredEvent> {
  for (const g of groups) yield* eventsOfGroup(g.height, g.envelopeIdx, g.events)
}

/** An event with its block's time. */
export type TimedEvent = StoredEvent & { readonly timestampMs: number }
