import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AdminDb } from '../store/db.ts'
import { HedgeOrderStore, IN_FLIGHT, type NewOrderRecord, TRANSITIONS } from './order-store.ts'
import { HEDGE_ORDER_STATUSES, type HedgeOrderStatus } from './schemas.ts'

const dir = mkdtempSync(join(tmpdir(), 'perpd-hedge-orders-'))
const db = AdminDb.open(dir)
afterAll(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})
let now = 1_000
const orders = new HedgeOrderStore(db, () => now)
let n = 0
const record = (over: Partial<NewOrderRecord> = {}): NewOrderRecord => ({
  account_id: 'acct-a',
  market_symbol: 'XAU-USD',
  coin: 'XAU',
  is_buy: true,
  sz: '1',
  px: '2400',
  delta_before: '1',
  cloid: `0x${(++n).toString(16).padStart(32, '0')}`,
  status: 'pending',
  ...over,
})

/** A record brought to `status` along allowed transitions. */
function recordAt(status: HedgeOrderStatus): number {
  if (status === 'dry_run') return orders.insert(record({ status: 'dry_run' }))
  const id = orders.insert(record())
  const path: Record<HedgeOrderStatus, HedgeOrderStatus[]> = {
    pending: [],
    sent: ['sent'],
    unknown: ['sent', 'unknown'],
    open: ['sent', 'open'],
    filled: ['sent', 'filled'],
    partially_filled: ['sent', 'partially_filled'],
    cancelled: ['sent', 'cancelled'],
    rejected: ['sent', 'rejected'],
    failed: ['failed'],
    dry_run: [],
  }
  for (const to of path[status]) expect(orders.transition(id, to)).toBe(true)
  expect(orders.get(id)!.status).toBe(status)
  return id
}

describe('hedge order records', () => {
  test('the transition table: pending -> sent -> open -> filled | partially_filled | cancelled | rejected; failed, unknown', () => {
    expect(TRANSITIONS).toEqual({
      pending: ['sent', 'failed'],
      sent: ['open', 'filled', 'partially_filled', 'cancelled', 'rejected', 'unknown'],
      unknown: ['open', 'filled', 'partially_filled', 'cancelled', 'rejected', 'failed'],
      open: ['filled', 'partially_filled', 'cancelled'],
      filled: [],
      partially_filled: [],
      cancelled: [],
      rejected: [],
      failed: [],
      dry_run: [],
    })
    expect(IN_FLIGHT).toEqual(['pending', 'sent', 'unknown', 'open'])
  })

  for (const from of HEDGE_ORDER_STATUSES) {
    test(`from ${from}: exactly the allowed moves happen, the others change nothing`, () => {
      for (const to of HEDGE_ORDER_STATUSES) {
        const id = recordAt(from)
        const before = orders.get(id)!
        now += 10
        const moved = orders.transition(id, to, { error: 'why', ext_oid: '77', filled_sz: '0.5' })
        const after = orders.get(id)!
        if (TRANSITIONS[from].includes(to)) {
          expect(moved).toBe(true)
          expect(after).toMatchObject({ status: to, error: 'why', ext_oid: '77', filled_sz: '0.5', updated_at_ms: now })
        } else {
          expect(moved).toBe(false)
          expect(after).toEqual(before)
        }
      }
    })
  }

  test('a move keeps fields it does not set; error can be cleared', () => {
    const id = orders.insert(record())
    orders.transition(id, 'sent')
    orders.transition(id, 'unknown', { error: 'no reply' })
    orders.transition(id, 'filled', { ext_oid: '9', filled_sz: '1' })
    expect(orders.get(id)).toMatchObject({ status: 'filled', error: 'no reply', ext_oid: '9', filled_sz: '1' })
    const other = orders.insert(record())
    orders.transition(other, 'sent', { error: 'x' })
    orders.transition(other, 'open', { error: null })
    expect(orders.get(other)!.error).toBeNull()
  })

  test('cloids are unique', () => {
    const r = record()
    orders.insert(r)
    expect(() => orders.insert(r)).toThrow()
    expect(orders.byCloid(r.cloid)!.cloid).toBe(r.cloid)
  })

  test('pages newest first with filters and the total; in-flight records; counts by status', () => {
    const page = orders.page({ limit: 3, offset: 0 })
    expect(page.orders.length).toBe(3)
    expect(page.orders[0]!.id).toBeGreaterThan(page.orders[1]!.id)
    const b = orders.insert(record({ account_id: 'acct-b', market_symbol: 'BTC-USD' }))
    expect(orders.page({ accountId: 'acct-b', limit: 50, offset: 0 })).toEqual({ orders: [orders.get(b)!], total: 1 })
    expect(orders.page({ symbol: 'BTC-USD', limit: 50, offset: 1 })).toEqual({ orders: [], total: 1 })
    expect(orders.latestOf('BTC-USD')!.id).toBe(b)
    const inFlight = orders.inFlight()
    expect(inFlight.every((r) => IN_FLIGHT.includes(r.status))).toBe(true)
    expect(inFlight.map((r) => r.id)).toContain(b)
    const counts = orders.countsByStatus()
    expect(Object.values(counts).reduce((a, c) => a + c, 0)).toBe(orders.page({ limit: 1, offset: 0 }).total)
  })
})
