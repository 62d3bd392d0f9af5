// A block store as builds before 2026-11-27 wrote it: a row per event in an `events` table (and,
// before block-level events carried the envelope count, NULL as their envelope_idx). Opening it
// with BlockStore moves the rows into event groups (src/node/block-store.ts groupLegacyEvents).
import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { StoredBlock } from '../../src/node/block-store.ts'

/** The tables every store before 2026-11-27's layout change had, in SQLite's 4 KiB pages. */
const OLDER_BLOCKS_AND_ENVELOPES = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE blocks (
  height INTEGER PRIMARY KEY, parent TEXT NOT NULL, digest TEXT NOT NULL UNIQUE, timestamp_ms INTEGER NOT NULL,
  envelope_count INTEGER NOT NULL, event_count INTEGER NOT NULL, state_root TEXT NOT NULL);
CREATE TABLE envelopes (
  height INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, tx_hash TEXT NOT NULL, signer TEXT NOT NULL,
  nonce INTEGER NOT NULL, action_kind TEXT NOT NULL, market_id INTEGER, action TEXT NOT NULL, signature TEXT NOT NULL,
  status TEXT NOT NULL, reason TEXT, PRIMARY KEY (height, envelope_idx)) WITHOUT ROWID;`

/**
 * The schema of a store with events in groups but from before 16 KiB pages and rowid tables
 * (src/node/block-store.ts PAGE_SIZE_BYTES): what BlockStore must open and keep as it is.
 */
export const WITHOUT_ROWID_GROUPS_SCHEMA = `${OLDER_BLOCKS_AND_ENVELOPES}
CREATE TABLE event_groups (
  height INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
  fills INTEGER NOT NULL, events TEXT NOT NULL, PRIMARY KEY (height, envelope_idx)) WITHOUT ROWID;
CREATE TABLE audit_events (
  height INTEGER NOT NULL, seq INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, kind TEXT NOT NULL, sub_kind TEXT NOT NULL,
  market_id INTEGER, account TEXT, body TEXT NOT NULL, PRIMARY KEY (height, seq)) WITHOUT ROWID;`

const LEGACY_SCHEMA = `${OLDER_BLOCKS_AND_ENVELOPES}
CREATE TABLE events (
  height INTEGER NOT NULL, seq INTEGER NOT NULL, envelope_idx INTEGER, kind TEXT NOT NULL, sub_kind TEXT NOT NULL,
  market_id INTEGER, account TEXT, body TEXT NOT NULL, PRIMARY KEY (height, seq)) WITHOUT ROWID;
CREATE INDEX ops_events ON events (height) WHERE kind = 'Ops';
`

/** Writes blocks into dir/chain.sqlite in the older layout; an event's envelopeIdx may be null (the oldest rows). */
export function writeLegacyBlockStore(dir: string, blocks: Iterable<StoredBlock>): void {
  mkdirSync(dir, { recursive: true })
  const db = new Database(join(dir, 'chain.sqlite'), { create: true, strict: true })
  db.exec('PRAGMA journal_mode = WAL')
  db.exec(LEGACY_SCHEMA)
  const block = db.prepare('INSERT INTO blocks VALUES ($height, $parent, $digest, $timestampMs, $envelopeCount, $eventCount, $stateRoot)')
  const envelope = db.prepare(
    'INSERT INTO envelopes VALUES ($height, $envelopeIdx, $txHash, $signer, $nonce, $actionKind, $marketId, $actionJson, $signatureJson, $status, $reasonJson)',
  )
  const event = db.prepare('INSERT INTO events VALUES ($height, $seq, $envelopeIdx, $kind, $subKind, $marketId, $account, $bodyJson)')
  db.transaction(() => {
    for (const b of blocks) {
      block.run(b.header as never)
      for (const e of b.envelopes) envelope.run(e as never)
      for (const e of b.events) event.run(e as never)
    }
  })()
  db.close()
}
