// The leaf changes a block hands to the state-root thread: folding the bytes into a hash makes the
// same calls, so it reaches the same root, whole or in chunks; damaged bytes are refused.
import { describe, expect, test } from 'bun:test'
import { bytesToHex } from '../../lib/hex.ts'
import { LeafChangeWriter, replayLeafChanges } from './leaf-changes.ts'
import { StateHash } from './state-hash.ts'
import type { LeafSink } from './state-root.ts'

const bytes = (...b: number[]) => new Uint8Array(b)

/** A block's worth of every kind of change, made on sink. */
function changes(sink: LeafSink, block: number): void {
  sink.set('x', new Uint8Array(100_000).fill(block)) // past the writer's first buffer (it grows) and a chunk's bytes
  for (let i = 0; i < 300; i++) sink.set(`n:0xsigner${i % 40}`, bytes(block, i & 0xff, i >> 8))
  sink.set('a:ключ-✓', bytes(block, 1)) // non-ASCII keys go as UTF-8
  for (let i = 0; i < 100; i++) sink.setNumbered(block * 1_000 + i, `o:1:${block * 1_000 + i}`, bytes(i, block))
  if (block > 0) for (let i = 0; i < 100; i += 2) sink.deleteNumbered((block - 1) * 1_000 + i)
  sink.delete(`n:0xsigner${block}`)
}

/** A writer whose chunks are copied into `into`, as the state-root thread copies them into its ring. */
const collecting = (into: Uint8Array[], chunkRecords?: number) =>
  new LeafChangeWriter((records) => into.push(records.slice()), chunkRecords)

describe('leaf changes', () => {
  test('folded from bytes, in one chunk or many, a hash reaches the same roots as the calls made on it', () => {
    const direct = new StateHash()
    const whole = new StateHash()
    const chunked = new StateHash()
    const wholeChunks: Uint8Array[] = []
    const wholeWriter = collecting(wholeChunks, 1_000_000)
    const chunks: Uint8Array[] = []
    const chunkWriter = collecting(chunks, 64)
    for (let block = 0; block < 4; block++) {
      changes(direct, block)
      changes(wholeWriter, block)
      changes(chunkWriter, block)
      wholeWriter.flush()
      chunkWriter.flush()
      // The 100 KB value passes the byte bound; the records, the count bound.
      expect(wholeChunks.length).toBe(2)
      expect(chunks.length).toBeGreaterThan(5)
      for (const chunk of wholeChunks.splice(0)) replayLeafChanges(chunk, whole)
      for (const chunk of chunks.splice(0)) replayLeafChanges(chunk, chunked)
      const root = bytesToHex(direct.root())
      expect(bytesToHex(whole.root())).toBe(root)
      expect(bytesToHex(chunked.root())).toBe(root)
    }
    expect(whole.leafCount).toBe(direct.leafCount)
  })

  test('flush hands over only what was written since the last chunk, and nothing when nothing was', () => {
    const chunks: Uint8Array[] = []
    const writer = collecting(chunks)
    writer.flush()
    expect(chunks).toEqual([])
    writer.set('a', bytes(1))
    writer.flush()
    writer.set('b', bytes(2))
    writer.flush()
    expect(chunks.length).toBe(2)
    const hash = new StateHash()
    replayLeafChanges(chunks[0]!, hash)
    expect(hash.has('a')).toBe(true)
    expect(hash.has('b')).toBe(false)
  })

  test('bytes it did not write are refused, not folded in silently', () => {
    const chunks: Uint8Array[] = []
    const writer = collecting(chunks)
    writer.set('a:key', bytes(1, 2, 3))
    writer.flush()
    const good = chunks[0]!
    expect(() => replayLeafChanges(good.subarray(0, good.length - 1), new StateHash())).toThrow(/runs past the end/)
    expect(() => replayLeafChanges(bytes(9), new StateHash())).toThrow(/unknown record 9 at byte 0/)
    expect(() => replayLeafChanges(bytes(4, 0, 0), new StateHash())).toThrow(RangeError)
  })
})
