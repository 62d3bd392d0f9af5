// Server command lines (the node's and the admin service's): `--name value` or `--name=value`
// flags and value-less switches. The caller builds the errors, so each server keeps its own error
// class and usage text.

/** What a command line may hold, and how to report one that cannot be used. */
export interface FlagSpec {
  /** Flags that take a value. */
  readonly valueFlags: readonly string[]
  /** Flags without a value, e.g. --dev (only in exactly that spelling). */
  readonly switches?: readonly string[]
  /** The usage text: the message of --help, and the second line of the other parse errors. */
  readonly usage: string
  /** Builds the error thrown for a command line that cannot be used. */
  readonly fail: (message: string) => Error
}

/** The flags of a parsed command line, with readers that fail like the parser did. */
export class Flags {
  constructor(
    private readonly values: ReadonlyMap<string, string>,
    private readonly switches: ReadonlySet<string>,
    private readonly fail: (message: string) => Error,
  ) {}

  /** The value of a flag, or undefined when it is absent. */
  get(name: string): string | undefined {
    return this.values.get(name)
  }

  /** Whether a switch was given. */
  has(name: string): boolean {
    return this.switches.has(name)
  }

  /** A flag as a non-negative integer in [min, max]; `fallback` when it is absent. */
  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.values.get(name)
    if (raw === undefined) return fallback
    if (!/^\d+$/.test(raw)) throw this.fail(`${name} must be an integer, got ${raw}`)
    const n = Number(raw)
    if (n < min || n > max) throw this.fail(`${name} must be between ${min} and ${max}, got ${n}`)
    return n
  }
}

/** Reads a command line; --help (or -h), an unknown flag and a flag without its value throw `spec.fail`. */
export function parseFlags(argv: readonly string[], spec: FlagSpec): Flags {
  const values = new Map<string, string>()
  const switches = new Set<string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (spec.switches?.includes(arg) === true) { switches.add(arg); continue }
    if (arg === '--help' || arg === '-h') throw spec.fail(spec.usage)
    const eq = arg.indexOf('=')
    const name = eq > 0 ? arg.slice(0, eq) : arg
    if (!spec.valueFlags.includes(name)) throw spec.fail(`unknown argument ${arg}\n${spec.usage}`)
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i]
    if (value === undefined) throw spec.fail(`${name} needs a value\n${spec.usage}`)
    values.set(name, value)
  }
  return new Flags(values, switches, spec.fail)
}
