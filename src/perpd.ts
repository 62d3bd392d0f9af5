// perpd, the chain node's program, which src/main.ts loads once the runtime's memory settings are
// in place. `perpd --help` lists the options (the table in src/config.ts).

import { resolve } from 'node:path'
import { AdmissionPool } from './api/admission/admission-pool.ts'
import { type AppOptions, createApp, startFeed } from './api/app.ts'
import { HealthMonitor } from './api/health-monitor.ts'
import { startHistory } from './api/history-link.ts'
import { nodeMetrics } from './api/metrics.ts'
import { feedRuntime } from './api/ws/runtime.ts'
import {
  ConfigError,
  NODE_COMMAND,
  NODE_SUBCOMMAND_WORDS,
  NODE_SUBCOMMANDS,
  parseNodeArgs,
  parseSubcommand,
  parseSubcommandSources,
  readGenesis,
  refuseDevKeysOnMainnet,
  validateGenesis,
} from './config.ts'
import type { HistoryIndex } from './indexer/history-index.ts'
import { DataDirInUse, type DataDirLock, lockDataDir } from './lib/data-dir-lock.ts'
import { keccakWasmReady } from './lib/keccak.ts'
import { cannotListenMessage } from './lib/listen-error.ts'
import { configureLogging, createLogger, errorMessage, logLine, logSettingsFrom } from './lib/log.ts'
import { configJson, configText, readCommandLine } from './lib/options.ts'
import { BlockMismatch, ChainNode } from './node/chain-node.ts'
import { printDevBanner } from './node/dev-banner.ts'
import { devGenesis } from './node/dev-genesis.ts'
import { startDevQuoter } from './node/dev-quoter.ts'
import { replayReporter } from './node/replay-progress.ts'
import { connectNats, Replication, resolveGenesis } from './node/replication/replicator.ts'
import type { Genesis } from './wire/genesis.ts'
import { type RecoveryLibrary, recoveryLibrary } from './wire/native-secp256k1.ts'

// `perpd [start] [options]` runs the node; `perpd init|replay|status|keys|config|demo|version` are the other
// subcommands (the tables in src/config.ts, src/node/commands.ts), loaded only when asked for.
const argv = process.argv.slice(2)
if (argv[0] !== undefined && argv[0] !== 'start' && NODE_SUBCOMMAND_WORDS.includes(argv[0])) {
  process.exit(await runSubcommand(argv))
}

// --help and --version print and exit 0; a command line that cannot be used exits 2.
const config = readCommandLine(() => parseNodeArgs(argv[0] === 'start' ? argv.slice(1) : argv))
configureLogging(config.log)
const log = createLogger('perpd')

// One node per data directory, locked before anything there is opened; the lock is held until the
// process ends (lib/data-dir-lock.ts).
const dataDirLock = takeDataDirLock()

function takeDataDirLock(): DataDirLock {
  try {
    return lockDataDir(config.dataDir, 'perpd')
  } catch (err) {
    if (!(err instanceof DataDirInUse)) throw err
    log.error(err.message)
    process.exit(1)
  }
}

/** Exit codes besides 0 (stopped by a signal) and 2 (a command line that cannot be used); docs/operations.md#exit-codes. */
const EXIT_HALTED = 70
const EXIT_REPLAY_FAILED = 65

// --nats: the chain is replicated through NATS JetStream (docs/replication.md). A node without a
// genesis file (--follow, --standby) runs the one its data directory or the stream holds.
const replicationConfig = config.replication
const nats = replicationConfig === undefined ? undefined : await connectNats(replicationConfig.servers).catch(cannotReplicate)
const genesis: Genesis =
  nats === undefined
    ? config.genesis!
    : await resolveGenesis(nats, config.genesis, config.dataDir, replicationConfig?.stream).catch(cannotReplicate)

/** A replicated chain this node cannot join (NATS unreachable, no such chain, another genesis): exits 1. */
function cannotReplicate(err: unknown): never {
  log.error(`cannot join the replicated chain: ${errorMessage(err)}`, { error: err })
  process.exit(1)
}

const node = new ChainNode({
  dataDir: config.dataDir,
  genesis,
  blockTimeMs: config.blockTimeMs,
  signerRatePerSec: config.rateLimitSignerPerSec,
  snapshotEveryBlocks: config.snapshotEveryBlocks,
  stateRootThread: config.stateRootThread,
  executeAhead: config.executeAhead,
  deferRecovery: true,
})
// The admission threads run the stateless part of /action off this (the block) thread; the network
// is the stored chain's, which the node read from its data directory.
const admissionPool =
  config.admissionThreads > 0
    ? new AdmissionPool(config.admissionThreads, node.state.params.network, logLine(createLogger('admission')), config.admissionInline)
    : undefined
const replication =
  nats === undefined || replicationConfig === undefined
    ? undefined
    : new Replication(nats, node, { ...replicationConfig, log: logLine(createLogger('replication')) })
await replication?.open().catch(cannotReplicate)
// --snapshot-from: an empty data directory starts from a peer's newest snapshot and its block rows,
// each checked against the stream; what does not match stops the node before it serves anything.
const snapshotFrom = replicationConfig?.snapshotFrom
if (replication !== undefined && snapshotFrom !== undefined)
  await replication.startFromPeer(snapshotFrom).catch((err: unknown) => {
    log.error(`cannot start from the snapshot of ${snapshotFrom}: ${errorMessage(err)}`, { error: err })
    process.exit(1)
  })
const appOptions: AppOptions = {
  actionForwarding: replication === undefined ? undefined : () => replication.forwardTarget(),
  admissionPool,
  actionIpRatePerSec: config.rateLimitIpPerSec,
  trustedProxies: config.trustedProxies,
  queryTimeoutMs: config.queryTimeoutMs,
  ws: config.wsLimits,
  blockTimeMs: config.blockTimeMs,
}
const app = createApp(node, appOptions)
let history: HistoryIndex | undefined
let monitor: HealthMonitor | undefined
/** The code the process exits with once halted (also when a signal stops it meanwhile). */
let haltExitCode: number | undefined

let finishing = false
/** Stops everything and exits with code (the history index closes its database first). */
function finish(code: number): void {
  if (finishing) return
  finishing = true
  monitor?.stop()
  // Not bound yet when the port could not be: Elysia's stop throws then.
  if (app.server) void app.stop()
  admissionPool?.stop()
  // A leader gives its lease up first, so a standby takes over without waiting for it to expire.
  const replicationStopped = replication?.stop() ?? Promise.resolve()
  try {
    node.stop()
  } catch (err) {
    log.error(`stopping the node: ${errorMessage(err)}`)
  }
  void Promise.all([history?.stop() ?? Promise.resolve(), replicationStopped]).finally(() => {
    dataDirLock.release()
    process.exit(code)
  })
}

// Block production stopped for good (an assertion, or a block the store would not take): the probes
// say halted for a moment, so a supervisor and an operator can see why, then the process exits.
node.onHalt((halt) => {
  monitor?.stop()
  haltExitCode = EXIT_HALTED
  log.error(`halted (${halt.code}); the probes say why, and the process exits with ${EXIT_HALTED} in ${config.haltExitDelayMs} ms`, {
    code: halt.code,
    store_dirty: halt.storeDirty,
    exit_code: EXIT_HALTED,
  })
  setTimeout(() => finish(EXIT_HALTED), config.haltExitDelayMs)
})

function shutdown(signal: string) {
  if (finishing) return
  log.info(`${signal}: stopping at height ${node.state.height}`)
  finish(haltExitCode ?? 0)
}
process.on('SIGINT', () => shutdown('SIGINT'))
process.on('SIGTERM', () => shutdown('SIGTERM'))

// The port is bound before the stored chain is replayed: meanwhile the probes say recovering and
// every other route answers 503 (docs/operations.md#health).
try {
  app.listen({ hostname: config.host, port: config.port })
} catch (err) {
  log.error(cannotListenMessage(config.host, config.port, err))
  finish(1)
  // finish exits once the node and its threads have stopped; nothing below may run meanwhile.
  await new Promise<never>(() => {})
}
log.info(`perpd ${genesis.network} network, data ${config.dataDir}, block time ${config.blockTimeMs} ms`, {
  network: genesis.network,
  data_dir: config.dataDir,
  block_time_ms: config.blockTimeMs,
})
// The line tests and scripts wait for (test/support/child-process.ts), once the port is bound.
const url = `http://${config.host}:${app.server!.port}`
log.info(`listening on ${url}`, { url })
// Which library recovers /action's signatures (wire/native-secp256k1.ts), the admission threads' main
// cost: the system's libsecp256k1 (0.2 or newer) takes about 30% less than the addon's.
const RECOVERY_LOG: Record<RecoveryLibrary, { level: 'info' | 'warn'; message: string }> = {
  system: { level: 'info', message: "signature recovery: the system's libsecp256k1" },
  addon: {
    level: 'info',
    message:
      "signature recovery: the npm addon's libsecp256k1 (installing libsecp256k1 0.2 or newer, Debian's libsecp256k1-1, makes it about 30% cheaper)",
  },
  noble: { level: 'warn', message: 'signature recovery: @noble/curves in JavaScript, about ten times slower than libsecp256k1' },
}
log[RECOVERY_LOG[recoveryLibrary].level](RECOVERY_LOG[recoveryLibrary].message, { recovery_library: recoveryLibrary })
// Correct either way, but about five times slower per hash (lib/keccak.ts): worth an operator's look.
void keccakWasmReady.then((wasm) => {
  if (!wasm) log.warn('Keccak-256 runs in JavaScript: its WebAssembly module did not start here (every /action hashes slower)')
})

const progress = replayReporter({
  tty: process.stderr.isTTY === true,
  write: (text) => process.stderr.write(text),
  log: (line) => log.info(line),
})
let recovered = false
try {
  recovered = await node.recover(progress.report)
} catch (err) {
  progress.done()
  // The stored chain does not replay to its stored roots: another code, or a damaged store.
  // Restarting does not help; the probes say why until the process exits.
  const message = `the stored chain does not replay: ${errorMessage(err)}`
  log.error(`${message}; exiting with ${EXIT_REPLAY_FAILED} in ${config.haltExitDelayMs} ms`, { error: err, exit_code: EXIT_REPLAY_FAILED })
  node.health.halted('REPLAY_FAILED', message, false, err instanceof BlockMismatch ? err.height : undefined)
  haltExitCode = EXIT_REPLAY_FAILED
  setTimeout(() => finish(EXIT_REPLAY_FAILED), config.haltExitDelayMs)
}
progress.done()

if (recovered && !finishing) {
  startFeed(node, appOptions)
  // The history index starts before the first block so it sees every committed block; without it
  // the node still runs, the history routes answer 503 and the probes say degraded.
  history = await startHistory(node, { dataDir: config.dataDir, leaderboardRefreshMs: config.leaderboardRefreshMs }).catch((err: Error) => {
    log.error(`history index not started: ${err.message}`)
    node.health.setProblem('INDEXER_STOPPED', `the history index did not start: ${err.message}`)
    return undefined
  })
}
if (recovered && !finishing) {
  // blocks.live pushes each block once the history index has ingested it.
  if (history !== undefined) feedRuntime(node).followHistory(history)
  nodeMetrics(node).setHistory(history)
  monitor = new HealthMonitor(node, history, () => feedRuntime(node).feed, {
    indexerLagBlocks: config.healthIndexerLagBlocks,
    indexerLagMs: config.healthIndexerLagMs,
  }).start()
  // A replicated chain's node follows the stream, and produces once it holds the lease.
  if (replication === undefined) node.start()
  else await replication.start(replicationConfig?.advertiseUrl ?? url).catch(cannotReplicate)
  // --dev: the development accounts and their (public) keys, as Anvil prints them.
  if (config.dev) printDevBanner(genesis)
  // --dev: the development quoter keeps the external-peg market (XAU-USD) quoted, through /action's
  // admission (on a node alone: a replicated chain's quoter would follow the lease).
  if (config.devQuoter && replication === undefined) startDevQuoter(node, { network: genesis.network })
  log.info(`ready at height ${node.state.height}`, { height: node.state.height })
}

/** Runs `perpd init|replay|status|keys new|version` and resolves with the exit code (2: a command line that cannot be used). */
async function runSubcommand(words: readonly string[]): Promise<number> {
  const commands = await import('./node/commands.ts')
  const [word, second] = words
  // Two-word commands: keys new, config print.
  const pairs: Record<string, string> = { keys: 'new', config: 'print' }
  const pair = pairs[word!]
  const name = pair === undefined ? word : second === pair ? `${word} ${pair}` : undefined
  const rest = words.slice(pair === undefined ? 1 : 2)
  if (name === undefined) {
    console.error(
      `perpd ${word}: the command is perpd ${word} ${pair}${second === undefined ? '' : `, not perpd ${word} ${second}`}\n(perpd --help lists the commands)`,
    )
    return 2
  }
  const parse = <R>(f: () => R) => readCommandLine(f)
  switch (name) {
    case 'version':
      parse(() => parseSubcommand('version', rest))
      return commands.versionCommand(NODE_COMMAND.version!)
    case 'keys new':
      return commands.keysNewCommand(parse(() => parseSubcommand('keys new', rest)))
    case 'config print': {
      // docs/operator.md#configuration: the values of `perpd start`, each with its source.
      const parsed = parse(() => parseSubcommandSources('config print', rest))
      const table = NODE_SUBCOMMANDS['config print'].options
      console.log(parsed.values.json ? configJson(table, parsed) : configText(table, parsed))
      return 0
    }
    case 'demo': {
      // A dev node (this program again, `start --dev`) plus simulated traders (src/demo/demo.ts).
      const v = parse(() => parseSubcommand('demo', rest))
      const { runDemo } = await import('./demo/demo.ts')
      return runDemo({ port: v.port, dataDir: v['data-dir'], seconds: v.seconds, seed: v.seed })
    }
    case 'status': {
      const v = parse(() => parseSubcommand('status', rest))
      return commands.statusCommand({ url: v.url, json: v.json, timeoutMs: v['timeout-ms'] })
    }
    case 'init': {
      const v = parse(() => parseSubcommand('init', rest))
      return parse(() =>
        commands.initCommand(v, (g, label) => {
          const genesis = validateGenesis(g, label)
          refuseDevKeysOnMainnet(genesis)
          return genesis
        }),
      )
    }
    case 'replay': {
      const v = parse(() => {
        const values = parseSubcommand('replay', rest)
        if (!values.verify)
          throw new ConfigError(
            'perpd replay runs with --verify (re-execute the block store and check every root)\n(perpd replay --help lists the options)',
          )
        if (values.dev && values.genesis !== undefined) throw new ConfigError('give --genesis FILE or --dev, not both')
        return {
          ...values,
          genesisValue: values.genesis !== undefined ? readGenesis(values.genesis) : values.dev ? devGenesis() : undefined,
        }
      })
      configureLogging(logSettingsFrom(v))
      return commands.replayVerifyCommand({ dataDir: resolve(v['data-dir']), genesis: v.genesisValue, tty: process.stderr.isTTY === true })
    }
    default:
      console.error(`perpd: unknown command ${word}\n(perpd --help lists the commands)`)
      return 2
  }
}
