// The admin service's command line. Like src/config.ts for the node, this is the only place the
// service reads flags; everything else receives an AdminConfig.
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseFlags, type Flags } from '../lib/flags.ts'

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
  const flags = parseFlags(argv, { valueFlags: VALUE_FLAGS, usage: ADMIN_USAGE, fail: (message) => new AdminConfigError(message) })
  const dataDir = resolve(flags.get('--data-dir') ?? 'perpd-admin-data')
  return {
    nodeUrl: httpUrl(flags, '--node-url') ?? 'http://127.0.0.1:8080',
    dataDir,
    host: flags.get('--host') ?? '127.0.0.1',
    port: flags.integer('--port', 3000, 0, 65535),
    // Beside the database by default, which is fine for development; in production point it at a
    // file on another volume (or a secrets mount) so a copy of the data directory alone is useless.
    kekFile: resolve(flags.get('--kek-file') ?? join(dataDir, 'admin.kek')),
    priceSourceUrl: httpUrl(flags, '--price-source-url'),
    depositSource: flags.get('--deposit-source'),
    withdrawPayoutUrl: httpUrl(flags, '--withdraw-payout-url'),
    oracleIntervalMs: flags.integer('--oracle-interval-ms', 1000, 50, 600_000),
    quoteRefreshMs: flags.integer('--quote-refresh-ms', 3000, 0, 3_600_000),
    runnerIntervalMs: flags.integer('--runner-interval-ms', 2000, 50, 600_000),
  }
}

function httpUrl(flags: Flags, name: string): string | undefined {
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

/** Where the command-line client keeps its session: $XDG_CONFIG_HOME/perpd-admin, else ~/.config/perpd-admin. */
export function cliConfigDir(): string {
  const xdg = process.env.XDG_CONFIG_HOME
  return join(xdg !== undefined && xdg !== '' ? xdg : join(homedir(), '.config'), 'perpd-admin')
}

/** The admin service address the client uses when neither --admin-url nor a session names one. */
export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:3000'
