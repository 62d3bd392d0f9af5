// A dev-genesis ChainNode in a temporary directory that produces a block only when a test calls
// produceBlock(), on a clock that moves 200 ms per reading.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LogLine } from '../../src/lib/log.ts'
import { ChainNode } from '../../src/node/chain-node.ts'
import { devGenesis } from '../../src/node/dev-genesis.ts'

export interface ManualNode {
  readonly node: ChainNode
  /** Stops the node and removes its directory. */
  close(): void
}

let clock = 1_700_000_000_000

export function manualDevNode(dirPrefix: string, log: LogLine = () => {}): ManualNode {
  const dataDir = mkdtempSync(join(tmpdir(), dirPrefix))
  const node = new ChainNode({ dataDir, genesis: devGenesis(), blockTimeMs: 200, now: () => (clock += 200), log })
  node.startManual()
  return {
    node,
    close: () => {
      node.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
