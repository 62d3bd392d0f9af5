// Events of a block itself carry the block's envelope_count as envelope_idx. Block stores and history
// indexes written before that hold NULL there: they read as the envelope count, through the block
// store (getTx, getBlock, the audit log, the feed's seeding: its rows get the count when they move
// into event groups) and through the index (REST), which reads the events from the block store;
// an older index's copies of them (where the halt's envelope_idx may be NULL) are dropped.
import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { indexAll } from '../../test/support/history.ts'
import { writeLegacyBlockStore } from '../../test/support/legacy-block-store.ts'
import { BlockStore, type StoredEvent } from '../node/block-store.ts'
import { BLOCK_PRODUCER_SIGNER } from '../wire/views.ts'
import { Pipeline } from './pipeline.ts'
import { READ_OPS } from './read/ops.ts'
import { getMeta, hasBlockStoreCopies, INDEX_VERSION, setMeta } from './schema.ts'
import { symbolLookup } from './symbols.ts'
import { eventAt } from './tables/events.ts'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const SIGNER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const symbolOf = symbolLookup([{ market_id: 4, symbol: 'XAU-USD', lifecycle: 'Halted', routing: 'external_peg' }])

/** A block store holding one block of two kept-reject envelopes and a quote-stale halt written the old way (envelope_idx NULL). */
function legacyStore(): { dir: string; store: BlockStore } {
  const dir = mkdtempSync(join(tmpdir(), 'perpd-legacy-idx-'))
  dirs.push(dir)
  const envelope = (i: number) => ({
    height: 1,
    envelopeIdx: i,
    txHash: `0x${String(i + 1).padStart(64, '0')}`,
    signer: SIGNER,
    nonce: i,
    actionKind: 'CancelOrder',
    marketId: 1,
    actionJson: '{"CancelOrder":{"market_id":1,"order_id":9}}',
    signatureJson: '{}',
    status: 'kept-reject' as const,
    reasonJson: '{"code":"OrderNotFound","message":"no order 9"}',
  })
  const rejected = (i: number): StoredEvent => ({
    height: 1,
    seq: i,
    envelopeIdx: i,
    kind: 'Core',
    subKind: 'Rejected',
    marketId: 1,
    account: SIGNER,
    bodyJson: JSON.stringify({
      kind: 'Core',
      sub_kind: 'Rejected',
      market_id: 1,
      account: SIGNER,
      action_kind: 'CancelOrder',
      reason: 'OrderNotFound',
      message: 'no order 9',
    }),
  })
  const halt = {
    height: 1,
    seq: 2,
    envelopeIdx: null as unknown as number,
    kind: 'Ops',
    subKind: 'MarketHaltedQuoteStale',
    marketId: 4,
    account: null,
    bodyJson: JSON.stringify({
      kind: 'Ops',
      sub_kind: 'MarketHaltedQuoteStale',
      market_id: 4,
      account: null,
      lag_ms: 20_000,
      max_quote_lag_ms: 10_000,
      last_source_ts_ms: null,
    }),
  }
  const digest = `0x${'ab'.repeat(32)}`
  writeLegacyBlockStore(dir, [
    {
      header: {
        height: 1,
        parent: `0x${'00'.repeat(32)}`,
        digest,
        timestampMs: 1_767_225_600_000,
        envelopeCount: 2,
        eventCount: 3,
        stateRoot: digest,
      },
      envelopes: [envelope(0), envelope(1)],
      events: [rejected(0), rejected(1), halt],
    },
  ])
  return { dir, store: new BlockStore(dir) }
}

test('the block store reads a NULL envelope_idx as the envelope count; the audit log names the block producer', () => {
  const { store } = legacyStore()
  expect(store.eventsOf(1, 0, 10).map((e) => e.envelopeIdx)).toEqual([0, 1, 2])
  const audit = store.auditEvents({
    fromHeight: 1,
    toHeight: 1,
    startMs: 0,
    endMs: Number.MAX_SAFE_INTEGER,
    signer: null,
    offset: 0,
    limit: 10,
  })
  expect(audit.map((r) => [r.subKind, r.envelopeIdx, r.signer])).toEqual([['MarketHaltedQuoteStale', 2, BLOCK_PRODUCER_SIGNER]])
  // Filtering by the marker selects the chain's own events; by an envelope signer, not them.
  expect(
    store.auditEvents({
      fromHeight: 1,
      toHeight: 1,
      startMs: 0,
      endMs: Number.MAX_SAFE_INTEGER,
      signer: BLOCK_PRODUCER_SIGNER,
      offset: 0,
      limit: 10,
    }),
  ).toHaveLength(1)
  expect(
    store.auditEvents({ fromHeight: 1, toHeight: 1, startMs: 0, endMs: Number.MAX_SAFE_INTEGER, signer: SIGNER, offset: 0, limit: 10 }),
  ).toHaveLength(0)
  store.close()
})

test('the history index reads it as the envelope count, from the block store; an older index drops its copies of the events and actions at its first step', () => {
  const { dir, store } = legacyStore()
  const page = { offset: 0, limit: 10, cursor: undefined, includeTotal: false }
  const read = (p: Pipeline) =>
    READ_OPS.blockEvents({ db: p.db, symbolOf }, { height: 1, page })!.data.map((e) => [e.sub_kind, e.envelope_idx])
  const tx = (p: Pipeline) => READ_OPS.tx({ db: p.db, symbolOf }, { hash: `0x${'1'.padStart(64, '0')}` })!
  const listed = (p: Pipeline) => READ_OPS.envelopes({ db: p.db, symbolOf }, { filter: { signer: SIGNER }, page }).data
  const expected = [
    ['Rejected', 0],
    ['Rejected', 1],
    ['MarketHaltedQuoteStale', 2],
  ]
  const first = new Pipeline({ dataDir: dir, log: () => {} })
  indexAll(first, 1)
  expect(read(first)).toEqual(expected)
  expect(eventAt(first.db, 1, 2)?.envelope_idx).toBe(2)
  const txBefore = tx(first)
  expect(txBefore.events.map((e) => e.seq)).toEqual([0])
  expect(txBefore.action).toEqual({ CancelOrder: { market_id: 1, order_id: 9 } })
  const listedBefore = listed(first)
  expect(listedBefore.map((e) => [e.envelope_idx, e.action])).toEqual([
    [1, { CancelOrder: { market_id: 1, order_id: 9 } }],
    [0, { CancelOrder: { market_id: 1, order_id: 9 } }],
  ])
  expect(hasBlockStoreCopies(first.db)).toBe(false)

  // The copies an index of an earlier build held: the events a row each (the
  // halt's envelope_idx NULL) or in groups, and each envelope's action and reason.
  first.db.exec(`CREATE TABLE main.events (
    height INTEGER NOT NULL, seq INTEGER NOT NULL, envelope_idx INTEGER, kind TEXT NOT NULL, sub_kind TEXT NOT NULL,
    market_id INTEGER, account TEXT, body TEXT NOT NULL, PRIMARY KEY (height, seq)) WITHOUT ROWID`)
  for (const e of store.eventsBetween(1, 1))
    first.db
      .query('INSERT INTO main.events VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(e.height, e.seq, e.kind === 'Ops' ? null : e.envelopeIdx, e.kind, e.subKind, e.marketId, e.account, e.bodyJson)
  first.db.exec(`CREATE TABLE main.event_groups (
    height INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
    events TEXT NOT NULL, PRIMARY KEY (height, envelope_idx))`)
  first.db.exec('INSERT INTO main.event_groups SELECT height, envelope_idx, first_seq, last_seq, events FROM chain.event_groups')
  first.db.exec(`ALTER TABLE main.envelopes ADD COLUMN action TEXT NOT NULL DEFAULT '{}'`)
  first.db.exec('ALTER TABLE main.envelopes ADD COLUMN reason TEXT')
  setMeta(first.db, 'index_version', '1')
  first.close()

  // Opened in place (not rebuilt: its rows answer before the first step), as version 2, which a
  // build of version 1 would rebuild rather than misread.
  const p = new Pipeline({ dataDir: dir, log: () => {} })
  expect(hasBlockStoreCopies(p.db)).toBe(true)
  expect(getMeta(p.db, 'index_version')).toBe(INDEX_VERSION)
  expect(INDEX_VERSION).toBe('2')
  // Before its first step, and after it, the readers read the block store's rows.
  const check = () => {
    expect(read(p)).toEqual(expected)
    expect(tx(p)).toEqual(txBefore)
    expect(listed(p)).toEqual(listedBefore)
    expect(eventAt(p.db, 1, 2)?.envelope_idx).toBe(2)
  }
  check()
  indexAll(p, 1)
  expect(hasBlockStoreCopies(p.db)).toBe(false)
  expect(p.db.query("SELECT name FROM main.sqlite_master WHERE name IN ('events', 'event_groups')").all()).toEqual([])
  expect(p.db.query("SELECT name FROM pragma_table_info('envelopes', 'main') WHERE name IN ('action', 'reason')").all()).toEqual([])
  check()
  // Indexing goes on without the dropped columns.
  expect(p.db.query('SELECT COUNT(*) AS n FROM main.envelopes').get()).toEqual({ n: 2 })
  p.close()
  store.close()
})
