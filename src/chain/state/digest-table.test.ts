import { describe, expect, test } from 'bun:test'
import { mulberry32 } from '../../lib/prng.ts'
import { DigestTable } from './digest-table.ts'

/** Sets the digest of `id`, present or not. */
const write = (table: DigestTable, id: number, digest: Uint8Array): void => {
  const slot = table.find(id)
  if (slot < 0) table.add(id, digest)
  else table.writeAt(slot, digest)
}

/** The digest of `id`, or undefined. */
const read = (table: DigestTable, id: number): number[] | undefined => {
  const slot = table.find(id)
  if (slot < 0) return undefined
  const out = new Uint8Array(32)
  table.readAt(slot, out)
  return [...out]
}

const remove = (table: DigestTable, id: number): void => {
  const slot = table.find(id)
  if (slot >= 0) table.deleteAt(slot)
}

const digestOf = (id: number, version: number): Uint8Array => {
  const d = new Uint8Array(32)
  for (let i = 0; i < 32; i++) d[i] = (id * 31 + version * 7 + i) & 0xff
  return d
}

describe('DigestTable', () => {
  test('agrees with a Map through 30,000 random writes, overwrites and deletes', () => {
    const next = mulberry32(11)
    const model = new Map<number, Uint8Array>()
    const table = new DigestTable()
    // Ids like order ids: increasing with gaps, plus a few large safe integers.
    const ids = [...Array.from({ length: 4_000 }, (_, i) => i * 2 + 1), 2 ** 40 + 3, Number.MAX_SAFE_INTEGER]
    for (let op = 0; op < 30_000; op++) {
      const id = ids[next() % ids.length]!
      if (next() % 3 === 0) {
        remove(table, id)
        model.delete(id)
      } else {
        const d = digestOf(id, op)
        write(table, id, d)
        model.set(id, d)
      }
    }
    expect(table.size).toBe(model.size)
    for (const id of ids) {
      expect(table.has(id)).toBe(model.has(id))
      const want = model.get(id)
      expect(read(table, id)).toEqual(want === undefined ? undefined : [...want])
    }
    expect(table.has(0)).toBe(false)
  })

  test('a clone shares nothing with the original', () => {
    const table = new DigestTable()
    for (let id = 0; id < 100; id++) write(table, id, digestOf(id, 0))
    const clone = table.clone()
    write(table, 5, digestOf(5, 1))
    remove(table, 6)
    write(table, 1_000, digestOf(1_000, 0))
    expect(clone.size).toBe(100)
    expect(read(clone, 5)).toEqual([...digestOf(5, 0)])
    expect(read(table, 5)).toEqual([...digestOf(5, 1)])
    expect(clone.has(6)).toBe(true)
    expect(clone.has(1_000)).toBe(false)
    remove(clone, 7)
    expect(table.has(7)).toBe(true)
  })
})
