// Building blocks of the seeded input fuzz (test/e2e/fuzz-input.test.ts): a reproducible PRNG, odd
// values and mutations of JSON values, HTTP calls with a deadline that never throw, and a record of
// findings that names the seed and the offending input.
import { mulberry32Unit } from '../../src/lib/prng.ts'

export class Rng {
  private readonly next: () => number
  constructor(seed: number) {
    this.next = mulberry32Unit(seed)
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n)
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!
  }

  hex(digits: number): string {
    let s = ''
    for (let i = 0; i < digits; i++) s += '0123456789abcdef'[this.int(16)]
    return s
  }

  /** A string of `length` characters drawn from printable ASCII, controls, and multi-byte unicode. */
  text(length: number): string {
    const pool = [
      'a',
      'Z',
      '0',
      '.',
      '-',
      '_',
      ' ',
      '"',
      '\\',
      '/',
      '%',
      '?',
      '&',
      '#',
      '\u0000',
      '\n',
      '\t',
      'é',
      'ß',
      '€',
      '漢',
      '😀',
      '\u202e',
      '\ufeff',
      '\ud800',
    ]
    let s = ''
    for (let i = 0; i < length; i++) s += this.pick(pool)
    return s
  }
}

/** Strings that trip parsers: numbers in disguise, symbols spelled oddly, huge and empty ones. */
const ODD_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '1e3',
  '+1',
  '1.',
  '.5',
  '0x10',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'true',
  'undefined',
  '9007199254740993',
  '1'.repeat(60),
  '0.0000000000001',
  '١٢٣',
  '１',
  'BTC',
  'btc',
  'BTC-USD',
  'btc-usd',
  'BTC-',
  '-USD',
  'BTC-USD ',
  ' BTC-USD',
  'BTC/USD',
  'XAU',
  'DOGE-USD',
  'ETH',
  'sol-USD',
  'BTC-USD\u0000',
  'BTC%2DUSD',
  '../etc/passwd',
  '<script>',
  '__proto__',
  'constructor',
  'toString',
  '0x',
  `0x${'0'.repeat(40)}`,
  `0X${'F'.repeat(40)}`,
  `0x${'g'.repeat(40)}`,
  `0x${'f'.repeat(64)}`,
  `0x${'f'.repeat(41)}`,
  'Bid',
  'Ask',
  'Gtc',
]

/** Numbers past every bound the wire has: negative, fractional, 2^32, 2^53 and beyond, the largest double. */
const ODD_NUMBERS = [
  -1,
  -0.5,
  0,
  0.5,
  1.5,
  2 ** 31,
  2 ** 32 - 1,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 64,
  1e308,
  -1e308,
  Number.MIN_VALUE,
  123456789012345,
]

/** A value of any JSON type, odd more often than not; depth bounds the nesting. */
export function oddValue(rng: Rng, depth = 2): unknown {
  switch (rng.int(depth > 0 ? 9 : 7)) {
    case 0:
      return rng.pick(ODD_STRINGS)
    case 1:
      return rng.pick(ODD_NUMBERS)
    case 2:
      return rng.text(1 + rng.int(rng.chance(0.1) ? 5_000 : 40))
    case 3:
      return null
    case 4:
      return rng.chance(0.5)
    case 5:
      return rng.int(1_000_000)
    case 6:
      return `0x${rng.hex(rng.pick([0, 1, 39, 40, 63, 64, 65]))}`
    case 7:
      return Array.from({ length: rng.int(4) }, () => oddValue(rng, depth - 1))
    default: {
      const o: Record<string, unknown> = {}
      for (let i = rng.int(4); i > 0; i--)
        o[rng.pick(['a', 'market_id', 'symbol', '__proto__', 'constructor', rng.text(3)])] = oddValue(rng, depth - 1)
      return o
    }
  }
}

/** Nested arrays `depth` deep, the kind of body that overflows a recursive checker. */
export const deepNesting = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

/**
 * A copy of a JSON object with one to three mutations: a field set to an odd value, a field
 * removed, an unknown key added, or a field's value nudged (number +-1, x2^32, fraction; string
 * cased or padded).
 */
export function mutateObject(rng: Rng, base: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = structuredClone(base)
  for (let n = 1 + rng.int(3); n > 0; n--) {
    const keys = Object.keys(out)
    const op = keys.length === 0 ? 2 : rng.int(4)
    const key = keys.length === 0 ? '' : rng.pick(keys)
    if (op === 0) out[key] = oddValue(rng)
    else if (op === 1) delete out[key]
    else if (op === 2) out[rng.pick(['extra', 'MARKET_ID', 'market_id ', 'params', 'nonce', rng.text(4)])] = oddValue(rng)
    else out[key] = nudge(rng, out[key])
  }
  return out
}

/** A near miss of a value. */
export function nudge(rng: Rng, v: unknown): unknown {
  if (typeof v === 'number') return rng.pick([v + 1, v - 1, -v, v + 0.5, v * 4_294_967_296, String(v), v + 2 ** 53])
  if (typeof v === 'string')
    return rng.pick([
      v.toUpperCase(),
      v.toLowerCase(),
      ` ${v}`,
      `${v}0`,
      v.slice(0, -1),
      `${v}.0000000001`,
      `-${v}`,
      `${v}\u0000`,
      v.repeat(50),
    ])
  if (typeof v === 'boolean') return rng.pick([String(v), v ? 1 : 0, !v])
  if (Array.isArray(v)) return rng.pick([[], [...v, ...v, ...v], v.slice(1), v.map((x) => nudge(rng, x))])
  if (typeof v === 'object' && v !== null) return mutateObject(rng, v as Record<string, unknown>)
  return oddValue(rng)
}

/** What an HTTP call gave: status, content type, text and the parsed JSON when it parsed. */
export interface HttpReply {
  readonly status: number
  readonly contentType: string
  readonly text: string
  readonly json: unknown
  readonly jsonOk: boolean
  /** Set when the call failed at the transport (timeout, reset): a hang or a crash. */
  readonly failure?: string
}

/** Per-request deadline: a reply slower than this is a hang. */
export const REQUEST_TIMEOUT_MS = 5_000

/** Sends one request and never throws: transport failures are returned as `failure`. */
export async function http(url: string, init: RequestInit = {}): Promise<HttpReply> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
    const text = await res.text()
    let json: unknown
    let jsonOk = true
    try {
      json = JSON.parse(text)
    } catch {
      jsonOk = false
    }
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, json, jsonOk }
  } catch (err) {
    return { status: 0, contentType: '', text: '', json: undefined, jsonOk: false, failure: String(err) }
  }
}

export const postText = (url: string, body: string | ReadableStream<Uint8Array>) =>
  http(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })

/** Runs `work` over `items` with at most `parallel` at a time, in order of start. */
export async function inParallel<T>(items: readonly T[], parallel: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0
  const lane = async () => {
    while (next < items.length) {
      const i = next++
      await work(items[i]!, i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, lane))
}

/**
 * The findings of one fuzz run. `check` records a broken expectation with the input that broke
 * it; `assertNone` throws with the seed and the first findings, so a run can be replayed with
 * FUZZ_SEED=<seed>.
 */
export class Findings {
  readonly list: string[] = []
  constructor(readonly seed: number) {}

  check(ok: boolean, what: string, input: unknown, reply: unknown): void {
    if (ok) return
    const show = (v: unknown) => {
      const s = typeof v === 'string' ? v : JSON.stringify(v)
      return s === undefined ? String(v) : s.length > 600 ? `${s.slice(0, 600)}… (${s.length} chars)` : s
    }
    this.list.push(`${what}\n  input: ${show(input)}\n  reply: ${show(reply)}`)
  }

  assertNone(surface: string): void {
    if (this.list.length === 0) return
    const shown = this.list.slice(0, 8).join('\n')
    throw new Error(`${surface}: ${this.list.length} finding(s) with FUZZ_SEED=${this.seed}\n${shown}`)
  }
}

/** The seed of the run: FUZZ_SEED when set, else the fixed default. */
export function fuzzSeed(fallback: number): number {
  const raw = process.env.FUZZ_SEED
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isSafeInteger(n)) throw new Error(`FUZZ_SEED must be an integer, got ${raw}`)
  return n >>> 0
}
