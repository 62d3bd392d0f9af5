// The ladder keeps the next trigger to act on at its end: smallest key first, and among equal keys
// the larger id first (so the oldest of a price acts first); remove finds an item by key and id.
import { describe, expect, test } from 'bun:test'
import { Rng } from '../../../test/support/chain/test-chain.ts'
import { CHUNK_MAX, TriggerLadder } from './trigger-ladder.ts'

interface Item {
  readonly id: number
  price: number
}

/** The ladder's order from its end: what acts next, first. */
const fromEnd = (l: TriggerLadder<Item>) => Array.from({ length: l.size }, (_, i) => l.fromEnd(i)!.id)

describe('TriggerLadder', () => {
  test('orders by key, ties by id with the oldest last; remove by key and id', () => {
    const ladder = new TriggerLadder<Item>((t) => -t.price)
    const items: Item[] = [
      { id: 1, price: 300 },
      { id: 2, price: 100 },
      { id: 3, price: 200 },
      { id: 4, price: 100 },
      { id: 5, price: 300 },
    ]
    for (const t of items) ladder.insert(t)
    // Key -price: the lowest price acts first, and id 2 before id 4 at the same price.
    expect(fromEnd(ladder)).toEqual([2, 4, 3, 1, 5])
    expect(ladder.remove(items[3]!)).toBe(true)
    expect(ladder.remove(items[3]!)).toBe(false)
    expect(ladder.remove({ id: 9, price: 100 })).toBe(false)
    expect(fromEnd(ladder)).toEqual([2, 3, 1, 5])
    expect(ladder.fromEnd(4)).toBeUndefined()
  })

  test('random inserts and removes agree with a sorted model, across many chunks, as it grows and drains', () => {
    const rng = new Rng(11)
    const ladder = new TriggerLadder<Item>((t) => t.price)
    const live: Item[] = []
    let nextId = 0
    const check = () => {
      const model = [...live].sort((a, b) => b.price - a.price || a.id - b.id).map((t) => t.id)
      expect(ladder.size).toBe(live.length)
      expect(fromEnd(ladder)).toEqual(model)
      expect(ladder.toArray().map((t) => t.id)).toEqual([...model].reverse())
      expect(ladder.fromEnd(live.length)).toBeUndefined()
    }
    // Grows to many chunks (few prices, so equal keys span chunk boundaries), then drains to empty.
    for (const [steps, removeChance] of [
      [12 * CHUNK_MAX, 30],
      [8 * CHUNK_MAX, 55],
      [20 * CHUNK_MAX, 90],
    ] as const) {
      for (let step = 0; step < steps; step++) {
        if (live.length > 0 && rng.chance(removeChance)) {
          const [gone] = live.splice(rng.int(live.length), 1)
          expect(ladder.remove(gone!)).toBe(true)
          expect(ladder.remove(gone!)).toBe(false)
        } else {
          const t = { id: nextId++, price: rng.int(40) }
          live.push(t)
          ladder.insert(t)
        }
      }
      check()
    }
    expect(live.length).toBe(0)
    // An item that was never in it is not found, in an empty or a full ladder.
    expect(ladder.remove({ id: 1, price: 1 })).toBe(false)
    for (let i = 0; i < 3 * CHUNK_MAX; i++) ladder.insert({ id: i, price: 5 })
    expect(ladder.remove({ id: 3 * CHUNK_MAX, price: 5 })).toBe(false)
    expect(ladder.remove({ id: 0, price: 5 })).toBe(false)
    expect(ladder.fromEnd(0)!.id).toBe(0)
  })
})
