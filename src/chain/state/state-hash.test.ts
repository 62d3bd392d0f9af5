import { describe, expect, test } from 'bun:test'
import { blake3 } from '@noble/hashes/blake3.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { mulberry32 as prng } from '../../lib/prng.ts'
import { StateHash, stateRootOf } from './state-hash.ts'

function randomBytes(next: () => number, len: number): Uint8Array {
  const b = new Uint8Array(len)
  for (let i = 0; i < len; i++) b[i] = next() & 0xff
  return b
}

function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const a = items.slice()
  for (let i = a.length - 1; i > 0; i--) {
    const j = next() % (i + 1)
    ;[a[i], a[j]] = [a[j]!, a[i]!]
  }
  return a
}

const hex = (b: Uint8Array): string => bytesToHex(b)

/**
 * Independent reference implementation of the documented encoding, using only @noble/hashes'
 * public API (generic BLAKE3 XOF instead of the specialised one in state-hash.ts).
 */
function referenceRoot(map: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const prefix = utf8ToBytes('perpd/state-hash/leaf/v1')
  const lanes = new Array<number>(1024).fill(0)
  for (const [key, value] of map) {
    const k = utf8ToBytes(key)
    const enc = new Uint8Array(prefix.length + 4 + k.length + value.length)
    enc.set(prefix, 0)
    new DataView(enc.buffer).setUint32(prefix.length, k.length, true)
    enc.set(k, prefix.length + 4)
    enc.set(value, prefix.length + 4 + k.length)
    const vec = blake3(blake3(enc), { dkLen: 2048 })
    const dv = new DataView(vec.buffer, vec.byteOffset, vec.byteLength)
    for (let i = 0; i < 1024; i++) lanes[i] = (lanes[i]! + dv.getUint16(2 * i, true)) % 65536
  }
  const bytes = new Uint8Array(2048)
  const out = new DataView(bytes.buffer)
  for (let i = 0; i < 1024; i++) out.setUint16(2 * i, lanes[i]!, true)
  return keccak_256(bytes)
}

function fromMap(map: ReadonlyMap<string, Uint8Array>): StateHash {
  const h = new StateHash()
  for (const [k, v] of map) h.set(k, v)
  return h
}

describe('StateHash', () => {
  test('empty map root is keccak_256 of the all-zero accumulator', () => {
    const empty = keccak_256(new Uint8Array(2048))
    expect(hex(new StateHash().root())).toBe(hex(empty))
    expect(hex(stateRootOf([]))).toBe(hex(empty))
    expect(new StateHash().leafCount).toBe(0)
  })

  test('matches the independent reference implementation (checks the specialised BLAKE3 XOF)', () => {
    const next = prng(7)
    // Single-leaf maps: each one checks one full 2048-byte expansion against noble's blake3.
    for (let i = 0; i < 200; i++) {
      const key = `k/${i}/${next().toString(36)}`
      const value = randomBytes(next, next() % 300)
      const map = new Map([[key, value]])
      expect(hex(stateRootOf(map))).toBe(hex(referenceRoot(map)))
    }
    // Multi-leaf maps, including non-ASCII keys, empty values/keys and a key longer than the scratch buffer.
    const map = new Map<string, Uint8Array>()
    for (let i = 0; i < 100; i++) map.set(`acct/${i}`, randomBytes(next, 1 + (next() % 500)))
    map.set('', new Uint8Array(0))
    map.set('ключ/😀/キー', utf8ToBytes('unicode'))
    map.set('x'.repeat(1000) + '€'.repeat(200), randomBytes(next, 2000))
    expect(hex(fromMap(map).root())).toBe(hex(referenceRoot(map)))
    expect(hex(stateRootOf(map))).toBe(hex(referenceRoot(map)))
  })

  test('leaf digest is BLAKE3 across block and chunk boundaries', () => {
    // The leaf encoding is 28 + len(key) + len(value) bytes; this sweeps every length from 29 bytes through
    // the single-chunk fast path (1..16 blocks) and across the 1024-byte chunk boundary (noble takes over).
    const next = prng(99)
    const big = randomBytes(next, 1100)
    for (let len = 0; len <= 1100; len++) {
      const map = new Map([['k', big.subarray(0, len)]])
      expect(hex(stateRootOf(map))).toBe(hex(referenceRoot(map)))
    }
  })

  test('root is independent of insertion order', () => {
    const next = prng(1)
    const entries: [string, Uint8Array][] = []
    for (let i = 0; i < 64; i++) entries.push([`pos/${i}`, randomBytes(next, 40)])
    const expected = hex(fromMap(new Map(entries)).root())
    for (let round = 0; round < 5; round++) {
      const h = new StateHash()
      for (const [k, v] of shuffled(entries, next)) h.set(k, v)
      expect(hex(h.root())).toBe(expected)
    }
    expect(hex(stateRootOf(shuffled(entries, next)))).toBe(expected)
  })

  test('set then delete returns to the previous root', () => {
    const h = fromMap(
      new Map([
        ['a', utf8ToBytes('1')],
        ['b', utf8ToBytes('2')],
      ]),
    )
    const before = hex(h.root())
    h.set('c', utf8ToBytes('3'))
    expect(h.has('c')).toBe(true)
    expect(h.leafCount).toBe(3)
    expect(hex(h.root())).not.toBe(before)
    h.delete('c')
    expect(h.has('c')).toBe(false)
    expect(h.leafCount).toBe(2)
    expect(hex(h.root())).toBe(before)
    // Deleting everything returns to the empty root.
    h.delete('a')
    h.delete('b')
    expect(hex(h.root())).toBe(hex(new StateHash().root()))
  })

  test('deleting an absent key is a no-op', () => {
    const h = fromMap(new Map([['a', utf8ToBytes('1')]]))
    const before = hex(h.root())
    h.delete('zzz')
    expect(hex(h.root())).toBe(before)
    expect(h.leafCount).toBe(1)
  })

  test('replacing a value changes the root and replacing it back restores it', () => {
    const h = fromMap(
      new Map([
        ['a', utf8ToBytes('1')],
        ['b', utf8ToBytes('2')],
      ]),
    )
    const before = hex(h.root())
    h.set('a', utf8ToBytes('one'))
    expect(h.leafCount).toBe(2)
    const changed = hex(h.root())
    expect(changed).not.toBe(before)
    expect(changed).toBe(
      hex(
        stateRootOf([
          ['a', utf8ToBytes('one')],
          ['b', utf8ToBytes('2')],
        ]),
      ),
    )
    h.set('a', utf8ToBytes('1'))
    expect(hex(h.root())).toBe(before)
    // Setting the current value again changes nothing.
    h.set('a', utf8ToBytes('1'))
    expect(hex(h.root())).toBe(before)
  })

  test('incremental root equals stateRootOf after 10,000 random set/delete operations', () => {
    const next = prng(0xc0ffee)
    const keys = Array.from({ length: 300 }, (_, i) => `obj/${i % 7}/${i}`)
    const model = new Map<string, Uint8Array>()
    const h = new StateHash()
    for (let op = 1; op <= 10_000; op++) {
      const key = keys[next() % keys.length]!
      if (next() % 4 === 0) {
        h.delete(key)
        model.delete(key)
      } else {
        // Small value alphabet so that some sets rewrite the value a key already holds.
        const value = next() % 8 === 0 ? utf8ToBytes(`v${next() % 3}`) : randomBytes(next, next() % 96)
        h.set(key, value)
        model.set(key, value)
      }
      if (op % 1000 === 0) {
        expect(h.leafCount).toBe(model.size)
        expect(hex(h.root())).toBe(hex(stateRootOf(model)))
      }
    }
    for (const k of keys) expect(h.has(k)).toBe(model.has(k))
    expect(hex(h.root())).toBe(hex(referenceRoot(model)))
  })

  test('distinct values give distinct roots', () => {
    const base = new Map([['other', utf8ToBytes('x')]])
    const seen = new Set<string>()
    const h = fromMap(base)
    for (let i = 0; i < 1000; i++) {
      h.set('k', utf8ToBytes(String(i)))
      seen.add(hex(h.root()))
    }
    expect(seen.size).toBe(1000)
    // The key length prefix separates key bytes from value bytes.
    expect(hex(stateRootOf([['ab', utf8ToBytes('c')]]))).not.toBe(hex(stateRootOf([['a', utf8ToBytes('bc')]])))
    // Same value under different keys, and empty vs one zero byte, are distinct leaves.
    expect(hex(stateRootOf([['a', utf8ToBytes('v')]]))).not.toBe(hex(stateRootOf([['b', utf8ToBytes('v')]])))
    expect(hex(stateRootOf([['a', new Uint8Array(0)]]))).not.toBe(hex(stateRootOf([['a', new Uint8Array(1)]])))
  })

  test('numbered leaves: the same root as keyed ones, through growth, reuse of freed slots and clones', () => {
    const next = prng(0x5eed)
    // Ids spread like order ids (sequential, with gaps) over enough of them to grow the table often.
    const ids = Array.from({ length: 3_000 }, (_, i) => i * 3 + (i % 5))
    const keyOf = (id: number) => `o:${1 + (id % 3)}:${id}`
    const model = new Map<string, Uint8Array>([['x', utf8ToBytes('exchange')]])
    const h = new StateHash()
    h.set('x', utf8ToBytes('exchange'))
    let snapshot: { clone: StateHash; root: string; size: number } | undefined
    for (let op = 1; op <= 20_000; op++) {
      const id = ids[next() % ids.length]!
      if (next() % 3 === 0) {
        h.deleteNumbered(id)
        model.delete(keyOf(id))
      } else {
        const value = next() % 8 === 0 ? utf8ToBytes(`v${next() % 3}`) : randomBytes(next, 1 + (next() % 64))
        h.setNumbered(id, keyOf(id), value)
        model.set(keyOf(id), value)
      }
      if (op % 2_000 === 0) {
        expect(h.leafCount).toBe(model.size)
        expect(hex(h.root())).toBe(hex(stateRootOf(model)))
      }
      if (op === 10_000) snapshot = { clone: h.clone(), root: hex(h.root()), size: model.size }
    }
    for (const id of ids) expect(h.hasNumbered(id)).toBe(model.has(keyOf(id)))
    expect(hex(h.root())).toBe(hex(referenceRoot(model)))
    // The clone taken half way did not move with the original.
    expect(hex(snapshot!.clone.root())).toBe(snapshot!.root)
    expect(snapshot!.clone.leafCount).toBe(snapshot!.size)
    // Deleting every numbered leaf leaves the keyed one alone.
    for (const id of ids) h.deleteNumbered(id)
    expect(h.leafCount).toBe(1)
    expect(hex(h.root())).toBe(hex(stateRootOf([['x', utf8ToBytes('exchange')]])))
  })

  test('clone is independent of the original', () => {
    const h = fromMap(
      new Map([
        ['a', utf8ToBytes('1')],
        ['b', utf8ToBytes('2')],
      ]),
    )
    const rootBefore = hex(h.root())
    const c = h.clone()
    expect(hex(c.root())).toBe(rootBefore)
    expect(c.leafCount).toBe(2)

    h.set('a', utf8ToBytes('changed'))
    h.delete('b')
    expect(hex(c.root())).toBe(rootBefore)
    expect(c.has('b')).toBe(true)
    expect(c.leafCount).toBe(2)

    const rootAfter = hex(h.root())
    c.set('z', utf8ToBytes('26'))
    expect(hex(h.root())).toBe(rootAfter)
    expect(h.has('z')).toBe(false)
    expect(hex(c.root())).toBe(
      hex(
        stateRootOf([
          ['a', utf8ToBytes('1')],
          ['b', utf8ToBytes('2')],
          ['z', utf8ToBytes('26')],
        ]),
      ),
    )
  })

  test('root() returns a copy', () => {
    const h = fromMap(new Map([['a', utf8ToBytes('1')]]))
    const r = h.root()
    const expected = hex(r)
    r.fill(0)
    expect(hex(h.root())).toBe(expected)
  })

  test('rejects keys that are not well-formed UTF-16', () => {
    const h = new StateHash()
    expect(() => h.set('bad\uD800', utf8ToBytes('1'))).toThrow(TypeError)
    expect(h.leafCount).toBe(0)
  })

  test('golden root of a small fixed map (pins the encoding)', () => {
    const map = new Map<string, Uint8Array>([
      ['acct/alice', new Uint8Array([1, 2, 3])],
      ['acct/bob', utf8ToBytes('hello')],
      ['market/BTC-PERP', Uint8Array.from({ length: 64 }, (_, i) => i)],
      ['empty', new Uint8Array(0)],
    ])
    // Changing this value means every existing state_root changes: only do it with a versioned migration.
    const GOLDEN = 'a0580d59f043794243a9e75bf001a28da57ccfa16838f9e0702cff4e012b1ff6'
    expect(hex(fromMap(map).root())).toBe(GOLDEN)
    expect(hex(stateRootOf(map))).toBe(GOLDEN)
    expect(hex(referenceRoot(map))).toBe(GOLDEN)
    expect(hex(new StateHash().root())).toBe('aeffb38c06e111d84216396baefeb7fed397f303d5cb84a33f1e8b485c4a22da')
  })
})

describe('StateHash handed to another thread', () => {
  test('fromContents(detach()) goes on from the same root through a structured clone; the detached hash refuses every use', () => {
    const next = prng(7)
    const a = new StateHash()
    const twin = new StateHash()
    for (let i = 0; i < 200; i++) {
      const value = randomBytes(next, 20)
      a.set(`k${i}`, value)
      twin.set(`k${i}`, value)
      a.setNumbered(i, `o:${i}`, value)
      twin.setNumbered(i, `o:${i}`, value)
    }
    const root = bytesToHex(a.root())
    // What postMessage does to the contents on their way to a thread.
    const moved = StateHash.fromContents(structuredClone(a.detach()))
    expect(bytesToHex(moved.root())).toBe(root)
    expect(moved.leafCount).toBe(400)
    for (let i = 0; i < 200; i += 3) {
      const value = randomBytes(next, 20)
      moved.set(`k${i}`, value)
      twin.set(`k${i}`, value)
      moved.deleteNumbered(i)
      twin.deleteNumbered(i)
    }
    expect(bytesToHex(moved.root())).toBe(bytesToHex(twin.root()))
    expect(() => a.root()).toThrow(/handed to another thread/)
    expect(() => a.set('k1', new Uint8Array(1))).toThrow(/handed to another thread/)
    expect(() => a.deleteNumbered(1)).toThrow(/handed to another thread/)
    expect(() => a.detach()).toThrow(/handed to another thread/)
  })
})
