// State snapshots in the data directory, so a restart loads the newest one and replays only the
// blocks after it (ARCHITECTURE: restart = newest snapshot + the block tail, checking every root).
//
// A snapshot is a local cache, never consensus: the block store stays the source of truth. One is
// used only when everything agrees: its file checksum, the genesis it was taken on, the stored
// block at its height (state root and digest), and the root recomputed from every leaf of the
// decoded state, and the code that wrote it (code-fingerprint.ts: after an upgrade the blocks are
// replayed instead). Anything else (a damaged, foreign or stale file) is skipped with a log line
// and the next older one is tried, down to genesis.
//
// File: `snapshots/state-<height>.snap` = MAGIC ‖ u32le(header length) ‖ header JSON ‖ body, where
// body = encodeState(state) and the header names its height, root, digest, genesis and the body's
// SHA-256. Written to a temporary file, fsynced and renamed, so a crash never leaves half a file
// under a snapshot's name.
import { createHash } from 'node:crypto'
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { type ChainState, decodeState, encodeState, STATE_CODEC_VERSION } from '../chain/index.ts'
import { bytesToHex } from '../lib/hex.ts'

const MAGIC = new TextEncoder().encode('perpd-snapshot\n')
/** Snapshots kept: the newest, and one older in case the newest turns out unusable. */
export const SNAPSHOTS_KEPT = 2
const FILE_PATTERN = /^state-(\d{12})\.snap$/

export interface SnapshotHeader {
  readonly version: number
  readonly height: number
  readonly stateRoot: string
  /** The digest of the block at height (ChainState.lastDigest after it). */
  readonly digest: string
  readonly genesisDigest: string
  /** The code that wrote it (code-fingerprint.ts). */
  readonly codeFingerprint: string
  readonly bodySha256: string
  readonly bodyBytes: number
}

/** What the block store says of a height, for checking a snapshot against it. */
export interface StoredTip {
  readonly stateRoot: string
  readonly digest: string
}

export interface RestoredState {
  readonly state: ChainState
  readonly header: SnapshotHeader
  readonly file: string
}

const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

export class SnapshotStore {
  readonly dir: string

  /** fingerprint: the running code's (code-fingerprint.ts); only snapshots it wrote are restored. */
  constructor(
    dataDir: string,
    private readonly fingerprint: string,
    private readonly log: (line: string) => void,
  ) {
    this.dir = join(dataDir, 'snapshots')
  }

  /** Snapshot files, newest first, with their heights (from the names; the headers are checked on load). */
  list(): { readonly height: number; readonly file: string }[] {
    return snapshotFiles(this.dir)
  }

  /** Writes a snapshot of state (just committed, its root in stateRoot) and drops the oldest beyond SNAPSHOTS_KEPT. */
  write(state: ChainState, stateRoot: string, genesisDigest: string): SnapshotHeader {
    const body = encodeState(state)
    const header: SnapshotHeader = {
      version: STATE_CODEC_VERSION,
      height: state.height,
      stateRoot,
      digest: state.lastDigest,
      genesisDigest,
      codeFingerprint: this.fingerprint,
      bodySha256: sha256Hex(body),
      bodyBytes: body.length,
    }
    const headerBytes = new TextEncoder().encode(JSON.stringify(header))
    const length = new Uint8Array(4)
    new DataView(length.buffer).setUint32(0, headerBytes.length, true)
    this.writeFile(state.height, [MAGIC, length, headerBytes, body])
    return header
  }

  /**
   * Keeps the bytes of a snapshot file taken elsewhere (a peer's, checked against the chain by the
   * caller: replication/start-from-peer.ts) as this node's snapshot at height; restore() checks it again.
   */
  install(height: number, file: Uint8Array): void {
    this.writeFile(height, [file])
  }

  /** Writes a snapshot file atomically (temporary file, fsync, rename, directory fsync) and drops the oldest beyond SNAPSHOTS_KEPT. */
  private writeFile(height: number, parts: readonly Uint8Array[]): void {
    mkdirSync(this.dir, { recursive: true })
    // What a crash in the middle of an earlier write left.
    for (const name of readdirSync(this.dir)) if (name.endsWith('.snap.tmp')) rmSync(join(this.dir, name), { force: true })
    const file = join(this.dir, `state-${String(height).padStart(12, '0')}.snap`)
    const tmp = `${file}.tmp`
    const fd = openSync(tmp, 'w')
    try {
      for (const part of parts) {
        for (let at = 0; at < part.length; ) at += writeSync(fd, part, at, part.length - at)
      }
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, file)
    // The rename is durable once the directory is.
    const dirFd = openSync(this.dir, 'r')
    try {
      fsyncSync(dirFd)
    } finally {
      closeSync(dirFd)
    }
    for (const old of this.list().slice(SNAPSHOTS_KEPT)) rmSync(old.file, { force: true })
  }

  /**
   * The newest snapshot at or below tipHeight that agrees with the chain (see the file comment), decoded,
   * or undefined. storedAt reads the block store's root and digest at a height.
   */
  restore(tipHeight: number, genesisDigest: string, storedAt: (height: number) => StoredTip | undefined): RestoredState | undefined {
    for (const { height, file } of this.list()) {
      if (height > tipHeight) {
        this.log(`snapshot ${file} skipped: height ${height} is above the stored tip ${tipHeight}`)
        continue
      }
      try {
        const restored = this.load(file, genesisDigest, storedAt)
        if (restored.header.height !== height) throw new Error(`its header says height ${restored.header.height}`)
        return restored
      } catch (err) {
        this.log(`snapshot ${file} skipped: ${(err as Error).message}`)
      }
    }
    return undefined
  }

  private load(file: string, genesisDigest: string, storedAt: (height: number) => StoredTip | undefined): RestoredState {
    const { header, body } = parseSnapshotFile(readFileSync(file))
    if (header.genesisDigest !== genesisDigest) throw new Error('taken on another genesis')
    if (header.codeFingerprint !== this.fingerprint)
      throw new Error('written by another version of the code; the blocks are replayed instead')
    const stored = storedAt(header.height)
    if (stored === undefined) throw new Error(`no stored block at height ${header.height}`)
    if (stored.stateRoot !== header.stateRoot || stored.digest !== header.digest)
      throw new Error(`the stored block ${header.height} has another root or digest`)
    return { state: decodeSnapshotBody(header, body), header, file }
  }
}

/**
 * The snapshot files of a data directory, newest first, with their heights (from the names; the
 * headers are checked on load). Also what a node exports to new nodes of a replicated chain.
 */
export function snapshotFilesOf(dataDir: string): { readonly height: number; readonly file: string }[] {
  return snapshotFiles(join(dataDir, 'snapshots'))
}

function snapshotFiles(dir: string): { readonly height: number; readonly file: string }[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  return names
    .map((name) => ({ name, m: FILE_PATTERN.exec(name) }))
    .filter((x) => x.m !== null)
    .map((x) => ({ height: Number(x.m![1]), file: join(dir, x.name) }))
    .sort((a, b) => b.height - a.height)
}

/** A snapshot file's header (its format version checked) and body, or an Error saying what is wrong. */
export function parseSnapshotFile(bytes: Uint8Array): { readonly header: SnapshotHeader; readonly body: Uint8Array } {
  if (bytes.length < MAGIC.length + 4 || !MAGIC.every((b, i) => bytes[i] === b)) throw new Error('not a snapshot file')
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset + MAGIC.length, 4).getUint32(0, true)
  const bodyStart = MAGIC.length + 4 + headerLength
  if (bodyStart > bytes.length) throw new Error('truncated header')
  let header: SnapshotHeader
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(MAGIC.length + 4, bodyStart))) as SnapshotHeader
  } catch {
    throw new Error('its header is not JSON')
  }
  if (header.version !== STATE_CODEC_VERSION) throw new Error(`format version ${header.version}, this node reads ${STATE_CODEC_VERSION}`)
  return { header, body: bytes.subarray(bodyStart) }
}

/**
 * The state of a snapshot's body, checked against its header: the checksum, the height and digest
 * of the decoded state, and its root recomputed from every leaf. Throws an Error saying which failed.
 */
export function decodeSnapshotBody(header: SnapshotHeader, body: Uint8Array): ChainState {
  if (body.length !== header.bodyBytes || sha256Hex(body) !== header.bodySha256) throw new Error('damaged: checksum mismatch')
  const state = decodeState(body)
  if (state.height !== header.height || state.lastDigest !== header.digest) throw new Error('the decoded state is at another block')
  // Decoding rebuilt the root's accumulator from every leaf of the decoded state: a full recomputation.
  const root = bytesToHex(state.hash.root())
  if (root !== header.stateRoot) throw new Error(`the decoded state has root ${root}`)
  return state
}
