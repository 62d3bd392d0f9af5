import { describe, expect, test } from 'bun:test'
import { join, resolve } from 'node:path'
import packageJson from '../../package.json' with { type: 'json' }
import { InfoRequested } from '../lib/options.ts'
import { ADMIN_OPTIONS, ADMIN_USAGE, AdminConfigError, parseAdminArgs } from './config.ts'

describe('parseAdminArgs', () => {
  test('defaults: port 3000, localhost, the KEK beside the database', () => {
    const c = parseAdminArgs([])
    expect(c).toMatchObject({ port: 3000, host: '127.0.0.1', nodeUrl: 'http://127.0.0.1:8080', priceSourceUrl: undefined })
    expect(c.kekFile).toBe(join(resolve('perpd-admin-data'), 'admin.kek'))
  })

  test('reads every flag, in both --flag value and --flag=value forms', () => {
    const c = parseAdminArgs(['--node-url=http://127.0.0.1:9/', '--data-dir', '/tmp/x', '--port', '0', '--kek-file', '/tmp/k', '--price-source-url', 'http://127.0.0.1:1/p', '--oracle-interval-ms', '100'])
    expect(c).toMatchObject({ nodeUrl: 'http://127.0.0.1:9', dataDir: '/tmp/x', port: 0, kekFile: '/tmp/k', priceSourceUrl: 'http://127.0.0.1:1/p', oracleIntervalMs: 100 })
  })

  test('refuses unknown flags, missing values, bad numbers and non-http URLs', () => {
    for (const argv of [['--nope'], ['--port'], ['--port', '70000'], ['--port', 'x'], ['--node-url', 'ftp://x'], ['--oracle-interval-ms', '1']]) {
      expect(() => parseAdminArgs(argv)).toThrow(AdminConfigError)
    }
  })
})

describe('the service command line', () => {
  test('--help lists every option and the client commands; --version names the package version', () => {
    for (const name of Object.keys(ADMIN_OPTIONS)) expect(ADMIN_USAGE).toContain(`--${name}`)
    for (const c of ['login', 'keys upload', 'keys delete KEY_ID', 'bind SERVICE KEY_ID|none', 'services', 'logout']) expect(ADMIN_USAGE).toContain(c)
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
