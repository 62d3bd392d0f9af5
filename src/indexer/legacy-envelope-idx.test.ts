// Events of a block itself carry the block's envelope_count as envelope_idx. Block stores and history
// indexes written before that hold NULL there: they read as the envelope count, through the block
// store (getTx, getBlock, the audit log, the feed's seeding: its rows get the count when they move
// into event groups) and through the index (REST), whether the NULL row was ingested after the
// upgrade or before it.
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
import { symbolLookup } from './symbols.ts'

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

test('the history index reads it as the envelope count, ingested after the upgrade or stored NULL by an older index', () => {
  const { dir, store } = legacyStore()
  const p = new Pipeline({ dataDir: dir, log: () => {} })
  indexAll(p, 1)
  const ctx = { db: p.db, symbolOf }
  const page = { offset: 0, limit: 10, cursor: undefined, includeTotal: false }
  const read = () => READ_OPS.blockEvents(ctx, { height: 1, page })!.data.map((e) => [e.sub_kind, e.envelope_idx])
  const expected = [
    ['Rejected', 0],
    ['Rejected', 1],
    ['MarketHaltedQuoteStale', 2],
  ]
  // Ingest copies the row with the count.
  expect(
    p.db.query<{ i: number | null }, []>("SELECT envelope_idx AS i FROM main.events WHERE sub_kind = 'MarketHaltedQuoteStale'").get()!.i,
  ).toBe(2)
  expect(read()).toEqual(expected)
  // An index row an older version ingested as NULL.
  p.db.query("UPDATE main.events SET envelope_idx = NULL WHERE sub_kind = 'MarketHaltedQuoteStale'").run()
  expect(read()).toEqual(expected)
  expect(READ_OPS.tx(ctx, { hash: `0x${'1'.padStart(64, '0')}` })!.events.map((e) => e.seq)).toEqual([0])
  p.close()
  store.close()
})
