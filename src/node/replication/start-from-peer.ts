// A new node of a replicated chain that starts from a peer's newest state snapshot instead of
// genesis (`--snapshot-from URL`, docs/replication.md#starting-from-a-peers-snapshot). The peer is
// not trusted; the chain's stream is:
// - the snapshot at height H must have the state root and digest of the stream's block H, and its
//   state must recompute to that root;
// - every block row 1..H the peer sends (needed because the history index is built from every
//   block, with the events, markets and reasons the stream does not carry) must have the header
//   and the envelopes (as signed, with their statuses) of the stream's record of its height, and
//   the records must chain from the genesis digest.
// What the peer could still make up is what the stream does not commit to: the events (the digest
// commits to their count only), markets and reject reasons of blocks 1..H. `perpd replay --verify`
// does not check those either; starting from genesis recomputes them.
//
// The rows go to the block store as replay and followers store theirs; the snapshot file goes to
// the snapshot directory, where the recovery restores it as after any restart (checking it again).
// The data directory records the start in its meta `peer_start` until it is complete: a node whose
// start was refused or cut short refuses to run on that directory (empty it and start again).

import type { LogLine } from '../../lib/log.ts'
import { ExportedBlocksPage } from '../../wire/results/replication.ts'
import { compileValidator } from '../../wire/validate.ts'
import { blockDigest } from '../block-digest.ts'
import type { BlockStore, StoredBlock } from '../block-store.ts'
import type { ChainNode } from '../chain-node.ts'
import { codeFingerprint } from '../code-fingerprint.ts'
import { decodeSnapshotBody, parseSnapshotFile, SnapshotStore } from '../snapshots.ts'
import type { BlockRecord } from './block-record.ts'
import type { ChainLog } from './chain-log.ts'

/** The meta key of a start from a peer: {peer, height, finished}. */
const PEER_START_KEY = 'peer_start'
/** How long one request to the peer may take. */
const PEER_REQUEST_TIMEOUT_MS = 120_000
/** Stream records read at once. */
const RECORDS_AT_ONCE = 100
/** A progress line at most this often. */
const PROGRESS_EVERY_MS = 5_000

/** A start from a peer that was refused: what the peer sent does not match the stream, or cannot be used. */
export class PeerStartRefused extends Error {}

interface PeerStartMeta {
  readonly peer: string
  readonly height: number
  readonly finished: boolean
}

const pageValidator = compileValidator(ExportedBlocksPage)

/** Throws when the data directory holds a start from a peer that did not finish. */
export function refuseUnfinishedPeerStart(store: BlockStore): void {
  const stored = store.getMeta(PEER_START_KEY)
  if (stored === undefined) return
  const meta = JSON.parse(stored) as PeerStartMeta
  if (!meta.finished)
    throw new PeerStartRefused(
      `the data directory holds an unfinished start from the snapshot of ${meta.peer} (height ${meta.height}): empty it and start again`,
    )
}

/**
 * Fills the empty block store of node (recovery not run yet) with peerUrl's block rows up to its
 * newest snapshot, and installs that snapshot, everything checked against the chain's stream; a
 * data directory that holds blocks already is left alone. Throws a PeerStartRefused naming the
 * height of what does not match.
 */
export async function startFromPeer(node: ChainNode, chainLog: ChainLog, peerUrl: string, log: LogLine): Promise<void> {
  const store = node.store
  const tip = store.tipHeight()
  if (tip > 0) {
    log(`the data directory holds blocks up to ${tip}: --snapshot-from is not used`)
    return
  }
  const peer = peerUrl.replace(/\/$/, '')
  const started = performance.now()
  const file = await fetchSnapshot(peer)
  let parsed: ReturnType<typeof parseSnapshotFile>
  try {
    parsed = parseSnapshotFile(file)
  } catch (err) {
    throw new PeerStartRefused(`the snapshot of ${peer} is refused: ${(err as Error).message}`)
  }
  const { header, body } = parsed
  const height = header.height
  if (!Number.isSafeInteger(height) || height < 1) throw new PeerStartRefused(`the snapshot of ${peer} names height ${height}`)
  if (header.genesisDigest !== node.genesisDigest)
    throw new PeerStartRefused(
      `the snapshot of ${peer} was taken on the genesis ${header.genesisDigest}, this chain's is ${node.genesisDigest}`,
    )
  const streamTip = await chainLog.tipHeight()
  if (height > streamTip)
    throw new PeerStartRefused(`the snapshot of ${peer} is at height ${height}; the stream holds blocks up to ${streamTip} only`)
  const inStream = await streamRecord(chainLog, height)
  if (header.stateRoot !== inStream.header.stateRoot)
    throw new PeerStartRefused(
      `the snapshot of ${peer} at height ${height} has state_root ${header.stateRoot}, the stream's block ${height} ${inStream.header.stateRoot}`,
    )
  if (header.digest !== inStream.header.digest)
    throw new PeerStartRefused(
      `the snapshot of ${peer} at height ${height} names digest ${header.digest}, the stream's block ${height} ${inStream.header.digest}`,
    )
  try {
    decodeSnapshotBody(header, body)
  } catch (err) {
    throw new PeerStartRefused(`the snapshot of ${peer} at height ${height} is refused: ${(err as Error).message}`)
  }
  log(`starting from the snapshot of ${peer} at height ${height} (state_root ${header.stateRoot}, as in the stream)`)

  const meta = (finished: boolean) => JSON.stringify({ peer, height, finished } satisfies PeerStartMeta)
  store.setMeta(PEER_START_KEY, meta(false))
  let parent = node.genesisDigest
  let progressAt = performance.now()
  for (let from = 1; from <= height; ) {
    const blocks = await fetchBlocks(peer, from, height)
    const records = await streamRecords(chainLog, from, from + blocks.length - 1)
    for (let i = 0; i < blocks.length; i++) {
      checkRow(blocks[i]!, records[i]!, from + i, parent)
      parent = records[i]!.header.digest
    }
    store.commitBlocks(blocks)
    from += blocks.length
    if (performance.now() - progressAt > PROGRESS_EVERY_MS) {
      progressAt = performance.now()
      log(`stored the block rows of ${peer} up to height ${from - 1} of ${height}, each checked against the stream`)
    }
  }
  if (header.codeFingerprint === codeFingerprint()) new SnapshotStore(node.dataDir, codeFingerprint(), log).install(height, file)
  else
    log(
      `the snapshot of ${peer} was written by another version of the code: this node replays blocks 1 to ${height} instead (every root checked)`,
      'warn',
    )
  store.setMeta(PEER_START_KEY, meta(true))
  log(
    `stored blocks 1 to ${height} of ${peer} in ${Math.round(performance.now() - started)} ms; their headers and envelopes are the stream's`,
  )
}

async function peerGet(url: string): Promise<Response> {
  try {
    return await fetch(url, { signal: AbortSignal.timeout(PEER_REQUEST_TIMEOUT_MS) })
  } catch (err) {
    throw new PeerStartRefused(`${url} did not answer: ${(err as Error).message}`)
  }
}

async function fetchSnapshot(peer: string): Promise<Uint8Array> {
  const url = `${peer}/api/v1/replication/snapshot`
  const res = await peerGet(url)
  if (res.status !== 200) throw new PeerStartRefused(`${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`)
  return new Uint8Array(await res.arrayBuffer())
}

/** The peer's block rows from `from` (one page, at least one block, consecutive), checked against their schema. */
async function fetchBlocks(peer: string, from: number, to: number): Promise<StoredBlock[]> {
  const url = `${peer}/api/v1/replication/blocks?from=${from}&to=${to}`
  const res = await peerGet(url)
  if (res.status !== 200) throw new PeerStartRefused(`${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`)
  let page: unknown
  try {
    page = await res.json()
  } catch (err) {
    throw new PeerStartRefused(`${url} answered no JSON: ${(err as Error).message}`)
  }
  const v = pageValidator.validate(page, 'page')
  if (!v.ok) throw new PeerStartRefused(`the block rows of ${peer} from height ${from} are refused: ${v.field}: ${v.message}`)
  const blocks = (page as { blocks: StoredBlock[] }).blocks
  if (blocks.length === 0) throw new PeerStartRefused(`${peer} sent no block rows from height ${from}`)
  if (from + blocks.length - 1 > to) throw new PeerStartRefused(`${peer} sent block rows beyond height ${to}`)
  return blocks
}

/** The stream's record of the block at height (a PeerStartRefused when the stream does not hold it). */
async function streamRecord(chainLog: ChainLog, height: number): Promise<BlockRecord> {
  const record = await chainLog.block(height)
  if (record === undefined) throw new PeerStartRefused(`the stream holds no record of block ${height}`)
  return record
}

/** The stream's records of the blocks from..to, RECORDS_AT_ONCE requests at a time. */
async function streamRecords(chainLog: ChainLog, from: number, to: number): Promise<BlockRecord[]> {
  const records: BlockRecord[] = []
  for (let at = from; at <= to; at += RECORDS_AT_ONCE) {
    const heights = Array.from({ length: Math.min(RECORDS_AT_ONCE, to - at + 1) }, (_, i) => at + i)
    records.push(...(await Promise.all(heights.map((h) => streamRecord(chainLog, h)))))
  }
  return records
}

/**
 * Checks a peer's row of the block at height against the stream's record of it: the same header
 * and envelopes as signed with their statuses, the record chained to `parent` by its digest, and
 * rows consistent with their header (their heights, places and counts).
 */
function checkRow(row: StoredBlock, record: BlockRecord, height: number, parent: string): void {
  const refuse = (what: string) => new PeerStartRefused(`block ${height}: the row of the peer ${what}`)
  const r = record.header
  if (r.parent !== parent) throw new PeerStartRefused(`block ${height}: the stream's record names parent ${r.parent}, not ${parent}`)
  const digest = blockDigest({
    height,
    parent: r.parent,
    timestampMs: r.timestampMs,
    stateRoot: r.stateRoot,
    envelopes: record.envelopes.map((e) => [e.txHash, e.status] as const),
    eventCount: r.eventCount,
  })
  if (digest !== r.digest) throw new PeerStartRefused(`block ${height}: the stream's record has digest ${r.digest}, its content ${digest}`)
  for (const key of Object.keys(r) as (keyof typeof r)[])
    if (row.header[key] !== r[key]) throw refuse(`has ${key} ${row.header[key]}, the stream's ${r[key]}`)
  if (row.envelopes.length !== record.envelopes.length)
    throw refuse(`holds ${row.envelopes.length} envelopes, the stream's ${record.envelopes.length}`)
  for (let i = 0; i < row.envelopes.length; i++) {
    const mine = row.envelopes[i]!
    const theirs = record.envelopes[i]!
    if (mine.height !== height || mine.envelopeIdx !== i) throw refuse(`holds envelope ${mine.height}/${mine.envelopeIdx} at place ${i}`)
    for (const key of Object.keys(theirs) as (keyof typeof theirs)[])
      if (mine[key] !== theirs[key]) throw refuse(`has envelope ${i} with another ${key} than the stream's`)
    if ((mine.status === 'kept-reject') !== (mine.reasonJson !== null))
      throw refuse(`has envelope ${i} ${mine.status} with${mine.reasonJson === null ? 'out' : ''} a reason`)
  }
  if (row.events.length !== r.eventCount) throw refuse(`holds ${row.events.length} events, the stream's header ${r.eventCount}`)
  for (let j = 0; j < row.events.length; j++) {
    const e = row.events[j]!
    if (e.height !== height || e.seq !== j || e.envelopeIdx > r.envelopeCount)
      throw refuse(`holds event ${e.height}/${e.seq} at place ${j}`)
  }
}
