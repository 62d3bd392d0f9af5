#!/usr/bin/env bun
// perpd: the chain node. `perpd [--dev] [--data-dir DIR] [--host H] [--port P] [--block-time-ms N] [--genesis FILE]`
import { createApp } from './api/app.ts'
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

const node = new ChainNode({ dataDir: config.dataDir, genesis: config.genesis, blockTimeMs: config.blockTimeMs, signerRatePerSec: config.rateLimitSignerPerSec })
const app = createApp(node, { actionIpRatePerSec: config.rateLimitIpPerSec })
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
  process.exit(0)
}
process.on('SIGINT', () => shutdown('SIGINT'))
process.on('SIGTERM', () => shutdown('SIGTERM'))
