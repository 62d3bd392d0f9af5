/**
 * Benchmark of the incremental state commitment (src/chain/state/state-hash.ts).
 *
 *   bun scripts/bench/state-hash.ts [leaves]
 *
 * Builds a StateHash over `leaves` keys (default 100,000) with ~160-byte values, then measures
 * set() replacing existing values (the common per-block case: subtract old vector, add new one),
 * set() inserting new keys, delete(), and root(). The headline line is the replace rate. Then the
 * root of a block of a place-and-cancel flow on a fresh StateHash: 200 orders placed, the 200 of
 * the block before cancelled, 150 signers' nonce leaves and 10 accounts changed, then root() (the
 * state root's part of a 400-action block at 2,000 actions/s; the leaf vector memo of
 * state-hash.ts serves the cancels' and the nonces' old vectors). The last line compares the two implementations of one leaf's lane update (acc += vector(digest)): the
 * WebAssembly SIMD one StateHash uses (src/chain/state/lthash-simd.ts) and the JS fallback.
 */
import { createLaneMixer } from '../../src/chain/state/lthash-simd.ts'
import { mixLeafJs, StateHash } from '../../src/chain/state/state-hash.ts'
import { integerValue, OptionError, parseOptions, readCommandLine } from '../../src/lib/options.ts'

const LEAVES = readCommandLine(() => {
  const usage = 'bun scripts/bench/state-hash.ts [LEAVES]'
  const { positionals } = parseOptions(
    process.argv.slice(2),
    {},
    { usage, summary: 'LEAVES: keys of the StateHash (default 100000)', positionals: true, program: 'bun scripts/bench/state-hash.ts' },
  )
  if (positionals.length > 1) throw new OptionError(`usage: ${usage}`)
  return positionals[0] === undefined ? 100_000 : integerValue('LEAVES', positionals[0], { min: 1, max: 100_000_000 })
})
const VALUE_BYTES = 160
const VALUES = 1024
const RUN_MS = 1500

// Distinct pseudo-random values, generated up front so the timed loops only hash.
const values: Uint8Array[] = []
let seed = 0x9e3779b9
for (let v = 0; v < VALUES; v++) {
  const b = new Uint8Array(VALUE_BYTES)
  for (let i = 0; i < VALUE_BYTES; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0
    b[i] = seed >>> 24
  }
  values.push(b)
}
const keys: string[] = []
for (let i = 0; i < LEAVES; i++) keys.push(`acct/0x${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}/pos/${i}`)
const valueFor = (k: number, round: number): Uint8Array => values[(k + round) % VALUES]!

/** Runs `op(i)` for ~RUN_MS ms in batches; returns ops/s. */
function rate(op: (i: number) => void): number {
  let n = 0
  const t0 = performance.now()
  let t = t0
  while (t - t0 < RUN_MS) {
    for (let b = 0; b < 256; b++) op(n++)
    t = performance.now()
  }
  return n / ((t - t0) / 1000)
}
/** Runs `op(i)` for i in [0, count); returns ops/s. */
function timed(count: number, op: (i: number) => void): number {
  const t0 = performance.now()
  for (let i = 0; i < count; i++) op(i)
  return count / ((performance.now() - t0) / 1000)
}
const fmt = (r: number): string => (r >= 10_000 ? `${Math.round(r / 1000)}k` : `${Math.round(r)}`)

const h = new StateHash()
const tBuild = performance.now()
for (let k = 0; k < LEAVES; k++) h.set(keys[k]!, valueFor(k, 0))
const buildMs = performance.now() - tBuild
h.root()

// Warm-up so the JIT has compiled the hot paths before timing.
for (let i = 0; i < 5000; i++) h.set(keys[i % LEAVES]!, valueFor(i % LEAVES, 1 + Math.floor(i / LEAVES)))

let round = 2
const replace = rate((i) => {
  const k = i % LEAVES
  if (k === 0) round++
  h.set(keys[k]!, valueFor(k, round)) // always a different value than the key currently holds
})

// Inserts and deletes over a fixed key set, so that every delete removes a present leaf.
const FRESH = 50_000
const fresh = Array.from({ length: FRESH }, (_, i) => `new/${i}`)
const extra = new StateHash()
const insert = timed(FRESH, (i) => extra.set(fresh[i]!, valueFor(i, 0)))
const del = timed(FRESH, (i) => extra.delete(fresh[i]!))
if (extra.leafCount !== 0) throw new Error('bench: deletes did not empty the map')

let flip = 0
const rootRate = rate(() => {
  h.set(keys[0]!, valueFor(0, ++flip)) // dirty the cached root so every call recomputes it
  h.root()
})

const acc = new Uint16Array(1024)
const vector = new Uint16Array(1024)
const digest = new Uint8Array(32)
const mixer = createLaneMixer()
const simdRate =
  mixer === undefined
    ? 0
    : rate((i) => {
        digest[0] = i
        mixer.addKeeping(acc, digest, vector)
      })
const jsRate = rate((i) => {
  digest[0] = i
  mixLeafJs(acc, digest, 1)
})

// A block of the place-and-cancel flow (see the header), on a StateHash of its own.
const flow = new StateHash()
const flowValue = (n: number, bytes: number): Uint8Array => values[n % VALUES]!.subarray(0, bytes)
const signerKey = (s: number) => `n:0x${s.toString(16).padStart(40, '0')}`
let nextOrder = 1
let previousOrders: number[] = []
let flowBlock = 0
const flowBlockOnce = () => {
  flowBlock++
  const placed: number[] = []
  for (let i = 0; i < 200; i++) {
    const id = nextOrder++
    flow.setNumbered(id, `o:1:${id}`, flowValue(id, 60))
    placed.push(id)
  }
  for (const id of previousOrders) flow.deleteNumbered(id)
  previousOrders = placed
  for (let s = 0; s < 150; s++) flow.set(signerKey(s), flowValue(s * 7 + flowBlock, 80))
  for (let a = 0; a < 10; a++) flow.set(`a:0x${a.toString(16).padStart(40, '0')}`, flowValue(a * 13 + flowBlock, 160))
  flow.root()
}
for (let i = 0; i < 20; i++) flowBlockOnce()
const flowRate = rate(flowBlockOnce)

console.log(`state-hash: ${fmt(replace)} leaf updates/s (set() replacing a value, ${LEAVES} leaves, ${VALUE_BYTES}-byte values)`)
console.log(`  insert (set of a new key): ${fmt(insert)}/s`)
console.log(`  delete:                    ${fmt(del)}/s`)
console.log(`  root() after a change:     ${fmt(rootRate)}/s (includes one replace)`)
console.log(`  a block of 200 places, 200 cancels, 150 nonces, 10 accounts: ${(1000 / flowRate).toFixed(2)} ms (root included)`)
console.log(`  initial build of ${LEAVES} leaves: ${(buildMs / 1000).toFixed(2)} s`)
const us = (r: number): string => (1e6 / r).toFixed(2)
console.log(`  one leaf vector added: ${mixer === undefined ? 'SIMD unavailable' : `SIMD ${us(simdRate)} us`}, JS ${us(jsRate)} us`)
