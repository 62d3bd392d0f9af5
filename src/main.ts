#!/usr/bin/env bun
// perpd: the chain node. `perpd [--dev] [--data-dir DIR] [--host H] [--port P] [--block-time-ms N] [--genesis FILE] [--snapshot-every-blocks N]`
import { createApp } from './api/app.ts'
import { startHistory } from './api/history-link.ts'
import { feedRuntime } from './api/ws/runtime.ts'
import { ConfigError, parseNodeArgs } from './config.ts'
import { ChainNode } from './node/chain-node.ts'

let config
try {
  config = parseNodeArgs(process.argv.slice(2))
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message)
    process.exit(2)
  }
  throw err
}

const node = new ChainNode({ dataDir: config.dataDir, genesis: config.genesis, blockTimeMs: config.blockTimeMs, signerRatePerSec: config.rateLimitSignerPerSec, snapshotEveryBlocks: config.snapshotEveryBlocks })
const app = createApp(node, { actionIpRatePerSec: config.rateLimitIpPerSec, queryTimeoutMs: config.queryTimeoutMs, ws: config.wsLimits, blockTimeMs: config.blockTimeMs })
// The history index starts before the first block so it sees every committed block; without it
// the node still runs and the history routes answer 503.
const history = await startHistory(node, { dataDir: config.dataDir, leaderboardRefreshMs: config.leaderboardRefreshMs }).catch((err: Error) => {
  console.error(`history index not started: ${err.message}`)
  return undefined
})
// blocks.live pushes each block once the history index has ingested it.
if (history !== undefined) feedRuntime(node).followHistory(history)
app.listen({ hostname: config.host, port: config.port })
node.start()
console.log(`perpd ${config.genesis.network} network, data ${config.dataDir}, height ${node.state.height}, block time ${config.blockTimeMs} ms`)
console.log(`listening on http://${config.host}:${app.server!.port}`)

let stopping = false
function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`${signal}: stopping at height ${node.state.height}`)
  app.stop()
  node.stop()
  void (history?.stop() ?? Promise.resolve()).finally(() => process.exit(0))
}
process.on('SIGINT', () => shutdown('SIGINT'))
process.on('SIGTERM', () => shutdown('SIGTERM'))
