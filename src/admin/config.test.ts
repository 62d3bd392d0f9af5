import { describe, expect, test } from 'bun:test'
import { join, resolve } from 'node:path'
import { AdminConfigError, parseAdminArgs } from './config.ts'

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
