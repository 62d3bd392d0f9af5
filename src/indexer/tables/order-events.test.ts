// order_events rows written many to a statement (insertOrderEvents): every row lands once, with
// every field, whatever the count (below, at and past a statement's worth), and a row written again
// is ignored.
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { historyPath, openHistoryWriter } from '../schema.ts'
import { insertOrderEvents, type OrderEventInsert } from './order-events.ts'

const dir = mkdtempSync(join(tmpdir(), 'perpd-order-events-'))
const db = openHistoryWriter(historyPath(dir))
afterAll(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

const row = (height: number, seq: number): OrderEventInsert => ({
  owner: `0x${(seq % 3).toString().repeat(40)}`,
  height,
  seq,
  timestampMs: 1_700_000_000_000 + height,
  orderId: height * 1_000 + seq,
  marketId: 1 + (seq % 2),
  eventType: seq % 2 === 0 ? 'Accepted' : 'Done',
  side: seq % 2 === 0 ? 'Bid' : null,
  price: seq % 2 === 0 ? `${65_000 + seq}.5` : null,
  qty: seq % 2 === 0 ? '0.001' : null,
  remaining: seq % 2 === 0 ? null : '0.001',
  reason: seq % 2 === 0 ? null : 'IocCancelled',
  clientOrderId: seq % 5 === 0 ? `c-${seq}` : null,
  triggerId: seq % 7 === 0 ? seq : null,
})

const stored = (height: number) =>
  db
    .query<Record<string, unknown>, [number]>('SELECT * FROM order_events WHERE height = ? ORDER BY seq')
    .all(height)
    .map((r) => ({
      owner: r.owner,
      height: r.height,
      seq: r.seq,
      timestampMs: r.timestamp_ms,
      orderId: r.order_id,
      marketId: r.market_id,
      eventType: r.event_type,
      side: r.side,
      price: r.price,
      qty: r.qty,
      remaining: r.remaining,
      reason: r.reason,
      clientOrderId: r.client_order_id,
      triggerId: r.trigger_id,
    }))

test('every row lands once with its fields, below, at and past a statement of rows', () => {
  for (const count of [0, 1, 15, 16, 17, 33, 100]) {
    const height = count + 1
    const rows = Array.from({ length: count }, (_, seq) => row(height, seq))
    insertOrderEvents(db, rows)
    expect(stored(height)).toEqual(rows)
  }
})

test('a row written again is ignored, alone or among new ones', () => {
  const rows = Array.from({ length: 20 }, (_, seq) => row(500, seq))
  insertOrderEvents(db, rows.slice(0, 10))
  insertOrderEvents(db, rows)
  expect(stored(500)).toEqual(rows)
})
