// A block's changed leaves as bytes (foldDirtyLeaves into a LeafChangeWriter), to be folded into a
// StateHash that another thread holds (replayLeafChanges there): the node computes its blocks' roots
// on a thread of its own (src/node/state-root-thread.ts) while the block thread writes the block's
// rows. The bytes live only between two threads of one process, never on disk or the wire, and
// folding them gives the hash exactly the calls foldDirtyLeaves would have made on it.
//
// A record: op (u8), then for SET: key, value; DELETE: key; SET_NUMBERED: id, key, value;
// DELETE_NUMBERED: id. A key or value is u32le length + bytes (the key UTF-8), an id f64le.
import type { LeafSink } from './state-root.ts'

const SET = 1
const DELETE = 2
const SET_NUMBERED = 3
const DELETE_NUMBERED = 4

const utf8 = new TextEncoder()
const utf8Decoder = new TextDecoder()

/**
 * Records LeafSink calls as bytes and hands them to onChunk a chunk at a time: every chunkRecords
 * records or chunkBytes bytes, and what is left at flush(). A chunk is a view of the writer's own
 * buffer, valid only during the call (copy it to keep it): the buffer is reused, so a block's
 * changes allocate nothing once it has grown to the largest chunk.
 */
export class LeafChangeWriter implements LeafSink {
  private bytes = new Uint8Array(64 * 1024)
  private view = new DataView(this.bytes.buffer)
  private at = 0
  /** Records written since the last chunk. */
  private count = 0

  constructor(
    private readonly onChunk: (records: Uint8Array) => void,
    private readonly chunkRecords = 256,
    private readonly chunkBytes = 64 * 1024,
  ) {}

  set(key: string, value: Uint8Array): void {
    this.room(1 + 4 + key.length * 3 + 4 + value.length)
    this.bytes[this.at++] = SET
    this.putKey(key)
    this.putValue(value)
    this.recorded()
  }

  delete(key: string): void {
    this.room(1 + 4 + key.length * 3)
    this.bytes[this.at++] = DELETE
    this.putKey(key)
    this.recorded()
  }

  setNumbered(id: number, key: string, value: Uint8Array): void {
    this.room(1 + 8 + 4 + key.length * 3 + 4 + value.length)
    this.bytes[this.at++] = SET_NUMBERED
    this.view.setFloat64(this.at, id, true)
    this.at += 8
    this.putKey(key)
    this.putValue(value)
    this.recorded()
  }

  deleteNumbered(id: number): void {
    this.room(1 + 8)
    this.bytes[this.at++] = DELETE_NUMBERED
    this.view.setFloat64(this.at, id, true)
    this.at += 8
    this.recorded()
  }

  /** Hands the records written since the last chunk to onChunk (nothing when there are none). */
  flush(): void {
    if (this.at === 0) return
    const records = this.bytes.subarray(0, this.at)
    this.at = 0
    this.count = 0
    this.onChunk(records)
  }

  /** Counts a record, and hands a full chunk over. */
  private recorded(): void {
    if (++this.count >= this.chunkRecords || this.at >= this.chunkBytes) this.flush()
  }

  private putKey(key: string): void {
    const { written } = utf8.encodeInto(key, this.bytes.subarray(this.at + 4))
    this.view.setUint32(this.at, written, true)
    this.at += 4 + written
  }

  private putValue(value: Uint8Array): void {
    this.view.setUint32(this.at, value.length, true)
    this.bytes.set(value, this.at + 4)
    this.at += 4 + value.length
  }

  /** Grows the buffer so that `need` more bytes fit. */
  private room(need: number): void {
    if (this.at + need <= this.bytes.length) return
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.at + need))
    grown.set(this.bytes.subarray(0, this.at))
    this.bytes = grown
    this.view = new DataView(grown.buffer)
  }
}

/** Makes on sink the calls a LeafChangeWriter recorded in `bytes`, in their order. */
export function replayLeafChanges(bytes: Uint8Array, sink: LeafSink): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = 0
  const field = (): Uint8Array => {
    const length = view.getUint32(at, true)
    const start = at + 4
    at = start + length
    if (at > bytes.length) throw new Error('leaf changes: a record runs past the end')
    return bytes.subarray(start, at)
  }
  const id = (): number => {
    const value = view.getFloat64(at, true)
    at += 8
    return value
  }
  while (at < bytes.length) {
    const op = bytes[at++]
    if (op === SET) {
      const key = utf8Decoder.decode(field())
      sink.set(key, field())
    } else if (op === DELETE) sink.delete(utf8Decoder.decode(field()))
    else if (op === SET_NUMBERED) {
      const n = id()
      const key = utf8Decoder.decode(field())
      sink.setNumbered(n, key, field())
    } else if (op === DELETE_NUMBERED) sink.deleteNumbered(id())
    else throw new Error(`leaf changes: unknown record ${op} at byte ${at - 1}`)
  }
}
