import { expect, test } from 'bun:test'
import { BlockCache } from './block-cache.ts'

test('a cached value lives for its height only, and the cache is bounded', () => {
  const c = new BlockCache<number>(2)
  c.set('a', 5, 1)
  expect(c.get('a', 5)).toBe(1)
  expect(c.get('a', 6)).toBeUndefined()
  c.set('b', 6, 2)
  expect(c.get('a', 6)).toBeUndefined() // a new height drops the old entries
  c.set('c', 6, 3)
  c.set('d', 6, 4) // over the bound: not cached
  expect([c.get('b', 6), c.get('c', 6), c.get('d', 6)]).toEqual([2, 3, undefined])
})
