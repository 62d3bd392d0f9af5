// The options' other sources (docs/operator.md#configuration): the environment and a TOML config
// file, flag > environment > file > default, every value checked by its option with an error naming
// where it came from (--flag, VARIABLE, FILE:LINE), unknown keys refused, unknown variables warned.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type ConfigSources,
  configEntries,
  configJson,
  configText,
  defineOptions,
  envName,
  keyLine,
  OptionError,
  parseOptions,
  usageText,
} from './options.ts'

const TABLE = defineOptions({
  dev: { type: 'boolean', description: 'a switch' },
  'block-time-ms': { type: 'integer', default: 200, min: 10, max: 60_000, description: 'an integer' },
  host: { type: 'string', default: '127.0.0.1', description: 'a string' },
  level: { type: 'string', choices: ['debug', 'info'], default: 'info', description: 'one of a list' },
  'data-dir': { type: 'string', defaultText: 'somewhere', description: 'a string without a default' },
  json: { type: 'boolean', commandLineOnly: true, description: 'command line only' },
})

const dir = mkdtempSync(join(tmpdir(), 'perpd-options-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

function sources(env: Record<string, string>, warnings: string[] = [], extra: Partial<ConfigSources> = {}): ConfigSources {
  return { envPrefix: 'T_', file: true, env, warn: (l) => warnings.push(l), knownNames: () => ['other'], ...extra }
}

function thrown(fn: () => unknown): Error {
  try {
    fn()
  } catch (err) {
    return err as Error
  }
  throw new Error('did not throw')
}

test('envName: the option name upper-cased, - as _', () => {
  expect(envName('PERPD_', 'block-time-ms')).toBe('PERPD_BLOCK_TIME_MS')
})

describe('precedence: flag > environment > file > default', () => {
  const toml = file('p.toml', 'block-time-ms = 300\nhost = "file-host"\nlevel = "debug"\n')
  test('each level in turn for one option', () => {
    const at = (argv: string[], env: Record<string, string>) => {
      const p = parseOptions(argv, TABLE, { sources: sources(env) })
      return [p.values['block-time-ms'], p.sources['block-time-ms'].label]
    }
    expect(at([], {})).toEqual([200, 'default'])
    expect(at(['--config', toml], {})).toEqual([300, `${toml}:1`])
    expect(at(['--config', toml], { T_BLOCK_TIME_MS: '400' })).toEqual([400, 'T_BLOCK_TIME_MS'])
    expect(at(['--config', toml, '--block-time-ms', '500'], { T_BLOCK_TIME_MS: '400' })).toEqual([500, '--block-time-ms'])
  })

  test('the file may come from PREFIX_CONFIG; --config wins over it', () => {
    const other = file('other.toml', 'host = "other"\n')
    const p = parseOptions([], TABLE, { sources: sources({ T_CONFIG: toml }) })
    expect(p.values.host).toBe('file-host')
    expect(p.configFile).toEqual({ path: toml, from: 'T_CONFIG' })
    expect(parseOptions(['--config', other], TABLE, { sources: sources({ T_CONFIG: toml }) }).values.host).toBe('other')
  })

  test('keys with - or _, quoted or bare', () => {
    const p = parseOptions(['--config', file('u.toml', '"block_time_ms" = 250\ndata_dir = "/d"\n')], TABLE, { sources: sources({}) })
    expect(p.values['block-time-ms']).toBe(250)
    expect(p.values['data-dir']).toBe('/d')
    expect(p.sources['data-dir']).toEqual({ kind: 'file', label: `${dir}/u.toml:2`, file: `${dir}/u.toml`, line: 2 })
  })

  test('an empty variable counts as unset', () => {
    expect(parseOptions([], TABLE, { sources: sources({ T_HOST: '' }) }).values.host).toBe('127.0.0.1')
  })

  test('without sources the environment is not read', () => {
    expect(parseOptions([], TABLE).values['block-time-ms']).toBe(200)
    expect(thrown(() => parseOptions(['--config', toml], TABLE)).message).toStartWith('unknown option --config')
  })
})

describe('booleans', () => {
  test('from the environment: true, false, 1, 0 (any case); anything else is refused by name', () => {
    for (const [text, value] of [
      ['true', true],
      ['1', true],
      ['TRUE', true],
      ['false', false],
      ['0', false],
    ] as const) {
      expect(parseOptions([], TABLE, { sources: sources({ T_DEV: text }) }).values.dev).toBe(value)
    }
    expect(thrown(() => parseOptions([], TABLE, { sources: sources({ T_DEV: 'yes' }) })).message).toStartWith(
      'T_DEV must be true, false, 1 or 0, got "yes"',
    )
  })

  test('the environment can turn off what the file turns on; a flag turns it on', () => {
    const toml = file('b.toml', 'dev = true\n')
    expect(parseOptions(['--config', toml], TABLE, { sources: sources({}) }).values.dev).toBe(true)
    expect(parseOptions(['--config', toml], TABLE, { sources: sources({ T_DEV: '0' }) }).values.dev).toBe(false)
    expect(parseOptions(['--dev'], TABLE, { sources: sources({ T_DEV: '0' }) }).values.dev).toBe(true)
  })

  test('in the file: a TOML boolean', () => {
    const err = thrown(() => parseOptions(['--config', file('bs.toml', '\ndev = "yes"\n')], TABLE, { sources: sources({}) }))
    expect(err.message).toStartWith(`${dir}/bs.toml:2: dev must be true or false, got "yes"`)
  })
})

describe('every error names its source and the allowed values', () => {
  test('a flag, a variable, a file line', () => {
    const s = sources({ T_BLOCK_TIME_MS: '5' })
    expect(thrown(() => parseOptions(['--block-time-ms', '5'], TABLE, { sources: sources({}) })).message).toStartWith(
      '--block-time-ms must be an integer from 10 to 60000, got 5',
    )
    expect(thrown(() => parseOptions([], TABLE, { sources: s })).message).toStartWith(
      'T_BLOCK_TIME_MS must be an integer from 10 to 60000, got 5',
    )
    const toml = file('r.toml', '# comment\nhost = "h"\n\nblock-time-ms = 70000\n')
    const err = thrown(() => parseOptions(['--config', toml], TABLE, { sources: sources({}), error: (m) => new OptionError(m) }))
    expect(err).toBeInstanceOf(OptionError)
    expect(err.message).toStartWith(`${toml}:4: block-time-ms must be an integer from 10 to 60000, got 70000`)
  })

  test('the wrong TOML type, a value outside the choices', () => {
    expect(
      thrown(() => parseOptions(['--config', file('t.toml', 'block-time-ms = "300"\n')], TABLE, { sources: sources({}) })).message,
    ).toStartWith(`${dir}/t.toml:1: block-time-ms must be an integer from 10 to 60000, got "300"`)
    expect(thrown(() => parseOptions(['--config', file('s.toml', 'host = 5\n')], TABLE, { sources: sources({}) })).message).toStartWith(
      `${dir}/s.toml:1: host must be a string, got 5`,
    )
    expect(thrown(() => parseOptions([], TABLE, { sources: sources({ T_LEVEL: 'loud' }) })).message).toStartWith(
      'T_LEVEL must be one of debug, info, got loud',
    )
  })

  test('an unknown key is refused with its file and line; a key of another command is skipped', () => {
    const toml = file('k.toml', 'host = "h"\nother = 1\n\n  nope = 3\n')
    expect(thrown(() => parseOptions(['--config', toml], TABLE, { sources: sources({}) })).message).toStartWith(
      `${toml}:4: unknown option nope`,
    )
    expect(parseOptions(['--config', file('k2.toml', 'other = 1\n')], TABLE, { sources: sources({}) }).values.host).toBe('127.0.0.1')
  })

  test('a table, a command-line-only option, a key twice, a file that is not TOML or is missing', () => {
    expect(
      thrown(() => parseOptions(['--config', file('tb.toml', 'host = "h"\n[node]\nport = 1\n')], TABLE, { sources: sources({}) })).message,
    ).toStartWith(`${dir}/tb.toml:2: [node]: a config file holds options as top-level keys`)
    expect(thrown(() => parseOptions(['--config', file('j.toml', 'json = true\n')], TABLE, { sources: sources({}) })).message).toStartWith(
      `${dir}/j.toml:1: json is given on the command line only`,
    )
    expect(
      thrown(() => parseOptions(['--config', file('d.toml', 'data-dir = "a"\ndata_dir = "b"\n')], TABLE, { sources: sources({}) })).message,
    ).toStartWith(`${dir}/d.toml:2: data_dir is also set at ${dir}/d.toml:1`)
    expect(thrown(() => parseOptions(['--config', file('bad.toml', 'host = [\n')], TABLE, { sources: sources({}) })).message).toStartWith(
      `${dir}/bad.toml: not a TOML file`,
    )
    expect(thrown(() => parseOptions(['--config', join(dir, 'absent.toml')], TABLE, { sources: sources({}) })).message).toStartWith(
      `--config ${dir}/absent.toml: cannot read the config file`,
    )
  })
})

test('unknown PREFIX_ variables are warned about once each; ignored prefixes and known names are not', () => {
  const warnings: string[] = []
  const s = sources({ T_NOPE: '1', T_OTHER: 'x', T_SUB_PORT: '1', T_EXAMPLE: 'y', UNRELATED: '1' }, warnings, {
    envIgnorePrefixes: ['T_SUB_'],
    envKnown: ['T_EXAMPLE'],
  })
  parseOptions([], TABLE, { sources: s })
  parseOptions([], TABLE, { sources: s })
  expect(warnings).toEqual(['warning: ignoring the environment variable T_NOPE: it names no option (docs/operator.md#configuration)'])
  expect(thrown(() => parseOptions([], TABLE, { sources: sources({ T_JSON: '1' }) })).message).toStartWith(
    'T_JSON: --json is given on the command line only',
  )
})

test('a required option may come from the environment; its error names both', () => {
  const table = defineOptions({ out: { type: 'string', required: true, description: 'a file' } })
  expect(parseOptions([], table, { sources: sources({ T_OUT: 'f' }) }).values.out).toBe('f')
  expect(thrown(() => parseOptions([], table, { sources: sources({}) })).message).toStartWith('--out (or T_OUT) is required')
})

test('keyLine finds bare, quoted and table keys', () => {
  const text = 'a = 1\n"b-c" = 2\n  d_e=3\n[f]\n'
  expect([keyLine(text, 'a'), keyLine(text, 'b-c'), keyLine(text, 'd_e'), keyLine(text, 'f'), keyLine(text, 'zz')]).toEqual([1, 2, 3, 4, 1])
})

test('usage shows --config and the environment', () => {
  const text = usageText(TABLE, { sources: sources({}) })
  expect(text).toMatch(/^ {2}--config FILE +read options from this TOML file/m)
  expect(text).toContain('T_NAME')
  expect(usageText(TABLE)).not.toContain('--config')
})

test('config print: every value with its source, as text and JSON (command-line-only options left out)', () => {
  const toml = file('c.toml', '\nlevel = "debug"\n')
  const p = parseOptions(['--config', toml, '--dev', '--json'], TABLE, { sources: sources({ T_BLOCK_TIME_MS: '300' }) })
  expect(configEntries(TABLE, p)).toEqual({
    dev: { value: true, source: 'flag', from: '--dev' },
    'block-time-ms': { value: 300, source: 'env', from: 'T_BLOCK_TIME_MS' },
    host: { value: '127.0.0.1', source: 'default', from: 'default' },
    level: { value: 'debug', source: 'file', from: `${toml}:2` },
    'data-dir': { value: null, source: 'default', from: 'default', default_text: 'somewhere' },
  })
  const lines = configText(TABLE, p).split('\n')
  expect(lines[0]).toBe(`config file: ${toml} (from --config)`)
  expect(lines[2]).toMatch(/^option +value +source$/)
  expect(lines).toContainEqual(expect.stringMatching(/^block-time-ms +300 +env T_BLOCK_TIME_MS$/))
  expect(lines).toContainEqual(expect.stringMatching(/^dev +true +flag --dev$/))
  expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^level +debug +${toml.replace(/[.]/g, '\\.')}:2$`)))
  expect(lines).toContainEqual(expect.stringMatching(/^data-dir +\(somewhere\) +default$/))
  // Aligned: every value starts in the same column.
  const column = lines[2]!.indexOf('value')
  for (const line of lines.slice(3)) expect(line[column - 1]).toBe(' ')
  const json = JSON.parse(configJson(TABLE, p))
  expect(json.config_file).toEqual({ path: toml, from: '--config' })
  expect(json.options['block-time-ms']).toEqual({ value: 300, source: 'env', from: 'T_BLOCK_TIME_MS' })
})
