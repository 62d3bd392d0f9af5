// A data directory holding a long real chain, for tests of what a node does at start-up (replay):
// the dev genesis and `blocks` blocks produced by the real ChainNode in-process (block store,
// digests, state roots: a node process replays and checks them), without snapshots so a restart
// replays every block. Empty blocks unless `orderEvery` puts a crossing order pair in some.
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Signer } from '../../src/client/signer.ts'
import { ChainNode } from '../../src/node/chain-node.ts'
import { devGenesis } from '../../src/node/dev-genesis.ts'
import { DEV_KEYS } from './node-process.ts'

/**
 * A new temporary directory on a memory file system when there is one (/dev/shm): the block store
 * syncs every block to disk, which on a real disk makes building thousands of blocks slow.
 */
export function fastTempDir(prefix = 'perpd-test-'): string {
  const shm = '/dev/shm'
  return mkdtempSync(join(existsSync(shm) ? shm : tmpdir(), prefix))
}

export interface StoredChainOptions {
  /** Blocks to produce. */
  readonly blocks: number
  /** A bid and a crossing ask (dev keys #1 and #2) every this many blocks; 0: none (default). */
  readonly orderEvery?: number
  readonly blockTimeMs?: number
}

/** Produces the chain into dataDir (a new directory, or one holding a dev chain) and returns its tip. */
export function buildStoredChain(dataDir: string, options: StoredChainOptions): number {
  const blockTimeMs = options.blockTimeMs ?? 50
  let clock = Date.now() - options.blocks * blockTimeMs
  const node = new ChainNode({
    dataDir,
    genesis: devGenesis(),
    blockTimeMs,
    now: () => (clock += blockTimeMs),
    log: () => {},
    snapshotEveryBlocks: 0,
  })
  node.startManual()
  const signers = [new Signer(DEV_KEYS[1]), new Signer(DEV_KEYS[2])]
  const nonces = signers.map((s) => node.state.nonces.get(s.address)?.floor ?? 0)
  const every = options.orderEvery ?? 0
  try {
    for (let i = 1; i <= options.blocks; i++) {
      if (every > 0 && i % every === 0) {
        const price = String(64_000 + (i % 7))
        void node.submit(
          signers[0]!.sign(
            { PlaceOrder: { market_id: 1, side: 'Bid', price, qty: '0.01', tif: 'Gtc', reduce_only: false } },
            nonces[0]!++,
            'dev',
          ).params,
        )
        void node.submit(
          signers[1]!.sign(
            { PlaceOrder: { market_id: 1, side: 'Ask', price, qty: '0.004', tif: 'Gtc', reduce_only: false } },
            nonces[1]!++,
            'dev',
          ).params,
        )
      }
      node.produceBlock()
    }
    return node.state.height
  } finally {
    node.stop()
  }
}
