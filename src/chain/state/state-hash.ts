/**
 * Incremental, homomorphic commitment to the node's key -> value state (the block's `state_root`).
 *
 * Construction: a lattice hash (LtHash, Bellare-Micciancio / Lewi et al., the same shape as Solana's
 * accounts lattice hash, SIMD-0215). Every leaf (key, value) maps to a vector of 1024 uint16 lanes;
 * the accumulator is the lane-wise sum mod 2^16 of the vectors of all leaves; adding a leaf adds its
 * vector, removing a leaf subtracts it. The sum is commutative and invertible, so a block updates the
 * root in time proportional to the number of leaves it changed, independent of the state size.
 *
 * Encoding (consensus-critical; the golden root in state-hash.test.ts pins it):
 *
 *   leaf_digest(key, value) = BLAKE3-256( "perpd/state-hash/leaf/v1" ‖ u32le(len(k)) ‖ k ‖ value )
 *                             where k = UTF-8(key) (keys must be well-formed UTF-16), len in bytes
 *   leaf_vector(digest)     = BLAKE3-XOF(digest, 2048 bytes), read as 1024 little-endian uint16 lanes
 *   accumulator             = Σ leaf_vector(leaf_digest(key, value)) over all leaves, lane-wise mod 2^16
 *   root                    = keccak_256( accumulator as 2048 bytes, lanes little-endian, lane order )
 *
 * The empty map has the all-zero accumulator, so its root is keccak_256(2048 zero bytes).
 *
 * Per key only the 32-byte leaf digest is kept: the vector is re-derived from the digest, so removing
 * or replacing a leaf does not need the old value.
 *
 * Choice of the 2048-byte expansion. Measured with Bun 1.4 on the dev box (2-vCPU Xeon VM, shared
 * and noisy, so +-20%; best of 5 interleaved 0.3 s runs), 32-byte digest -> 2048 bytes, per second:
 *
 *   @noble/hashes shake256 (dkLen 2048)        ~10-11k/s  (16 Keccak-f[1600] permutations)
 *   @noble/hashes shake128                     ~11-13k/s
 *   @noble/hashes turboshake128                ~23-24k/s  (12-round Keccak)
 *   @noble/hashes turboshake256                ~21k/s
 *   @noble/hashes kt128                        ~19-22k/s
 *   @noble/hashes blake3 (dkLen 2048)          ~38-42k/s
 *   @noble/ciphers chacha20 keystream          ~110k/s    (chacha12 ~145k/s; chacha8 ~160-190k/s,
 *                                                           but reduced-round and not a hash)
 *   BLAKE3 XOF, specialised here (expandLeaf)  ~150-210k/s
 *
 * So the expansion is BLAKE3's XOF (the XOF SIMD-0215 uses), computed by `expandLeaf`: the BLAKE3
 * compression function fully unrolled and specialised to one 32-byte input block (the 8 zero message
 * words folded away), writing the 32 output blocks into a reused buffer, no allocation. It is
 * bit-for-bit BLAKE3 (the tests compare it with @noble/hashes' blake3). The ~4x over noble's blake3
 * comes from the unrolling and from skipping the generic chunk/tree/XOF bookkeeping (a semi-unrolled
 * loop over rounds measured ~100-125k/s). One expansion costs ~5-6 us, the 1024-lane add ~1 us.
 * Where WebAssembly SIMD is available (Bun's JavaScriptCore has it), expansion and add run there
 * instead (lthash-simd.ts, about 2.5 us for both); the JS path stays as the fallback and the
 * reference its tests compare against.
 *
 * The leaf digest uses the same unrolled compression for encodings of up to one BLAKE3 chunk
 * (1024 bytes; `blake3SingleChunk`) and noble's blake3 beyond that. For a 213-byte encoding:
 * single-chunk path ~1.8 us, noble blake3 ~4.0 us, noble keccak_256 ~12 us.
 *
 * Net cost: inserting a leaf = 1 digest + 1 expansion; replacing a value = 1 digest + 2 expansions
 * (subtract old, add new); deleting = 1 expansion; setting an unchanged value = 1 digest. The old
 * vector's expansion is skipped when the vector was added recently (the memo above addLeaf). See
 * scripts/bench/state-hash.ts for leaf updates per second.
 *
 * Pure and deterministic: no clock, randomness, environment, I/O or floating point. Byte order is
 * handled explicitly (no typed-array views over byte buffers), so the result does not depend on the
 * platform's endianness.
 */
import { blake3 } from '@noble/hashes/blake3.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { DigestTable, type DigestTableContents } from './digest-table.ts'
import { createLaneMixer } from './lthash-simd.ts'

/** Number of uint16 lanes in a leaf vector / the accumulator. */
const LANES = 1024
/** Leaf vector size in 32-bit words (2 lanes per word) and in bytes. */
const WORDS = LANES / 2
const VECTOR_BYTES = LANES * 2

const utf8 = new TextEncoder()
/** Domain-separation prefix of the leaf encoding. */
const LEAF_PREFIX = utf8.encode('perpd/state-hash/leaf/v1')
const KEY_OFFSET = LEAF_PREFIX.length + 4

// Module-level scratch buffers. Everything here is synchronous and single-threaded, so one set of
// buffers is shared by all StateHash instances and nothing is allocated per leaf for them.
/** BLAKE3 chunk size: encodings up to this length are hashed by `blake3SingleChunk`. */
const CHUNK_LEN = 1024
/** LEAF_PREFIX ‖ u32le(len) ‖ UTF-8 key ‖ value, zero-padded to whole 64-byte blocks; grown on demand. */
let leafScratch = new Uint8Array(CHUNK_LEN + 64)
leafScratch.set(LEAF_PREFIX)
/** One expanded leaf vector, as 512 little-endian 32-bit words (word j = lanes 2j | 2j+1 << 16). */
const vectorScratch = new Uint32Array(WORDS)
/** Accumulator serialised for the root hash. */
const rootScratch = new Uint8Array(VECTOR_BYTES)
/** A numbered leaf's previous digest, read out of its DigestTable. */
const oldDigestScratch = new Uint8Array(32)

/** BLAKE3-256 leaf digest of (key, value); see the encoding in the header comment. */
function leafDigest(key: string, value: Uint8Array): Uint8Array {
  if (!key.isWellFormed()) {
    // TextEncoder would silently map lone surrogates to U+FFFD, making two keys share a leaf encoding.
    throw new TypeError('StateHash: key is not well-formed UTF-16')
  }
  // UTF-8 needs at most 3 bytes per UTF-16 code unit; +64 leaves room for the last block's padding.
  const maxLen = KEY_OFFSET + key.length * 3 + value.length + 64
  if (leafScratch.length < maxLen) {
    const grown = new Uint8Array(Math.max(maxLen, leafScratch.length * 2))
    grown.set(LEAF_PREFIX)
    leafScratch = grown
  }
  const buf = leafScratch
  const { written } = utf8.encodeInto(key, buf.subarray(KEY_OFFSET))
  const p = LEAF_PREFIX.length
  buf[p] = written & 0xff
  buf[p + 1] = (written >>> 8) & 0xff
  buf[p + 2] = (written >>> 16) & 0xff
  buf[p + 3] = (written >>> 24) & 0xff
  buf.set(value, KEY_OFFSET + written)
  const n = KEY_OFFSET + written + value.length
  // Multi-chunk inputs need BLAKE3's tree mode: leave those (rare, large values) to noble.
  return n <= CHUNK_LEN ? blake3SingleChunk(buf, n) : blake3(buf.subarray(0, n))
}

// BLAKE3 constants: the IV (= SHA-256 IV) and the flags of a single-block root chunk.
const IV0 = 0x6a09e667 | 0,
  IV1 = 0xbb67ae85 | 0,
  IV2 = 0x3c6ef372 | 0,
  IV3 = 0xa54ff53a | 0
const IV4 = 0x510e527f | 0,
  IV5 = 0x9b05688c | 0,
  IV6 = 0x1f83d9ab | 0,
  IV7 = 0x5be0cd19 | 0
const CHUNK_START = 1,
  CHUNK_END = 2,
  ROOT = 8
/** Flags of the single block of a one-block root chunk. */
const ROOT_CHUNK_FLAGS = CHUNK_START | CHUNK_END | ROOT
/** Length of the single input block (the 32-byte digest). */
const BLOCK_LEN = 32

/** Writes w as 4 little-endian bytes at out[o]. */
function putWord(out: Uint8Array, o: number, w: number): void {
  out[o] = w & 0xff
  out[o + 1] = (w >>> 8) & 0xff
  out[o + 2] = (w >>> 16) & 0xff
  out[o + 3] = w >>> 24
}

/**
 * BLAKE3-256 of buf[0 .. n) for n <= 1024 (a single chunk), i.e. exactly `blake3(buf.subarray(0, n))`,
 * without allocating anything but the result. Zero-pads buf in place up to the next 64-byte boundary
 * (the caller leaves room for that). Each block is one BLAKE3 compression (7 rounds of the G function
 * over columns then diagonals, message words permuted between rounds by [2,6,3,10,7,0,4,13,1,11,12,5,
 * 9,14,15,8]), unrolled: each pair of lines below is one G, with the permutation already applied to
 * the message word names (the per-round comment lists the word order fed to the 8 G calls).
 */
function blake3SingleChunk(buf: Uint8Array, n: number): Uint8Array {
  const blocks = n === 0 ? 1 : (n + 63) >>> 6
  buf.fill(0, n, blocks << 6)
  let c0 = IV0,
    c1 = IV1,
    c2 = IV2,
    c3 = IV3,
    c4 = IV4,
    c5 = IV5,
    c6 = IV6,
    c7 = IV7
  for (let b = 0; b < blocks; b++) {
    const last = b === blocks - 1
    const flags = (b === 0 ? CHUNK_START : 0) | (last ? CHUNK_END | ROOT : 0)
    const q = b << 6
    const m0 = buf[q]! | (buf[q + 1]! << 8) | (buf[q + 2]! << 16) | (buf[q + 3]! << 24)
    const m1 = buf[q + 4]! | (buf[q + 5]! << 8) | (buf[q + 6]! << 16) | (buf[q + 7]! << 24)
    const m2 = buf[q + 8]! | (buf[q + 9]! << 8) | (buf[q + 10]! << 16) | (buf[q + 11]! << 24)
    const m3 = buf[q + 12]! | (buf[q + 13]! << 8) | (buf[q + 14]! << 16) | (buf[q + 15]! << 24)
    const m4 = buf[q + 16]! | (buf[q + 17]! << 8) | (buf[q + 18]! << 16) | (buf[q + 19]! << 24)
    const m5 = buf[q + 20]! | (buf[q + 21]! << 8) | (buf[q + 22]! << 16) | (buf[q + 23]! << 24)
    const m6 = buf[q + 24]! | (buf[q + 25]! << 8) | (buf[q + 26]! << 16) | (buf[q + 27]! << 24)
    const m7 = buf[q + 28]! | (buf[q + 29]! << 8) | (buf[q + 30]! << 16) | (buf[q + 31]! << 24)
    const m8 = buf[q + 32]! | (buf[q + 33]! << 8) | (buf[q + 34]! << 16) | (buf[q + 35]! << 24)
    const m9 = buf[q + 36]! | (buf[q + 37]! << 8) | (buf[q + 38]! << 16) | (buf[q + 39]! << 24)
    const m10 = buf[q + 40]! | (buf[q + 41]! << 8) | (buf[q + 42]! << 16) | (buf[q + 43]! << 24)
    const m11 = buf[q + 44]! | (buf[q + 45]! << 8) | (buf[q + 46]! << 16) | (buf[q + 47]! << 24)
    const m12 = buf[q + 48]! | (buf[q + 49]! << 8) | (buf[q + 50]! << 16) | (buf[q + 51]! << 24)
    const m13 = buf[q + 52]! | (buf[q + 53]! << 8) | (buf[q + 54]! << 16) | (buf[q + 55]! << 24)
    const m14 = buf[q + 56]! | (buf[q + 57]! << 8) | (buf[q + 58]! << 16) | (buf[q + 59]! << 24)
    const m15 = buf[q + 60]! | (buf[q + 61]! << 8) | (buf[q + 62]! << 16) | (buf[q + 63]! << 24)
    let v0 = c0,
      v1 = c1,
      v2 = c2,
      v3 = c3,
      v4 = c4,
      v5 = c5,
      v6 = c6,
      v7 = c7
    let v8 = IV0,
      v9 = IV1,
      v10 = IV2,
      v11 = IV3,
      v12 = 0,
      v13 = 0,
      v14 = last ? n - q : 64,
      v15 = flags
    // round 0: message words m0 m1 m2 m3 m4 m5 m6 m7 m8 m9 m10 m11 m12 m13 m14 m15
    v0 = (v0 + v4 + m0) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4 + m1) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5 + m2) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5 + m3) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6 + m4) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6 + m5) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7 + m6) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7 + m7) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5 + m8) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5 + m9) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6 + m10) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6 + m11) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7 + m12) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7 + m13) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4 + m14) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4 + m15) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    // round 1: message words m2 m6 m3 m10 m7 m0 m4 m13 m1 m11 m12 m5 m9 m14 m15 m8
    v0 = (v0 + v4 + m2) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4 + m6) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5 + m3) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5 + m10) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6 + m7) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6 + m0) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7 + m4) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7 + m13) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5 + m1) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5 + m11) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6 + m12) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6 + m5) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7 + m9) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7 + m14) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4 + m15) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4 + m8) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    // round 2: message words m3 m4 m10 m12 m13 m2 m7 m14 m6 m5 m9 m0 m11 m15 m8 m1
    v0 = (v0 + v4 + m3) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4 + m4) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5 + m10) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5 + m12) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6 + m13) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6 + m2) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7 + m7) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7 + m14) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5 + m6) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5 + m5) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6 + m9) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6 + m0) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7 + m11) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7 + m15) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4 + m8) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4 + m1) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    // round 3: message words m10 m7 m12 m9 m14 m3 m13 m15 m4 m0 m11 m2 m5 m8 m1 m6
    v0 = (v0 + v4 + m10) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4 + m7) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5 + m12) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5 + m9) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6 + m14) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6 + m3) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7 + m13) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7 + m15) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5 + m4) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5 + m0) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6 + m11) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6 + m2) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7 + m5) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7 + m8) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4 + m1) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4 + m6) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    // round 4: message words m12 m13 m9 m11 m15 m10 m14 m8 m7 m2 m5 m3 m0 m1 m6 m4
    v0 = (v0 + v4 + m12) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4 + m13) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5 + m9) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5 + m11) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6 + m15) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6 + m10) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7 + m14) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7 + m8) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5 + m7) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5 + m2) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6 + m5) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6 + m3) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7 + m0) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7 + m1) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4 + m6) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4 + m4) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    // round 5: message words m9 m14 m11 m5 m8 m12 m15 m1 m13 m3 m0 m10 m2 m6 m4 m7
    v0 = (v0 + v4 + m9) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4 + m14) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5 + m11) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5 + m5) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6 + m8) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6 + m12) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7 + m15) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7 + m1) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5 + m13) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5 + m3) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6 + m0) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6 + m10) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7 + m2) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7 + m6) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4 + m4) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4 + m7) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    // round 6: message words m11 m15 m5 m0 m1 m9 m8 m6 m14 m10 m2 m12 m3 m4 m7 m13
    v0 = (v0 + v4 + m11) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4 + m15) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5 + m5) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5 + m0) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6 + m1) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6 + m9) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7 + m8) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7 + m6) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5 + m14) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5 + m10) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6 + m2) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6 + m12) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7 + m3) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7 + m4) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4 + m7) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4 + m13) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    c0 = v0 ^ v8
    c1 = v1 ^ v9
    c2 = v2 ^ v10
    c3 = v3 ^ v11
    c4 = v4 ^ v12
    c5 = v5 ^ v13
    c6 = v6 ^ v14
    c7 = v7 ^ v15
  }
  const out = new Uint8Array(32)
  putWord(out, 0, c0)
  putWord(out, 4, c1)
  putWord(out, 8, c2)
  putWord(out, 12, c3)
  putWord(out, 16, c4)
  putWord(out, 20, c5)
  putWord(out, 24, c6)
  putWord(out, 28, c7)
  return out
}

/**
 * Writes BLAKE3-XOF(digest)[0 .. 2048) into `out` as 512 little-endian words, i.e. exactly
 * `blake3(digest, { dkLen: 2048 })`. The input is one 32-byte block of a single chunk, so output
 * block t (64 bytes = 16 words) is the full compression output of (cv = IV, message = digest padded
 * with zeros, counter = t, block_len = 32, flags = CHUNK_START | CHUNK_END | ROOT). The 7 rounds are
 * unrolled as in `blake3SingleChunk`, with the zero message words 8..15 dropped from the additions.
 */
function expandLeaf(d: Uint8Array, out: Uint32Array): void {
  const m0 = d[0]! | (d[1]! << 8) | (d[2]! << 16) | (d[3]! << 24)
  const m1 = d[4]! | (d[5]! << 8) | (d[6]! << 16) | (d[7]! << 24)
  const m2 = d[8]! | (d[9]! << 8) | (d[10]! << 16) | (d[11]! << 24)
  const m3 = d[12]! | (d[13]! << 8) | (d[14]! << 16) | (d[15]! << 24)
  const m4 = d[16]! | (d[17]! << 8) | (d[18]! << 16) | (d[19]! << 24)
  const m5 = d[20]! | (d[21]! << 8) | (d[22]! << 16) | (d[23]! << 24)
  const m6 = d[24]! | (d[25]! << 8) | (d[26]! << 16) | (d[27]! << 24)
  const m7 = d[28]! | (d[29]! << 8) | (d[30]! << 16) | (d[31]! << 24)
  for (let t = 0; t < 32; t++) {
    let v0 = IV0,
      v1 = IV1,
      v2 = IV2,
      v3 = IV3,
      v4 = IV4,
      v5 = IV5,
      v6 = IV6,
      v7 = IV7
    let v8 = IV0,
      v9 = IV1,
      v10 = IV2,
      v11 = IV3,
      v12 = t,
      v13 = 0,
      v14 = BLOCK_LEN,
      v15 = ROOT_CHUNK_FLAGS
    // round 0: message words m0 m1 m2 m3 m4 m5 m6 m7 0 0 0 0 0 0 0 0
    v0 = (v0 + v4 + m0) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4 + m1) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5 + m2) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5 + m3) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6 + m4) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6 + m5) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7 + m6) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7 + m7) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    // round 1: message words m2 m6 m3 0 m7 m0 m4 0 m1 0 0 m5 0 0 0 0
    v0 = (v0 + v4 + m2) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4 + m6) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5 + m3) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6 + m7) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6 + m0) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7 + m4) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5 + m1) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6 + m5) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    // round 2: message words m3 m4 0 0 0 m2 m7 0 m6 m5 0 m0 0 0 0 m1
    v0 = (v0 + v4 + m3) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4 + m4) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6 + m2) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7 + m7) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5 + m6) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5 + m5) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6 + m0) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4 + m1) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    // round 3: message words 0 m7 0 0 0 m3 0 0 m4 m0 0 m2 m5 0 m1 m6
    v0 = (v0 + v4) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4 + m7) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6 + m3) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5 + m4) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5 + m0) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6 + m2) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7 + m5) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4 + m1) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4 + m6) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    // round 4: message words 0 0 0 0 0 0 0 0 m7 m2 m5 m3 m0 m1 m6 m4
    v0 = (v0 + v4) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5 + m7) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5 + m2) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6 + m5) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6 + m3) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7 + m0) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7 + m1) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4 + m6) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4 + m4) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    // round 5: message words 0 0 0 m5 0 0 0 m1 0 m3 m0 0 m2 m6 m4 m7
    v0 = (v0 + v4) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5 + m5) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7 + m1) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5 + m3) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6 + m0) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7 + m2) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7 + m6) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4 + m4) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4 + m7) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    // round 6: message words 0 0 m5 m0 m1 0 0 m6 0 0 m2 0 m3 m4 m7 0
    v0 = (v0 + v4) | 0
    v12 ^= v0
    v12 = (v12 >>> 16) | (v12 << 16)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 12) | (v4 << 20)
    v0 = (v0 + v4) | 0
    v12 ^= v0
    v12 = (v12 >>> 8) | (v12 << 24)
    v8 = (v8 + v12) | 0
    v4 ^= v8
    v4 = (v4 >>> 7) | (v4 << 25)
    v1 = (v1 + v5 + m5) | 0
    v13 ^= v1
    v13 = (v13 >>> 16) | (v13 << 16)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 12) | (v5 << 20)
    v1 = (v1 + v5 + m0) | 0
    v13 ^= v1
    v13 = (v13 >>> 8) | (v13 << 24)
    v9 = (v9 + v13) | 0
    v5 ^= v9
    v5 = (v5 >>> 7) | (v5 << 25)
    v2 = (v2 + v6 + m1) | 0
    v14 ^= v2
    v14 = (v14 >>> 16) | (v14 << 16)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 12) | (v6 << 20)
    v2 = (v2 + v6) | 0
    v14 ^= v2
    v14 = (v14 >>> 8) | (v14 << 24)
    v10 = (v10 + v14) | 0
    v6 ^= v10
    v6 = (v6 >>> 7) | (v6 << 25)
    v3 = (v3 + v7) | 0
    v15 ^= v3
    v15 = (v15 >>> 16) | (v15 << 16)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 12) | (v7 << 20)
    v3 = (v3 + v7 + m6) | 0
    v15 ^= v3
    v15 = (v15 >>> 8) | (v15 << 24)
    v11 = (v11 + v15) | 0
    v7 ^= v11
    v7 = (v7 >>> 7) | (v7 << 25)
    v0 = (v0 + v5) | 0
    v15 ^= v0
    v15 = (v15 >>> 16) | (v15 << 16)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 12) | (v5 << 20)
    v0 = (v0 + v5) | 0
    v15 ^= v0
    v15 = (v15 >>> 8) | (v15 << 24)
    v10 = (v10 + v15) | 0
    v5 ^= v10
    v5 = (v5 >>> 7) | (v5 << 25)
    v1 = (v1 + v6 + m2) | 0
    v12 ^= v1
    v12 = (v12 >>> 16) | (v12 << 16)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 12) | (v6 << 20)
    v1 = (v1 + v6) | 0
    v12 ^= v1
    v12 = (v12 >>> 8) | (v12 << 24)
    v11 = (v11 + v12) | 0
    v6 ^= v11
    v6 = (v6 >>> 7) | (v6 << 25)
    v2 = (v2 + v7 + m3) | 0
    v13 ^= v2
    v13 = (v13 >>> 16) | (v13 << 16)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 12) | (v7 << 20)
    v2 = (v2 + v7 + m4) | 0
    v13 ^= v2
    v13 = (v13 >>> 8) | (v13 << 24)
    v8 = (v8 + v13) | 0
    v7 ^= v8
    v7 = (v7 >>> 7) | (v7 << 25)
    v3 = (v3 + v4 + m7) | 0
    v14 ^= v3
    v14 = (v14 >>> 16) | (v14 << 16)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 12) | (v4 << 20)
    v3 = (v3 + v4) | 0
    v14 ^= v3
    v14 = (v14 >>> 8) | (v14 << 24)
    v9 = (v9 + v14) | 0
    v4 ^= v9
    v4 = (v4 >>> 7) | (v4 << 25)
    const o = t << 4
    out[o] = v0 ^ v8
    out[o + 1] = v1 ^ v9
    out[o + 2] = v2 ^ v10
    out[o + 3] = v3 ^ v11
    out[o + 4] = v4 ^ v12
    out[o + 5] = v5 ^ v13
    out[o + 6] = v6 ^ v14
    out[o + 7] = v7 ^ v15
    out[o + 8] = v8 ^ IV0
    out[o + 9] = v9 ^ IV1
    out[o + 10] = v10 ^ IV2
    out[o + 11] = v11 ^ IV3
    out[o + 12] = v12 ^ IV4
    out[o + 13] = v13 ^ IV5
    out[o + 14] = v14 ^ IV6
    out[o + 15] = v15 ^ IV7
  }
}

/** The WebAssembly SIMD lane update (lthash-simd.ts), where the host has it; else the JS below. */
const simd = createLaneMixer()

/**
 * The vectors of recently added leaves, by digest: a bounded memo of the map digest -> vector, so
 * it changes no result. Replacing or deleting a leaf subtracts the vector of its old digest, and
 * for the leaves that change most that digest was added not long ago: a signer's nonce leaf (in
 * every block the signer acts in) and an order cancelled soon after it rested. Its vector is then
 * taken from here instead of expanding the digest again, which saves one of the two expansions
 * of such a leaf's life (one of about 3 us against a copy of 2 KB). A block of 400 place-or-cancel
 * actions at 2,000/s changed 150 nonce leaves, 10 accounts and 403 orders: about 720 expansions
 * without the memo, about 360 when the old vectors are still held
 * (scripts/bench/state-hash.ts times such a block).
 * 8,192 vectors of 2 KB: 16 MiB once full.
 */
const MEMO_CAPACITY = 8_192
interface MemoEntry {
  key: number
  readonly digest: Uint8Array
  readonly vector: Uint16Array
}
/** The memo's entries in the order they were written; the oldest is overwritten next. */
const memoRing: MemoEntry[] = []
let memoNext = 0
const memoByKey = new Map<number, MemoEntry>()

/** Empties the memo (it is a cache: nothing changes but the memory it holds). */
function clearMemo(): void {
  memoRing.length = 0
  memoByKey.clear()
  memoNext = 0
}

/** The digest's first 48 bits as a number: the memo's key (an entry is used only when its whole digest matches). */
const memoKey = (d: Uint8Array): number =>
  d[0]! + d[1]! * 0x100 + d[2]! * 0x1_0000 + d[3]! * 0x100_0000 + d[4]! * 0x1_0000_0000 + d[5]! * 0x100_0000_0000

/** acc += vector(digest), lane-wise mod 2^16 (and, on the SIMD path, the vector kept in the memo). */
function addLeaf(acc: Uint16Array, digest: Uint8Array): void {
  if (simd === undefined) {
    mixLeafJs(acc, digest, 1)
    return
  }
  let entry = memoRing[memoNext]
  if (entry === undefined) {
    entry = { key: 0, digest: new Uint8Array(32), vector: new Uint16Array(LANES) }
    memoRing[memoNext] = entry
  } else if (memoByKey.get(entry.key) === entry) {
    memoByKey.delete(entry.key)
  }
  memoNext = (memoNext + 1) % MEMO_CAPACITY
  simd.addKeeping(acc, digest, entry.vector)
  entry.digest.set(digest)
  entry.key = memoKey(digest)
  memoByKey.set(entry.key, entry)
}

/** acc -= vector(digest), lane-wise mod 2^16: the memo's vector when it holds this digest's. */
function subLeaf(acc: Uint16Array, digest: Uint8Array): void {
  if (simd === undefined) {
    mixLeafJs(acc, digest, -1)
    return
  }
  const key = memoKey(digest)
  const entry = memoByKey.get(key)
  if (entry !== undefined && equalDigests(entry.digest, digest)) {
    simd.subVector(acc, entry.vector)
    // The leaf is gone: its vector is not needed again (a map never holds one leaf twice).
    memoByKey.delete(key)
    return
  }
  simd.sub(acc, digest)
}

/** acc += vector(digest) - vector(old): a leaf whose value changed. */
function replaceLeaf(acc: Uint16Array, old: Uint8Array, digest: Uint8Array): void {
  subLeaf(acc, old)
  addLeaf(acc, digest)
}

/** acc += sign x vector(digest) in JS: expandLeaf, then the lanes (Uint16Array stores wrap). */
export function mixLeafJs(acc: Uint16Array, digest: Uint8Array, sign: 1 | -1): void {
  const w = vectorScratch
  expandLeaf(digest, w)
  for (let j = 0, i = 0; j < WORDS; j++, i += 2) {
    const x = w[j]!
    acc[i] = acc[i]! + sign * (x & 0xffff)
    acc[i + 1] = acc[i + 1]! + sign * (x >>> 16)
  }
}

function equalDigests(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return false
  return true
}

/** keccak_256 of the accumulator's lanes serialised little-endian. */
function rootOf(acc: Uint16Array): Uint8Array {
  const b = rootScratch
  for (let i = 0; i < LANES; i++) {
    const lane = acc[i]!
    b[2 * i] = lane & 0xff
    b[2 * i + 1] = lane >>> 8
  }
  return keccak_256(b)
}

/**
 * A StateHash as plain data, to hand it to another thread (detach there, fromContents here): the
 * accumulator and every leaf digest; the memo of vectors is a cache and stays behind.
 */
export interface StateHashContents {
  readonly acc: Uint16Array<ArrayBuffer>
  /** The unnumbered leaves' keys, ... */
  readonly keys: string[]
  /** ... and their digests, 32 bytes each in the keys' order. */
  readonly digests: Uint8Array<ArrayBuffer>
  readonly numbered: DigestTableContents
}

/** Incremental commitment to a key -> value map. */
export class StateHash {
  /** Lane-wise sum mod 2^16 of the vectors of all leaves. */
  private acc = new Uint16Array(LANES)
  /** key -> 32-byte leaf digest. Digests are never mutated, so clones may share them. */
  private leaves = new Map<string, Uint8Array>()
  /**
   * The digests of the numbered leaves (setNumbered), by number. The orders' leaves are most of a
   * large state; kept in a table of typed arrays, each costs about 60 bytes instead of some 250.
   */
  private numbered = new DigestTable()
  /** Root of the current accumulator, or undefined when it must be recomputed. */
  private cachedRoot: Uint8Array | undefined
  /** Set by detach(): the hash lives elsewhere now, and using this one would give a wrong root. */
  private detached = false

  /** The hash's contents for another thread; this hash refuses every use from now on. */
  detach(): StateHashContents {
    this.usable()
    const keys = [...this.leaves.keys()]
    const digests = new Uint8Array(keys.length * 32)
    let at = 0
    for (const digest of this.leaves.values()) {
      digests.set(digest, at)
      at += 32
    }
    const contents = { acc: this.acc, keys, digests, numbered: this.numbered.contents() }
    // The thread the hash goes to keeps a memo of its own; this one's 16 MiB would only be held.
    clearMemo()
    this.detached = true
    this.leaves = new Map()
    this.numbered = new DigestTable()
    this.acc = new Uint16Array(LANES)
    return contents
  }

  /** The hash another one's detach() gave away. */
  static fromContents(c: StateHashContents): StateHash {
    const hash = new StateHash()
    hash.acc = c.acc
    for (let i = 0; i < c.keys.length; i++) hash.leaves.set(c.keys[i]!, c.digests.slice(i * 32, i * 32 + 32))
    hash.numbered = DigestTable.fromContents(c.numbered)
    return hash
  }

  private usable(): void {
    if (this.detached) throw new Error('StateHash: this hash was handed to another thread (detach)')
  }

  /** Sets the leaf for key to value (canonical bytes); replaces any previous leaf for key. */
  set(key: string, value: Uint8Array): void {
    this.usable()
    const digest = leafDigest(key, value)
    const old = this.leaves.get(key)
    if (old === undefined) addLeaf(this.acc, digest)
    else if (equalDigests(old, digest))
      return // unchanged value: nothing to do
    else replaceLeaf(this.acc, old, digest)
    this.leaves.set(key, digest)
    this.cachedRoot = undefined
  }

  /** Removes the leaf for key if present. */
  delete(key: string): void {
    this.usable()
    const old = this.leaves.get(key)
    if (old === undefined) return
    subLeaf(this.acc, old)
    this.leaves.delete(key)
    this.cachedRoot = undefined
  }

  has(key: string): boolean {
    this.usable()
    return this.leaves.has(key)
  }

  /**
   * Sets a numbered leaf: the leaf of `key` (its digest is of key and value, as set() makes it),
   * found again by `id` rather than by its key, which the caller need not keep. Each id must
   * stand for one key, always the same, and keys of numbered leaves must never be given to set():
   * the caller keeps a family of leaves (the orders: id = order id) wholly on this path.
   */
  setNumbered(id: number, key: string, value: Uint8Array): void {
    this.usable()
    const digest = leafDigest(key, value)
    const table = this.numbered
    const slot = table.find(id)
    if (slot < 0) {
      addLeaf(this.acc, digest)
      table.add(id, digest)
    } else {
      const old = oldDigestScratch
      table.readAt(slot, old)
      if (equalDigests(old, digest)) return // unchanged value: nothing to do
      replaceLeaf(this.acc, old, digest)
      table.writeAt(slot, digest)
    }
    this.cachedRoot = undefined
  }

  /** Removes the numbered leaf `id` if present. */
  deleteNumbered(id: number): void {
    this.usable()
    const table = this.numbered
    const slot = table.find(id)
    if (slot < 0) return
    const old = oldDigestScratch
    table.readAt(slot, old)
    subLeaf(this.acc, old)
    table.deleteAt(slot)
    this.cachedRoot = undefined
  }

  hasNumbered(id: number): boolean {
    this.usable()
    return this.numbered.has(id)
  }

  get leafCount(): number {
    this.usable()
    return this.leaves.size + this.numbered.size
  }

  /** 32-byte root over all leaves (a fresh copy on every call). */
  root(): Uint8Array {
    this.usable()
    this.cachedRoot ??= rootOf(this.acc)
    return this.cachedRoot.slice()
  }

  /** Copies the accumulator and leaf digests (for snapshots/tests). */
  clone(): StateHash {
    this.usable()
    const c = new StateHash()
    c.acc.set(this.acc)
    c.leaves = new Map(this.leaves)
    c.numbered = this.numbered.clone()
    c.cachedRoot = this.cachedRoot
    return c
  }
}

/**
 * Root of a whole map computed from scratch, for tests that check the incremental root.
 * Later entries for the same key replace earlier ones (like `new Map(entries)`).
 */
export function stateRootOf(entries: Iterable<[string, Uint8Array]>): Uint8Array {
  const digests = new Map<string, Uint8Array>()
  for (const [key, value] of entries) digests.set(key, leafDigest(key, value))
  const acc = new Uint16Array(LANES)
  for (const digest of digests.values()) addLeaf(acc, digest)
  return rootOf(acc)
}
