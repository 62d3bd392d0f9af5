// Configuration from flags, PERPD_* / PERPD_ADMIN_* variables and a TOML file, as an operator meets
// it (docs/operator.md#configuration): each run is a real process (`bun src/main.ts config print
// --config f.toml` with the environment set), and a node started from a config file.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runScript, spawnListening } from '../support/child-process.ts'
import { removeDir } from '../support/node-process.ts'

const dir = mkdtempSync(join(tmpdir(), 'perpd-config-'))
afterAll(() => removeDir(dir))

// The file paths the tests give are relative to `dir`, as an operator's would be to theirs.
const run = (script: string, args: string[], env: Record<string, string> = {}) =>
  runScript(script, args, { env, cwd: dir, timeoutMs: 60_000 })

const perpd = (args: string[], env?: Record<string, string>) => run('src/main.ts', args, env)

function write(name: string, text: string): string {
  writeFileSync(join(dir, name), text)
  return name
}

/** The rows of `config print`'s text: option → [value, source]. */
function rows(text: string): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>()
  for (const line of text.trim().split('\n').slice(3)) {
    const m = /^(\S+) +(\(.*?\)|\S+) +(.+)$/.exec(line)
    if (m !== null) out.set(m[1]!, [m[2]!, m[3]!])
  }
  return out
}

const FILE = write(
  'perpd.toml',
  [
    '# the node of the test network',
    'dev = true',
    'block-time-ms = 300',
    'rate-limit-ip = 7',
    'rate_limit_signer = 9',
    'log-level = "debug"',
    '',
  ].join('\n'),
)

describe('perpd config print', () => {
  test('flag > environment > file > default, each value with its source (text)', async () => {
    const r = await perpd(['config', 'print', '--config', FILE, '--rate-limit-ip', '8'], {
      PERPD_RATE_LIMIT_IP: '6',
      PERPD_BLOCK_TIME_MS: '250',
      PERPD_NO_DEV_QUOTER: '1',
    })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout.split('\n')[0]).toBe('config file: perpd.toml (from --config)')
    const t = rows(r.stdout)
    expect(t.get('rate-limit-ip')).toEqual(['8', 'flag --rate-limit-ip'])
    expect(t.get('block-time-ms')).toEqual(['250', 'env PERPD_BLOCK_TIME_MS'])
    expect(t.get('rate-limit-signer')).toEqual(['9', 'perpd.toml:5'])
    expect(t.get('log-level')).toEqual(['debug', 'perpd.toml:6'])
    expect(t.get('dev')).toEqual(['true', 'perpd.toml:2'])
    expect(t.get('no-dev-quoter')).toEqual(['true', 'env PERPD_NO_DEV_QUOTER'])
    expect(t.get('port')).toEqual(['8080', 'default'])
  })

  test("--json; the file may be named by PERPD_CONFIG; PERPD_ADMIN_* is not the node's", async () => {
    const r = await perpd(['config', 'print', '--json'], { PERPD_CONFIG: FILE, PERPD_PORT: '9001', PERPD_ADMIN_PORT: '1' })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const json = JSON.parse(r.stdout)
    expect(json.config_file).toEqual({ path: 'perpd.toml', from: 'PERPD_CONFIG' })
    expect(json.options.port).toEqual({ value: 9001, source: 'env', from: 'PERPD_PORT' })
    expect(json.options['block-time-ms']).toEqual({ value: 300, source: 'file', from: 'perpd.toml:3' })
    expect(json.options.host).toEqual({ value: '127.0.0.1', source: 'default', from: 'default' })
    expect(json.options.genesis).toEqual({ value: null, source: 'default', from: 'default' })
    expect(json.options.json).toBeUndefined()
  })

  test('a bad value exits 2 naming its source and the range: flag, variable, file and line', async () => {
    const flag = await perpd(['config', 'print', '--port', '70000'])
    expect(flag.code).toBe(2)
    expect(flag.stderr).toContain('--port must be an integer from 0 to 65535, got 70000')
    const env = await perpd(['config', 'print'], { PERPD_PORT: '70000' })
    expect(env.code).toBe(2)
    expect(env.stderr).toContain('PERPD_PORT must be an integer from 0 to 65535, got 70000')
    const file = await perpd(['config', 'print', '--config', write('range.toml', 'dev = true\n\n\nport = 70000\n')])
    expect(file.code).toBe(2)
    expect(file.stderr).toContain('range.toml:4: port must be an integer from 0 to 65535, got 70000')
    expect(file.stdout).toBe('')
  })

  test('booleans from the environment: true/false/1/0, anything else refused', async () => {
    const off = await perpd(['config', 'print', '--json', '--config', FILE], { PERPD_DEV: 'false' })
    expect(JSON.parse(off.stdout).options.dev).toEqual({ value: false, source: 'env', from: 'PERPD_DEV' })
    const bad = await perpd(['config', 'print'], { PERPD_DEV: 'yes' })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('PERPD_DEV must be true, false, 1 or 0, got "yes"')
  })

  test('an unknown key in the file exits 2 naming the file and line; an unknown PERPD_ variable is warned about', async () => {
    const unknown = await perpd(['--config', write('unknown.toml', 'dev = true\nblock-time = 200\n')])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('unknown.toml:2: unknown option block-time')
    const warned = await perpd(['config', 'print'], { PERPD_BLOKC_TIME_MS: '5' })
    expect(warned.code).toBe(0)
    expect(warned.stderr).toBe(
      'warning: ignoring the environment variable PERPD_BLOKC_TIME_MS: it names no option (docs/operator.md#configuration)\n',
    )
  })
})

test('the node starts from a config file', async () => {
  const config = write(
    'start.toml',
    `dev = true\nport = 0\nblock-time-ms = 350\ndata-dir = ${JSON.stringify(join(dir, 'data'))}\nlog-format = "plain"\n`,
  )
  const node = await spawnListening('perpd', 'src/main.ts', ['--config', join(dir, config)])
  try {
    expect(node.output()).toContain('block time 350 ms')
  } finally {
    await node.stop()
  }
}, 60_000)

test('perpd-admin config print: PERPD_ADMIN_* and its own file', async () => {
  const file = write('admin.toml', 'dev = true\noracle-interval-ms = 700\n')
  const r = await run('src/admin.ts', ['config', 'print', '--config', file], { PERPD_ADMIN_PORT: '3100', PERPD_PORT: '1' })
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
  const t = rows(r.stdout)
  expect(t.get('port')).toEqual(['3100', 'env PERPD_ADMIN_PORT'])
  expect(t.get('oracle-interval-ms')).toEqual(['700', 'admin.toml:2'])
  const bad = await run('src/admin.ts', ['--config', write('admin-bad.toml', 'runner-interval-ms = 1\n')])
  expect(bad.code).toBe(2)
  expect(bad.stderr).toContain('admin-bad.toml:1: runner-interval-ms must be an integer from 50 to 600000, got 1')
})
