// The admin service's command line. Like src/config.ts for the node, this is the only place the
// service reads flags; everything else receives an AdminConfig.
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/** Everything `perpd-admin` (the server) is configured with. */
export interface AdminConfig {
  readonly nodeUrl: string
  readonly dataDir: string
  readonly host: string
  readonly port: number
  readonly kekFile: string
  /** Where the oracle reads prices (HTTP JSON, see price-source.ts); none: the oracle waits. */
  readonly priceSourceUrl: string | undefined
  /** A JSON file or an http(s) URL listing deposits to credit (deposit-source.ts). */
  readonly depositSource: string | undefined
  /** An http(s) endpoint that pays a withdrawal out before it is settled on chain (bridge-withdraw.ts). */
  readonly withdrawPayoutUrl: string | undefined
  readonly oracleIntervalMs: number
  /** A market's quote is pushed again after this long even when its prices did not change. */
  readonly quoteRefreshMs: number
  /** Poll interval of the liquidator and bridge runners. */
  readonly runnerIntervalMs: number
}

/** The usage text of both the server and the client commands. */
export const ADMIN_USAGE = `usage: perpd-admin [--node-url URL] [--data-dir DIR] [--host 127.0.0.1] [--port 3000] [--kek-file FILE]
                   [--price-source-url URL] [--deposit-source FILE|URL] [--withdraw-payout-url URL]
                   [--oracle-interval-ms 1000] [--quote-refresh-ms 3000] [--runner-interval-ms 2000]
       perpd-admin login --key-file FILE [--admin-url URL]
       perpd-admin keys upload --label LABEL --key-file FILE
       perpd-admin keys list
       perpd-admin keys delete KEY_ID
       perpd-admin bind SERVICE KEY_ID|none [--disabled]
       perpd-admin services
       perpd-admin logout
  client commands take --admin-url URL and --token TOKEN; without them they use the session that
  \`login\` stored in $XDG_CONFIG_HOME/perpd-admin/session.json (default ~/.config/perpd-admin).`

/** A command line that cannot be run; the message is meant for the operator. */
export class AdminConfigError extends Error {
  override readonly name = 'AdminConfigError'
}

const VALUE_FLAGS = [
  '--node-url', '--data-dir', '--host', '--port', '--kek-file', '--price-source-url', '--deposit-source',
  '--withdraw-payout-url', '--oracle-interval-ms', '--quote-refresh-ms', '--runner-interval-ms',
] as const

/** Parses the server's flags (`perpd-admin [flags]` or `perpd-admin serve [flags]`). */
export function parseAdminArgs(argv: readonly string[]): AdminConfig {
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--help' || arg === '-h') throw new AdminConfigError(ADMIN_USAGE)
    const eq = arg.indexOf('=')
    const name = eq > 0 ? arg.slice(0, eq) : arg
    if (!(VALUE_FLAGS as readonly string[]).includes(name)) throw new AdminConfigError(`unknown argument ${arg}\n${ADMIN_USAGE}`)
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i]
    if (value === undefined) throw new AdminConfigError(`${name} needs a value\n${ADMIN_USAGE}`)
    flags.set(name, value)
  }
  const dataDir = resolve(flags.get('--data-dir') ?? 'perpd-admin-data')
  return {
    nodeUrl: httpUrl(flags, '--node-url') ?? 'http://127.0.0.1:8080',
    dataDir,
    host: flags.get('--host') ?? '127.0.0.1',
    port: integerFlag(flags, '--port', 3000, 0, 65535),
    // Beside the database by default, which is fine for development; in production point it at a
    // file on another volume (or a secrets mount) so a copy of the data directory alone is useless.
    kekFile: resolve(flags.get('--kek-file') ?? join(dataDir, 'admin.kek')),
    priceSourceUrl: httpUrl(flags, '--price-source-url'),
    depositSource: flags.get('--deposit-source'),
    withdrawPayoutUrl: httpUrl(flags, '--withdraw-payout-url'),
    oracleIntervalMs: integerFlag(flags, '--oracle-interval-ms', 1000, 50, 600_000),
    quoteRefreshMs: integerFlag(flags, '--quote-refresh-ms', 3000, 0, 3_600_000),
    runnerIntervalMs: integerFlag(flags, '--runner-interval-ms', 2000, 50, 600_000),
  }
}

function httpUrl(flags: Map<string, string>, name: string): string | undefined {
  const raw = flags.get(name)
  if (raw === undefined) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new AdminConfigError(`${name} must be a URL, got ${raw}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AdminConfigError(`${name} must be an http(s) URL, got ${raw}`)
  return raw.replace(/\/+$/, '')
}

function integerFlag(flags: Map<string, string>, name: string, fallback: number, min: number, max: number): number {
  const raw = flags.get(name)
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw)) throw new AdminConfigError(`${name} must be an integer, got ${raw}`)
  const n = Number(raw)
  if (n < min || n > max) throw new AdminConfigError(`${name} must be between ${min} and ${max}, got ${n}`)
  return n
}

/** Where the command-line client keeps its session: $XDG_CONFIG_HOME/perpd-admin, else ~/.config/perpd-admin. */
export function cliConfigDir(): string {
  const xdg = process.env.XDG_CONFIG_HOME
  return join(xdg !== undefined && xdg !== '' ? xdg : join(homedir(), '.config'), 'perpd-admin')
}

/** The admin service address the client uses when neither --admin-url nor a session names one. */
export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:3000'
