// The admin service's command line. Like src/config.ts for the node, this is the only place the
// service reads flags; everything else receives an AdminConfig.
import { join, resolve } from 'node:path'
import packageJson from '../../package.json' with { type: 'json' }
import { LOG_OPTIONS, logSettingsFrom, type LogSettings } from '../lib/log.ts'
import { defineOptions, OptionError, optionRows, parseOptions, usageText, type CommandSettings } from '../lib/options.ts'
import { CLIENT_COMMANDS, commandSynopsis } from './cli/commands.ts'

/** Everything `perpd-admin` (the server) is configured with. */
export interface AdminConfig {
  readonly nodeUrl: string
  readonly dataDir: string
  readonly host: string
  readonly port: number
  readonly kekFile: string
  /** Where the oracle reads prices (HTTP JSON, see runners/price-source.ts); none: the oracle waits. */
  readonly priceSourceUrl: string | undefined
  /** A JSON file or an http(s) URL listing deposits to credit (runners/deposit-source.ts). */
  readonly depositSource: string | undefined
  /** An http(s) endpoint that pays a withdrawal out before it is settled on chain (runners/bridge-withdraw.ts). */
  readonly withdrawPayoutUrl: string | undefined
  readonly oracleIntervalMs: number
  /** A market's quote is pushed again after this long even when its prices did not change. */
  readonly quoteRefreshMs: number
  /** Poll interval of the liquidator and bridge runners. */
  readonly runnerIntervalMs: number
  /** --log-level and --log-format. */
  readonly log: LogSettings
}

/** Every option of the service (`perpd-admin [serve] [options]`): the parser and --help come from it. */
export const ADMIN_OPTIONS = defineOptions({
  'node-url': { type: 'string', valueName: 'URL', default: 'http://127.0.0.1:8080', description: "the chain node's HTTP API" },
  'data-dir': { type: 'string', valueName: 'DIR', default: 'perpd-admin-data', description: 'the admin database (admin.sqlite)' },
  host: { type: 'string', valueName: 'HOST', default: '127.0.0.1', description: 'the address the admin API listens on' },
  port: { type: 'integer', default: 3000, min: 0, max: 65535, description: 'the admin API port (0: any free port)' },
  'kek-file': { type: 'string', valueName: 'FILE', defaultText: 'DATA_DIR/admin.kek', description: 'the key-encryption key of the stored keys; in production, on another volume than the data' },
  'price-source-url': { type: 'string', valueName: 'URL', description: 'where the oracle reads prices (HTTP JSON); without it the oracle waits' },
  'deposit-source': { type: 'string', valueName: 'FILE|URL', description: 'a JSON file or an http(s) URL listing the deposits to credit' },
  'withdraw-payout-url': { type: 'string', valueName: 'URL', description: 'an http(s) endpoint that pays a withdrawal out before it is settled on chain' },
  'oracle-interval-ms': { type: 'integer', default: 1000, min: 50, max: 600_000, description: "the oracle's poll interval" },
  'quote-refresh-ms': { type: 'integer', default: 3000, min: 0, max: 3_600_000, description: "a market's quote is pushed again after this long even when its prices did not change" },
  'runner-interval-ms': { type: 'integer', default: 2000, min: 50, max: 600_000, description: 'the poll interval of the liquidator and bridge runners' },
  ...LOG_OPTIONS,
})

/** The rest of `perpd-admin --help` (the client commands are listed after the options), and how errors are reported. */
export const ADMIN_COMMAND: CommandSettings = {
  usage: ['perpd-admin [serve] [options]', ...Object.values(CLIENT_COMMANDS).map(commandSynopsis)],
  summary: 'perpd-admin: the off-chain admin service of a perpd network (keys, oracle, liquidator, bridge runners), and its command-line client.',
  epilog: [
    'client commands (perpd-admin COMMAND --help for the options of each):',
    ...optionRows(Object.values(CLIENT_COMMANDS).map((c) => [[c.name, ...c.args].join(' '), c.summary] as const)),
    '',
    'Client commands take --admin-url URL and --token TOKEN; without them they use the session that',
    '`login` stored in $XDG_CONFIG_HOME/perpd-admin/session.json (default ~/.config/perpd-admin).',
  ].join('\n'),
  version: `perpd-admin ${packageJson.version}`,
  program: 'perpd-admin',
  error: (message) => new AdminConfigError(message),
}

/** The text of `perpd-admin --help`. */
export const ADMIN_USAGE = usageText(ADMIN_OPTIONS, ADMIN_COMMAND)

/** A command line that cannot be run; the message is meant for the operator (exit 2). */
export class AdminConfigError extends OptionError {
  override readonly name = 'AdminConfigError'
}

/**
 * Parses the server's flags (`perpd-admin [flags]` or `perpd-admin serve [flags]`). Throws
 * AdminConfigError for what cannot be used, InfoRequested (lib/options.ts) for --help and --version.
 */
export function parseAdminArgs(argv: readonly string[]): AdminConfig {
  const { values } = parseOptions(argv, ADMIN_OPTIONS, ADMIN_COMMAND)
  const dataDir = resolve(values['data-dir'])
  return {
    nodeUrl: httpUrl('node-url', values['node-url']),
    dataDir,
    host: values.host,
    port: values.port,
    // Beside the database by default, which is fine for development; in production point it at a
    // file on another volume (or a secrets mount) so a copy of the data directory alone is useless.
    kekFile: resolve(values['kek-file'] ?? join(dataDir, 'admin.kek')),
    priceSourceUrl: optionalHttpUrl('price-source-url', values['price-source-url']),
    depositSource: values['deposit-source'],
    withdrawPayoutUrl: optionalHttpUrl('withdraw-payout-url', values['withdraw-payout-url']),
    oracleIntervalMs: values['oracle-interval-ms'],
    quoteRefreshMs: values['quote-refresh-ms'],
    runnerIntervalMs: values['runner-interval-ms'],
    log: logSettingsFrom(values),
  }
}

function optionalHttpUrl(name: string, raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : httpUrl(name, raw)
}

/** An http(s) URL without its trailing slashes. */
function httpUrl(name: string, raw: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new AdminConfigError(`--${name} must be a URL, got ${raw}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AdminConfigError(`--${name} must be an http(s) URL, got ${raw}`)
  return raw.replace(/\/+$/, '')
}
