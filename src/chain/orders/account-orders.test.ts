import { describe, expect, test } from 'bun:test'
import { mulberry32 } from '../../lib/prng.ts'
import type { Order } from '../core/types.ts'
import { AccountOrders } from './account-orders.ts'

const order = (id: number): Order => ({ id }) as Order

describe('AccountOrders', () => {
  test('agrees with a Map through random adds and deletes, holes and compactions included', () => {
    const rnd = mulberry32(11)
    const orders = new AccountOrders()
    const model = new Map<number, Order>()
    let nextId = 1
    let deletedMiddle = 0
    for (let step = 0; step < 60_000; step++) {
      const r = rnd() % 100
      // Grows to a few hundred orders, drains to empty now and then, and grows again.
      const target = step % 20_000 < 15_000 ? 400 : 0
      if (r < 50 && model.size < target) {
        const o = order(nextId)
        nextId += 1 + (rnd() % 3) // ids with gaps, as other accounts take ids in between
        orders.add(o)
        model.set(o.id, o)
      } else if (r < 95 && model.size > 0) {
        const ids = [...model.keys()]
        const id = ids[rnd() % ids.length]!
        if (id !== ids[ids.length - 1]) deletedMiddle++
        expect(orders.delete(id)).toBe(true)
        model.delete(id)
        expect(orders.delete(id)).toBe(false)
      } else {
        const id = 1 + (rnd() % nextId)
        expect(orders.get(id)).toBe(model.get(id))
        expect(orders.has(id)).toBe(model.has(id))
      }
      expect(orders.size).toBe(model.size)
      if (step % 997 === 0) {
        expect([...orders.values()]).toEqual([...model.values()])
        expect([...orders.keys()]).toEqual([...model.keys()])
      }
    }
    expect(deletedMiddle).toBeGreaterThan(10_000)
  })

  test('values() after deletes in the middle gives the orders left, in placement order, and adds go on after it', () => {
    const orders = new AccountOrders()
    for (let id = 1; id <= 10; id++) orders.add(order(id))
    for (const id of [2, 3, 5, 9]) orders.delete(id)
    expect([...orders.values()].map((o) => o.id)).toEqual([1, 4, 6, 7, 8, 10])
    orders.add(order(11))
    orders.delete(1)
    expect([...orders.values()].map((o) => o.id)).toEqual([4, 6, 7, 8, 10, 11])
    expect(orders.get(7)?.id).toBe(7)
    expect(orders.has(9)).toBe(false)
    expect(orders.size).toBe(6)
  })

  test('refuses an order older than the newest', () => {
    const orders = new AccountOrders()
    orders.add(order(5))
    orders.delete(5)
    expect(() => orders.add(order(5))).toThrow('rests after')
    orders.add(order(6))
    expect(orders.get(6)?.id).toBe(6)
  })
})
