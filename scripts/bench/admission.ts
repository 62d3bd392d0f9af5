// The stateless admission of one signed action on one thread, as an admission thread runs it
// (src/api/admission/action-intake.ts): from the body's text to the prepared envelope, that is the
// JSON parse, the schema checks, the signing digest, the signature recovery, the tx hash and the
// decimals packed at the edge. Signs --actions PlaceOrder and CancelOrder bodies ahead (not timed),
// then times --rounds passes over them and prints the median µs per action, beside the recovery
// alone (libsecp256k1 on the same signatures) and the rest by difference, and the recovery in each
// libsecp256k1 that loads here (the system's, the npm addon's). --batch-orders N signs
// BatchPlaceOrder bodies of N IOC orders instead (the batch load of actions.ts). Nothing is sent
// anywhere.
//   bun scripts/bench/admission.ts [--actions 4000] [--rounds 7] [--batch-orders 50]
import { actionIntake } from '../../src/api/admission/action-intake.ts'
import { cancelOrder, placeOrder } from '../../src/client/actions.ts'
import { hexToBytes } from '../../src/lib/hex.ts'
import { keccakWasmReady } from '../../src/lib/keccak.ts'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'
import { DEV_PRIVATE_KEYS } from '../../src/node/dev-banner.ts'
import { loadAddon, loadSystemLibrary, recoveryLibrary } from '../../src/wire/native-secp256k1.ts'
import { l1Digest, sourceForNetwork } from '../../src/wire/signing.ts'
import { iocBatchAwayFromMark } from './batch-orders.ts'
import { actionBody, signL1 } from './bench-sign.ts'
import { percentile } from './stats.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  defineOptions({
    actions: { type: 'integer', default: 4_000, min: 10, max: 1_000_000, description: 'signed actions, half PlaceOrder, half CancelOrder' },
    rounds: { type: 'integer', default: 7, min: 1, max: 1_000, description: 'timed passes over them (the first two warm up, not counted)' },
    'batch-orders': {
      type: 'integer',
      default: 0,
      min: 0,
      max: 1_000,
      valueName: 'N',
      description: 'sign BatchPlaceOrder bodies of N IOC orders instead of PlaceOrder and CancelOrder (0)',
    },
  }),
  {
    usage: 'bun scripts/bench/admission.ts [options]',
    summary: 'µs per action of the stateless admission (parse, schemas, digest, recovery, tx hash) on one thread.',
    program: 'bun scripts/bench/admission.ts',
  },
)

const NETWORK = 'devnet'
if (!(await keccakWasmReady)) throw new Error('the WebAssembly keccak did not start')
const key = hexToBytes(DEV_PRIVATE_KEYS[1]!)
const batchOrders = flags['batch-orders']
const actions = Array.from({ length: flags.actions }, (_, i) =>
  batchOrders > 0
    ? iocBatchAwayFromMark(i, batchOrders)
    : i % 2 === 0
      ? placeOrder({
          market_id: 1,
          side: i % 4 === 0 ? 'Bid' : 'Ask',
          price: (i % 4 === 0 ? 55_000 + i / 10 : 75_000 - i / 10).toFixed(1),
          qty: '0.001',
          tif: 'Gtc',
          reduce_only: false,
          client_order_id: `bench-${i}`,
        })
      : cancelOrder({ market_id: 1, client_order_id: `bench-${i - 1}` }),
)
const NONCE0 = 1_800_000_000_000
const signatures = actions.map((action, i) => signL1(key, action, NONCE0 + i, NETWORK))
const bodies = actions.map((action, i) => actionBody(action, NONCE0 + i, signatures[i]!))
// The recovery's inputs, made here so that its timing is the library call alone.
const recoveries = actions.map((action, i) => {
  const s = signatures[i]!
  return {
    digest: l1Digest(action, NONCE0 + i, sourceForNetwork(NETWORK)),
    sig64: hexToBytes(s.r.slice(2).padStart(64, '0') + s.s.slice(2).padStart(64, '0')),
    recovery: s.v - 27,
  }
})

for (const body of bodies.slice(0, 2)) {
  const intake = actionIntake(body, NETWORK)
  if (intake.kind !== 'action' || !intake.prepared.ok || !intake.prepared.recovered.ok)
    throw new Error(`the bench's action was not admitted: ${JSON.stringify(intake)}`)
}

/** µs per item of one pass of fn over n items. */
function pass(n: number, fn: (i: number) => void): number {
  const t0 = performance.now()
  for (let i = 0; i < n; i++) fn(i)
  return ((performance.now() - t0) * 1_000) / n
}

// Each libsecp256k1 that loads here, timed on the same signatures; the one in use is the node's.
const libraries = { system: loadSystemLibrary(), addon: loadAddon() } as const
type LibraryName = keyof typeof libraries
const LIBRARY_NAMES = Object.keys(libraries) as LibraryName[]
const out = new Uint8Array(65)
const intakeUs: number[] = []
const libraryUs: Record<LibraryName, number[]> = { system: [], addon: [] }
for (let round = 0; round < flags.rounds + 2; round++) {
  const a = pass(bodies.length, (i) => actionIntake(bodies[i]!, NETWORK))
  const each: Partial<Record<LibraryName, number>> = {}
  for (const name of LIBRARY_NAMES) {
    const recover = libraries[name]
    if (recover !== undefined)
      each[name] = pass(recoveries.length, (i) => {
        const r = recoveries[i]!
        recover(out, r.digest, r.sig64, r.recovery)
      })
  }
  if (round < 2) continue
  intakeUs.push(a)
  for (const name of LIBRARY_NAMES) if (each[name] !== undefined) libraryUs[name].push(each[name])
}
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((x, y) => x - y),
    50,
  )
const intake = median(intakeUs)
console.log(
  `stateless admission, one thread: ${intake.toFixed(1)} µs per action (median of ${flags.rounds} passes over ${flags.actions.toLocaleString('en-US')} ${batchOrders > 0 ? `BatchPlaceOrder bodies of ${batchOrders} orders; ${(intake / batchOrders).toFixed(2)} µs per order` : 'PlaceOrder and CancelOrder bodies'})`,
)
if (recoveryLibrary === 'noble') console.log('  libsecp256k1 is not available here: the recovery runs on @noble/curves')
else {
  const recover = median(libraryUs[recoveryLibrary])
  console.log(
    `  signature recovery alone (libsecp256k1, ${recoveryLibrary === 'system' ? "the system's" : "the npm addon's"}): ${recover.toFixed(1)} µs; the rest (parse, schemas, digest, hashes, packing): ${(intake - recover).toFixed(1)} µs`,
  )
}
const describe = (name: LibraryName) => (libraries[name] === undefined ? 'not installed' : `${median(libraryUs[name]).toFixed(1)} µs`)
console.log(
  `  one recovery in the system's libsecp256k1 (0.2 or newer): ${describe('system')}; in the npm addon's (2019): ${describe('addon')}`,
)
