// The servers' logger: JSON lines and plain lines, the level filter, components and fields, and the
// one-argument form the node's modules take.
import { afterEach, describe, expect, test } from 'bun:test'
import {
  configureLogging,
  consoleWriter,
  createLogger,
  errorMessage,
  LOG_OPTIONS,
  type LogLevel,
  loggingSettings,
  logLine,
  logSettingsFrom,
} from './log.ts'
import { parseOptions } from './options.ts'

const saved = loggingSettings()
let lines: { level: LogLevel; line: string }[] = []

function capture(format: 'json' | 'plain', level: LogLevel = 'debug'): void {
  lines = []
  configureLogging({ format, level, write: (l, line) => lines.push({ level: l, line }) })
}

afterEach(() => {
  configureLogging({ ...saved, write: consoleWriter })
})

describe('JSON lines', () => {
  test('ts, level and msg first, then the component and the fields', () => {
    capture('json')
    createLogger('admin')
      .child('oracle', { market: 'BTC-USD' })
      .warn('quote "rejected"', { height: 12, big: 10n ** 20n })
    expect(lines).toHaveLength(1)
    expect(lines[0]!.level).toBe('warn')
    const parsed = JSON.parse(lines[0]!.line)
    expect(Object.keys(parsed)).toEqual(['ts', 'level', 'msg', 'component', 'market', 'height', 'big'])
    expect(parsed).toMatchObject({
      level: 'warn',
      msg: 'quote "rejected"',
      component: 'admin/oracle',
      market: 'BTC-USD',
      height: 12,
      big: '100000000000000000000',
    })
    expect(new Date(parsed.ts).toISOString()).toBe(parsed.ts)
  })

  test('an Error field keeps its name, message and stack; fields cannot overwrite ts, level or msg', () => {
    capture('json')
    createLogger().error('boom', { error: new TypeError('bad'), msg: 'spoofed', level: 'debug' })
    const parsed = JSON.parse(lines[0]!.line)
    expect(parsed.msg).toBe('boom')
    expect(parsed.level).toBe('error')
    expect(parsed.component).toBeUndefined()
    expect(parsed.error).toMatchObject({ name: 'TypeError', message: 'bad' })
    expect(parsed.error.stack).toContain('TypeError: bad')
  })
})

describe('plain lines', () => {
  test('TS LEVEL [component] message key=value', () => {
    capture('plain')
    createLogger('admin').child('auth').info('login 0xab from 127.0.0.1', { ip: '127.0.0.1', note: 'two words' })
    expect(lines[0]!.line).toMatch(
      /^\d{4}-\d\d-\d\dT\S+Z info \[admin\/auth\] login 0xab from 127\.0\.0\.1 ip=127\.0\.0\.1 note="two words"$/,
    )
  })
})

test('lines under the level are dropped', () => {
  capture('json', 'warn')
  const log = createLogger('x')
  log.debug('d')
  log.info('i')
  log.warn('w')
  log.error('e')
  expect(lines.map((l) => l.level)).toEqual(['warn', 'error'])
})

test('loggers made before configureLogging follow it', () => {
  const early = createLogger('early')
  capture('plain', 'info')
  early.info('hello')
  expect(lines[0]!.line).toContain('info [early] hello')
})

test('logLine: one argument is info, a second names the level', () => {
  capture('json')
  const line = logLine(createLogger('node'))
  line('replayed 3 blocks')
  line('fatal: block production failed', 'error')
  expect(lines.map((l) => [l.level, JSON.parse(l.line).msg])).toEqual([
    ['info', 'replayed 3 blocks'],
    ['error', 'fatal: block production failed'],
  ])
})

test('--log-level and --log-format', () => {
  expect(logSettingsFrom(parseOptions(['--log-level', 'debug', '--log-format=json'], LOG_OPTIONS).values)).toEqual({
    level: 'debug',
    format: 'json',
  })
  const byDefault = logSettingsFrom(parseOptions([], LOG_OPTIONS).values)
  expect(byDefault).toEqual({ level: 'info', format: process.stdout.isTTY === true ? 'plain' : 'json' })
  expect(() => parseOptions(['--log-format', 'xml'], LOG_OPTIONS)).toThrow('--log-format must be one of json, plain, got xml')
})

test('errorMessage keeps one short line', () => {
  expect(errorMessage(new Error('a\n  b'))).toBe('a b')
  expect(errorMessage('x'.repeat(600))).toHaveLength(500)
})
