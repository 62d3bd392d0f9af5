/**
 * The LtHash lane update (state-hash.ts) in WebAssembly SIMD: acc ±= BLAKE3-XOF(digest, 2048 bytes)
 * as 1024 uint16 lanes, bit for bit what `expandLeaf` plus the JS lane loop compute, in about half
 * the time (2.4-2.7 us against 4.8-5.7 us per leaf on the 2-core development machine, 2026-11-27;
 * the last line of scripts/bench/state-hash.ts). A block's state-root commit is mostly these updates.
 *
 * The module is built here, byte by byte, from the BLAKE3 definition (no binary is shipped and no
 * toolchain is needed). The 32 output blocks are 32 compressions of one input, the 32-byte digest
 * (message words 8..15 zero), that differ only in their counter, so they run four at a time: each
 * of the 16 state words is one i32x4 vector whose lane j belongs to counter t + j, the message
 * words are splatted (the zero words add nothing and are left out), and each group of four output
 * words is transposed back into block order at the end. A compression per vector of four rows (the
 * column step on the rows, the diagonal step on the rows rotated by 1, 2 and 3 lanes, as BLAKE3's
 * SSE code does for one block) added a leaf vector in 2.90-3.05 us against 2.44-2.72 this way
 * (scripts/bench/state-hash.ts, three alternated runs on the 2-core development machine,
 * 2026-11-27); interleaving the four G functions of a step took 3.8-4.0 us (their sixteen vectors
 * and the temporaries spill out of the registers). `load` writes the message once per leaf. `sub`
 * subtracts each output block from the accumulator in the module's memory as it comes; `expand`
 * writes the blocks out as the leaf vector instead, which `addVector` adds to the accumulator and
 * which state-hash.ts keeps, so that removing the leaf later costs a `subVector` instead of an
 * expansion.
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

// Memory layout (one 64 KiB page): the 8 message words, each splatted to a vector, the
// accumulator, and one leaf vector (expand writes it, addVector and subVector read it).
const MSG_OFFSET = 0
const MSG_WORDS = 8
const ACC_OFFSET = 512
const ACC_BYTES = 2048
const VEC_OFFSET = 4096

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
  i32x4Splat: [0xfd, ...uleb(0x11)],
  v128Or: [0xfd, ...uleb(0x50)],
  v128Xor: [0xfd, ...uleb(0x51)],
  i16x8Add: [0xfd, ...uleb(0x8e)],
  i16x8Sub: [0xfd, ...uleb(0x91)],
  i32x4Shl: [0xfd, ...uleb(0xab)],
  i32x4ShrU: [0xfd, ...uleb(0xad)],
  i32x4Add: [0xfd, ...uleb(0xae)],
}

/** Byte shuffles: rotate each 32-bit lane right by 16 or 8 bits. */
const ROTR16 = [2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13]
const ROTR8 = [1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12]

// Locals: the block counter t and an address (i32); the 16 state words (v128: word k of four
// compressions, one per lane) and four for the output's transpose.
const T = 0
const ADDR = 1
const V = Array.from({ length: 16 }, (_, k) => 2 + k)
const X = [18, 19, 20, 21] as const
const V128_LOCALS = 20

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

/** What a compression's output block goes to: added to or subtracted from the accumulator, or stored as the leaf vector. */
type OutputMode = 'sub' | 'store'

/** i32 lanes 0..3 of a and b interleaved: unpack low (a0 b0 a1 b1) or high (a2 b2 a3 b3). */
const UNPACK_LO = [0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23]
const UNPACK_HI = [8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31]
/** The low or high 64 bits of a, then those of b. */
const HALVES_LO = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]
const HALVES_HI = [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31]

/** a = a + b (+ the message word w splatted, unless it is one of the zero words 8..15). */
function addWord(a: number, b: number, w: number): number[] {
  const out = [...op.localGet(a), ...op.localGet(b), ...op.i32x4Add]
  if (w < 8) out.push(...op.i32Const(0), ...op.v128Load(MSG_OFFSET + 16 * w), ...op.i32x4Add)
  return [...out, ...op.localSet(a)]
}

/** Half of BLAKE3's G: a += b + m; d = (d ^ a) >>> rd; c += d; b = (b ^ c) >>> rb. */
const halfG = (a: number, b: number, c: number, d: number, m: number, rd: number, rb: number): number[] => [
  ...addWord(a, b, m),
  ...combine(d, a, op.v128Xor),
  ...rotr(d, rd),
  ...combine(c, d, op.i32x4Add),
  ...combine(b, c, op.v128Xor),
  ...rotr(b, rb),
]

/** BLAKE3's G on state words a, b, c, d of the four compressions at once. */
const g4 = (a: number, b: number, c: number, d: number, mx: number, my: number): number[] => [
  ...halfG(a, b, c, d, mx, 16, 12),
  ...halfG(a, b, c, d, my, 8, 7),
]

/**
 * The body of sub or expand, four output blocks at a time: for t in 0, 4, .., 28 the compressions
 * of counters t..t+3 run side by side, lane j of every vector belonging to counter t+j, then each
 * group of four output words is transposed back into block order.
 */
function mixBody(mode: OutputMode): number[] {
  const splat = (w: number) => op.v128Const([w, w, w, w])
  const body: number[] = [...op.i32Const(0), ...op.localSet(T), ...op.loop]
  for (let k = 0; k < 8; k++) body.push(...splat(IV[k]!), ...op.localSet(V[k]!))
  for (let k = 0; k < 4; k++) body.push(...splat(IV[k]!), ...op.localSet(V[8 + k]!))
  body.push(...op.localGet(T), ...op.i32x4Splat, ...op.v128Const([0, 1, 2, 3]), ...op.i32x4Add, ...op.localSet(V[12]!))
  body.push(...splat(0), ...op.localSet(V[13]!), ...splat(BLOCK_LEN), ...op.localSet(V[14]!))
  body.push(...splat(ROOT_CHUNK_FLAGS), ...op.localSet(V[15]!))
  let idx = Array.from({ length: 16 }, (_, i) => i)
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < 4; i++) body.push(...g4(V[i]!, V[4 + i]!, V[8 + i]!, V[12 + i]!, idx[2 * i]!, idx[2 * i + 1]!))
    for (let i = 0; i < 4; i++)
      body.push(...g4(V[i]!, V[4 + ((i + 1) % 4)]!, V[8 + ((i + 2) % 4)]!, V[12 + ((i + 3) % 4)]!, idx[8 + 2 * i]!, idx[9 + 2 * i]!))
    const prev = idx
    idx = MSG_PERMUTATION.map((p) => prev[p]!)
  }
  // Output words 0..7 = v[i] ^ v[i+8]; words 8..15 = v[i+8] ^ cv[i] (cv = IV).
  for (let i = 0; i < 8; i++) body.push(...combine(V[i]!, V[i + 8]!, op.v128Xor))
  for (let i = 0; i < 8; i++) body.push(...op.localGet(V[i + 8]!), ...splat(IV[i]!), ...op.v128Xor, ...op.localSet(V[i + 8]!))
  body.push(...op.localGet(T), ...op.i32Const(6), ...op.i32Shl, ...op.localSet(ADDR))
  for (let grp = 0; grp < 4; grp++) {
    const [a, b, c, d] = [V[4 * grp]!, V[4 * grp + 1]!, V[4 * grp + 2]!, V[4 * grp + 3]!]
    const pair = (x: number, y: number, lanes: number[], into: number) => [
      ...op.localGet(x),
      ...op.localGet(y),
      ...op.shuffle(lanes),
      ...op.localSet(into),
    ]
    body.push(
      ...pair(a, b, UNPACK_LO, X[0]),
      ...pair(c, d, UNPACK_LO, X[1]),
      ...pair(a, b, UNPACK_HI, X[2]),
      ...pair(c, d, UNPACK_HI, X[3]),
    )
    const blocks: [number, number, number[]][] = [
      [X[0], X[1], HALVES_LO],
      [X[0], X[1], HALVES_HI],
      [X[2], X[3], HALVES_LO],
      [X[2], X[3], HALVES_HI],
    ]
    blocks.forEach(([x, y, lanes], j) => {
      const value = [...op.localGet(x), ...op.localGet(y), ...op.shuffle(lanes)]
      if (mode === 'store') {
        body.push(...op.localGet(ADDR), ...value, ...op.v128Store(VEC_OFFSET + 64 * j + 16 * grp))
        return
      }
      const offset = ACC_OFFSET + 64 * j + 16 * grp
      body.push(...op.localGet(ADDR), ...op.localGet(ADDR), ...op.v128Load(offset), ...value, ...op.i16x8Sub, ...op.v128Store(offset))
    })
  }
  body.push(
    ...op.localGet(T),
    ...op.i32Const(4),
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
  const words = new Uint32Array(memory.buffer, MSG_OFFSET, MSG_WORDS * 4)
  const acc = new Uint16Array(memory.buffer, ACC_OFFSET, ACC_BYTES / 2)
  const leafVector = new Uint16Array(memory.buffer, VEC_OFFSET, ACC_BYTES / 2)
  /** Writes the digest's 8 message words, each to the four lanes of its vector. */
  const load = (d: Uint8Array) => {
    for (let i = 0; i < MSG_WORDS; i++) {
      const word = d[4 * i]! | (d[4 * i + 1]! << 8) | (d[4 * i + 2]! << 16) | (d[4 * i + 3]! << 24)
      words[4 * i] = word
      words[4 * i + 1] = word
      words[4 * i + 2] = word
      words[4 * i + 3] = word
    }
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
