// The only reader of flags, environment and config files. Everything else receives a NodeConfig.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import packageJson from '../package.json' with { type: 'json' }
import { defaultAdmissionThreads, INLINE_PER_TURN_DEFAULT } from './api/admission/admission-pool.ts'
import { INDEXER_LAG_BLOCKS_DEFAULT, INDEXER_LAG_MS_DEFAULT } from './api/health-monitor.ts'
import { parseWsLimits, WS_LIMITS_DEFAULT, type WsLimits } from './api/ws/limits.ts'
import { type CidrRange, parseCidrList } from './lib/cidr.ts'
import { LOG_OPTIONS, type LogSettings, logSettingsFrom } from './lib/log.ts'
import {
  type CommandSettings,
  type ConfigSources,
  defineOptions,
  OptionError,
  type OptionTable,
  parseOptions,
  usageText,
} from './lib/options.ts'
import { DEV_ADDRESSES, devGenesis } from './node/dev-genesis.ts'
import type { Genesis } from './wire/genesis.ts'
import { GenesisSchema } from './wire/genesis.ts'
import { compileValidator } from './wire/validate.ts'

export interface NodeConfig {
  readonly dev: boolean
  readonly dataDir: string
  readonly host: string
  readonly port: number
  readonly blockTimeMs: number
  /** The genesis given (--genesis, --dev); undefined only on a node of a replicated chain that reads it from its store or the stream. */
  readonly genesis: Genesis | undefined
  /** /action requests per second per client IP and per signer (docs/limits.md#action-rate-limits); 0 disables. */
  readonly rateLimitIpPerSec: number
  /** A /query request times out after this long, queueing included (default 10 s, docs/limits.md#queries). */
  readonly queryTimeoutMs: number
  readonly rateLimitSignerPerSec: number
  /** WebSocket limits (docs/limits.md#websocket); `--ws-limits idle_ms=1500,...` shortens them for tests. */
  readonly wsLimits: WsLimits
  /** Block time between two leaderboard snapshots of the history index (default 5 s). */
  readonly leaderboardRefreshMs: number
  /** A state snapshot every this many blocks and one at shutdown, for fast restarts; 0: none. */
  readonly snapshotEveryBlocks: number
  /** Health (docs/operations.md#health): degraded when the history index is more than this many blocks behind ... */
  readonly healthIndexerLagBlocks: number
  /** ... and its lag has not shrunk for this long. */
  readonly healthIndexerLagMs: number
  /** A halted node keeps answering its probes this long, then exits 70. */
  readonly haltExitDelayMs: number
  /** --log-level and --log-format. */
  readonly log: LogSettings
  /**
   * --trusted-proxy: reverse proxies whose X-Forwarded-For names the client for per-IP limits
   * (lib/cidr.ts clientAddress); empty: the socket peer is the client.
   */
  readonly trustedProxies: readonly CidrRange[]
  /** Admission threads of /action (src/api/admission/admission-pool.ts); 0: admission on the block thread. */
  readonly admissionThreads: number
  /** --admission-inline: bodies a turn admitted on the block thread while the admission threads are idle. */
  readonly admissionInline: number
  /** The state roots on a thread of their own (node/state-root-thread.ts), at replay and after, unless --no-state-root-thread. */
  readonly stateRootThread: boolean
  /** Blocks executed ahead of their tick (ChainNode, docs/architecture.md#threads), unless --no-execute-ahead. */
  readonly executeAhead: boolean
  /** --dev runs the development quoter of its external-peg markets unless --no-dev-quoter (node/dev-quoter.ts). */
  readonly devQuoter: boolean
  /** A replicated chain on NATS JetStream (docs/replication.md); undefined: a node alone. */
  readonly replication: ReplicationConfig | undefined
}

/** The replication options (--nats and the options beside it). */
export interface ReplicationConfig {
  /** NATS server URLs, comma-separated. */
  readonly servers: string
  /** JetStream replicas of the stream and buckets this node creates (1 or 3). */
  readonly replicas: number
  /** follow (--follow): never leads; candidate: leads when it holds the lease (--standby, or the node with the genesis). */
  readonly mode: 'follow' | 'candidate'
  /** The HTTP address other nodes forward /action to while this node leads; default http://HOST:PORT. */
  readonly advertiseUrl: string | undefined
  readonly leaseTtlMs: number
  /** The chain's stream, when the NATS system holds several. */
  readonly stream: string | undefined
  /** --snapshot-from: a node whose newest snapshot and block rows an empty data directory starts from. */
  readonly snapshotFrom: string | undefined
}

/** Every option of `perpd`: the parser and the --help text both come from this table. */
export const NODE_OPTIONS = defineOptions({
  dev: { type: 'boolean', description: 'run the development network: its genesis, ten funded development accounts (refused on mainnet)' },
  genesis: { type: 'string', valueName: 'FILE', description: 'the genesis file of the network (required without --dev)' },
  'data-dir': {
    type: 'string',
    valueName: 'DIR',
    defaultText: '.data/dev with --dev, else perpd-data',
    description: 'the block store, snapshots and history index',
  },
  host: { type: 'string', valueName: 'HOST', default: '127.0.0.1', description: 'the address the HTTP and WebSocket API listens on' },
  port: { type: 'integer', default: 8080, min: 0, max: 65535, description: 'the API port (0: any free port)' },
  'block-time-ms': { type: 'integer', default: 200, min: 10, max: 60_000, description: 'time between two blocks' },
  'rate-limit-ip': {
    type: 'integer',
    default: 50,
    min: 0,
    max: 1_000_000,
    description: '/action requests per second per client IP (0: no limit)',
  },
  'rate-limit-signer': {
    type: 'integer',
    default: 20,
    min: 0,
    max: 1_000_000,
    description: '/action requests per second per signer (0: no limit)',
  },
  'query-timeout-ms': {
    type: 'integer',
    default: 10_000,
    min: 1,
    max: 600_000,
    description: 'a /query request times out after this long, queueing included',
  },
  'ws-limits': {
    type: 'string',
    valueName: 'NAME=N,...',
    description:
      'WebSocket limits over their defaults (frame_bytes, ping_ms, idle_ms, connections, send_timeout_ms, outbox_frames, outbox_bytes, topics, account_refresh_ms, posts_in_flight)',
  },
  'leaderboard-refresh-ms': {
    type: 'integer',
    default: 5_000,
    min: 100,
    max: 86_400_000,
    description: 'block time between two leaderboard snapshots of the history index',
  },
  // 10,000 blocks: about 33 minutes at the default block time.
  'snapshot-every-blocks': {
    type: 'integer',
    default: 10_000,
    min: 0,
    max: 1_000_000_000,
    description: 'a state snapshot every this many blocks, and one at shutdown (0: none)',
  },
  'trusted-proxy': {
    type: 'string',
    valueName: 'CIDR[,CIDR]',
    description:
      'reverse proxies (IPv4 or IPv6 ranges) trusted to name the client in X-Forwarded-For for per-IP limits; without it the socket peer is the client',
  },
  'no-dev-quoter': {
    type: 'boolean',
    description: 'with --dev, do not run the development quoter that keeps the external-peg market (XAU-USD) quoted',
  },
  'health-indexer-lag-blocks': {
    type: 'integer',
    default: INDEXER_LAG_BLOCKS_DEFAULT,
    min: 1,
    max: 1_000_000_000,
    description:
      'health says degraded once the history index is more than this many blocks behind the chain and not catching up (see --health-indexer-lag-ms)',
  },
  'health-indexer-lag-ms': {
    type: 'integer',
    default: INDEXER_LAG_MS_DEFAULT,
    min: 0,
    max: 86_400_000,
    description:
      'how long the history index may stay over --health-indexer-lag-blocks behind without catching up before health says degraded',
  },
  'admission-threads': {
    type: 'integer',
    min: 0,
    max: 256,
    valueName: 'N',
    defaultText: 'one per core, 1 to 8',
    description:
      'Worker threads that parse, validate and recover the signer of /action requests off the block thread (0: on the block thread)',
  },
  'admission-inline': {
    type: 'integer',
    default: INLINE_PER_TURN_DEFAULT,
    min: 0,
    max: 1_000,
    valueName: 'N',
    description:
      'while the admission threads are idle, up to N /action requests a turn of the event loop are admitted on the block thread instead, which costs less CPU at moderate rates (0: always on the threads)',
  },
  'no-state-root-thread': {
    type: 'boolean',
    description:
      "compute the state root of each block on the block thread instead of a thread of its own (which works on it while the block's rows are written, and in a long replay while the next block executes)",
  },
  'no-execute-ahead': {
    type: 'boolean',
    description:
      "apply a block's actions at its tick instead of in the last milliseconds before it: /action replies come about 4-6 ms later, and reads never wait for a block being applied (their p99 under load is shorter)",
  },
  nats: {
    type: 'string',
    valueName: 'URL[,URL]',
    description:
      'replicate the chain through NATS JetStream (nats://HOST:PORT, several servers comma-separated): a leader appends every block to the stream before it answers, a follower applies and verifies them (docs/replication.md)',
  },
  'nats-replicas': {
    type: 'integer',
    default: 1,
    min: 1,
    max: 3,
    description: 'with --nats: JetStream replicas of the stream and buckets this node creates (1, or 3 on a three-server NATS cluster)',
  },
  'nats-stream': {
    type: 'string',
    valueName: 'NAME',
    description: 'with --follow or --standby: the chain to follow when the NATS system holds several (PERPD_<network>_<genesis digest>)',
  },
  follow: {
    type: 'boolean',
    description: 'with --nats: follow the chain (read replica; /action is forwarded to the leader); no genesis file needed',
  },
  standby: {
    type: 'boolean',
    description: 'with --nats: follow the chain and take over as leader when the lease expires; no genesis file needed',
  },
  'advertise-url': {
    type: 'string',
    valueName: 'URL',
    defaultText: 'http://HOST:PORT',
    description: "with --nats: the address of this node's API that other nodes forward /action to while it leads",
  },
  'snapshot-from': {
    type: 'string',
    valueName: 'URL',
    description:
      'with --follow or --standby and an empty data directory: start from the newest state snapshot of the node at URL (http://HOST:PORT) and its stored blocks, each checked against the stream, instead of replaying from genesis',
  },
  'lease-ttl-ms': {
    type: 'integer',
    default: 3_000,
    min: 200,
    max: 600_000,
    description:
      'with --nats: the leader lease lives this long without renewal (a standby takes over after it); set by the node that creates the lease bucket',
  },
  'halt-exit-delay-ms': {
    type: 'integer',
    default: 5_000,
    min: 0,
    max: 600_000,
    description: 'a halted node (block production stopped) keeps answering its probes this long, then exits 70',
  },
  ...LOG_OPTIONS,
})

/**
 * Besides flags, the node's commands read PERPD_NAME variables and a TOML file (--config FILE or
 * PERPD_CONFIG), flag > environment > file > default (docs/operator.md#configuration). PERPD_ADMIN_*
 * belongs to the admin service; PERPD_PRIVATE_KEY and PERPD_SYMBOL to examples/place-order.ts.
 */
export const NODE_SOURCES: ConfigSources = {
  envPrefix: 'PERPD_',
  envIgnorePrefixes: ['PERPD_ADMIN_'],
  envKnown: ['PERPD_PRIVATE_KEY', 'PERPD_SYMBOL'],
  knownNames: () => nodeConfigurableNames(),
  file: true,
}

/** The rest of `perpd --help`, and how the parser reports a bad command line. */
export const NODE_COMMAND: CommandSettings = {
  usage: ['perpd --dev [options]', 'perpd --genesis FILE [options]'],
  summary: 'perpd: the chain node of a perpetual-futures exchange (JSON-RPC, REST and WebSocket API on one port).',
  epilog:
    "commands (perpd COMMAND --help for each):\n  start            run the node (the default: perpd [start] --dev | --genesis FILE [options])\n  init             write a genesis file to edit\n  replay --verify  re-execute a data directory's block store and check every root\n  config print     show the effective configuration and where each value came from\n  status           ask a running node for its health and height\n  keys new         make a key pair\n  demo             a dev node with simulated traders (npm run demo)\n  version          print the version and the code fingerprint",
  version: `perpd ${packageJson.version}`,
  program: 'perpd',
  error: (message) => new ConfigError(message),
  sources: NODE_SOURCES,
}

/** The text of `perpd --help`. */
export const USAGE = usageText(NODE_OPTIONS, NODE_COMMAND)

/**
 * The subcommands of `perpd` besides `start` (the node, NODE_OPTIONS, also run with no subcommand):
 * one option table each, from which src/main.ts parses and each `perpd WORD --help` is written
 * (docs/operator.md#the-perpd-command).
 */
export const NODE_SUBCOMMANDS = {
  init: {
    usage: 'perpd init --network NAME --admin ADDRESS --out FILE',
    summary:
      'writes a genesis file to edit (accounts and their roles and balances, markets and their parameters, limits), checked by the schema --genesis uses; never overwrites a file',
    options: defineOptions({
      network: {
        type: 'string',
        valueName: 'NAME',
        required: true,
        description: 'the network name (1 to 32 characters) signatures are bound to',
      },
      admin: { type: 'string', valueName: 'ADDRESS', required: true, description: 'the first Admin account (perpd keys new makes one)' },
      out: { type: 'string', valueName: 'FILE', required: true, description: 'the genesis file to write (refused if it exists)' },
    }),
  },
  replay: {
    usage: 'perpd replay --verify --data-dir DIR [--genesis FILE | --dev]',
    summary:
      "re-executes every stored block from genesis (ignoring snapshots) and checks each state root and digest; exits 0 when all match, 65 at the first mismatch (its height, the stored and the computed root). Run it on a stopped node's data directory or a copy",
    configurable: true,
    options: defineOptions({
      verify: { type: 'boolean', commandLineOnly: true, description: 'check every root and digest (required: the only mode)' },
      'data-dir': {
        type: 'string',
        valueName: 'DIR',
        required: true,
        description: 'the data directory whose block store (chain.sqlite) to replay',
      },
      genesis: {
        type: 'string',
        valueName: 'FILE',
        description: 'the genesis the chain must start from (default: the one the data directory stored)',
      },
      dev: { type: 'boolean', description: 'the chain must start from the development genesis' },
      ...LOG_OPTIONS,
    }),
  },
  status: {
    usage: 'perpd status [--url URL] [--json]',
    summary:
      'asks a running node for its health, its height and its history index; exits 0 when ok, 3 when it answers but is not ok, 1 when it does not answer',
    configurable: true,
    options: defineOptions({
      url: { type: 'string', valueName: 'URL', default: 'http://127.0.0.1:8080', description: 'the node' },
      json: { type: 'boolean', commandLineOnly: true, description: 'print the health and status bodies as one JSON object' },
      'timeout-ms': { type: 'integer', default: 5_000, min: 1, max: 600_000, description: 'give up on a request after this long' },
    }),
  },
  'keys new': {
    usage: 'perpd keys new [--json]',
    summary: 'makes a secp256k1 key pair and prints its address and private key (store the key safely; it is shown once)',
    options: defineOptions({ json: { type: 'boolean', commandLineOnly: true, description: 'print {"address", "private_key"} as JSON' } }),
  },
  'config print': {
    usage: 'perpd config print [--json] [--config FILE] [node options]',
    summary:
      "shows the configuration `perpd start` would run with given the same flags, environment and --config file: every option's value and where it came from (flag, env NAME, FILE:LINE, default); each value is checked as at start, the genesis is not read",
    configurable: true,
    options: defineOptions({
      ...NODE_OPTIONS,
      json: {
        type: 'boolean',
        commandLineOnly: true,
        description: 'print {"config_file", "options": {NAME: {value, source, from}}} as JSON',
      },
    }),
  },
  demo: {
    usage: 'perpd demo [--port N] [--data-dir DIR] [--seconds N] [--seed N]',
    summary:
      'runs a development node (perpd start --dev, a child process) with simulated traders: a market maker quoting BTC-USD, ETH-USD and SOL-USD through an agent, takers crossing the spread, occasional trigger orders, and the dev quoter on XAU-USD; prints where to look and stops the node on Ctrl-C (README.md, docs/operator.md#demo)',
    options: defineOptions({
      port: { type: 'integer', default: 8080, min: 0, max: 65535, description: "the node's API port (0: any free port)" },
      'data-dir': {
        type: 'string',
        valueName: 'DIR',
        defaultText: 'a temporary directory, removed at exit',
        description: "the node's data directory (kept at exit when given)",
      },
      seconds: {
        type: 'integer',
        min: 1,
        max: 31_536_000,
        valueName: 'N',
        defaultText: 'until Ctrl-C',
        description: 'stop after N seconds',
      },
      seed: {
        type: 'integer',
        default: 1,
        min: 0,
        max: 4_294_967_295,
        description: "the seed of the traders' decisions (the same seed, the same sequence of orders)",
      },
    }),
  },
  version: {
    usage: 'perpd version',
    summary: 'prints the version and the code fingerprint that state snapshots are tied to (docs/operator.md#upgrade)',
    options: defineOptions({}),
  },
} as const

export type NodeSubcommand = keyof typeof NODE_SUBCOMMANDS

/** The words that start a subcommand (`perpd WORD ...`); `start` runs the node. */
export const NODE_SUBCOMMAND_WORDS: readonly string[] = ['start', ...new Set(Object.keys(NODE_SUBCOMMANDS).map((n) => n.split(' ')[0]!))]

/** Parses a subcommand's options (the words after it); ConfigError and InfoRequested as parseNodeArgs. */
export function parseSubcommand<const C extends NodeSubcommand>(
  name: C,
  argv: readonly string[],
  env?: Readonly<Record<string, string | undefined>>,
) {
  return parseSubcommandSources(name, argv, env).values
}

/** parseSubcommand with where each value came from (for `perpd config print`). */
export function parseSubcommandSources<const C extends NodeSubcommand>(
  name: C,
  argv: readonly string[],
  env?: Readonly<Record<string, string | undefined>>,
) {
  const c = NODE_SUBCOMMANDS[name]
  const sources = 'configurable' in c ? { ...NODE_SOURCES, ...(env === undefined ? {} : { env }) } : undefined
  return parseOptions(argv, c.options as (typeof NODE_SUBCOMMANDS)[C]['options'], {
    usage: c.usage,
    summary: c.summary,
    program: `perpd ${name}`,
    error: (m) => new ConfigError(m),
    ...(sources === undefined ? {} : { sources }),
  })
}

/** The option names the environment and the config file may set for some perpd command. */
function nodeConfigurableNames(): string[] {
  const tables: OptionTable[] = [
    NODE_OPTIONS,
    ...Object.values(NODE_SUBCOMMANDS)
      .filter((c) => 'configurable' in c)
      .map((c) => c.options as OptionTable),
  ]
  return tables.flatMap((t) =>
    Object.entries(t)
      .filter(([, spec]) => spec.commandLineOnly !== true)
      .map(([name]) => name),
  )
}

/** A genesis document checked by GenesisSchema (the same check as --genesis), or a ConfigError naming `label`. */
export function validateGenesis(value: unknown, label: string): Genesis {
  const v = genesisValidator.validate(value, 'genesis')
  if (!v.ok) throw new ConfigError(`genesis ${label}: ${v.field}: ${v.message}`)
  return value as Genesis
}

/** A command line or genesis the node cannot start with (exit 2). */
export class ConfigError extends OptionError {
  override readonly name = 'ConfigError'
}

/**
 * Parses the node's command line, with its environment (`env`, default process.env) and config file
 * (docs/operator.md#configuration); the same for `bun src/main.ts` and the compiled binary. Throws
 * ConfigError for what cannot be used, InfoRequested (lib/options.ts) for --help and --version.
 */
export function parseNodeArgs(argv: readonly string[], env?: Readonly<Record<string, string | undefined>>): NodeConfig {
  const { values } = parseOptions(
    argv,
    NODE_OPTIONS,
    env === undefined ? NODE_COMMAND : { ...NODE_COMMAND, sources: { ...NODE_SOURCES, env } },
  )
  const dev = values.dev
  const genesisFile = values.genesis
  const replication = replicationFlags(values)
  let genesis: Genesis | undefined
  if (genesisFile !== undefined) genesis = readGenesis(genesisFile)
  else if (dev) genesis = devGenesis()
  else if (replication === undefined || (replication.mode === 'candidate' && !values.standby))
    throw new ConfigError(
      'give --genesis FILE, or --dev for the development network (a --follow or --standby node reads it from the stream)\n(perpd --help lists the options)',
    )
  if (genesis?.network === 'mainnet' && dev) throw new ConfigError('--dev is refused on a network named mainnet')
  if (genesis !== undefined) refuseDevKeysOnMainnet(genesis)
  return {
    dev,
    dataDir: resolve(values['data-dir'] ?? (dev ? '.data/dev' : 'perpd-data')),
    host: values.host,
    port: values.port,
    blockTimeMs: values['block-time-ms'],
    genesis,
    rateLimitIpPerSec: values['rate-limit-ip'],
    queryTimeoutMs: values['query-timeout-ms'],
    rateLimitSignerPerSec: values['rate-limit-signer'],
    wsLimits: wsLimitsFlag(values['ws-limits']),
    leaderboardRefreshMs: values['leaderboard-refresh-ms'],
    snapshotEveryBlocks: values['snapshot-every-blocks'],
    trustedProxies: trustedProxyFlag(values['trusted-proxy']),
    devQuoter: dev && !values['no-dev-quoter'],
    healthIndexerLagBlocks: values['health-indexer-lag-blocks'],
    healthIndexerLagMs: values['health-indexer-lag-ms'],
    haltExitDelayMs: values['halt-exit-delay-ms'],
    admissionThreads: values['admission-threads'] ?? defaultAdmissionThreads(),
    admissionInline: values['admission-inline'],
    stateRootThread: !values['no-state-root-thread'],
    executeAhead: !values['no-execute-ahead'],
    log: logSettingsFrom(values),
    replication,
  }
}

/** The replication options, checked together; undefined without --nats. */
function replicationFlags(values: {
  nats?: string
  'nats-replicas': number
  'nats-stream'?: string
  follow: boolean
  standby: boolean
  'advertise-url'?: string
  'lease-ttl-ms': number
  'snapshot-from'?: string
}): ReplicationConfig | undefined {
  const snapshotFrom = values['snapshot-from']
  if (values.nats === undefined) {
    for (const flag of ['follow', 'standby'] as const)
      if (values[flag]) throw new ConfigError(`--${flag} needs --nats URL (the NATS servers of the replicated chain)`)
    if (snapshotFrom !== undefined) throw new ConfigError('--snapshot-from needs --nats URL and --follow or --standby')
    return undefined
  }
  if (snapshotFrom !== undefined && !values.follow && !values.standby)
    throw new ConfigError('--snapshot-from is for a node that joins a running chain: give --follow or --standby')
  if (snapshotFrom !== undefined && !/^https?:\/\/[^\s/]+\/?$/.test(snapshotFrom))
    throw new ConfigError(`--snapshot-from: ${snapshotFrom} is not an http(s) URL of a host and port`)
  if (values.follow && values.standby) throw new ConfigError('give --follow or --standby, not both')
  if (values['nats-replicas'] !== 1 && values['nats-replicas'] !== 3) throw new ConfigError('--nats-replicas must be 1 or 3')
  for (const url of values.nats.split(','))
    if (!/^(nats|tls):\/\/[^\s/]+$/.test(url.trim())) throw new ConfigError(`--nats: ${url} is not a NATS URL (nats://HOST:PORT)`)
  const advertise = values['advertise-url']
  if (advertise !== undefined && !/^https?:\/\/[^\s/]+\/?$/.test(advertise))
    throw new ConfigError(`--advertise-url: ${advertise} is not an http(s) URL of a host and port`)
  return {
    servers: values.nats,
    replicas: values['nats-replicas'],
    mode: values.follow ? 'follow' : 'candidate',
    advertiseUrl: advertise?.replace(/\/$/, ''),
    leaseTtlMs: values['lease-ttl-ms'],
    stream: values['nats-stream'],
    snapshotFrom: snapshotFrom?.replace(/\/$/, ''),
  }
}

/** A mainnet genesis may not hold a development account (their keys are public). */
export function refuseDevKeysOnMainnet(genesis: Genesis): void {
  if (genesis.network !== 'mainnet') return
  const devKey = genesis.accounts.find((a) => (DEV_ADDRESSES as readonly string[]).includes(a.address.toLowerCase()))
  if (devKey !== undefined) throw new ConfigError(`mainnet genesis holds the development account ${devKey.address}; refused`)
}

function trustedProxyFlag(raw: string | undefined): readonly CidrRange[] {
  if (raw === undefined) return []
  try {
    return parseCidrList(raw)
  } catch (err) {
    throw new ConfigError(`--trusted-proxy: ${(err as Error).message}`)
  }
}

function wsLimitsFlag(raw: string | undefined): WsLimits {
  if (raw === undefined) return WS_LIMITS_DEFAULT
  try {
    return parseWsLimits(raw)
  } catch (err) {
    throw new ConfigError((err as Error).message)
  }
}

const genesisValidator = compileValidator(GenesisSchema)

export function readGenesis(file: string): Genesis {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (err) {
    throw new ConfigError(`cannot read genesis ${file}: ${(err as Error).message}`)
  }
  return validateGenesis(parsed, file)
}
