// Keccak-256 per call, WebAssembly (src/lib/keccak.ts, hash-wasm) against JavaScript (@noble/hashes),
// on the input sizes the node hashes: 32 bytes (a public key's half, a tx hash's parts), about
// 100 bytes (a msgpack'd action), 200 and 1,000 bytes, and 33,000 (a block's envelope commitment).
//   bun scripts/bench/keccak.ts [--calls 50000]

import { keccak256, keccak256Noble, keccakWasmReady } from '../../src/lib/keccak.ts'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  defineOptions({
    calls: { type: 'integer', default: 50_000, min: 100, max: 10_000_000, description: 'calls per size and implementation' },
  }),
  {
    usage: 'bun scripts/bench/keccak.ts [--calls N]',
    summary: 'Keccak-256 µs per call, WebAssembly and JavaScript.',
    program: 'bun scripts/bench/keccak.ts',
  },
)
if (!(await keccakWasmReady)) throw new Error('the WebAssembly keccak did not start')
for (const size of [32, 100, 200, 1_000, 33_000]) {
  const data = new Uint8Array(size).map((_, i) => (i * 31) & 0xff)
  const calls = size > 10_000 ? Math.max(100, Math.floor(flags.calls / 100)) : flags.calls
  const line = [`${size} bytes:`]
  for (const [name, hash] of [
    ['wasm', keccak256],
    ['noble', keccak256Noble],
  ] as const) {
    for (let i = 0; i < calls / 10; i++) hash(data)
    const t0 = performance.now()
    for (let i = 0; i < calls; i++) hash(data)
    line.push(`${name} ${(((performance.now() - t0) * 1000) / calls).toFixed(2)} µs`)
  }
  console.log(line.join('  '))
}
