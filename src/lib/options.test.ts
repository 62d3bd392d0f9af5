// The command-line layer: typed values from one table, both spellings of a value, the refusals
// (each naming the option and what it accepts), --help and --version, and the generated help.
import { describe, expect, test } from 'bun:test'
import { defineOptions, InfoRequested, integerValue, OptionError, parseOptions, usageText } from './options.ts'

const TABLE = defineOptions({
  dev: { type: 'boolean', description: 'a switch' },
  name: { type: 'string', valueName: 'NAME', description: 'a string without a default' },
  host: { type: 'string', default: '127.0.0.1', description: 'a string with a default' },
  port: { type: 'integer', default: 8080, min: 0, max: 65535, description: 'an integer' },
  level: { type: 'string', choices: ['debug', 'info'], default: 'info', description: 'one of a list' },
})

class CustomError extends OptionError {}

function thrown(fn: () => unknown): Error {
  try {
    fn()
  } catch (err) {
    return err as Error
  }
  throw new Error('did not throw')
}

describe('parseOptions', () => {
  test('defaults, typed by the table', () => {
    const { values, positionals } = parseOptions([], TABLE)
    expect(values).toEqual({ dev: false, name: undefined, host: '127.0.0.1', port: 8080, level: 'info' })
    expect(positionals).toEqual([])
    // The types follow the table: these lines compile only if they do.
    const port: number = values.port
    const host: string = values.host
    const name: string | undefined = values.name
    const level: 'debug' | 'info' = values.level
    expect([port, host, name, level]).toEqual([8080, '127.0.0.1', undefined, 'info'])
  })

  test('--name value and --name=value; the last one given wins', () => {
    const { values } = parseOptions(['--dev', '--name', 'a', '--port=0', '--host', 'h1', '--host=h2', '--level', 'debug'], TABLE)
    expect(values).toEqual({ dev: true, name: 'a', host: 'h2', port: 0, level: 'debug' })
  })

  test('an unknown option is refused by name', () => {
    const err = thrown(() => parseOptions(['--nope'], TABLE))
    expect(err).toBeInstanceOf(OptionError)
    expect(err.message).toStartWith('unknown option --nope')
    expect(thrown(() => parseOptions(['--port=1', '-x'], TABLE)).message).toStartWith('unknown option -x')
  })

  test('an integer out of its range names the range', () => {
    const err = thrown(() => parseOptions(['--port', '70000'], TABLE))
    expect(err).toBeInstanceOf(OptionError)
    expect(err.message).toStartWith('--port must be an integer from 0 to 65535, got 70000')
    for (const bad of ['x', '1.5', '', '1e3', '0x10']) {
      expect(thrown(() => parseOptions([`--port=${bad}`], TABLE)).message).toContain('--port must be an integer from 0 to 65535')
    }
    expect(parseOptions(['--port', '65535'], TABLE).values.port).toBe(65535)
  })

  test('a missing value, a value on a switch, a value outside the choices, a stray word', () => {
    expect(thrown(() => parseOptions(['--port'], TABLE)).message).toStartWith('--port needs a value')
    expect(thrown(() => parseOptions(['--name', '--dev'], TABLE)).message).toStartWith('--name needs a value')
    expect(thrown(() => parseOptions(['--dev=yes'], TABLE)).message).toStartWith('--dev takes no value')
    expect(thrown(() => parseOptions(['--level', 'loud'], TABLE)).message).toStartWith('--level must be one of debug, info, got loud')
    expect(thrown(() => parseOptions(['word'], TABLE)).message).toStartWith('unexpected argument word')
    expect(parseOptions(['word', '--dev'], TABLE, { positionals: true }).positionals).toEqual(['word'])
  })

  test('a required option must be given', () => {
    const table = defineOptions({ file: { type: 'string', required: true, description: 'a file' } })
    expect(thrown(() => parseOptions([], table)).message).toStartWith('--file is required')
    const file: string = parseOptions(['--file', 'f'], table).values.file
    expect(file).toBe('f')
  })

  test('errors come from settings.error, with a pointer to --help when the program is named', () => {
    const err = thrown(() => parseOptions(['--nope'], TABLE, { program: 'tool', error: (m) => new CustomError(m) }))
    expect(err).toBeInstanceOf(CustomError)
    expect(err.message).toBe('unknown option --nope\n(tool --help lists the options)')
  })

  test('--help and -h throw InfoRequested with the usage text; --version only when there is a version', () => {
    for (const flag of ['--help', '-h']) {
      const info = thrown(() => parseOptions(['--port', '1', flag], TABLE, { usage: 'tool [options]' }))
      expect(info).toBeInstanceOf(InfoRequested)
      expect((info as InfoRequested).text).toBe(usageText(TABLE, { usage: 'tool [options]' }))
    }
    const version = thrown(() => parseOptions(['--version'], TABLE, { version: 'tool 1.2.3' }))
    expect(version).toBeInstanceOf(InfoRequested)
    expect((version as InfoRequested).text).toBe('tool 1.2.3')
    expect(thrown(() => parseOptions(['--version'], TABLE))).toBeInstanceOf(OptionError)
  })
})

describe('usageText', () => {
  test('one line per option, with its placeholder, range and default, then help and version', () => {
    const text = usageText(TABLE, { usage: ['tool [options]', 'tool other'], summary: 'A tool.', epilog: 'More.', version: 'tool 1' })
    expect(text.split('\n').slice(0, 4)).toEqual(['usage: tool [options]', '       tool other', '', 'A tool.'])
    expect(text).toMatch(/^ {2}--dev +a switch$/m)
    expect(text).toMatch(/^ {2}--name NAME +a string without a default$/m)
    expect(text).toMatch(/^ {2}--host VALUE +a string with a default \[default 127\.0\.0\.1\]$/m)
    expect(text).toMatch(/^ {2}--port N +an integer \[0\.\.65535, default 8080\]$/m)
    expect(text).toMatch(/^ {2}--level debug\|info +one of a list \[default info\]$/m)
    expect(text).toMatch(/^ {2}-h, --help +print this help and exit$/m)
    expect(text).toMatch(/^ {2}--version +print the version and exit$/m)
    expect(text.endsWith('\n\nMore.')).toBe(true)
  })
})

test('integerValue reads numeric arguments the way options are read', () => {
  expect(integerValue('COUNT', '12', { min: 1, max: 100 })).toBe(12)
  expect(() => integerValue('COUNT', '0', { min: 1, max: 100 })).toThrow('COUNT must be an integer from 1 to 100, got 0')
  expect(integerValue('DELTA', '-5', { min: -10, max: 10 })).toBe(-5)
})
