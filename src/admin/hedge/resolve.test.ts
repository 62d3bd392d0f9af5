// Settling in-flight records by cloid: each path of resolve.ts against a venue account whose answers
// the test sets (the end-to-end test, test/e2e/admin-hedge.test.ts, meets the common ones on a real
// perpd venue; the rare ones — a lost reply, an order that never arrived — are set up here).
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '../../lib/log.ts'
import { AdminDb } from '../store/db.ts'
import type { VenueAccount, VenueOrderStatus } from '../venues/venue.ts'
import { HedgeOrderStore } from './order-store.ts'
import { resolveInFlight, UNKNOWN_GRACE_MS } from './resolve.ts'
import type { HedgeOrderStatus } from './schemas.ts'

const dir = mkdtempSync(join(tmpdir(), 'perpd-hedge-resolve-'))
const db = AdminDb.open(dir)
afterAll(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})
let now = 1_000_000
const orders = new HedgeOrderStore(db, () => now)

/** The venue's answer per cloid; absent: it never saw the order; 'throw': it cannot be asked. */
const answers = new Map<string, VenueOrderStatus | 'throw'>()
const asked: string[] = []
const account = {
  address: '0xabc',
  async orderStatusByCloid(cloid: string) {
    asked.push(cloid)
    const a = answers.get(cloid)
    if (a === 'throw') throw new Error('venue down')
    return a ?? null
  },
} as unknown as VenueAccount

let n = 0
function recordAt(status: HedgeOrderStatus, accountId = 'a'): { id: number; cloid: string } {
  const cloid = `0x${(++n).toString(16).padStart(32, '0')}`
  const id = orders.insert({
    account_id: accountId,
    market_symbol: 'XAU-USD',
    coin: 'XAU',
    is_buy: true,
    sz: '2',
    px: '2400',
    delta_before: '2',
    cloid,
    status: 'pending',
  })
  if (status !== 'pending') orders.transition(id, 'sent')
  if (status === 'unknown' || status === 'open') orders.transition(id, status)
  return { id, cloid }
}
const venueStatus = (cloid: string, status: VenueOrderStatus['status'], filled: string): VenueOrderStatus => ({
  cloid,
  ext_oid: '42',
  coin: 'XAU',
  is_buy: true,
  status,
  orig_sz: '2',
  filled_sz: filled,
  px: '2400',
})
const resolve = () => resolveInFlight({ orders, accountOf: (id) => (id === 'a' ? account : undefined), nowMs: now, log: silentLogger })
const statusOf = (id: number) => orders.get(id)!.status

describe('resolving in-flight hedge orders by cloid', () => {
  test('pending: never sent, failed at once without asking the venue', async () => {
    const r = recordAt('pending')
    const { moves } = await resolve()
    expect(moves).toEqual([{ id: r.id, from: 'pending', to: 'failed' }])
    expect(orders.get(r.id)!.error).toContain('never sent')
    expect(asked).not.toContain(r.cloid)
  })

  test('sent or unknown, and the venue answers: the record takes its status', async () => {
    const cases: [HedgeOrderStatus, VenueOrderStatus['status'], string, HedgeOrderStatus][] = [
      ['sent', 'filled', '2', 'filled'],
      ['sent', 'partially_filled', '1', 'partially_filled'],
      ['sent', 'open', '0', 'open'],
      ['sent', 'cancelled', '0', 'cancelled'],
      ['sent', 'rejected', '0', 'rejected'],
      ['unknown', 'filled', '2', 'filled'],
      ['unknown', 'partially_filled', '1.5', 'partially_filled'],
      ['unknown', 'open', '0', 'open'],
      ['unknown', 'cancelled', '0', 'cancelled'],
      ['unknown', 'rejected', '0', 'rejected'],
      ['open', 'filled', '2', 'filled'],
      ['open', 'partially_filled', '0.5', 'partially_filled'],
      ['open', 'cancelled', '0', 'cancelled'],
      ['open', 'open', '1', 'open'],
    ]
    for (const [from, venue, filled, to] of cases) {
      const r = recordAt(from)
      answers.set(r.cloid, venueStatus(r.cloid, venue, filled))
      await resolve()
      expect(`${from} + venue ${venue} -> ${statusOf(r.id)}`).toBe(`${from} + venue ${venue} -> ${to}`)
      // An open record the venue still holds open is left as it is.
      if (from !== 'open' || to !== 'open') expect(orders.get(r.id)!.ext_oid).toBe('42')
      if (to !== 'open') expect(orders.get(r.id)!.filled_sz).toBe(filled)
    }
  })

  test('sent and the venue never saw it: unknown, then failed once the grace period is over', async () => {
    const r = recordAt('sent')
    const first = await resolve()
    expect(first.moves).toContainEqual({ id: r.id, from: 'sent', to: 'unknown' })
    expect(statusOf(r.id)).toBe('unknown')
    now += UNKNOWN_GRACE_MS / 2
    await resolve()
    expect(statusOf(r.id)).toBe('unknown')
    now += UNKNOWN_GRACE_MS
    const last = await resolve()
    expect(last.moves).toContainEqual({ id: r.id, from: 'unknown', to: 'failed' })
    expect(orders.get(r.id)!.error).toContain('never saw')
  })

  test('a venue that cannot answer, or an account that is gone, leaves the record as it was', async () => {
    const down = recordAt('unknown')
    answers.set(down.cloid, 'throw')
    const gone = recordAt('sent', 'deleted-account')
    const { problems } = await resolve()
    expect(statusOf(down.id)).toBe('unknown')
    expect(statusOf(gone.id)).toBe('sent')
    expect(problems.some((p) => p.includes('venue down'))).toBe(true)
    expect(problems.some((p) => p.includes('deleted-account'))).toBe(true)
  })
})
