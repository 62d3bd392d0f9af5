// The one logger of both servers (perpd and perpd-admin). A line has a time, a level (debug, info,
// warn, error), a message and optional fields; the format is JSON lines
// (`{"ts":…,"level":…,"msg":…,…fields}`, the default when stdout is not a terminal) or plain text
// (`TS LEVEL [component] message key=value`, the default on a terminal). debug and info go to
// stdout, warn and error to stderr. Each binary sets the level and format once from its
// --log-level and --log-format flags (configureLogging); loggers made before that follow it too.
// Callers pass only public facts (addresses, ids, reasons): no key material is ever logged.
import { defineOptions } from './options.ts'

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
export const LOG_FORMATS = ['json', 'plain'] as const
export type LogFormat = (typeof LOG_FORMATS)[number]

/** Extra facts of a line; in JSON they are keys beside ts, level and msg. */
export type LogFields = Readonly<Record<string, unknown>>

/** A logger bound to a component (and optional fields). */
export interface Logger {
  debug(message: string, fields?: LogFields): void
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  error(message: string, fields?: LogFields): void
  /** A logger whose lines carry `component/sub` (or `sub` at the root) and these fields too. */
  child(sub: string, fields?: LogFields): Logger
}

/**
 * A one-argument log function, the form the node's modules take as their `log` option (tests pass
 * `(line) => lines.push(line)`); the level defaults to info.
 */
export type LogLine = (line: string, level?: LogLevel) => void

/** Where finished lines go; replaceable for tests. */
export type LogWriter = (level: LogLevel, line: string) => void

export interface LogSettings {
  readonly level: LogLevel
  readonly format: LogFormat
}

const RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 }

/** The default writer: debug and info to stdout, warn and error to stderr. */
export const consoleWriter: LogWriter = (level, line) => {
  if (RANK[level] >= RANK.warn) console.error(line)
  else console.log(line)
}

/** JSON lines unless stdout is a terminal. */
export function defaultLogFormat(): LogFormat {
  return process.stdout.isTTY === true ? 'plain' : 'json'
}

const current: { level: LogLevel; format: LogFormat; write: LogWriter } = {
  level: 'info',
  format: defaultLogFormat(),
  write: consoleWriter,
}

/** Sets the level, the format and (for tests) the writer of every logger. */
export function configureLogging(settings: Partial<LogSettings> & { readonly write?: LogWriter }): void {
  if (settings.level !== undefined) current.level = settings.level
  if (settings.format !== undefined) current.format = settings.format
  if (settings.write !== undefined) current.write = settings.write
}

/** The current settings. */
export function loggingSettings(): LogSettings {
  return { level: current.level, format: current.format }
}

/** The --log-level and --log-format options, for the option table of each server. */
export const LOG_OPTIONS = defineOptions({
  'log-level': { type: 'string', choices: LOG_LEVELS, default: 'info', description: 'the least severe log lines written' },
  'log-format': {
    type: 'string',
    choices: LOG_FORMATS,
    defaultText: 'plain on a terminal, else json',
    description: 'log lines as JSON objects, one a line, or as plain text',
  },
})

/** The log settings a server's parsed --log-level / --log-format give. */
export function logSettingsFrom(values: { readonly 'log-level': LogLevel; readonly 'log-format': LogFormat | undefined }): LogSettings {
  return { level: values['log-level'], format: values['log-format'] ?? defaultLogFormat() }
}

/** A logger; `component` names the part of the program in each line (e.g. `admin`, `chain`). */
export function createLogger(component?: string, fields: LogFields = {}): Logger {
  const emit = (level: LogLevel, message: string, extra: LogFields | undefined) => {
    if (RANK[level] < RANK[current.level]) return
    const all = extra === undefined ? fields : { ...fields, ...extra }
    current.write(level, current.format === 'json' ? jsonLine(level, component, message, all) : plainLine(level, component, message, all))
  }
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (sub, more) =>
      createLogger(component === undefined ? sub : `${component}/${sub}`, more === undefined ? fields : { ...fields, ...more }),
  }
}

/** A LogLine that writes through `logger`. */
export function logLine(logger: Logger): LogLine {
  return (line, level = 'info') => logger[level](line)
}

/** A logger that drops everything (for tests and tools). */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
}

/** The message of an unknown thrown value, kept to one short line. */
export function errorMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err)
  return text.replace(/\s+/g, ' ').slice(0, 500)
}

function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Error)
    return { name: value.name, message: value.message, ...(value.stack === undefined ? {} : { stack: value.stack }) }
  return value
}

function jsonLine(level: LogLevel, component: string | undefined, message: string, fields: LogFields): string {
  const line: Record<string, unknown> = { ts: new Date().toISOString(), level, msg: message }
  if (component !== undefined) line.component = component
  for (const [key, value] of Object.entries(fields)) if (!(key in line)) line[key] = value
  return JSON.stringify(line, jsonValue)
}

function plainLine(level: LogLevel, component: string | undefined, message: string, fields: LogFields): string {
  let line = `${new Date().toISOString()} ${level}${component === undefined ? '' : ` [${component}]`} ${message}`
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue
    const text =
      typeof value === 'string' ? value : value instanceof Error ? (value.stack ?? value.message) : JSON.stringify(value, jsonValue)
    line += /^[^\s"=]+$/.test(text) ? ` ${key}=${text}` : ` ${key}=${JSON.stringify(text)}`
  }
  return line
}
