// The command-line layer of every binary and script of the project: each declares its options once,
// as a table, and gets from it both the parser (node:util parseArgs, strict: `--name value` or
// `--name=value`, no unknown options) and the --help text. Values come back typed by the table:
// an integer option with a default is a number, a string option without one is string | undefined.
import { parseArgs } from 'node:util'

interface OptionBase {
  /** One line for --help. */
  readonly description: string
  /** A one-letter alias, e.g. 'h' for -h. */
  readonly short?: string
}

/** `--name VALUE`; `choices` limits the value to a list (and types it as their union). */
export interface StringOption extends OptionBase {
  readonly type: 'string'
  readonly default?: string
  readonly choices?: readonly string[]
  /** Whether the command line must give it (only for options without a default). */
  readonly required?: boolean
  /** The placeholder in --help, e.g. DIR (default VALUE, or the choices). */
  readonly valueName?: string
  /** What --help says the default is when it is not a constant (e.g. "DATA_DIR/admin.kek"). */
  readonly defaultText?: string
}

/** `--name N`: a whole number within [min, max]. */
export interface IntegerOption extends OptionBase {
  readonly type: 'integer'
  readonly default?: number
  readonly min: number
  readonly max: number
  readonly required?: boolean
  readonly valueName?: string
  readonly defaultText?: string
}

/** `--name` alone: true when given, else false. */
export interface BooleanOption extends OptionBase {
  readonly type: 'boolean'
}

export type OptionSpec = StringOption | IntegerOption | BooleanOption

/** The options of one command, keyed by their long name without the dashes. */
export type OptionTable = Readonly<Record<string, OptionSpec>>

type ValueOf<S> = S extends BooleanOption
  ? boolean
  : S extends IntegerOption
    ? S extends { readonly default: number } | { readonly required: true } ? number : number | undefined
    : S extends { readonly choices: readonly (infer C extends string)[] }
      ? S extends { readonly default: string } | { readonly required: true } ? C : C | undefined
      : S extends { readonly default: string } | { readonly required: true } ? string : string | undefined

/** The parsed values of a table: absent options take their default (booleans: false). */
export type OptionValues<T extends OptionTable> = { -readonly [K in keyof T]: ValueOf<T[K]> }

/** Declares a table with its literal types kept, so parseOptions can type the values it returns. */
export function defineOptions<const T extends OptionTable>(table: T): T {
  return table
}

/** A command line that cannot be used; the message names the option and what it accepts. */
export class OptionError extends Error {
  override readonly name: string = 'OptionError'
}

/** --help or --version was given: print `text` to stdout and exit 0. */
export class InfoRequested extends Error {
  override readonly name = 'InfoRequested'
  constructor(readonly text: string) {
    super(text)
  }
}

/** How a command is called and described: the parts of --help that are not options. */
export interface CommandSettings {
  /** The synopsis lines after `usage:`, e.g. `perpd [options]`. */
  readonly usage?: string | readonly string[]
  /** A paragraph between the synopsis and the options. */
  readonly summary?: string
  /** A paragraph after the options. */
  readonly epilog?: string
  /** What --version prints; without it --version is an unknown option. */
  readonly version?: string
  /** Whether words that are not options are accepted (default: refused). */
  readonly positionals?: boolean
  /** The program as error messages name it, e.g. `perpd` or `perpd-admin login`. */
  readonly program?: string
  /** Builds the error thrown for a bad command line (default: an OptionError), e.g. a ConfigError. */
  readonly error?: (message: string) => Error
}

/** What parseOptions returns. */
export interface ParsedOptions<T extends OptionTable> {
  readonly values: OptionValues<T>
  readonly positionals: string[]
}

const HELP_DESCRIPTION = 'print this help and exit'
const VERSION_DESCRIPTION = 'print the version and exit'

/**
 * Parses `argv` (without the program: `process.argv.slice(2)`) against `table`. Throws
 * InfoRequested for --help / -h (the text is usageText) and --version (when settings.version is
 * set), and `settings.error` (an OptionError by default) for an unknown option, a missing value,
 * an integer that is not one or is out of its range, a value outside its choices, a missing
 * required option or an unexpected word.
 */
export function parseOptions<const T extends OptionTable>(argv: readonly string[], table: T, settings: CommandSettings = {}): ParsedOptions<T> {
  const fail = (message: string): Error => (settings.error ?? ((m: string) => new OptionError(m)))(`${message}${helpHint(settings)}`)
  const config: Record<string, { type: 'string' | 'boolean'; short?: string }> = {}
  for (const [name, spec] of Object.entries(table)) {
    config[name] = { type: spec.type === 'boolean' ? 'boolean' : 'string', ...(spec.short === undefined ? {} : { short: spec.short }) }
  }
  if (!('help' in table)) config.help = { type: 'boolean', short: 'h' }
  if (settings.version !== undefined && !('version' in table)) config.version = { type: 'boolean' }

  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] }
  try {
    parsed = parseArgs({ args: [...argv], options: config, strict: true, allowPositionals: settings.positionals === true })
  } catch (err) {
    throw fail(parseArgsMessage(err))
  }
  if (parsed.values.help === true && !('help' in table)) throw new InfoRequested(usageText(table, settings))
  if (parsed.values.version === true && settings.version !== undefined && !('version' in table)) throw new InfoRequested(settings.version)

  const values: Record<string, unknown> = {}
  for (const [name, spec] of Object.entries(table)) {
    const raw = parsed.values[name]
    if (spec.type === 'boolean') {
      values[name] = raw === true
      continue
    }
    if (raw === undefined) {
      if (spec.required === true) throw fail(`--${name} is required`)
      values[name] = spec.default
      continue
    }
    const text = raw as string
    if (spec.type === 'integer') {
      values[name] = integerValue(`--${name}`, text, spec, fail)
    } else {
      if (spec.choices !== undefined && !spec.choices.includes(text)) throw fail(`--${name} must be one of ${spec.choices.join(', ')}, got ${quoted(text)}`)
      values[name] = text
    }
  }
  return { values: values as OptionValues<T>, positionals: parsed.positionals }
}

/**
 * A whole number in [spec.min, spec.max] read from `text`, for options and for numeric positional
 * arguments alike; `label` names it in the error (`--port`, `OPERATIONS`).
 */
export function integerValue(label: string, text: string, spec: { readonly min: number; readonly max: number }, fail: (message: string) => Error = (m) => new OptionError(m)): number {
  if (!/^-?\d+$/.test(text.trim())) throw fail(`${label} must be an integer from ${spec.min} to ${spec.max}, got ${quoted(text)}`)
  const n = Number(text)
  if (!Number.isSafeInteger(n) || n < spec.min || n > spec.max) throw fail(`${label} must be an integer from ${spec.min} to ${spec.max}, got ${text.trim()}`)
  return n
}

/** The --help text of a table: synopsis, summary, one aligned line per option (with its default and range), epilog. */
export function usageText(table: OptionTable, settings: CommandSettings = {}): string {
  const usage = typeof settings.usage === 'string' ? [settings.usage] : settings.usage ?? [`${settings.program ?? 'command'} [options]`]
  const lines = usage.map((u, i) => `${i === 0 ? 'usage: ' : '       '}${u}`)
  if (settings.summary !== undefined) lines.push('', settings.summary)
  const rows: [string, string][] = []
  for (const [name, spec] of Object.entries(table)) rows.push([optionLabel(name, spec), optionDescription(spec)])
  if (!('help' in table)) rows.push(['-h, --help', HELP_DESCRIPTION])
  if (settings.version !== undefined && !('version' in table)) rows.push(['--version', VERSION_DESCRIPTION])
  lines.push('', 'options:', ...optionRows(rows))
  if (settings.epilog !== undefined) lines.push('', settings.epilog)
  return lines.join('\n')
}

/** The rows of an option list, labels padded to one column. */
export function optionRows(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.min(34, Math.max(...rows.map(([label]) => label.length)) + 2)
  return rows.map(([label, description]) => `  ${label.length + 2 > width ? `${label}\n  ${' '.repeat(width)}` : label.padEnd(width)}${description}`)
}

/** `--name VALUE` as --help and synopses show it (`-x, --name VALUE` with an alias). */
export function optionLabel(name: string, spec: OptionSpec): string {
  const long = spec.type === 'boolean' ? `--${name}` : `--${name} ${placeholder(spec)}`
  return spec.short === undefined ? long : `-${spec.short}, ${long}`
}

function placeholder(spec: StringOption | IntegerOption): string {
  if (spec.valueName !== undefined) return spec.valueName
  if (spec.type === 'string' && spec.choices !== undefined) return spec.choices.join('|')
  return spec.type === 'integer' ? 'N' : 'VALUE'
}

function optionDescription(spec: OptionSpec): string {
  if (spec.type === 'boolean') return spec.description
  const notes: string[] = []
  if (spec.type === 'integer') notes.push(`${spec.min}..${spec.max}`)
  if (spec.required === true) notes.push('required')
  const shown = spec.defaultText ?? (spec.default === undefined ? undefined : String(spec.default))
  if (shown !== undefined) notes.push(`default ${shown}`)
  return notes.length === 0 ? spec.description : `${spec.description} [${notes.join(', ')}]`
}

function helpHint(settings: CommandSettings): string {
  return settings.program === undefined ? '' : `\n(${settings.program} --help lists the options)`
}

function quoted(text: string): string {
  return text === '' ? "''" : text
}

/** parseArgs' error as a one-line message that names the option. */
function parseArgsMessage(err: unknown): string {
  const code = (err as { code?: unknown }).code
  const message = err instanceof Error ? err.message : String(err)
  const option = /'(-[^' ]+)/.exec(message)?.[1]
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option ?? message}`
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument ${/'([^']*)'/.exec(message)?.[1] ?? message}`
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/does not take an argument/.test(message)) return `${option} takes no value`
    if (/ambiguous/.test(message)) return `${option} needs a value (write ${option}=VALUE for one that starts with -)`
    return `${option} needs a value`
  }
  return message.split('\n')[0]!
}

/**
 * Runs a binary's command-line parse and handles what it throws the way every binary of the
 * project does: InfoRequested prints its text to stdout and exits 0; an OptionError (or a subclass,
 * e.g. a ConfigError) prints its message to stderr and exits 2. Anything else is rethrown.
 */
export function readCommandLine<R>(parse: () => R): R {
  try {
    return parse()
  } catch (err) {
    if (err instanceof InfoRequested) {
      console.log(err.text)
      process.exit(0)
    }
    if (err instanceof OptionError) {
      console.error(err.message)
      process.exit(2)
    }
    throw err
  }
}

/** parseOptions for scripts: --help and a bad command line end the process (see readCommandLine). */
export function parseOptionsOrExit<const T extends OptionTable>(argv: readonly string[], table: T, settings: CommandSettings = {}): ParsedOptions<T> {
  return readCommandLine(() => parseOptions(argv, table, settings))
}
