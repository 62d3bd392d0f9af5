#!/usr/bin/env bun
// perpd: the chain node. `perpd --help` lists the options (the table in src/config.ts).
import { createApp } from './api/app.ts'
import { startHistory } from './api/history-link.ts'
import { feedRuntime } from './api/ws/runtime.ts'
import { parseNodeArgs } from './config.ts'
import { configureLogging, createLogger } from './lib/log.ts'
import { readCommandLine } from './lib/options.ts'
import { ChainNode } from './node/chain-node.ts'
import { printDevBanner } from './node/dev-banner.ts'

// --help and --version print and exit 0; a command line that cannot be used exits 2.
const config = readCommandLine(() => parseNodeArgs(process.argv.slice(2)))
configureLogging(config.log)
const log = createLogger('perpd')

const node = new ChainNode({ dataDir: config.dataDir, genesis: config.genesis, blockTimeMs: config.blockTimeMs, signerRatePerSec: config.rateLimitSignerPerSec, snapshotEveryBlocks: config.snapshotEveryBlocks })
const app = createApp(node, { actionIpRatePerSec: config.rateLimitIpPerSec, queryTimeoutMs: config.queryTimeoutMs, ws: config.wsLimits, blockTimeMs: config.blockTimeMs })
// The history index starts before the first block so it sees every committed block; without it
// the node still runs and the history routes answer 503.
const history = await startHistory(node, { dataDir: config.dataDir, leaderboardRefreshMs: config.leaderboardRefreshMs }).catch((err: Error) => {
  log.error(`history index not started: ${err.message}`)
  return undefined
})
// blocks.live pushes each block once the history index has ingested it.
if (history !== undefined) feedRuntime(node).followHistory(history)
app.listen({ hostname: config.host, port: config.port })
node.start()
// --dev: the development accounts and their (public) keys, as Anvil prints them.
if (config.dev) printDevBanner(config.genesis)
log.info(`perpd ${config.genesis.network} network, data ${config.dataDir}, height ${node.state.height}, block time ${config.blockTimeMs} ms`, { network: config.genesis.network, data_dir: config.dataDir, height: node.state.height, block_time_ms: config.blockTimeMs })
// The line tests and scripts wait for (test/support/child-process.ts), once the port is bound.
const url = `http://${config.host}:${app.server!.port}`
log.info(`listening on ${url}`, { url })

let stopping = false
function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  log.info(`${signal}: stopping at height ${node.state.height}`)
  app.stop()
  node.stop()
  void (history?.stop() ?? Promise.resolve()).finally(() => process.exit(0))
}
process.on('SIGINT', () => shutdown('SIGINT'))
process.on('SIGTERM', () => shutdown('SIGTERM'))
