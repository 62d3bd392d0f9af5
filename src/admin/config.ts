// The admin service's command line. Like src/config.ts for the node, this is the only place the
// service reads flags; everything else receives an AdminConfig. Development mode is `--dev`: it
// accepts a KEK inside the data directory (its default place then), tightens loose file modes
// instead of refusing them, and allows plain-http links to other hosts (docs/admin.md#options).
import { resolve } from 'node:path'
import packageJson from '../../package.json' with { type: 'json' }
import { type CidrRange, parseCidrList, parseIp } from '../lib/cidr.ts'
import { LOG_OPTIONS, type LogSettings, logSettingsFrom } from '../lib/log.ts'
import {
  type CommandSettings,
  type ConfigSources,
  defineOptions,
  OptionError,
  optionRows,
  parseOptions,
  usageText,
} from '../lib/options.ts'
import { CLIENT_COMMANDS, commandSynopsis } from './cli/commands.ts'
import type { PriceSourceSpec } from './runners/price-source.ts'
import { defaultKekFile } from './store/data-dir.ts'
import { parseVenueSpec, type VenueSpec } from './venues/venue-spec.ts'

/** Everything `perpd-admin` (the server) is configured with. */
export interface AdminConfig {
  readonly nodeUrl: string
  readonly dataDir: string
  readonly host: string
  readonly port: number
  readonly kekFile: string
  /** --dev: a development setup (see the file comment). */
  readonly dev: boolean
  /** --tls-cert and --tls-key: the API is served over TLS with them. */
  readonly tls: { readonly certFile: string; readonly keyFile: string } | undefined
  /** --trusted-proxy: the peers whose X-Forwarded-For names the client (docs/admin.md#behind-a-proxy). */
  readonly trustedProxies: readonly CidrRange[]
  /** --price-source (or --price-source-url): where the oracle reads prices (runners/price-source.ts); none: the oracle waits. */
  readonly priceSource: PriceSourceSpec | undefined
  /** --venue: the external venue hedging and the catalog use (docs/admin.md#venues). */
  readonly venue: VenueSpec
  /** --hl-api-url: Hyperliquid's API base URL instead of the network's own; undefined: the network's. */
  readonly hlApiUrl: string | undefined
  /** A JSON file or an http(s) URL listing deposits to credit (runners/deposit-source.ts). */
  readonly depositSource: string | undefined
  /** An http(s) endpoint that pays a withdrawal out before it is settled on chain (runners/bridge-withdraw.ts). */
  readonly withdrawPayoutUrl: string | undefined
  /** Timeout of one call to the payout endpoint (docs/admin.md#treasury-interface). */
  readonly withdrawPayoutTimeoutMs: number
  /** --settle-without-payout: settle withdrawals without a payout endpoint on a network other than dev. */
  readonly settleWithoutPayout: boolean
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
  'kek-file': {
    type: 'string',
    valueName: 'FILE',
    defaultText: 'DATA_DIR.kek (DATA_DIR/admin.kek with --dev)',
    description: 'the key-encryption key of the stored keys: outside the data directory (best on another volume)',
  },
  dev: {
    type: 'boolean',
    description: 'development mode: a KEK inside the data directory, loose file modes tightened, plain-http links allowed',
  },
  'tls-cert': {
    type: 'string',
    valueName: 'FILE',
    description: 'serve the API over TLS with this PEM certificate (chain), with --tls-key',
  },
  'tls-key': { type: 'string', valueName: 'FILE', description: 'the PEM private key of --tls-cert' },
  'insecure-listen': {
    type: 'boolean',
    description: 'allow listening on a non-loopback address without TLS (behind a TLS-terminating proxy on the same host)',
  },
  'allow-insecure-links': {
    type: 'boolean',
    description: 'allow plain-http node, price source, deposit source and payout URLs on other hosts (default with --dev)',
  },
  'trusted-proxy': {
    type: 'string',
    valueName: 'CIDR[,CIDR]',
    description: 'reverse proxies whose X-Forwarded-For names the client, for the per-IP limits',
  },
  'price-source': {
    type: 'string',
    valueName: 'SPEC',
    description:
      'where the oracle reads prices: hl:mainnet, hl:testnet, perpd:URL or an http(s) URL of a price document; without it the oracle waits',
  },
  'price-source-url': {
    type: 'string',
    valueName: 'URL',
    description: 'the same as --price-source URL (an HTTP price document)',
  },
  venue: {
    type: 'string',
    valueName: 'SPEC',
    default: 'hl:testnet',
    description: 'the external venue hedging and the market catalog use: hl:mainnet, hl:testnet or perpd:URL',
  },
  'hl-api-url': {
    type: 'string',
    valueName: 'URL',
    defaultText: "the network's own (https://api.hyperliquid.xyz, https://api.hyperliquid-testnet.xyz)",
    description: "Hyperliquid's API base URL, for hl: venues and price sources",
  },
  'deposit-source': { type: 'string', valueName: 'FILE|URL', description: 'a JSON file or an http(s) URL listing the deposits to credit' },
  'withdraw-payout-url': {
    type: 'string',
    valueName: 'URL',
    description: 'the treasury that pays a withdrawal out before it is settled on chain (docs/admin.md#treasury-interface)',
  },
  'withdraw-payout-timeout-ms': {
    type: 'integer',
    default: 15_000,
    min: 100,
    max: 120_000,
    description: 'timeout of one call to the treasury; a call that times out is asked about, never repeated blindly',
  },
  'settle-without-payout': {
    type: 'boolean',
    description: 'without --withdraw-payout-url, settle withdrawals on a network other than dev (nothing is paid out)',
  },
  'oracle-interval-ms': { type: 'integer', default: 1000, min: 50, max: 600_000, description: "the oracle's poll interval" },
  'quote-refresh-ms': {
    type: 'integer',
    default: 3000,
    min: 0,
    max: 3_600_000,
    description: "a market's quote is pushed again after this long even when its prices did not change",
  },
  'runner-interval-ms': {
    type: 'integer',
    default: 2000,
    min: 50,
    max: 600_000,
    description: 'the poll interval of the liquidator and bridge runners',
  },
  ...LOG_OPTIONS,
})

/**
 * Besides flags, the service reads PERPD_ADMIN_NAME variables and a TOML file (--config FILE or
 * PERPD_ADMIN_CONFIG), flag > environment > file > default (docs/operator.md#configuration).
 */
/**
 * Test only: the hedger's pause between recording an order and sending it (service.ts,
 * docs/admin.md#the-hedger). Read by the service, not an option; listed so it is not warned about.
 */
export const TEST_HEDGE_PAUSE_VARIABLE = 'PERPD_ADMIN_TEST_HEDGE_PAUSE_MS'

export const ADMIN_SOURCES: ConfigSources = { envPrefix: 'PERPD_ADMIN_', file: true, envKnown: [TEST_HEDGE_PAUSE_VARIABLE] }

/** The rest of `perpd-admin --help` (the client commands are listed after the options), and how errors are reported. */
export const ADMIN_COMMAND: CommandSettings = {
  usage: [
    'perpd-admin [serve] [options]',
    'perpd-admin config print [--json] [options]',
    ...Object.values(CLIENT_COMMANDS).map(commandSynopsis),
  ],
  summary:
    'perpd-admin: the off-chain admin service of a perpd network (keys, oracle, liquidator, bridge runners), and its command-line client.',
  epilog: [
    'client commands (perpd-admin COMMAND --help for the options of each):',
    ...optionRows(Object.values(CLIENT_COMMANDS).map((c) => [[c.name, ...c.args].join(' '), c.summary] as const)),
    '',
    'Client commands take --admin-url URL and --token TOKEN; without them they use the session that',
    '`login` stored in $XDG_CONFIG_HOME/perpd-admin/session.json (default ~/.config/perpd-admin).',
    '`kek rotate` and `audit verify` work on the data directory itself (--data-dir), with no service.',
  ].join('\n'),
  version: `perpd-admin ${packageJson.version}`,
  program: 'perpd-admin',
  error: (message) => new AdminConfigError(message),
  sources: ADMIN_SOURCES,
}

/** `perpd-admin config print`: the service's options plus --json (docs/operator.md#configuration). */
export const ADMIN_CONFIG_PRINT_OPTIONS = defineOptions({
  ...ADMIN_OPTIONS,
  json: { type: 'boolean', commandLineOnly: true, description: 'print {"config_file", "options": {NAME: {value, source, from}}} as JSON' },
})

/** Parses `perpd-admin config print [options]`: the values the service would start with, and their sources. */
export function parseAdminConfigPrint(argv: readonly string[], env?: Readonly<Record<string, string | undefined>>) {
  return parseOptions(argv, ADMIN_CONFIG_PRINT_OPTIONS, {
    usage: 'perpd-admin config print [--json] [--config FILE] [options]',
    summary:
      "shows the configuration `perpd-admin serve` would run with given the same flags, environment and --config file: every option's value and where it came from (flag, env NAME, FILE:LINE, default)",
    program: 'perpd-admin config print',
    error: (m) => new AdminConfigError(m),
    sources: { ...ADMIN_SOURCES, ...(env === undefined ? {} : { env }) },
  })
}

/** The text of `perpd-admin --help`. */
export const ADMIN_USAGE = usageText(ADMIN_OPTIONS, ADMIN_COMMAND)

/** A command line that cannot be run; the message is meant for the operator (exit 2). */
export class AdminConfigError extends OptionError {
  override readonly name = 'AdminConfigError'
}

/**
 * Parses the server's flags (`perpd-admin [flags]` or `perpd-admin serve [flags]`), environment and
 * config file (docs/operator.md#configuration). Throws
 * AdminConfigError for what cannot be used, InfoRequested (lib/options.ts) for --help and --version.
 */
export function parseAdminArgs(argv: readonly string[], env?: Readonly<Record<string, string | undefined>>): AdminConfig {
  const { values, sources } = parseOptions(
    argv,
    ADMIN_OPTIONS,
    env === undefined ? ADMIN_COMMAND : { ...ADMIN_COMMAND, sources: { ...ADMIN_SOURCES, env } },
  )
  const dataDir = resolve(values['data-dir'])
  const dev = values.dev
  // Links carry signed actions, prices, deposits and payouts: https, or loopback, unless allowed.
  const insecureLinks = dev || values['allow-insecure-links']
  const link = (name: string, raw: string) => secureLink(name, httpUrl(name, raw), insecureLinks)
  const depositSource = values['deposit-source']
  const certFile = values['tls-cert']
  const keyFile = values['tls-key']
  if ((certFile === undefined) !== (keyFile === undefined))
    throw new AdminConfigError('--tls-cert and --tls-key go together: give both, or neither')
  const tls = certFile === undefined ? undefined : { certFile: resolve(certFile), keyFile: resolve(keyFile!) }
  if (tls === undefined && !isLoopbackHost(values.host) && !values['insecure-listen']) {
    throw new AdminConfigError(
      `--host ${values.host} is not a loopback address: serving logins and keys to the network needs TLS (--tls-cert FILE --tls-key FILE), ` +
        'or --insecure-listen when a TLS-terminating proxy on this host is the only way in',
    )
  }
  let trustedProxies: CidrRange[] = []
  if (values['trusted-proxy'] !== undefined) {
    try {
      trustedProxies = parseCidrList(values['trusted-proxy'])
    } catch (err) {
      throw new AdminConfigError(`--trusted-proxy: ${(err as Error).message}`)
    }
  }
  return {
    nodeUrl: link('node-url', values['node-url']),
    dataDir,
    host: values.host,
    port: values.port,
    // Outside the data directory, so a copy of the data directory alone is useless; in production
    // best on another volume (or a secrets mount). --dev keeps it inside, one folder to throw away.
    kekFile: resolve(values['kek-file'] ?? defaultKekFile(dataDir, dev)),
    dev,
    tls,
    trustedProxies,
    priceSource: priceSourceOf(values['price-source'], values['price-source-url'], sources, link),
    venue: venueOf(values.venue, 'venue', sources.venue.label, link),
    hlApiUrl: values['hl-api-url'] === undefined ? undefined : link('hl-api-url', values['hl-api-url']),
    depositSource:
      depositSource === undefined || !/^[a-z][a-z0-9+.-]*:\/\//i.test(depositSource)
        ? depositSource
        : link('deposit-source', depositSource),
    withdrawPayoutUrl: values['withdraw-payout-url'] === undefined ? undefined : link('withdraw-payout-url', values['withdraw-payout-url']),
    withdrawPayoutTimeoutMs: values['withdraw-payout-timeout-ms'],
    settleWithoutPayout: values['settle-without-payout'],
    oracleIntervalMs: values['oracle-interval-ms'],
    quoteRefreshMs: values['quote-refresh-ms'],
    runnerIntervalMs: values['runner-interval-ms'],
    log: logSettingsFrom(values),
  }
}

/** A venue spec (venues/venue-spec.ts), its perpd URL checked as the other links; errors name where it came from. */
function venueOf(text: string, option: string, from: string, link: (name: string, raw: string) => string): VenueSpec {
  const parsed = parseVenueSpec(text)
  if (!parsed.ok) throw new AdminConfigError(`${from}: ${parsed.reason}`)
  if (parsed.spec.kind === 'perpd') return { kind: 'perpd', url: link(option, parsed.spec.url) }
  return parsed.spec
}

/**
 * --price-source SPEC (a venue spec, or the http(s) URL of a price document), or its alias
 * --price-source-url URL; giving both is refused.
 */
function priceSourceOf(
  spec: string | undefined,
  url: string | undefined,
  sources: { readonly 'price-source': { label: string }; readonly 'price-source-url': { label: string } },
  link: (name: string, raw: string) => string,
): PriceSourceSpec | undefined {
  if (spec !== undefined && url !== undefined)
    throw new AdminConfigError(
      `${sources['price-source'].label} and ${sources['price-source-url'].label} name the same thing: give one (--price-source-url URL is --price-source URL)`,
    )
  if (url !== undefined) return { kind: 'http', url: link('price-source-url', url) }
  if (spec === undefined) return undefined
  if (/^[a-z]+:\/\//i.test(spec.trim())) return { kind: 'http', url: link('price-source', spec.trim()) }
  return { kind: 'venue', venue: venueOf(spec, 'price-source', sources['price-source'].label, link) }
}

/** Whether a host name or address is the loopback interface (localhost, 127.0.0.0/8, ::1). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase()
  if (h === 'localhost' || h.endsWith('.localhost')) return true
  const ip = parseIp(h)
  if (ip === undefined) return false
  const v4 = ip.slice(0, 12).every((b, i) => b === (i < 10 ? 0 : 0xff))
  if (v4) return ip[12] === 127
  return ip.slice(0, 15).every((b) => b === 0) && ip[15] === 1
}

/** An http(s) URL that is https or loopback, unless insecure links are allowed. */
function secureLink(name: string, url: string, insecureAllowed: boolean): string {
  const u = new URL(url)
  if (u.protocol === 'https:' || insecureAllowed || isLoopbackHost(u.hostname)) return url
  throw new AdminConfigError(
    `--${name} ${url} is plain http to another host: use https (or a loopback address), or --allow-insecure-links on a network you trust`,
  )
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
