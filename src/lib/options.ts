// The command-line layer of every binary and script of the project: each declares its options once,
// as a table, and gets from it both the parser (node:util parseArgs, strict: `--name value` or
// `--name=value`, no unknown options) and the --help text. Values come back typed by the table:
// an integer option with a default is a number, a string option without one is string | undefined.
// A command that declares `sources` also reads its options from the environment and a TOML file
// (--config FILE), flag > environment > file > default (docs/operator.md#configuration).
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

interface OptionBase {
  /** One line for --help. */
  readonly description: string
  /** A one-letter alias, e.g. 'h' for -h. */
  readonly short?: string
  /** Read from the command line only, never from the environment or the config file (e.g. --json). */
  readonly commandLineOnly?: boolean
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
    ? S extends { readonly default: number } | { readonly required: true }
      ? number
      : number | undefined
    : S extends { readonly choices: readonly (infer C extends string)[] }
      ? S extends { readonly default: string } | { readonly required: true }
        ? C
        : C | undefined
      : S extends { readonly default: string } | { readonly required: true }
        ? string
        : string | undefined

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
  /** Options also come from the environment and a config file (docs/operator.md#configuration). */
  readonly sources?: ConfigSources
}

/**
 * Where a command reads its options besides the command line, in this order of precedence: a
 * flag, then the environment variable `envPrefix + NAME` (the option name upper-cased, '-' → '_'),
 * then the key of the TOML file `--config FILE` (or `envPrefix + CONFIG`), then the default.
 */
export interface ConfigSources {
  /** e.g. 'PERPD_': --block-time-ms is PERPD_BLOCK_TIME_MS. */
  readonly envPrefix: string
  /** Variables under envPrefix that belong to someone else and are left alone (e.g. PERPD_ADMIN_ for the node). */
  readonly envIgnorePrefixes?: readonly string[]
  /** Variables under envPrefix read by others (e.g. an example script): not warned about. */
  readonly envKnown?: readonly string[]
  /**
   * Option names of the binary's other commands: in the environment or the file they are not for
   * this command and are skipped, neither warned about nor refused (one file serves every command).
   */
  readonly knownNames?: () => readonly string[]
  /** Whether the command takes --config FILE (a TOML file of options). */
  readonly file?: boolean
  /** The environment (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Where the warning about an unknown variable goes (default stderr), once per variable and process. */
  readonly warn?: (line: string) => void
}

/** Where one option's value came from; `label` names it in errors and in `config print`. */
export type ValueSource =
  | { readonly kind: 'flag'; readonly label: string }
  | { readonly kind: 'env'; readonly label: string }
  | { readonly kind: 'file'; readonly label: string; readonly file: string; readonly line: number }
  | { readonly kind: 'default'; readonly label: 'default' }

/** The config file a command read, and what named it. */
export interface ConfigFileSource {
  readonly path: string
  /** `--config` or the variable, e.g. PERPD_CONFIG. */
  readonly from: string
}

/** What parseOptions returns. */
export interface ParsedOptions<T extends OptionTable> {
  readonly values: OptionValues<T>
  readonly positionals: string[]
  /** Where each value came from (all `flag` or `default` for a command without sources). */
  readonly sources: { readonly [K in keyof T]: ValueSource }
  /** The config file read, if any. */
  readonly configFile?: ConfigFileSource
}

const HELP_DESCRIPTION = 'print this help and exit'
const CONFIG_DESCRIPTION = 'read options from this TOML file (keys are option names: port = 8080)'
const VERSION_DESCRIPTION = 'print the version and exit'

/**
 * Parses `argv` (without the program: `process.argv.slice(2)`) against `table`. Throws
 * InfoRequested for --help / -h (the text is usageText) and --version (when settings.version is
 * set), and `settings.error` (an OptionError by default) for an unknown option, a missing value,
 * an integer that is not one or is out of its range, a value outside its choices, a missing
 * required option or an unexpected word.
 */
export function parseOptions<const T extends OptionTable>(
  argv: readonly string[],
  table: T,
  settings: CommandSettings = {},
): ParsedOptions<T> {
  const fail = (message: string): Error => (settings.error ?? ((m: string) => new OptionError(m)))(`${message}${helpHint(settings)}`)
  const config: Record<string, { type: 'string' | 'boolean'; short?: string }> = {}
  for (const [name, spec] of Object.entries(table)) {
    config[name] = { type: spec.type === 'boolean' ? 'boolean' : 'string', ...(spec.short === undefined ? {} : { short: spec.short }) }
  }
  const sources = settings.sources
  const takesConfig = sources?.file === true && !('config' in table)
  if (takesConfig) config.config = { type: 'string' }
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

  const env = sources === undefined ? new Map<string, Given>() : environmentValues(table, sources, fail)
  let configFile: ConfigFileSource | undefined
  let file = new Map<string, Given>()
  if (takesConfig) {
    const fromFlag = parsed.values.config as string | undefined
    const variable = `${sources!.envPrefix}CONFIG`
    const fromEnv = nonEmpty((sources!.env ?? process.env)[variable])
    if (fromFlag !== undefined) configFile = { path: fromFlag, from: '--config' }
    else if (fromEnv !== undefined) configFile = { path: fromEnv, from: variable }
    if (configFile !== undefined) file = fileValues(table, configFile, sources!, fail)
  }

  const values: Record<string, unknown> = {}
  const origins: Record<string, ValueSource> = {}
  for (const [name, spec] of Object.entries(table)) {
    const raw = parsed.values[name]
    const given: Given | undefined =
      raw !== undefined && (spec.type !== 'boolean' || raw === true)
        ? { value: raw, source: { kind: 'flag', label: `--${name}` } }
        : (env.get(name) ?? file.get(name))
    if (given === undefined) {
      if (spec.type !== 'boolean' && spec.required === true) {
        throw fail(
          sources === undefined || spec.commandLineOnly === true
            ? `--${name} is required`
            : `--${name} (or ${envName(sources.envPrefix, name)}) is required`,
        )
      }
      values[name] = spec.type === 'boolean' ? false : spec.default
      origins[name] = { kind: 'default', label: 'default' }
      continue
    }
    values[name] = checkedValue(name, spec, given, fail)
    origins[name] = given.source
  }
  return {
    values: values as OptionValues<T>,
    positionals: parsed.positionals,
    sources: origins as ParsedOptions<T>['sources'],
    ...(configFile === undefined ? {} : { configFile }),
  }
}

/** A value before its check: a flag's or variable's text, or a TOML value. */
interface Given {
  readonly value: unknown
  readonly source: ValueSource
}

/** How a source names an option in an error: `--port`, `PERPD_PORT`, `perpd.toml:12: port`. */
function subject(name: string, source: ValueSource): string {
  return source.kind === 'file' ? `${source.label}: ${name}` : source.label
}

/** A given value checked against its option: the type, an integer's range, a string's choices. */
function checkedValue(name: string, spec: OptionSpec, given: Given, fail: (message: string) => Error): unknown {
  const { value, source } = given
  const label = subject(name, source)
  if (spec.type === 'boolean') {
    if (typeof value === 'boolean') return value
    if (source.kind === 'env' && typeof value === 'string') {
      const v = value.trim().toLowerCase()
      if (v === 'true' || v === '1') return true
      if (v === 'false' || v === '0') return false
    }
    throw fail(`${label} must be ${source.kind === 'env' ? 'true, false, 1 or 0' : 'true or false'}, got ${shown(value)}`)
  }
  if (spec.type === 'integer') {
    if (typeof value === 'number' || typeof value === 'bigint') return integerValue(label, String(value), spec, fail)
    if (typeof value === 'string' && source.kind !== 'file') return integerValue(label, value, spec, fail)
    throw fail(`${label} must be an integer from ${spec.min} to ${spec.max}, got ${shown(value)}`)
  }
  if (typeof value !== 'string') throw fail(`${label} must be a string, got ${shown(value)}`)
  if (spec.choices !== undefined && !spec.choices.includes(value))
    throw fail(`${label} must be one of ${spec.choices.join(', ')}, got ${quoted(value)}`)
  return value
}

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (value instanceof Date) return value.toISOString()
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text === '' ? undefined : text
}

/** The variable of an option: PERPD_ + BLOCK_TIME_MS. */
export function envName(prefix: string, name: string): string {
  return `${prefix}${name.toUpperCase().replace(/-/g, '_')}`
}

/** Unknown variables already warned about in this process. */
const warnedVariables = new Set<string>()

/**
 * The options the environment sets (an empty variable counts as unset). A variable under the prefix
 * that names no option of the binary is warned about once on stderr, and otherwise ignored.
 */
function environmentValues(table: OptionTable, sources: ConfigSources, fail: (message: string) => Error): Map<string, Given> {
  const env = sources.env ?? process.env
  const out = new Map<string, Given>()
  const known = new Set(sources.knownNames?.() ?? [])
  for (const [variable, raw] of Object.entries(env).sort(([a], [b]) => a.localeCompare(b))) {
    if (!variable.startsWith(sources.envPrefix) || raw === undefined || raw === '') continue
    if (variable === `${sources.envPrefix}CONFIG` && sources.file === true) continue
    if (sources.envIgnorePrefixes?.some((p) => variable.startsWith(p)) === true || sources.envKnown?.includes(variable) === true) continue
    const name = variable.slice(sources.envPrefix.length).toLowerCase().replace(/_/g, '-')
    const spec = table[name]
    if (spec !== undefined && spec.commandLineOnly !== true && envName(sources.envPrefix, name) === variable) {
      out.set(name, { value: raw, source: { kind: 'env', label: variable } })
    } else if (spec !== undefined && spec.commandLineOnly === true) {
      throw fail(`${variable}: --${name} is given on the command line only`)
    } else if (!known.has(name) && !warnedVariables.has(variable)) {
      warnedVariables.add(variable)
      const warn = sources.warn ?? ((line: string) => process.stderr.write(`${line}\n`))
      warn(`warning: ignoring the environment variable ${variable}: it names no option (docs/operator.md#configuration)`)
    }
  }
  return out
}

/**
 * The options a TOML config file sets. Keys are option names, with '-' or '_' (block-time-ms or
 * block_time_ms); a key that names no option of the binary is refused with its file and line.
 */
function fileValues(
  table: OptionTable,
  file: ConfigFileSource,
  sources: ConfigSources,
  fail: (message: string) => Error,
): Map<string, Given> {
  let text: string
  try {
    text = readFileSync(file.path, 'utf8')
  } catch (err) {
    throw fail(`${file.from} ${file.path}: cannot read the config file: ${(err as Error).message}`)
  }
  let doc: Record<string, unknown>
  try {
    doc = Bun.TOML.parse(text) as Record<string, unknown>
  } catch (err) {
    throw fail(`${file.path}: not a TOML file: ${(err as Error).message}`)
  }
  const known = new Set(sources.knownNames?.() ?? [])
  const out = new Map<string, Given>()
  for (const [key, value] of Object.entries(doc)) {
    const line = keyLine(text, key)
    const at = `${file.path}:${line}`
    const name = key.replace(/_/g, '-')
    const spec = table[name]
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)) {
      throw fail(`${at}: [${key}]: a config file holds options as top-level keys (name = value), not tables`)
    }
    if (spec === undefined || spec.commandLineOnly === true) {
      if (spec === undefined && known.has(name)) continue
      throw fail(spec === undefined ? `${at}: unknown option ${key}` : `${at}: ${key} is given on the command line only`)
    }
    const earlier = out.get(name)
    if (earlier !== undefined) throw fail(`${at}: ${key} is also set at ${earlier.source.label}`)
    out.set(name, { value, source: { kind: 'file', label: at, file: file.path, line } })
  }
  return out
}

/** The line (from 1) of a top-level key or table header in TOML text; 1 when not found. */
export function keyLine(text: string, key: string): number {
  const k = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const spelled = `(?:${k}|"${k}"|'${k}')`
  const patterns = [new RegExp(`^\\s*${spelled}\\s*[=.]`), new RegExp(`^\\s*\\[\\[?\\s*${spelled}\\s*[\\].]`)]
  const lines = text.split(/\r?\n/)
  for (const pattern of patterns) {
    const i = lines.findIndex((l) => pattern.test(l))
    if (i >= 0) return i + 1
  }
  return 1
}

/**
 * A whole number in [spec.min, spec.max] read from `text`, for options and for numeric positional
 * arguments alike; `label` names it in the error (`--port`, `OPERATIONS`).
 */
export function integerValue(
  label: string,
  text: string,
  spec: { readonly min: number; readonly max: number },
  fail: (message: string) => Error = (m) => new OptionError(m),
): number {
  if (!/^-?\d+$/.test(text.trim())) throw fail(`${label} must be an integer from ${spec.min} to ${spec.max}, got ${quoted(text)}`)
  const n = Number(text)
  if (!Number.isSafeInteger(n) || n < spec.min || n > spec.max)
    throw fail(`${label} must be an integer from ${spec.min} to ${spec.max}, got ${text.trim()}`)
  return n
}

/** The --help text of a table: synopsis, summary, one aligned line per option (with its default and range), epilog. */
export function usageText(table: OptionTable, settings: CommandSettings = {}): string {
  const usage = typeof settings.usage === 'string' ? [settings.usage] : (settings.usage ?? [`${settings.program ?? 'command'} [options]`])
  const lines = usage.map((u, i) => `${i === 0 ? 'usage: ' : '       '}${u}`)
  if (settings.summary !== undefined) lines.push('', settings.summary)
  const rows: [string, string][] = []
  for (const [name, spec] of Object.entries(table)) rows.push([optionLabel(name, spec), optionDescription(spec)])
  const sources = settings.sources
  if (sources?.file === true && !('config' in table)) rows.push(['--config FILE', CONFIG_DESCRIPTION])
  if (!('help' in table)) rows.push(['-h, --help', HELP_DESCRIPTION])
  if (settings.version !== undefined && !('version' in table)) rows.push(['--version', VERSION_DESCRIPTION])
  lines.push('', 'options:', ...optionRows(rows))
  if (sources !== undefined) {
    lines.push(
      '',
      `Each option can also be set by the environment (${envName(sources.envPrefix, 'block-time-ms').replace(/BLOCK_TIME_MS$/, 'NAME')}: the name upper-cased, '-' as '_')` +
        `${sources.file === true ? ` or the --config file (${envName(sources.envPrefix, 'config')})` : ''}; a flag wins over the environment, the environment over the file.`,
    )
  }
  if (settings.epilog !== undefined) lines.push('', settings.epilog)
  return lines.join('\n')
}

/** The rows of an option list, labels padded to one column. */
export function optionRows(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.min(34, Math.max(...rows.map(([label]) => label.length)) + 2)
  return rows.map(
    ([label, description]) => `  ${label.length + 2 > width ? `${label}\n  ${' '.repeat(width)}` : label.padEnd(width)}${description}`,
  )
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

// ---------------------------------------------------------------------------------------------
// `config print`: the effective configuration and where each value came from.

/** One option of `config print --json`. */
export interface ConfigEntry {
  /** The value (null: unset; `default_text` then says what the command uses). */
  readonly value: string | number | boolean | null
  readonly source: ValueSource['kind']
  /** The flag, the variable, or FILE:LINE ('default' for a default). */
  readonly from: string
  readonly default_text?: string
}

/** The configuration `parseOptions` gave, option by option (commandLineOnly options left out). */
export function configEntries<T extends OptionTable>(table: T, parsed: ParsedOptions<T>): Record<string, ConfigEntry> {
  const out: Record<string, ConfigEntry> = {}
  for (const [name, spec] of Object.entries(table)) {
    if (spec.commandLineOnly === true) continue
    const value = (parsed.values as Record<string, unknown>)[name] as string | number | boolean | undefined
    const source = parsed.sources[name as keyof T]
    const defaultText = spec.type !== 'boolean' && value === undefined ? spec.defaultText : undefined
    out[name] = {
      value: value ?? null,
      source: source.kind,
      from: source.label,
      ...(defaultText === undefined ? {} : { default_text: defaultText }),
    }
  }
  return out
}

/** `config print` as aligned text: option, value, source (flag --NAME, env NAME, FILE:LINE, default). */
export function configText<T extends OptionTable>(table: T, parsed: ParsedOptions<T>): string {
  const entries = configEntries(table, parsed)
  const rows = Object.entries(entries).map(
    ([name, e]) =>
      [
        name,
        e.value === null ? (e.default_text === undefined ? '(unset)' : `(${e.default_text})`) : String(e.value),
        e.source === 'env' ? `env ${e.from}` : e.source === 'flag' ? `flag ${e.from}` : e.from,
      ] as const,
  )
  const w0 = Math.max(6, ...rows.map((r) => r[0].length)) + 2
  const w1 = Math.max(5, ...rows.map((r) => r[1].length)) + 2
  const file =
    parsed.configFile === undefined ? 'config file: none' : `config file: ${parsed.configFile.path} (from ${parsed.configFile.from})`
  return [
    file,
    '',
    `${'option'.padEnd(w0)}${'value'.padEnd(w1)}source`,
    ...rows.map(([a, b, c]) => `${a.padEnd(w0)}${b.padEnd(w1)}${c}`),
  ].join('\n')
}

/** `config print --json`: {"config_file": {path, from} | null, "options": {NAME: ConfigEntry}}. */
export function configJson<T extends OptionTable>(table: T, parsed: ParsedOptions<T>): string {
  return JSON.stringify({ config_file: parsed.configFile ?? null, options: configEntries(table, parsed) }, null, 2)
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
export function parseOptionsOrExit<const T extends OptionTable>(
  argv: readonly string[],
  table: T,
  settings: CommandSettings = {},
): ParsedOptions<T> {
  return readCommandLine(() => parseOptions(argv, table, settings))
}
