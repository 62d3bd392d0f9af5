import { describe, expect, test } from 'bun:test'
import { blake3 } from '@noble/hashes/blake3.js'
import { mulberry32 } from '../../lib/prng.ts'
import { createLaneMixer, laneMixerModuleBytes } from './lthash-simd.ts'
import { mixLeafJs } from './state-hash.ts'

function randomBytes(next: () => number, len: number): Uint8Array {
  const b = new Uint8Array(len)
  for (let i = 0; i < len; i++) b[i] = next() & 0xff
  return b
}

/** acc ± BLAKE3-XOF(digest, 2048) as little-endian uint16 lanes, from noble's generic BLAKE3. */
function reference(acc: Uint16Array, digest: Uint8Array, sign: 1 | -1): number[] {
  const x = blake3(digest, { dkLen: 2048 })
  const out = new Uint16Array(1024)
  for (let i = 0; i < 1024; i++) out[i] = acc[i]! + sign * (x[2 * i]! | (x[2 * i + 1]! << 8))
  return Array.from(out)
}

describe('lthash-simd', () => {
  test('the generated module is valid WebAssembly and the mixer is available here', () => {
    expect(WebAssembly.validate(laneMixerModuleBytes())).toBe(true)
    expect(createLaneMixer()).toBeDefined()
  })

  test('addKeeping and sub equal noble BLAKE3 XOF lanes and the JS path, on 300 seeded digests', () => {
    const mixer = createLaneMixer()!
    const next = mulberry32(0x17a5)
    for (let n = 0; n < 300; n++) {
      // Digests of every shape: random, all zero, all 0xff.
      const digest = n === 0 ? new Uint8Array(32) : n === 1 ? new Uint8Array(32).fill(0xff) : randomBytes(next, 32)
      const start = new Uint16Array(randomBytes(next, 2048).buffer)
      for (const sign of [1, -1] as const) {
        const want = reference(start, digest, sign)
        const simd = start.slice()
        const js = start.slice()
        if (sign === 1) mixer.addKeeping(simd, digest, new Uint16Array(1024))
        else mixer.sub(simd, digest)
        mixLeafJs(js, digest, sign)
        expect(Array.from(simd)).toEqual(want)
        expect(Array.from(js)).toEqual(want)
      }
    }
  })

  test('sub undoes addKeeping and leaves the caller’s digest untouched', () => {
    const mixer = createLaneMixer()!
    const next = mulberry32(99)
    const acc = new Uint16Array(randomBytes(next, 2048).buffer)
    const before = acc.slice()
    const digests = Array.from({ length: 20 }, () => randomBytes(next, 32))
    const copies = digests.map((d) => d.slice())
    for (const d of digests) mixer.addKeeping(acc, d, new Uint16Array(1024))
    expect(acc).not.toEqual(before)
    for (const d of digests.toReversed()) mixer.sub(acc, d)
    expect(acc).toEqual(before)
    expect(digests).toEqual(copies)
  })

  test('addKeeping adds as add does and hands out the leaf vector; subVector of it undoes the add', () => {
    const mixer = createLaneMixer()!
    const next = mulberry32(0x5eed)
    for (let n = 0; n < 50; n++) {
      const digest = randomBytes(next, 32)
      const start = new Uint16Array(randomBytes(next, 2048).buffer)
      const kept = start.slice()
      const vector = new Uint16Array(1024)
      mixer.addKeeping(kept, digest, vector)
      expect(Array.from(kept)).toEqual(reference(start, digest, 1))
      expect(Array.from(vector)).toEqual(reference(new Uint16Array(1024), digest, 1))
      mixer.subVector(kept, vector)
      expect(Array.from(kept)).toEqual(Array.from(start))
    }
  })
})
