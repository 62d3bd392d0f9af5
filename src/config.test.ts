// The node's command line: the snapshot interval flag (its default, zero to turn snapshots off, and
// the refusals of what is not a block count), the generated usage, --help / --version and the log flags.
import { expect, test } from 'bun:test'
import packageJson from '../package.json' with { type: 'json' }
import { ConfigError, NODE_OPTIONS, parseNodeArgs, USAGE } from './config.ts'
import { InfoRequested } from './lib/options.ts'

test('--snapshot-every-blocks: 10,000 by default, 0 turns snapshots off, anything else but a count is refused', () => {
  expect(parseNodeArgs(['--dev']).snapshotEveryBlocks).toBe(10_000)
  expect(parseNodeArgs(['--dev', '--snapshot-every-blocks', '0']).snapshotEveryBlocks).toBe(0)
  expect(parseNodeArgs(['--dev', '--snapshot-every-blocks=250']).snapshotEveryBlocks).toBe(250)
  for (const bad of ['-1', '1.5', 'ten', '', '2000000000']) {
    expect(() => parseNodeArgs(['--dev', '--snapshot-every-blocks', bad])).toThrow(ConfigError)
  }
  expect(() => parseNodeArgs(['--dev', '--snapshot-every-blocks'])).toThrow(ConfigError)
})

test('the usage text comes from the option table: every flag, with its range and default', () => {
  for (const name of Object.keys(NODE_OPTIONS)) expect(USAGE).toContain(`--${name}`)
  expect(USAGE).toContain('--ws-limits NAME=N,...')
  expect(USAGE).toMatch(/--leaderboard-refresh-ms N +.*\[100\.\.86400000, default 5000\]/)
  expect(USAGE).toContain('--help')
  expect(USAGE).toContain('--version')
})

test('--help and --version are answers, not errors; a bad flag is a ConfigError naming it', () => {
  expect(() => parseNodeArgs(['--help'])).toThrow(InfoRequested)
  let version: unknown
  try {
    parseNodeArgs(['--version'])
  } catch (err) {
    version = err
  }
  expect(version).toBeInstanceOf(InfoRequested)
  expect((version as InfoRequested).text).toBe(`perpd ${packageJson.version}`)
  expect(() => parseNodeArgs(['--dev', '--port', '70000'])).toThrow('--port must be an integer from 0 to 65535, got 70000')
  expect(() => parseNodeArgs(['--dev', '--nope'])).toThrow('unknown option --nope')
  expect(() => parseNodeArgs(['--dev', '--nope'])).toThrow(ConfigError)
  expect(() => parseNodeArgs([])).toThrow('give --genesis FILE, or --dev')
})

test('--log-level and --log-format', () => {
  expect(parseNodeArgs(['--dev', '--log-level', 'warn', '--log-format=plain']).log).toEqual({ level: 'warn', format: 'plain' })
  expect(parseNodeArgs(['--dev']).log.level).toBe('info')
  expect(() => parseNodeArgs(['--dev', '--log-level', 'loud'])).toThrow('--log-level must be one of debug, info, warn, error')
})

test('--trusted-proxy takes IPv4 and IPv6 CIDRs; a bad one is a ConfigError naming it; --no-dev-quoter turns the dev quoter off', () => {
  expect(parseNodeArgs(['--dev']).trustedProxies).toEqual([])
  expect(parseNodeArgs(['--dev', '--trusted-proxy', '127.0.0.1/32,::1,10.0.0.0/8']).trustedProxies.map((r) => r.text)).toEqual([
    '127.0.0.1/32',
    '::1',
    '10.0.0.0/8',
  ])
  expect(() => parseNodeArgs(['--dev', '--trusted-proxy', '10.0.0.0/40'])).toThrow(ConfigError)
  expect(() => parseNodeArgs(['--dev', '--trusted-proxy', 'proxy.local'])).toThrow(
    '--trusted-proxy: "proxy.local" is not an IPv4 or IPv6 CIDR range',
  )
  expect(parseNodeArgs(['--dev']).devQuoter).toBe(true)
  expect(parseNodeArgs(['--dev', '--no-dev-quoter']).devQuoter).toBe(false)
})

test('the environment and --config reach the node config (docs/operator.md#configuration)', () => {
  const config = parseNodeArgs(['--dev', '--block-time-ms', '300'], {
    PERPD_PORT: '9000',
    PERPD_BLOCK_TIME_MS: '250',
    PERPD_NO_DEV_QUOTER: 'true',
    PERPD_ADMIN_PORT: 'x',
  })
  expect([config.port, config.blockTimeMs, config.devQuoter]).toEqual([9000, 300, false])
  expect(() => parseNodeArgs(['--dev'], { PERPD_PORT: '70000' })).toThrow('PERPD_PORT must be an integer from 0 to 65535, got 70000')
  expect(() => parseNodeArgs([], { PERPD_DEV: '1' })).not.toThrow()
})
