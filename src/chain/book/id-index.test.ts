import { describe, expect, test } from 'bun:test'
import { mulberry32 } from '../../lib/prng.ts'
import { IdIndex } from './id-index.ts'

describe('IdIndex', () => {
  test('adds, finds and deletes ids; a present id is not added twice', () => {
    const index = new IdIndex<string>()
    expect(index.get(1)).toBeUndefined()
    expect(index.add(1, 'a')).toBe(true)
    expect(index.add(1, 'b')).toBe(false)
    expect(index.get(1)).toBe('a')
    expect(index.size).toBe(1)
    index.delete(2) // absent: nothing changes
    expect(index.size).toBe(1)
    index.delete(1)
    expect(index.get(1)).toBeUndefined()
    expect(index.size).toBe(0)
    expect(index.add(0, 'zero')).toBe(true)
    expect(index.get(0)).toBe('zero')
  })

  test('keeps every id reachable through growth and backward-shift deletion (differential against a Map)', () => {
    const next = mulberry32(11)
    const index = new IdIndex<number>()
    const reference = new Map<number, number>()
    // Ids from three ranges: small and dense (long probe runs), around 2^32 (both hash halves), and
    // near the top of the safe integers.
    const idOf = (r: number): number => {
      const k = r % 3
      if (k === 0) return r % 512
      if (k === 1) return 2 ** 32 - 256 + (r % 512)
      return Number.MAX_SAFE_INTEGER - (r % 512)
    }
    for (let step = 0; step < 50_000; step++) {
      const id = idOf(next())
      const op = next() % 3
      if (op === 0) {
        reference.delete(id)
        index.delete(id)
      } else {
        expect(index.add(id, step)).toBe(!reference.has(id))
        if (!reference.has(id)) reference.set(id, step)
      }
      if (step % 997 === 0) {
        expect(index.size).toBe(reference.size)
        for (const [k, v] of reference) expect(index.get(k)).toBe(v)
      }
    }
    expect(index.size).toBe(reference.size)
    for (let r = 0; r < 2_000; r++) {
      const id = idOf(r)
      expect(index.get(id)).toBe(reference.get(id))
    }
  })
})
