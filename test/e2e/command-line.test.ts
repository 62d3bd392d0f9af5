// Both binaries' command lines as an operator meets them: --help and --version answer on stdout and
// exit 0, a command line that cannot be used says why on stderr and exits 2, a port that cannot be
// bound is named on stderr and exits 1.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import packageJson from '../../package.json' with { type: 'json' }
import { runScript } from '../support/child-process.ts'

const run = (script: string, args: string[]) => runScript(script, args)

const NODE_FLAGS = [
  '--dev',
  '--genesis',
  '--data-dir',
  '--host',
  '--port',
  '--block-time-ms',
  '--rate-limit-ip',
  '--rate-limit-signer',
  '--query-timeout-ms',
  '--ws-limits',
  '--leaderboard-refresh-ms',
  '--snapshot-every-blocks',
  '--trusted-proxy',
  '--no-dev-quoter',
  '--log-level',
  '--log-format',
  '--help',
  '--version',
]

describe('perpd', () => {
  test('--help prints every flag and exits 0', async () => {
    const r = await run('src/main.ts', ['--help'])
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('')
    expect(r.stdout).toStartWith('usage: perpd')
    for (const flag of NODE_FLAGS) expect(r.stdout).toContain(flag)
  })

  test('--version prints the package version and exits 0', async () => {
    const r = await run('src/main.ts', ['--version'])
    expect(r.code).toBe(0)
    expect(r.stdout.trim()).toBe(`perpd ${packageJson.version}`)
  })

  test('an unknown flag and an integer out of range exit 2 naming the flag', async () => {
    const unknown = await run('src/main.ts', ['--dev', '--nope'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('unknown option --nope')
    expect(unknown.stdout).toBe('')
    const range = await run('src/main.ts', ['--dev', '--block-time-ms', '5'])
    expect(range.code).toBe(2)
    expect(range.stderr).toContain('--block-time-ms must be an integer from 10 to 60000, got 5')
  })
})

describe('a port another process holds', () => {
  test('perpd and perpd-admin say so in one line on stderr, without a stack, and exit 1', async () => {
    const holder = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
    const dir = mkdtempSync(join(tmpdir(), 'perpd-port-held-'))
    try {
      const want = `cannot listen on 127.0.0.1:${holder.port}: the address is in use`
      const node = await run('src/main.ts', [
        '--dev',
        '--no-dev-quoter',
        '--data-dir',
        join(dir, 'node'),
        '--host',
        '127.0.0.1',
        '--port',
        String(holder.port),
      ])
      const admin = await run('src/admin.ts', [
        '--data-dir',
        join(dir, 'admin'),
        '--host',
        '127.0.0.1',
        '--port',
        String(holder.port),
        '--node-url',
        'http://127.0.0.1:9',
      ])
      for (const r of [node, admin]) {
        expect(r.code).toBe(1)
        expect(r.stderr).toContain(want)
        expect(r.stderr).not.toContain('    at ')
        expect(r.stdout).not.toContain('listening on')
      }
    } finally {
      holder.stop(true)
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('perpd-admin', () => {
  test('--help prints the options and the client commands and exits 0; a command has its own --help', async () => {
    const r = await run('src/admin.ts', ['--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toStartWith('usage: perpd-admin [serve] [options]')
    for (const flag of ['--node-url', '--kek-file', '--runner-interval-ms', '--log-level', '--log-format', 'keys upload', 'bind SERVICE'])
      expect(r.stdout).toContain(flag)
    expect((await run('src/admin.ts', ['serve', '--help'])).code).toBe(0)
    const login = await run('src/admin.ts', ['login', '--help'])
    expect(login.code).toBe(0)
    expect(login.stdout).toStartWith('usage: perpd-admin login --key-file FILE [options]')
    expect(login.stdout).toContain('--admin-url URL')
  })

  test('--version prints the package version', async () => {
    const r = await run('src/admin.ts', ['--version'])
    expect(r.code).toBe(0)
    expect(r.stdout.trim()).toBe(`perpd-admin ${packageJson.version}`)
  })

  test('bad flags exit 2 naming the flag, for the service and for a client command', async () => {
    const range = await run('src/admin.ts', ['--port', '70000'])
    expect(range.code).toBe(2)
    expect(range.stderr).toContain('--port must be an integer from 0 to 65535, got 70000')
    const unknown = await run('src/admin.ts', ['keys', 'list', '--nope'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('unknown option --nope')
    expect(unknown.stderr).toContain('usage: perpd-admin keys list [options]')
    const noSub = await run('src/admin.ts', ['keys'])
    expect(noSub.code).toBe(2)
    expect(noSub.stderr).toContain('keys needs one of: upload, list, rename, delete')
  })
})
