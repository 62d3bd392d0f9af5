/**
 * The LtHash lane update (state-hash.ts) in WebAssembly SIMD: acc ±= BLAKE3-XOF(digest, 2048 bytes)
 * as 1024 uint16 lanes, bit for bit what `expandLeaf` plus the JS lane loop compute, in about a
 * third of the time (2.9-3.3 us against 7.3-10 us per leaf on the dev box; the last line of
 * scripts/bench/state-hash.ts). A block's state-root commit is mostly these updates.
 *
 * The module is built here, byte by byte, from the BLAKE3 definition (no binary is shipped and no
 * toolchain is needed): one compression per output block with the 4x4 state held as four i32x4 rows
 * (the column step works on the rows, the diagonal step on the rows rotated by 1, 2 and 3 lanes, as
 * BLAKE3's SSE implementation does). The input is one 32-byte block (the digest; message words
 * 8..15 are zero), so the message vectors of the 7 rounds are the same for all 32 output blocks:
 * `load` writes them once per leaf, and the 32 compressions differ only in the counter. `sub`
 * subtracts each output block from the accumulator in the module's memory as it comes, eight uint16
 * lanes per vector; `expand` writes the blocks out as the leaf vector instead, which `addVector`
 * adds to the accumulator and which state-hash.ts keeps, so that removing the leaf later costs a
 * `subVector` instead of an expansion.
 *
 * Deterministic like the rest of the chain: integer SIMD has no rounding or platform choice, and
 * WebAssembly memory is little-endian by definition. The accumulator is copied into and out of the
 * module's memory as raw bytes, which matches the Uint16Array's lanes on little-endian hosts only,
 * so `createLaneMixer` returns undefined on a big-endian host (or where SIMD is missing) and
 * state-hash.ts keeps its JS path.
 */

/** The BLAKE3 IV (= the SHA-256 IV). */
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
/** Flags of the single block of a one-block root chunk: CHUNK_START | CHUNK_END | ROOT. */
const ROOT_CHUNK_FLAGS = 1 | 2 | 8
/** Length of the one input block: the 32-byte digest. */
const BLOCK_LEN = 32
/** BLAKE3's message word permutation between rounds. */
const MSG_PERMUTATION = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8]
const ROUNDS = 7
const OUTPUT_BLOCKS = 32

// Memory layout (one 64 KiB page): the 28 message vectors (4 per round), the accumulator, and one
// leaf vector (expand writes it, addVector and subVector read it).
const MSG_OFFSET = 0
const MSG_VECTORS = ROUNDS * 4
const ACC_OFFSET = 512
const ACC_BYTES = 2048
const VEC_OFFSET = 4096

/**
 * The message vectors as 112 lanes: for round r, vector k (0: column mx, 1: column my, 2: diagonal
 * mx, 3: diagonal my) and lane j, at 16 r + 4 k + j, the message word the lane takes (>= 8: one of
 * the zero words).
 */
const MESSAGE_LANES: Uint8Array = (() => {
  const out: number[] = []
  let idx = Array.from({ length: 16 }, (_, i) => i)
  for (let r = 0; r < ROUNDS; r++) {
    for (const from of [0, 1, 8, 9]) out.push(idx[from]!, idx[from + 2]!, idx[from + 4]!, idx[from + 6]!)
    const prev = idx
    idx = MSG_PERMUTATION.map((p) => prev[p]!)
  }
  return Uint8Array.from(out)
})()

// --- a minimal WebAssembly binary writer ---

function uleb(n: number): number[] {
  const out: number[] = []
  do {
    let b = n & 0x7f
    n >>>= 7
    if (n !== 0) b |= 0x80
    out.push(b)
  } while (n !== 0)
  return out
}

function sleb(n: number): number[] {
  const out: number[] = []
  for (;;) {
    const b = n & 0x7f
    n >>= 7
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b)
      return out
    }
    out.push(b | 0x80)
  }
}

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body]
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()]
const name = (s: string): number[] => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))]

const I32 = 0x7f
const V128 = 0x7b
const op = {
  localGet: (i: number) => [0x20, ...uleb(i)],
  localSet: (i: number) => [0x21, ...uleb(i)],
  localTee: (i: number) => [0x22, ...uleb(i)],
  i32Const: (n: number) => [0x41, ...sleb(n | 0)],
  i32Add: [0x6a],
  i32Shl: [0x74],
  i32LtU: [0x49],
  loop: [0x03, 0x40],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  end: [0x0b],
  v128Load: (offset: number) => [0xfd, ...uleb(0x00), 4, ...uleb(offset)],
  v128Store: (offset: number) => [0xfd, ...uleb(0x0b), 4, ...uleb(offset)],
  v128Const: (words: readonly number[]) => [
    0xfd,
    ...uleb(0x0c),
    ...words.flatMap((w) => [w & 0xff, (w >>> 8) & 0xff, (w >>> 16) & 0xff, (w >>> 24) & 0xff]),
  ],
  shuffle: (lanes: readonly number[]) => [0xfd, ...uleb(0x0d), ...lanes],
  i32x4ReplaceLane: (lane: number) => [0xfd, ...uleb(0x1c), lane],
  v128Or: [0xfd, ...uleb(0x50)],
  v128Xor: [0xfd, ...uleb(0x51)],
  i16x8Add: [0xfd, ...uleb(0x8e)],
  i16x8Sub: [0xfd, ...uleb(0x91)],
  i32x4Shl: [0xfd, ...uleb(0xab)],
  i32x4ShrU: [0xfd, ...uleb(0xad)],
  i32x4Add: [0xfd, ...uleb(0xae)],
}

/** Byte shuffles: rotate each 32-bit lane right by 16 or 8 bits; rotate the four lanes left by n. */
const ROTR16 = [2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13]
const ROTR8 = [1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12]
const lanesLeft = (n: number): number[] => Array.from({ length: 16 }, (_, i) => (i + 4 * n) % 16)

// Locals: the block counter t and an address (i32); the four rows of the state (v128).
const T = 0
const ADDR = 1
const [R0, R1, R2, R3] = [2, 3, 4, 5] as const
const ROWS = [R0, R1, R2, R3] as const
const V128_LOCALS = 4

/** x = x rotated right by n bits, lane-wise (x a local). */
function rotr(x: number, n: number): number[] {
  if (n === 16 || n === 8) {
    return [...op.localGet(x), ...op.localGet(x), ...op.shuffle(n === 16 ? ROTR16 : ROTR8), ...op.localSet(x)]
  }
  return [
    ...op.localGet(x),
    ...op.i32Const(n),
    ...op.i32x4ShrU,
    ...op.localGet(x),
    ...op.i32Const(32 - n),
    ...op.i32x4Shl,
    ...op.v128Or,
    ...op.localSet(x),
  ]
}

/** x = x (op) y for two locals. */
const combine = (x: number, y: number, instr: number[]): number[] => [...op.localGet(x), ...op.localGet(y), ...instr, ...op.localSet(x)]

/** a = a + b + message vector m. */
const addMessage = (a: number, b: number, m: number): number[] => [
  ...op.localGet(a),
  ...op.localGet(b),
  ...op.i32x4Add,
  ...op.i32Const(0),
  ...op.v128Load(MSG_OFFSET + 16 * m),
  ...op.i32x4Add,
  ...op.localSet(a),
]

/** The G function on the four rows at once (one G per column, or per diagonal once rotated). */
function g(mx: number, my: number): number[] {
  return [
    ...addMessage(R0, R1, mx),
    ...combine(R3, R0, op.v128Xor),
    ...rotr(R3, 16),
    ...combine(R2, R3, op.i32x4Add),
    ...combine(R1, R2, op.v128Xor),
    ...rotr(R1, 12),
    ...addMessage(R0, R1, my),
    ...combine(R3, R0, op.v128Xor),
    ...rotr(R3, 8),
    ...combine(R2, R3, op.i32x4Add),
    ...combine(R1, R2, op.v128Xor),
    ...rotr(R1, 7),
  ]
}

/** Rotates rows 1..3 left by 1, 2, 3 lanes (diagonalize) or by 3, 2, 1 (undo). */
function diagonal(undo: boolean): number[] {
  return [1, 2, 3].flatMap((r) => {
    const x = ROWS[r]!
    return [...op.localGet(x), ...op.localGet(x), ...op.shuffle(lanesLeft(undo ? 4 - r : r)), ...op.localSet(x)]
  })
}

/** What a compression's output block goes to: added to or subtracted from the accumulator, or stored as the leaf vector. */
type OutputMode = 'sub' | 'store'

/**
 * The body of sub or expand: for t in 0..31, acc[64 t .. 64 t + 64) -= compress(IV, message,
 * counter t) as uint16 lanes, or (expand) the leaf vector's bytes 64 t .. 64 t + 64 = it. (Two or
 * four blocks interleaved per iteration measured slower: the rows spill out of the registers.)
 */
function mixBody(mode: OutputMode): number[] {
  const iv = (from: number) => op.v128Const(IV.slice(from, from + 4))
  const body: number[] = [...op.i32Const(0), ...op.localSet(T), ...op.loop]
  // The state: cv = IV, then IV[0..3], then (counter_lo = t, counter_hi, block_len, flags).
  body.push(...iv(0), ...op.localSet(R0), ...iv(4), ...op.localSet(R1), ...iv(0), ...op.localSet(R2))
  body.push(...op.v128Const([0, 0, BLOCK_LEN, ROOT_CHUNK_FLAGS]), ...op.localGet(T), ...op.i32x4ReplaceLane(0), ...op.localSet(R3))
  for (let r = 0; r < ROUNDS; r++) body.push(...g(4 * r, 4 * r + 1), ...diagonal(false), ...g(4 * r + 2, 4 * r + 3), ...diagonal(true))
  // Output words 0..7 = v[i] ^ v[i+8]; words 8..15 = v[i+8] ^ cv[i]; into the accumulator at 64 t.
  const outputs: number[][] = [
    [...op.localGet(R0), ...op.localGet(R2), ...op.v128Xor],
    [...op.localGet(R1), ...op.localGet(R3), ...op.v128Xor],
    [...op.localGet(R2), ...iv(0), ...op.v128Xor],
    [...op.localGet(R3), ...iv(4), ...op.v128Xor],
  ]
  body.push(...op.localGet(T), ...op.i32Const(6), ...op.i32Shl, ...op.localSet(ADDR))
  outputs.forEach((value, k) => {
    if (mode === 'store') {
      body.push(...op.localGet(ADDR), ...value, ...op.v128Store(VEC_OFFSET + 16 * k))
      return
    }
    const offset = ACC_OFFSET + 16 * k
    body.push(...op.localGet(ADDR), ...op.localGet(ADDR), ...op.v128Load(offset), ...value, ...op.i16x8Sub)
    body.push(...op.v128Store(offset))
  })
  body.push(
    ...op.localGet(T),
    ...op.i32Const(1),
    ...op.i32Add,
    ...op.localTee(T),
    ...op.i32Const(OUTPUT_BLOCKS),
    ...op.i32LtU,
    ...op.brIf(0),
  )
  body.push(...op.end)
  return body
}

/** The body of addVector or subVector: acc ±= the leaf vector, lane-wise, 16 bytes at a time. */
function vectorBody(subtract: boolean): number[] {
  return [
    ...op.i32Const(0),
    ...op.localSet(ADDR),
    ...op.loop,
    ...op.localGet(ADDR),
    ...op.localGet(ADDR),
    ...op.v128Load(ACC_OFFSET),
    ...op.localGet(ADDR),
    ...op.v128Load(VEC_OFFSET),
    ...(subtract ? op.i16x8Sub : op.i16x8Add),
    ...op.v128Store(ACC_OFFSET),
    ...op.localGet(ADDR),
    ...op.i32Const(16),
    ...op.i32Add,
    ...op.localTee(ADDR),
    ...op.i32Const(ACC_BYTES),
    ...op.i32LtU,
    ...op.brIf(0),
    ...op.end,
  ]
}

/** The module's bytes: memory (exported), sub(), expand(), addVector() and subVector(). */
export function laneMixerModuleBytes(): Uint8Array {
  const locals = vec([
    [...uleb(2), I32],
    [...uleb(V128_LOCALS), V128],
  ])
  const code = (instructions: number[]) => {
    const body = [...locals, ...instructions, ...op.end]
    return [...uleb(body.length), ...body]
  }
  const bytes = [
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vec([[0x60, 0x00, 0x00]])), // type 0: () -> ()
    ...section(3, vec([[0x00], [0x00], [0x00], [0x00]])), // four functions of type 0
    ...section(5, vec([[0x00, 0x01]])), // one memory, min 1 page
    ...section(
      7,
      vec([
        [...name('memory'), 0x02, 0x00],
        [...name('sub'), 0x00, 0x00],
        [...name('expand'), 0x00, 0x01],
        [...name('addVector'), 0x00, 0x02],
        [...name('subVector'), 0x00, 0x03],
      ]),
    ),
    ...section(10, vec([code(mixBody('sub')), code(mixBody('store')), code(vectorBody(false)), code(vectorBody(true))])),
  ]
  return new Uint8Array(bytes)
}

/** acc ±= the leaf vector of digest, lane-wise mod 2^16. */
export interface LaneMixer {
  sub(acc: Uint16Array, digest: Uint8Array): void
  /** acc += the leaf vector of digest, and the vector (1024 lanes) into vector, for a later subVector. */
  addKeeping(acc: Uint16Array, digest: Uint8Array, vector: Uint16Array): void
  /** acc -= vector: the leaf vector of a digest, as addKeeping gave it, without expanding the digest again. */
  subVector(acc: Uint16Array, vector: Uint16Array): void
}

/** The SIMD lane mixer, or undefined where it cannot be used (no SIMD, a big-endian host). */
export function createLaneMixer(): LaneMixer | undefined {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) return undefined
  let instance: WebAssembly.Instance
  try {
    instance = new WebAssembly.Instance(new WebAssembly.Module(laneMixerModuleBytes()))
  } catch {
    return undefined
  }
  const memory = instance.exports.memory as WebAssembly.Memory
  const sub = instance.exports.sub as () => void
  const expand = instance.exports.expand as () => void
  const addVector = instance.exports.addVector as () => void
  const subVector = instance.exports.subVector as () => void
  const words = new Uint32Array(memory.buffer, MSG_OFFSET, MSG_VECTORS * 4)
  const acc = new Uint16Array(memory.buffer, ACC_OFFSET, ACC_BYTES / 2)
  const leafVector = new Uint16Array(memory.buffer, VEC_OFFSET, ACC_BYTES / 2)
  // The 8 message words, then the 8 zero words, indexed by MESSAGE_LANES.
  const m = new Uint32Array(16)
  /** Writes the 28 message vectors of digest. */
  const load = (d: Uint8Array) => {
    for (let i = 0; i < 8; i++) m[i] = d[4 * i]! | (d[4 * i + 1]! << 8) | (d[4 * i + 2]! << 16) | (d[4 * i + 3]! << 24)
    for (let i = 0; i < MESSAGE_LANES.length; i++) words[i] = m[MESSAGE_LANES[i]!]!
  }
  const run = (f: () => void, target: Uint16Array, digest: Uint8Array) => {
    load(digest)
    acc.set(target)
    f()
    target.set(acc)
  }
  return {
    sub: (target, digest) => run(sub, target, digest),
    addKeeping: (target, digest, vector) => {
      load(digest)
      expand()
      vector.set(leafVector)
      acc.set(target)
      addVector()
      target.set(acc)
    },
    subVector: (target, vector) => {
      leafVector.set(vector)
      acc.set(target)
      subVector()
      target.set(acc)
    },
  }
}
