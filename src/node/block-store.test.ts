// The block store's envelopes table has no index on tx hashes (block-store.ts ENVELOPES_COLUMNS): a
// store made with the older UNIQUE index is rebuilt without it when opened, its rows kept; hashes
// are then found by the scan of the newest blocks getTx does (envelopeInBlocksAfter). Its events
// are kept in groups, a row per envelope: every read gives them back as committed, and a store
// written with a row per event has them moved into groups when opened.
import { Database } from 'bun:sqlite'
import { afterEach, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WITHOUT_ROWID_GROUPS_SCHEMA, writeLegacyBlockStore } from '../../test/support/legacy-block-store.ts'
import { BLOCK_PRODUCER_SIGNER } from '../wire/views.ts'
import { BlockStore, type StoredBlock, type StoredEvent } from './block-store.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A new temporary directory, removed after the test. */
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

function block(height: number, envelopes: number): StoredBlock {
  return {
    header: {
      height,
      parent: hash(height + 1_000),
      digest: hash(height + 2_000),
      timestampMs: 1_700_000_000_000 + height,
      envelopeCount: envelopes,
      eventCount: 0,
      stateRoot: hash(height + 3_000),
    },
    envelopes: Array.from({ length: envelopes }, (_, i) => ({
      height,
      envelopeIdx: i,
      txHash: hash(height * 100 + i),
      signer: '0x00000000000000000000000000000000000000aa',
      nonce: height * 100 + i,
      actionKind: 'CancelAll',
      marketId: null,
      actionJson: '{"CancelAll":{}}',
      signatureJson: '{"r":"0x1","s":"0x2","v":27}',
      status: 'accepted' as const,
      reasonJson: null,
    })),
    events: [],
  }
}

/** Names of the store's schema objects of a type ('table', 'index'), optionally of one table. */
const schemaNames = (dir: string, type: string, table?: string) => {
  const db = new Database(join(dir, 'chain.sqlite'), { readonly: true })
  const names = db
    .query<{ name: string }, [string, string | null]>(
      'SELECT name FROM sqlite_master WHERE type = ?1 AND (?2 IS NULL OR tbl_name = ?2) ORDER BY name',
    )
    .all(type, table ?? null)
  db.close()
  return names.map((n) => n.name)
}
const indexesOfEnvelopes = (dir: string) => schemaNames(dir, 'index', 'envelopes')

/** The indexes of the envelopes table that hold tx_hash (its primary key's own index does not). */
const txHashIndexes = (dir: string) => {
  const db = new Database(join(dir, 'chain.sqlite'), { readonly: true })
  const holding = indexesOfEnvelopes(dir).filter((name) =>
    db
      .query<{ name: string }, [string]>('SELECT name FROM pragma_index_info(?)')
      .all(name)
      .some((c) => c.name === 'tx_hash'),
  )
  db.close()
  return holding
}

describe('block store without a tx-hash index', () => {
  test('a new store has none, and finds a hash in the blocks after a height', () => {
    const dir = tempDir('perpd-store-')
    const store = new BlockStore(dir)
    expect(store.rebuiltWithoutTxIndex).toBe(false)
    for (let h = 1; h <= 3; h++) store.commitBlock(block(h, 4))
    expect(store.envelopeInBlocksAfter(hash(203), 1)?.envelopeIdx).toBe(3)
    expect(store.envelopeInBlocksAfter(hash(203), 2)).toBeUndefined()
    expect(store.envelopeAt(2, 1)?.txHash).toBe(hash(201))
    expect(store.envelopeAt(2, 9)).toBeUndefined()
    store.close()
    expect(txHashIndexes(dir)).toEqual([])
  })

  test('an older store with the UNIQUE index is rebuilt without it, its rows kept, once', () => {
    // The table and rows as an older node wrote them.
    const older = tempDir('perpd-store-')
    const raw = new Database(join(older, 'chain.sqlite'), { create: true })
    raw.exec(`CREATE TABLE envelopes (
      height INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, tx_hash TEXT NOT NULL UNIQUE, signer TEXT NOT NULL,
      nonce INTEGER NOT NULL, action_kind TEXT NOT NULL, market_id INTEGER, action TEXT NOT NULL, signature TEXT NOT NULL,
      status TEXT NOT NULL, reason TEXT, PRIMARY KEY (height, envelope_idx)) WITHOUT ROWID`)
    raw.exec(
      `INSERT INTO envelopes VALUES (1, 0, '${hash(100)}', '0xaa', 1, 'CancelAll', NULL, '{"CancelAll":{}}', '{}', 'accepted', NULL)`,
    )
    raw.exec(
      `INSERT INTO envelopes VALUES (1, 1, '${hash(101)}', '0xaa', 2, 'CancelAll', NULL, '{"CancelAll":{}}', '{}', 'kept-reject', '{"code":"X"}')`,
    )
    raw.close()
    expect(txHashIndexes(older)).not.toEqual([])

    const reopened = new BlockStore(older)
    expect(reopened.rebuiltWithoutTxIndex).toBe(true)
    expect(reopened.envelopesOf(1).map((e) => [e.txHash, e.status, e.reasonJson])).toEqual([
      [hash(100), 'accepted', null],
      [hash(101), 'kept-reject', '{"code":"X"}'],
    ])
    expect(reopened.envelopeInBlocksAfter(hash(101), 0)?.nonce).toBe(2)
    reopened.close()
    expect(txHashIndexes(older)).toEqual([])
    const again = new BlockStore(older)
    expect(again.rebuiltWithoutTxIndex).toBe(false)
    again.close()
  })
})

// ---------------------------------------------------------------------------------------------
// Events in groups (wire/event-groups.ts): an envelope's events in one row, the block's own events
// (begin and end hooks, on either side of the envelopes' in seq order) under its envelope count.

const ALICE = '0x00000000000000000000000000000000000000a1'
const BOB = '0x00000000000000000000000000000000000000b2'

function event(
  height: number,
  seq: number,
  envelopeIdx: number,
  kind: string,
  subKind: string,
  marketId: number | null,
  account: string | null,
  fields: Record<string, unknown> = {},
): StoredEvent {
  const body: Record<string, unknown> = { kind, sub_kind: subKind }
  if (marketId !== null) body.market_id = marketId
  if (account !== null) body.account = account
  return {
    height,
    seq,
    envelopeIdx,
    kind,
    subKind,
    marketId,
    account,
    bodyJson: JSON.stringify({ ...body, ...fields }),
  }
}

/** Three envelopes (the middle one raised nothing) between a begin-hook event and two end-hook ones. */
function blockWithEvents(height: number): StoredBlock {
  const base = block(height, 3)
  const events = [
    event(height, 0, 3, 'Oracle', 'QuoteAccepted', 1, null, { price: '50000.5', note: 'quote "x" \\ é \u2028' }),
    event(height, 1, 0, 'Exec', 'OrderAccepted', 1, ALICE, { order_id: height * 10 + 1, price: '50000.5', qty: '0.001' }),
    event(height, 2, 0, 'Exec', 'Filled', 1, ALICE, { order_id: height * 10 + 1, maker: BOB, price: '50000.5', qty: '0.001', fee: '0.01' }),
    event(height, 3, 0, 'Exec', 'OrderDone', 1, ALICE, { order_id: height * 10 + 1, reason: 'Filled' }),
    event(height, 4, 2, 'Ops', 'RoleGranted', null, BOB, { role: 'Quoter' }),
    event(height, 5, 3, 'Exec', 'Filled', 2, BOB, { order_id: height * 10 + 2, price: '3000', qty: '1', liquidation: true }),
    event(height, 6, 3, 'Ops', 'MarketHaltedQuoteStale', 2, null, { lag_ms: 20_000, last_source_ts_ms: null }),
  ]
  return { header: { ...base.header, eventCount: events.length }, envelopes: base.envelopes, events }
}

const seqsOf = (events: readonly StoredEvent[]) => events.map((e) => [e.height, e.seq])
const everyAuditEvent = (signer: string | null) => ({
  fromHeight: 1,
  toHeight: 2,
  startMs: 0,
  endMs: Number.MAX_SAFE_INTEGER,
  signer,
  offset: 0,
  limit: 100,
})

/** What every read of events gives for blocks 1 and 2 of blockWithEvents, whichever way they were written. */
function expectEventReads(store: BlockStore): void {
  const [one, two] = [blockWithEvents(1), blockWithEvents(2)]
  // Every field, and each body the very text that was stored.
  expect(store.eventsBetween(1, 2)).toEqual([...one.events, ...two.events])
  expect(store.eventsBetween(2, 2)).toEqual(two.events)
  expect(store.eventsOf(1, 0, 100)).toEqual(one.events)
  expect(seqsOf(store.eventsOf(1, 2, 3))).toEqual([
    [1, 2],
    [1, 3],
    [1, 4],
  ])
  expect(seqsOf(store.eventsOf(1, 5, 10))).toEqual([
    [1, 5],
    [1, 6],
  ])
  expect(store.eventsOf(1, 7, 10)).toEqual([])
  expect(store.eventsOfEnvelope(2, 0)).toEqual(two.events.slice(1, 4))
  expect(store.eventsOfEnvelope(2, 1)).toEqual([])
  expect(seqsOf(store.eventsOfEnvelope(2, 3))).toEqual([
    [2, 0],
    [2, 5],
    [2, 6],
  ])
  // Fills newest first (the block-level one after the envelope's in seq), with block times.
  const fills = [...store.filledEventsNewestFirst(1, 2)]
  expect(fills.map((f) => [f.height, f.seq, f.timestampMs])).toEqual([
    [2, 5, 1_700_000_000_002],
    [2, 2, 1_700_000_000_002],
    [1, 5, 1_700_000_000_001],
    [1, 2, 1_700_000_000_001],
  ])
  expect(fills[0]).toEqual({ ...two.events[5]!, timestampMs: 1_700_000_000_002 })
  expect(seqsOf(store.filledEventsBetween(1, 2, 3))).toEqual([
    [2, 5],
    [2, 2],
    [1, 5],
  ])
  // The audit log: Ops events newest first, the block's own signed by the block producer.
  expect(store.auditEvents(everyAuditEvent(null)).map((r) => [r.height, r.seq, r.envelopeIdx, r.signer])).toEqual([
    [2, 6, 3, BLOCK_PRODUCER_SIGNER],
    [2, 4, 2, '0x00000000000000000000000000000000000000aa'],
    [1, 6, 3, BLOCK_PRODUCER_SIGNER],
    [1, 4, 2, '0x00000000000000000000000000000000000000aa'],
  ])
  expect(store.auditEvents({ ...everyAuditEvent(BLOCK_PRODUCER_SIGNER), offset: 1 }).map((r) => [r.height, r.seq])).toEqual([[1, 6]])
  expect(store.auditEvents(everyAuditEvent(null))[0]!.bodyJson).toBe(two.events[6]!.bodyJson)
}

describe('a block written in two steps (beginBlock, then finishBlock or abortBlock)', () => {
  test('finishBlock commits the rows with the header; abortBlock leaves the store as it was; one block at a time', () => {
    const dir = tempDir('perpd-store-')
    const store = new BlockStore(dir)
    store.commitBlock(block(1, 2))
    const second = block(2, 3)
    store.beginBlock(second.envelopes, second.events)
    expect(() => store.beginBlock(second.envelopes, second.events)).toThrow(/being written already/)
    store.finishBlock(second)
    expect(store.tipHeight()).toBe(2)
    expect(store.envelopesOf(2).map((e) => e.txHash)).toEqual(second.envelopes.map((e) => e.txHash))

    const third = block(3, 2)
    store.beginBlock(third.envelopes, third.events)
    store.abortBlock()
    expect(store.tipHeight()).toBe(2)
    expect(store.envelopesOf(3)).toEqual([])
    expect(() => store.finishBlock(third)).toThrow(/without beginBlock/)
    store.abortBlock() // nothing open: nothing to do
    // A header the store refuses (a height it holds) rolls the rows back with it.
    const again = block(2, 1)
    store.beginBlock(
      again.envelopes.map((e) => ({ ...e, height: 9 })),
      again.events,
    )
    expect(() => store.finishBlock(again)).toThrow()
    expect(store.envelopesOf(9)).toEqual([])
    // A header that does not count the rows is refused, and the rows go with it.
    store.beginBlock(third.envelopes, third.events)
    expect(() => store.finishBlock({ ...third, header: { ...third.header, envelopeCount: 5 } })).toThrow(/envelope count mismatch/)
    expect(store.envelopesOf(3)).toEqual([])
    store.commitBlock(third)
    expect(store.tipHeight()).toBe(3)
    store.close()
  })
})

describe('events in groups', () => {
  test('a row per envelope that raised events: every read gives the events as they were committed', () => {
    const dir = tempDir('perpd-store-')
    const store = new BlockStore(dir)
    store.commitBlock(blockWithEvents(1))
    store.commitBlocks([blockWithEvents(2)])
    expectEventReads(store)
    store.close()
    const db = new Database(join(dir, 'chain.sqlite'), { readonly: true })
    expect(
      db.query('SELECT height, envelope_idx, first_seq, last_seq, fills FROM event_groups WHERE height = 1 ORDER BY envelope_idx').values(),
    ).toEqual([
      [1, 0, 1, 3, 1],
      [1, 2, 4, 4, 0],
      [1, 3, 0, 6, 1],
    ])
    db.close()
  })

  test('a large group is kept compressed, a small one as text, and both read back as committed', () => {
    const dir = tempDir('perpd-store-')
    const store = new BlockStore(dir)
    const base = block(1, 2)
    // Envelope 0: a batch of 40 IOC orders (80 events, over 10 KB of JSON); envelope 1: one order.
    const batch = Array.from({ length: 40 }, (_, i) => [
      event(1, 2 * i, 0, 'Exec', 'OrderAccepted', 1, ALICE, { order_id: i + 1, price: '50000.5', qty: '0.001', note: 'é \u2028' }),
      event(1, 2 * i + 1, 0, 'Exec', i === 7 ? 'Filled' : 'OrderDone', 1, ALICE, { order_id: i + 1, price: '50000.5', qty: '0.001' }),
    ]).flat()
    const single = event(1, 80, 1, 'Exec', 'OrderAccepted', 2, BOB, { order_id: 41, price: '3000', qty: '1' })
    const events = [...batch, single]
    store.commitBlock({ header: { ...base.header, eventCount: events.length }, envelopes: base.envelopes, events })
    expect(store.eventsBetween(1, 1)).toEqual(events)
    expect(store.eventsOfEnvelope(1, 0)).toEqual(batch)
    expect(store.eventsOf(1, 10, 3)).toEqual(events.slice(10, 13))
    expect(store.eventsOf(1, 79, 5)).toEqual(events.slice(79))
    expect([...store.filledEventsNewestFirst(1, 1)].map((e) => e.seq)).toEqual([15])
    store.close()
    const db = new Database(join(dir, 'chain.sqlite'), { readonly: true })
    const rows = db.query('SELECT envelope_idx, typeof(events), length(events) FROM event_groups ORDER BY envelope_idx').values()
    db.close()
    expect(rows.map(([idx, type]) => [idx, type])).toEqual([
      [0, 'blob'],
      [1, 'text'],
    ])
    // The batch's group compresses to a small part of its text.
    expect(rows[0]![2] as number).toBeLessThan(batch.reduce((n, e) => n + e.bodyJson.length, 0) / 4)
  })

  test('a store written with a row per event has them moved into groups when opened, once', () => {
    const dir = tempDir('perpd-store-')
    const [one, two] = [blockWithEvents(1), blockWithEvents(2)]
    // The oldest rows: the block's own events with NULL as their envelope index.
    const nullBlockLevel = (b: StoredBlock): StoredBlock => ({
      ...b,
      events: b.events.map((e) => (e.envelopeIdx === b.header.envelopeCount ? { ...e, envelopeIdx: null as unknown as number } : e)),
    })
    writeLegacyBlockStore(dir, [nullBlockLevel(one), two])
    const store = new BlockStore(dir)
    expect(store.groupedLegacyEvents).toBe(true)
    expect(schemaNames(dir, 'table')).toEqual(expect.arrayContaining(['audit_events', 'event_groups']))
    expect(schemaNames(dir, 'table')).not.toContain('events')
    expectEventReads(store)
    // New blocks go on top.
    store.commitBlock(blockWithEvents(3))
    expect(store.eventsBetween(3, 3)).toEqual(blockWithEvents(3).events)
    store.close()
    const again = new BlockStore(dir)
    expect(again.groupedLegacyEvents).toBe(false)
    expectEventReads(again)
    again.close()
  })
})

describe('the file between connections', () => {
  test('close releases the file at once: the WAL is checkpointed and removed, no connection is left to the collector', () => {
    const dir = tempDir('perpd-store-close-')
    const store = new BlockStore(dir)
    store.commitBlock(block(1, 3))
    expect(store.envelopesOf(1).length).toBe(3)
    expect(store.replayEnvelopesOf(1).length).toBe(3)
    store.close()
    expect(existsSync(join(dir, 'chain.sqlite-wal'))).toBe(false)
  })

  test('opening waits for a lock another process holds for a moment, instead of failing with SQLITE_BUSY', async () => {
    const dir = tempDir('perpd-store-busy-')
    const first = new BlockStore(dir)
    first.commitBlock(block(1, 1))
    first.close()
    // Another process takes the file's exclusive lock and keeps it for 500 ms.
    const holder = Bun.spawn(
      [
        process.execPath,
        '-e',
        `const { Database } = require('bun:sqlite')
         const db = new Database(${JSON.stringify(join(dir, 'chain.sqlite'))})
         db.exec('PRAGMA locking_mode = EXCLUSIVE')
         db.exec('BEGIN EXCLUSIVE')
         db.exec('CREATE TABLE held (x)')
         console.log('locked')
         Bun.sleepSync(500)
         db.exec('ROLLBACK')
         db.close()`,
      ],
      { stdout: 'pipe', stderr: 'inherit' },
    )
    const reader = holder.stdout.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('locked')
    const store = new BlockStore(dir)
    expect(store.tipHeight()).toBe(1)
    store.close()
    expect(await holder.exited).toBe(0)
  })
})

// ---------------------------------------------------------------------------------------------
// The file's layout (block-store.ts PAGE_SIZE_BYTES): 16 KiB pages and rowid tables for the large
// rows in a new store; a store made before keeps its 4 KiB pages and WITHOUT ROWID tables.

/** The page size and, for envelopes and event_groups, whether each is a WITHOUT ROWID table. */
function layoutOf(dir: string): { pageSize: number; withoutRowid: Record<string, boolean> } {
  const db = new Database(join(dir, 'chain.sqlite'), { readonly: true })
  const pageSize = db.query<{ page_size: number }, []>('PRAGMA page_size').get()!.page_size
  const withoutRowid: Record<string, boolean> = {}
  for (const table of ['envelopes', 'event_groups']) {
    const sql = db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)!.sql
    withoutRowid[table] = /WITHOUT ROWID/i.test(sql)
  }
  db.close()
  return { pageSize, withoutRowid }
}

/** A block of one 50-order batch: an envelope with a 5 KB action and 100 events (about 20 KB of JSON). */
function batchBlock(height: number): StoredBlock {
  const base = block(height, 1)
  const orders = Array.from({ length: 50 }, (_, i) => ({ market_id: 1, side: 'Bid', price: `${55_000 + i}.5`, qty: '0.001', tif: 'Ioc' }))
  const events = Array.from({ length: 100 }, (_, seq) =>
    event(height, seq, 0, 'Exec', seq % 2 === 0 ? 'OrderAccepted' : 'OrderDone', 1, ALICE, {
      order_id: height * 1_000 + (seq >> 1),
      pad: 'x'.repeat(100),
    }),
  )
  return {
    header: { ...base.header, eventCount: events.length },
    envelopes: [{ ...base.envelopes[0]!, actionKind: 'BatchPlaceOrder', actionJson: JSON.stringify({ BatchPlaceOrder: { orders } }) }],
    events,
  }
}

describe("the file's layout", () => {
  test('a new store has 16 KiB pages and keeps envelopes and event groups in rowid tables; a batch block reads back as committed', () => {
    const dir = tempDir('perpd-store-layout-')
    const store = new BlockStore(dir)
    const b = batchBlock(1)
    store.commitBlock(b)
    expect(store.envelopesOf(1)).toEqual(b.envelopes)
    expect(store.eventsBetween(1, 1)).toEqual(b.events)
    store.close()
    expect(layoutOf(dir)).toEqual({ pageSize: 16_384, withoutRowid: { envelopes: false, event_groups: false } })
  })

  test('a store made with 4 KiB pages and WITHOUT ROWID tables keeps them, and commits and reads blocks as before', () => {
    const dir = tempDir('perpd-store-layout-')
    // A store made before the layout changed, in SQLite's default page size.
    const raw = new Database(join(dir, 'chain.sqlite'), { create: true })
    raw.exec('PRAGMA journal_mode = WAL')
    raw.exec(WITHOUT_ROWID_GROUPS_SCHEMA)
    raw.close()
    const before = layoutOf(dir)
    expect(before).toEqual({ pageSize: 4_096, withoutRowid: { envelopes: true, event_groups: true } })

    const store = new BlockStore(dir)
    const blocks = [batchBlock(1), blockWithEvents(2)]
    for (const b of blocks) store.commitBlock(b)
    expect(store.tipHeight()).toBe(2)
    expect(store.envelopesBetween(1, 2)).toEqual(blocks.flatMap((b) => b.envelopes))
    expect(store.eventsBetween(1, 2)).toEqual(blocks.flatMap((b) => b.events))
    store.close()
    expect(layoutOf(dir)).toEqual(before)
  })
})
