import { describe, expect, test } from 'bun:test'
import { join, resolve } from 'node:path'
import packageJson from '../../package.json' with { type: 'json' }
import { InfoRequested } from '../lib/options.ts'
import { ADMIN_OPTIONS, ADMIN_USAGE, AdminConfigError, parseAdminArgs } from './config.ts'

describe('parseAdminArgs', () => {
  test('defaults: port 3000, localhost, no TLS, the KEK beside the data directory (inside it with --dev)', () => {
    const c = parseAdminArgs([])
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      nodeUrl: 'http://127.0.0.1:8080',
      priceSource: undefined,
      venue: { kind: 'hyperliquid', network: 'testnet' },
      hlApiUrl: undefined,
      dev: false,
      tls: undefined,
      trustedProxies: [],
    })
    expect(c.kekFile).toBe(`${resolve('perpd-admin-data')}.kek`)
    expect(parseAdminArgs(['--dev']).kekFile).toBe(join(resolve('perpd-admin-data'), 'admin.kek'))
  })

  test('reads every flag, in both --flag value and --flag=value forms', () => {
    const c = parseAdminArgs([
      '--node-url=http://127.0.0.1:9/',
      '--data-dir',
      '/tmp/x',
      '--port',
      '0',
      '--kek-file',
      '/tmp/k',
      '--price-source-url',
      'http://127.0.0.1:1/p',
      '--oracle-interval-ms',
      '100',
    ])
    expect(c).toMatchObject({
      nodeUrl: 'http://127.0.0.1:9',
      dataDir: '/tmp/x',
      port: 0,
      kekFile: '/tmp/k',
      priceSource: { kind: 'http', url: 'http://127.0.0.1:1/p' },
      oracleIntervalMs: 100,
    })
  })

  test('refuses unknown flags, missing values, bad numbers and non-http URLs', () => {
    for (const argv of [
      ['--nope'],
      ['--port'],
      ['--port', '70000'],
      ['--port', 'x'],
      ['--node-url', 'ftp://x'],
      ['--oracle-interval-ms', '1'],
    ]) {
      expect(() => parseAdminArgs(argv)).toThrow(AdminConfigError)
    }
  })
})

describe('links and listening (docs/admin.md#tls-and-links)', () => {
  test('links to other hosts must be https unless --allow-insecure-links or --dev; loopback may be http', () => {
    const remote = 'http://10.1.2.3:8080'
    for (const flag of ['--node-url', '--price-source-url', '--withdraw-payout-url', '--deposit-source']) {
      expect(() => parseAdminArgs([flag, remote])).toThrow(`${flag} ${remote} is plain http to another host`)
      expect(() => parseAdminArgs([flag, remote, '--allow-insecure-links'])).not.toThrow()
      expect(() => parseAdminArgs([flag, remote, '--dev'])).not.toThrow()
      expect(() => parseAdminArgs([flag, 'https://prices.example.com/x'])).not.toThrow()
    }
    for (const local of ['http://127.0.0.1:9', 'http://localhost:9', 'http://[::1]:9', 'http://127.3.2.1:9'])
      expect(parseAdminArgs(['--node-url', local]).nodeUrl).toBe(local)
    // A deposit source that is a file is not a link.
    expect(parseAdminArgs(['--deposit-source', '/var/lib/deposits.json']).depositSource).toBe('/var/lib/deposits.json')
  })

  test('a non-loopback listen address needs TLS, or --insecure-listen', () => {
    expect(() => parseAdminArgs(['--host', '0.0.0.0'])).toThrow('--host 0.0.0.0 is not a loopback address')
    expect(() => parseAdminArgs(['--host', '::'])).toThrow(AdminConfigError)
    expect(parseAdminArgs(['--host', '0.0.0.0', '--insecure-listen']).host).toBe('0.0.0.0')
    expect(parseAdminArgs(['--host', '0.0.0.0', '--tls-cert', 'c.pem', '--tls-key', 'k.pem']).tls).toEqual({
      certFile: resolve('c.pem'),
      keyFile: resolve('k.pem'),
    })
    expect(() => parseAdminArgs(['--tls-cert', 'c.pem'])).toThrow('--tls-cert and --tls-key go together')
    for (const host of ['127.0.0.1', 'localhost', '::1']) expect(parseAdminArgs(['--host', host]).host).toBe(host)
  })

  test('--trusted-proxy takes CIDR ranges', () => {
    expect(parseAdminArgs(['--trusted-proxy', '10.0.0.0/8, ::1']).trustedProxies.map((r) => r.text)).toEqual(['10.0.0.0/8', '::1'])
    expect(() => parseAdminArgs(['--trusted-proxy', '10.0.0.0/33'])).toThrow('--trusted-proxy')
    expect(() => parseAdminArgs(['--trusted-proxy', 'proxy.local'])).toThrow(AdminConfigError)
  })
})

describe('the service command line', () => {
  test('--help lists every option and the client commands; --version names the package version', () => {
    for (const name of Object.keys(ADMIN_OPTIONS)) expect(ADMIN_USAGE).toContain(`--${name}`)
    for (const c of [
      'login',
      'keys upload',
      'keys rename KEY_ID',
      'keys delete KEY_ID',
      'bind SERVICE KEY_ID|none',
      'services',
      'logout',
      'kek rotate',
      'audit verify',
    ])
      expect(ADMIN_USAGE).toContain(c)
    expect(() => parseAdminArgs(['--help'])).toThrow(InfoRequested)
    expect(() => parseAdminArgs(['--version'])).toThrow(`perpd-admin ${packageJson.version}`)
  })

  test('errors name the flag and what it accepts', () => {
    expect(() => parseAdminArgs(['--port', '70000'])).toThrow('--port must be an integer from 0 to 65535, got 70000')
    expect(() => parseAdminArgs(['--oracle-interval-ms', '1'])).toThrow('--oracle-interval-ms must be an integer from 50 to 600000, got 1')
    expect(() => parseAdminArgs(['--nope'])).toThrow('unknown option --nope')
    expect(() => parseAdminArgs(['--node-url', 'ftp://x'])).toThrow('--node-url must be an http(s) URL')
    expect(parseAdminArgs(['--log-level=debug', '--log-format', 'json']).log).toEqual({ level: 'debug', format: 'json' })
  })
})

test('PERPD_ADMIN_* variables set the service options (docs/operator.md#configuration)', () => {
  expect(parseAdminArgs([], { PERPD_ADMIN_PORT: '3100', PERPD_PORT: '1' }).port).toBe(3100)
  expect(() => parseAdminArgs([], { PERPD_ADMIN_RUNNER_INTERVAL_MS: '1' })).toThrow(
    'PERPD_ADMIN_RUNNER_INTERVAL_MS must be an integer from 50 to 600000, got 1',
  )
})

describe('venues and price sources (docs/admin.md#venues)', () => {
  test('--venue takes hl:mainnet, hl:testnet or perpd:URL; --hl-api-url overrides the Hyperliquid API', () => {
    expect(parseAdminArgs(['--venue', 'hl:mainnet']).venue).toEqual({ kind: 'hyperliquid', network: 'mainnet' })
    expect(parseAdminArgs(['--venue', 'perpd:http://127.0.0.1:8081/']).venue).toEqual({ kind: 'perpd', url: 'http://127.0.0.1:8081' })
    expect(parseAdminArgs(['--hl-api-url', 'http://127.0.0.1:9/']).hlApiUrl).toBe('http://127.0.0.1:9')
    expect(() => parseAdminArgs(['--venue', 'binance'])).toThrow('--venue: expected hl:mainnet, hl:testnet or perpd:URL, got "binance"')
    expect(() => parseAdminArgs(['--venue', 'perpd:nope'])).toThrow('--venue: perpd:URL needs')
    expect(() => parseAdminArgs(['--venue', 'perpd:http://10.1.2.3:8080'])).toThrow(
      '--venue http://10.1.2.3:8080 is plain http to another host',
    )
  })

  test('a bad venue from the environment is refused naming the variable', () => {
    expect(() => parseAdminArgs([], { PERPD_ADMIN_VENUE: 'hl:devnet' })).toThrow('PERPD_ADMIN_VENUE: expected hl:mainnet')
    expect(parseAdminArgs([], { PERPD_ADMIN_VENUE: 'hl:mainnet' }).venue).toEqual({ kind: 'hyperliquid', network: 'mainnet' })
  })

  test('--price-source names a venue or an HTTP document; --price-source-url is its alias; not both', () => {
    expect(parseAdminArgs(['--price-source', 'hl:mainnet']).priceSource).toEqual({
      kind: 'venue',
      venue: { kind: 'hyperliquid', network: 'mainnet' },
    })
    expect(parseAdminArgs(['--price-source', 'perpd:https://node.example.com']).priceSource).toEqual({
      kind: 'venue',
      venue: { kind: 'perpd', url: 'https://node.example.com' },
    })
    expect(parseAdminArgs(['--price-source', 'http://127.0.0.1:1/p']).priceSource).toEqual({ kind: 'http', url: 'http://127.0.0.1:1/p' })
    expect(parseAdminArgs(['--price-source-url', 'http://127.0.0.1:1/p']).priceSource).toEqual({
      kind: 'http',
      url: 'http://127.0.0.1:1/p',
    })
    expect(() => parseAdminArgs(['--price-source', 'hl:x'])).toThrow('--price-source: expected hl:mainnet')
    expect(() => parseAdminArgs(['--price-source', 'http://10.1.2.3/p'])).toThrow('plain http to another host')
    expect(() => parseAdminArgs(['--price-source', 'hl:mainnet', '--price-source-url', 'http://127.0.0.1:1/p'])).toThrow(
      '--price-source and --price-source-url name the same thing',
    )
  })
})
