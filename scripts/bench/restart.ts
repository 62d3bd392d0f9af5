/**
 * Restart time with and without state snapshots, and what a snapshot costs as the state grows.
 *
 *   bun scripts/bench/restart.ts [--blocks 20000] [--actions 2000] [--accounts 50000]
 *
 * Part 1 runs the real ChainNode (block store, admission, snapshots) in-process on a temporary
 * data directory: --blocks blocks, --actions of them carrying a signed order pair, a snapshot every
 * 10,000 blocks and one at stop. Then it times three restarts of the same directory: from the stop
 * snapshot (nothing to replay), after a crash (the newest snapshot deleted: the older one plus the
 * tail), and with no snapshot at all (replay from genesis, as before snapshots).
 * Part 2 builds a large state in memory (--accounts funded accounts, each with two resting orders
 * and a position) and times one snapshot write and one restore (read, checksum, decode, full root).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { insertAccount, newAccount } from '../../src/chain/access/accounts.ts'
import { commitStateRoot, createGenesisState, ROLES } from '../../src/chain/index.ts'
import { placeOrder } from '../../src/chain/orders/place-order.ts'
import { Signer } from '../../src/client/signer.ts'
import { bytesToHex } from '../../src/lib/hex.ts'
import { parseOptionsOrExit } from '../../src/lib/options.ts'
import { ChainNode, type ChainNodeOptions } from '../../src/node/chain-node.ts'
import { devGenesis } from '../../src/node/dev-genesis.ts'
import { SnapshotStore } from '../../src/node/snapshots.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  {
    blocks: { type: 'integer', default: 20_000, min: 1, max: 100_000_000, description: 'blocks written in part 1' },
    actions: { type: 'integer', default: 2_000, min: 0, max: 100_000_000, description: 'blocks of part 1 that carry a signed order pair' },
    accounts: { type: 'integer', default: 50_000, min: 1, max: 100_000_000, description: 'funded accounts of the large state of part 2' },
  },
  { usage: 'bun scripts/bench/restart.ts [options]', program: 'bun scripts/bench/restart.ts' },
)
const BLOCKS = flags.blocks
const ACTIONS = flags.actions
const ACCOUNTS = flags.accounts
const EVERY = 10_000
/** Hardhat dev keys #1 and #2 (docs/protocol.md#development-network), funded in the dev genesis. */
const KEYS = [
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
]

const dataDir = mkdtempSync(join(tmpdir(), 'perpd-bench-restart-'))
let clock = 1_700_000_000_000
const lines: string[] = []
const options = (snapshotEveryBlocks: number): ChainNodeOptions => ({
  dataDir,
  genesis: devGenesis(),
  blockTimeMs: 200,
  now: () => (clock += 200),
  log: (l) => lines.push(l),
  snapshotEveryBlocks,
})

try {
  // Part 1: a chain of BLOCKS blocks, every (BLOCKS / ACTIONS)-th with a bid and a crossing ask.
  const signers = KEYS.map((k) => new Signer(k))
  const build = new ChainNode(options(EVERY))
  build.startManual()
  const spacing = Math.max(1, Math.floor(BLOCKS / Math.max(1, ACTIONS / 2)))
  let nonce = 0
  const started = performance.now()
  for (let h = 1; h <= BLOCKS; h++) {
    if (h % spacing === 0 && nonce < ACTIONS / 2) {
      const price = String(64_000 + (h % 11))
      void build.submit(
        signers[0]!.sign({ PlaceOrder: { market_id: 1, side: 'Bid', price, qty: '0.01', tif: 'Gtc', reduce_only: false } }, nonce, 'dev')
          .params,
      )
      void build.submit(
        signers[1]!.sign(
          { PlaceOrder: { market_id: 1, side: 'Ask', price: '64005', qty: '0.006', tif: 'Gtc', reduce_only: false } },
          nonce,
          'dev',
        ).params,
      )
      nonce++
    }
    build.produceBlock()
  }
  const tipRoot = bytesToHex(commitStateRoot(build.state))
  build.stop()
  console.log(
    `chain: ${BLOCKS} blocks, ${nonce * 2} signed orders, built in ${((performance.now() - started) / 1000).toFixed(1)} s; tip root ${tipRoot.slice(0, 18)}...`,
  )

  const restart = (label: string): void => {
    lines.length = 0
    const t = performance.now()
    const node = new ChainNode(options(0))
    const ms = performance.now() - t
    const root = bytesToHex(commitStateRoot(node.state))
    node.stop()
    if (root !== tipRoot) throw new Error(`${label}: restarted into root ${root}`)
    const replayed = lines.find((l) => l.startsWith('replayed'))?.match(/replayed (\d+) blocks/)?.[1] ?? '0'
    console.log(`restart ${label}: ${ms.toFixed(0)} ms (${replayed} blocks replayed)`)
  }
  const snapshots = new SnapshotStore(dataDir, '', () => {})
  restart('from the stop snapshot')
  rmSync(snapshots.list()[0]!.file)
  restart(`after a crash (the snapshot ${EVERY} blocks back plus the tail)`)
  for (const s of snapshots.list()) rmSync(s.file)
  restart('without snapshots (replay from genesis)')

  // Part 2: snapshot cost of a large state.
  const { state } = createGenesisState(devGenesis())
  const makers: string[] = []
  for (let i = 0; i < ACCOUNTS; i++) {
    const address = `0x${(0x10000000 + i).toString(16).padStart(40, '0')}`
    insertAccount(state, newAccount(address, 1_000_000_000_000n, ROLES.Trader))
    makers.push(address)
  }
  const ctx = { height: 1, timestampMs: 0, txHash: null, sourceTriggerId: null }
  const events: unknown[] = []
  for (let i = 0; i < ACCOUNTS; i++) {
    const account = state.accounts.get(makers[i]!)!
    events.length = 0
    // A fill against the previous account's ask opens a position on both; then two resting orders.
    placeOrder(
      state,
      account,
      { marketId: 1, side: 'Bid', priceTicks: 650_000, qtyLots: 5, tif: 'Ioc', reduceOnly: false, clientOrderId: undefined },
      ctx,
      events as never,
    )
    placeOrder(
      state,
      account,
      { marketId: 1, side: 'Ask', priceTicks: 650_000, qtyLots: 10, tif: 'Gtc', reduceOnly: false, clientOrderId: `c${i}` },
      ctx,
      events as never,
    )
    placeOrder(
      state,
      account,
      { marketId: 2, side: 'Bid', priceTicks: 300_000 - (i % 500), qtyLots: 10, tif: 'Gtc', reduceOnly: false, clientOrderId: undefined },
      ctx,
      events as never,
    )
  }
  state.height = 1
  const root = bytesToHex(commitStateRoot(state))
  state.lastDigest = '0x00'
  const orders = [...state.books.values()].reduce((n, b) => n + b.size, 0)
  const positions = [...state.accounts.values()].reduce((n, a) => n + a.positions.size, 0)
  const bigDir = mkdtempSync(join(tmpdir(), 'perpd-bench-snapshot-'))
  try {
    const store = new SnapshotStore(bigDir, 'bench', () => {})
    let t = performance.now()
    store.write(state, root, 'bench')
    const writeMs = performance.now() - t
    const file = store.list()[0]!.file
    t = performance.now()
    const restored = store.restore(1, 'bench', () => ({ stateRoot: root, digest: '0x00' }))
    const restoreMs = performance.now() - t
    if (restored === undefined) throw new Error('the large snapshot did not restore')
    console.log(
      `snapshot of ${state.accounts.size} accounts, ${orders} resting orders, ${positions} positions, ${state.hash.leafCount} leaves: ` +
        `${(statSync(file).size / 1e6).toFixed(1)} MB, written in ${writeMs.toFixed(0)} ms, restored (read, checksum, decode, full root) in ${restoreMs.toFixed(0)} ms`,
    )
  } finally {
    rmSync(bigDir, { recursive: true, force: true })
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
