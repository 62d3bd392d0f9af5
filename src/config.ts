// The only reader of flags, environment and config files. Everything else receives a NodeConfig.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseWsLimits, WS_LIMITS_DEFAULT, type WsLimits } from './api/ws/limits.ts'
import { parseFlags } from './lib/flags.ts'
import { devGenesis, DEV_ADDRESSES } from './node/dev-genesis.ts'
import type { Genesis } from './wire/genesis.ts'
import { GenesisSchema } from './wire/genesis.ts'
import { compileValidator } from './wire/validate.ts'

export interface NodeConfig {
  readonly dev: boolean
  readonly dataDir: string
  readonly host: string
  readonly port: number
  readonly blockTimeMs: number
  readonly genesis: Genesis
  /** /action requests per second per client IP and per signer (spec §8); 0 disables. */
  readonly rateLimitIpPerSec: number
  /** A /query request times out after this long, queueing included (spec §8: 10 s). */
  readonly queryTimeoutMs: number
  readonly rateLimitSignerPerSec: number
  /** WebSocket limits (spec §6.1); `--ws-limits idle_ms=1500,...` shortens them for tests. */
  readonly wsLimits: WsLimits
  /** Block time between two leaderboard snapshots of the history index (default 5 s). */
  readonly leaderboardRefreshMs: number
  /** A state snapshot every this many blocks and one at shutdown, for fast restarts; 0: none. */
  readonly snapshotEveryBlocks: number
}

export const USAGE = 'usage: perpd [--dev] [--data-dir DIR] [--host 127.0.0.1] [--port 8080] [--block-time-ms N] [--genesis FILE] [--rate-limit-ip 50] [--rate-limit-signer 20] [--query-timeout-ms 10000] [--snapshot-every-blocks 10000]'

export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}

/** Parses the node's command line (the same for `bun src/main.ts` and the compiled binary). */
export function parseNodeArgs(argv: readonly string[]): NodeConfig {
  const flags = parseFlags(argv, {
    valueFlags: ['--data-dir', '--host', '--port', '--block-time-ms', '--genesis', '--rate-limit-ip', '--rate-limit-signer', '--ws-limits', '--leaderboard-refresh-ms', '--query-timeout-ms', '--snapshot-every-blocks'],
    switches: ['--dev'],
    usage: USAGE,
    fail: (message) => new ConfigError(message),
  })
  const dev = flags.has('--dev')
  const port = flags.integer('--port', 8080, 0, 65535)
  const blockTimeMs = flags.integer('--block-time-ms', 200, 10, 60_000)
  const genesisFile = flags.get('--genesis')
  let genesis: Genesis
  if (genesisFile !== undefined) genesis = readGenesis(genesisFile)
  else if (dev) genesis = devGenesis()
  else throw new ConfigError(`give --genesis FILE, or --dev for the development network\n${USAGE}`)
  if (genesis.network === 'mainnet') {
    if (dev) throw new ConfigError('--dev is refused on a network named mainnet')
    const devKey = genesis.accounts.find((a) => (DEV_ADDRESSES as readonly string[]).includes(a.address.toLowerCase()))
    if (devKey !== undefined) throw new ConfigError(`mainnet genesis holds the development account ${devKey.address}; refused`)
  }
  return {
    dev,
    dataDir: resolve(flags.get('--data-dir') ?? (dev ? '.data/dev' : 'perpd-data')),
    host: flags.get('--host') ?? '127.0.0.1',
    port,
    blockTimeMs,
    genesis,
    rateLimitIpPerSec: flags.integer('--rate-limit-ip', 50, 0, 1_000_000),
    queryTimeoutMs: flags.integer('--query-timeout-ms', 10_000, 1, 600_000),
    rateLimitSignerPerSec: flags.integer('--rate-limit-signer', 20, 0, 1_000_000),
    wsLimits: wsLimitsFlag(flags.get('--ws-limits')),
    leaderboardRefreshMs: flags.integer('--leaderboard-refresh-ms', 5_000, 100, 86_400_000),
    // 10,000 blocks: about 33 minutes at the default block time.
    snapshotEveryBlocks: flags.integer('--snapshot-every-blocks', 10_000, 0, 1_000_000_000),
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

function readGenesis(file: string): Genesis {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (err) {
    throw new ConfigError(`cannot read genesis ${file}: ${(err as Error).message}`)
  }
  const v = genesisValidator.validate(parsed, 'genesis')
  if (!v.ok) throw new ConfigError(`genesis ${file}: ${v.field}: ${v.message}`)
  return parsed as Genesis
}
