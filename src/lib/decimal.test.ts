import { describe, expect, test } from 'bun:test'
import {
  DECIMAL_MAX_LENGTH,
  decimalPattern,
  decimalUnits,
  formatDecimal,
  NORMAL_DECIMAL_PATTERN,
  NOT_PACKED,
  packDecimal,
  parseDecimal,
  SIGNED_NORMAL_DECIMAL_PATTERN,
} from './decimal.ts'
import { mulberry32 } from './prng.ts'

function ok(s: string, decimals: number, allowNegative = false): bigint {
  const r = parseDecimal(s, decimals, { allowNegative })
  if (!r.ok) throw new Error(`expected ${s} to parse: ${r.message}`)
  return r.value
}

function err(s: string, decimals: number, allowNegative = false): string {
  const r = parseDecimal(s, decimals, { allowNegative })
  if (r.ok) throw new Error(`expected ${s} to be refused, got ${r.value}`)
  return r.error
}

describe('parseDecimal: accepted forms', () => {
  test('integers and fractions scale to units of 10^-decimals', () => {
    expect(ok('65000.5', 1)).toBe(650005n)
    expect(ok('65000', 1)).toBe(650000n)
    expect(ok('0.01', 4)).toBe(100n)
    expect(ok('0', 6)).toBe(0n)
    expect(ok('0.5', 1)).toBe(5n)
    expect(ok('1', 0)).toBe(1n)
    expect(ok('1000000', 6)).toBe(1000000000000n)
    expect(ok('0.000001', 6)).toBe(1n)
  })
  test('extra decimals are fine when they are zeros', () => {
    expect(ok('65000.50', 1)).toBe(650005n)
    expect(ok('65000.5000000', 1)).toBe(650005n)
    expect(ok('5.0', 0)).toBe(5n)
    expect(ok('0.00', 0)).toBe(0n)
  })
  test('negatives only with allowNegative', () => {
    expect(ok('-1.5', 2, true)).toBe(-150n)
    expect(ok('-0', 2, true)).toBe(0n)
    expect(ok('-0.01', 2, true)).toBe(-1n)
    expect(err('-1.5', 2)).toBe('syntax')
  })
  test('options are optional', () => {
    expect(parseDecimal('2.5', 1)).toEqual({ ok: true, value: 25n })
  })
})

describe('parseDecimal: syntax errors', () => {
  const bad = [
    '',
    ' ',
    '1 ',
    ' 1',
    '+1',
    '1e5',
    '1E5',
    '.5',
    '5.',
    '.',
    '-',
    '--1',
    '00.5',
    '01',
    '00',
    '-01',
    '1,5',
    '0x10',
    '1.2.3',
    'NaN',
    'Infinity',
    '١',
    '1_000',
    '\n1',
    '--',
    '-.5',
    '½',
  ]
  for (const s of bad) test(JSON.stringify(s), () => expect(err(s, 6, true)).toBe('syntax'))
  test('longer than 40 characters', () => {
    expect(err('1'.repeat(41), 0)).toBe('syntax')
    expect(err(`0.${'0'.repeat(39)}`, 40)).toBe('syntax') // 41 characters
    expect(ok(`0.${'0'.repeat(38)}`, 6)).toBe(0n) // exactly 40
  })
  test('a non-string is a syntax error, not a crash', () => {
    expect(parseDecimal(5 as unknown as string, 0).ok).toBe(false)
  })
  test('the message quotes the input and says what is wrong', () => {
    const r = parseDecimal('-3', 0)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.message).toContain('negative')
  })
})

describe('parseDecimal: precision', () => {
  test('a nonzero digit past the precision is refused, never rounded', () => {
    expect(err('65000.55', 1)).toBe('precision')
    expect(err('0.0000001', 6)).toBe('precision')
    expect(err('1.5', 0)).toBe('precision')
    expect(err('1.000000000000001', 6)).toBe('precision')
    const r = parseDecimal('65000.55', 1)
    if (r.ok) throw new Error('unreachable')
    expect(r.message).toContain('has more than 1 decimal places')
  })
})

describe('parseDecimal: range', () => {
  test('|value| must be below 2^63', () => {
    const max = (1n << 63n) - 1n // 9223372036854775807
    expect(ok(max.toString(), 0)).toBe(max)
    expect(err((max + 1n).toString(), 0)).toBe('range')
    expect(ok(`-${max.toString()}`, 0, true)).toBe(-max)
    expect(err(`-${(max + 1n).toString()}`, 0, true)).toBe('range')
    expect(ok('9223372.036854775807', 12)).toBe(max)
    expect(err('9223372.036854775808', 12)).toBe('range')
    expect(err('10000000000000', 6)).toBe('range')
  })
})

describe('formatDecimal', () => {
  test('a safe integer number formats exactly as the same bigint; any other number is refused', () => {
    const values = [0, 1, -1, 5, 10, 99, 100, 650005, -650005, 1_000_000, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, -0]
    for (let i = 0; i < 2_000; i++) values.push(Math.floor((Math.sin(i) * 10 ** (i % 16)) | 0) * (i % 3 === 0 ? -1 : 1))
    for (const v of values)
      for (const decimals of [0, 1, 4, 6, 18]) expect(formatDecimal(v, decimals)).toBe(formatDecimal(BigInt(v), decimals))
    expect(() => formatDecimal(1.5, 2)).toThrow()
    expect(() => formatDecimal(Number.NaN, 2)).toThrow()
  })

  test("every value at every precision is what bigint division and the remainder's digits give (the fast path and the digit string alike)", () => {
    // An independent reference: bigint quotient and remainder, the remainder's digits padded, zeros trimmed.
    const reference = (v: bigint, decimals: number): string => {
      const m = v < 0n ? -v : v
      const unit = 10n ** BigInt(decimals)
      const fraction = (m % unit).toString().padStart(decimals, '0').replace(/0+$/, '')
      const body = fraction === '' ? (m / unit).toString() : `${m / unit}.${fraction}`
      return v < 0n ? `-${body}` : body
    }
    const next = mulberry32(20261128)
    const values: bigint[] = [
      0n,
      1n,
      -1n,
      9n,
      10n,
      11n,
      2n ** 53n - 1n,
      2n ** 53n,
      2n ** 53n + 1n,
      -(2n ** 53n) + 1n,
      -(2n ** 53n),
      2n ** 63n - 1n,
    ]
    for (let i = 0; i < 3_000; i++) {
      const digits = 1 + (next() % 19)
      let v = BigInt(next() % 10) * 10n ** BigInt(digits - 1) + BigInt(next()) * BigInt(next() % 1_000_000)
      // Trailing zeros of every length, and values near the powers of ten.
      v = (v % 10n ** BigInt(digits)) * 10n ** BigInt(next() % 8)
      if (i % 7 === 0) v = 10n ** BigInt(next() % 17) - BigInt(next() % 3)
      values.push(i % 2 === 0 ? v : -v)
    }
    for (const v of values)
      for (let decimals = 0; decimals <= 18; decimals++) {
        expect(formatDecimal(v, decimals)).toBe(reference(v, decimals))
        if (v >= -(2n ** 53n) + 1n && v <= 2n ** 53n - 1n) expect(formatDecimal(Number(v), decimals)).toBe(reference(v, decimals))
      }
  })

  const cases: [bigint, number, string][] = [
    [650005n, 1, '65000.5'],
    [1000000000000n, 6, '1000000'],
    [0n, 6, '0'],
    [0n, 0, '0'],
    [1n, 6, '0.000001'],
    [-1n, 6, '-0.000001'],
    [-650005n, 1, '-65000.5'],
    [123456n, 0, '123456'],
    [-7n, 0, '-7'],
    [1500000n, 6, '1.5'],
    [100n, 2, '1'],
    [(1n << 63n) - 1n, 18, '9.223372036854775807'],
  ]
  for (const [v, d, want] of cases) test(`${v} @${d}`, () => expect(formatDecimal(v, d)).toBe(want))
  test('round trips with parseDecimal', () => {
    for (const s of ['0', '1', '0.5', '123.456', '65000.5', '1000000', '0.000001', '-2.25']) {
      expect(formatDecimal(ok(s, 6, true), 6)).toBe(s)
    }
  })
  test('invalid decimals throw', () => {
    expect(() => formatDecimal(1n, -1)).toThrow(RangeError)
    expect(() => parseDecimal('1', 1.5)).toThrow(RangeError)
  })
})

/** The seeded draws of the chain's test Rng (test/support/chain/test-chain.ts), over mulberry32. */
function draws(seed: number) {
  const next = mulberry32(seed)
  const int = (n: number) => next() % n
  return { int, range: (lo: number, hi: number) => lo + int(hi - lo + 1), chance: (percent: number) => int(100) < percent }
}

/** What the chain makes of s at decimals: positive units that are a safe integer, or undefined (refused). */
function chainUnits(s: string, decimals: number): number | undefined {
  const v = parseDecimal(s, decimals)
  if (!v.ok || v.value <= 0n || v.value > BigInt(Number.MAX_SAFE_INTEGER)) return undefined
  return Number(v.value)
}

/** decimalUnits (the number path) against parseDecimal: whenever it answers, parseDecimal gives the same value. */
function agree(s: string, decimals: number, packed?: number): number {
  const fast = decimalUnits(s, decimals, packed)
  if (fast !== -1) expect({ s, decimals, units: fast }).toEqual({ s, decimals, units: chainUnits(s, decimals)! })
  return fast
}

describe('decimalUnits: the number path', () => {
  test('examples: the value the parser gives, or the parser decides', () => {
    // [string, decimals, positive units at decimals or undefined when refused]
    const rows: [string, number, number | undefined][] = [
      ['65000', 1, 650000],
      ['65000.5', 1, 650005],
      ['65000.50', 1, 650005],
      ['0.0001', 4, 1],
      ['1', 0, 1],
      ['0.5', 3, 500],
      ['123456789012345', 0, 123456789012345],
      ['1234567890123456', 0, 1234567890123456],
      ['12345678901234', 2, 1234567890123400],
      ['0', 2, undefined],
      ['0.00', 2, undefined],
      ['00.5', 1, undefined],
      ['.5', 1, undefined],
      ['5.', 1, undefined],
      ['-1', 0, undefined],
      ['+1', 0, undefined],
      ['1e3', 0, undefined],
      [' 1', 0, undefined],
      ['1 ', 0, undefined],
      ['1.5.5', 2, undefined],
      ['0.05', 1, undefined],
      ['1,5', 1, undefined],
      ['', 0, undefined],
      ['01', 0, undefined],
    ]
    for (const [s, decimals, units] of rows) {
      expect({ s, units: chainUnits(s, decimals) }).toEqual({ s, units })
      const fast = agree(s, decimals)
      // A refused string never takes the number path.
      if (units === undefined) expect({ s, fast }).toEqual({ s, fast: -1 })
    }
    // Short plain decimals take it.
    for (const [s, decimals] of [
      ['65000.5', 1],
      ['65000.50', 1],
      ['0.0001', 4],
      ['123456789012345', 0],
    ] as const) {
      expect({ s, fast: decimalUnits(s, decimals) > 0 }).toEqual({ s, fast: true })
    }
  })

  test('random strings agree with parseDecimal, and plain ones take the number path', () => {
    const rng = draws(9)
    const alphabet = '0123456789.-+e '
    let fast = 0
    for (let i = 0; i < 200_000; i++) {
      const decimals = rng.range(0, 12)
      let s: string
      if (rng.chance(50)) {
        s = Array.from({ length: rng.range(0, 18) }, () => alphabet[rng.int(rng.chance(80) ? 11 : alphabet.length)]).join('')
      } else {
        const int = String(rng.range(0, 10 ** rng.range(0, 9)))
        const frac = rng.chance(70) ? `.${String(rng.range(0, 10 ** rng.range(1, 8))).padStart(rng.range(1, 8), '0')}` : ''
        s = int + frac
      }
      if (agree(s, decimals) > 0) fast++
    }
    expect(fast).toBeGreaterThan(40_000)
  })
})

/** Strings near the grammar's edges: leading zeros, points, trailing zeros, long digit runs, junk. */
function randomDecimal(next: () => number): string {
  const pieces = [
    '0',
    '00',
    '1',
    '9',
    '65000',
    '123456789012345',
    '9007199254740993',
    '.',
    '.',
    '5',
    '50',
    '000',
    '0001',
    '-',
    'e3',
    ' ',
    '1e',
    '٣',
  ]
  let s = ''
  const n = 1 + (next() % 5)
  for (let i = 0; i < n; i++) s += pieces[next() % pieces.length]
  return s
}

describe('decimals packed at the edge (packDecimal)', () => {
  test('give the units the chain parses, or leave the string to it', () => {
    const next = mulberry32(5)
    let packedUsed = 0
    for (let i = 0; i < 200_000; i++) {
      const s = randomDecimal(next)
      const decimals = next() % 13
      const fromEdge = decimalUnits(s, decimals, packDecimal(s))
      if (fromEdge > 0) {
        packedUsed++
        expect({ s, decimals, units: fromEdge }).toEqual({ s, decimals, units: chainUnits(s, decimals)! })
      } else {
        expect(fromEdge).toBe(-1)
      }
    }
    expect(packedUsed).toBeGreaterThan(10_000)
  })

  test('pack the plain decimals of orders, trailing zeros dropped', () => {
    expect(packDecimal('65000.5')).toBe(650005 * 16 + 1)
    expect(packDecimal('65000.50')).toBe(650005 * 16 + 1)
    expect(packDecimal('65000')).toBe(65000 * 16)
    expect(packDecimal('0.001')).toBe(1 * 16 + 3)
    expect(decimalUnits('65000.5', 1, packDecimal('65000.5'))).toBe(650005)
    expect(decimalUnits('65000.5', 3, packDecimal('65000.5'))).toBe(65000500)
    // More precise than the market: the chain's parser words the rejection.
    expect(decimalUnits('65000.55', 1, packDecimal('65000.55'))).toBe(-1)
    for (const s of ['0', '0.000', '', '01', '1.', '.5', '-1', '1e3', ' 1', '1.5.5', '1234567890123456', '0.0000000000001']) {
      expect({ s, packed: packDecimal(s) }).toEqual({ s, packed: NOT_PACKED })
    }
    expect(packDecimal(12)).toBe(NOT_PACKED)
    // The edge's NOT_PACKED is taken as it is: the parser decides.
    expect(decimalUnits('65000.5', 1, NOT_PACKED)).toBe(-1)
  })
})

describe('the grammar as schema patterns', () => {
  test("the wire schemas' patterns, exactly", () => {
    expect(decimalPattern()).toBe('^(0|[1-9][0-9]*)(\\.[0-9]+)?$')
    expect(decimalPattern({ signed: true })).toBe('^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$')
    expect(decimalPattern({ integerDigits: 12, decimals: 6 })).toBe('^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,6})?$')
  })

  test('a pattern accepts what the parser reads, and the normal patterns what formatDecimal writes', () => {
    const next = mulberry32(11)
    const unsigned = new RegExp(decimalPattern())
    const signed = new RegExp(decimalPattern({ signed: true }))
    const amount6 = new RegExp(decimalPattern({ integerDigits: 12, decimals: 6 }))
    const normal = new RegExp(NORMAL_DECIMAL_PATTERN)
    const signedNormal = new RegExp(SIGNED_NORMAL_DECIMAL_PATTERN)
    const pieces = [
      '0',
      '00',
      '1',
      '9',
      '10',
      '65000',
      '123456789012',
      '.',
      '5',
      '50',
      '000',
      '-',
      '+',
      'e',
      ' ',
      '٣',
      '1234567890123456789012',
    ]
    const grammatical = (s: string, allowNegative: boolean) => {
      const v = parseDecimal(s, DECIMAL_MAX_LENGTH, { allowNegative })
      return v.ok || v.error === 'range'
    }
    let accepted = 0
    for (let i = 0; i < 100_000; i++) {
      let s = ''
      for (let n = 1 + (next() % 5); n > 0; n--) s += pieces[next() % pieces.length]
      const fits = s.length <= DECIMAL_MAX_LENGTH
      expect({ s, unsigned: unsigned.test(s) && fits }).toEqual({ s, unsigned: grammatical(s, false) })
      expect({ s, signed: signed.test(s) && fits }).toEqual({ s, signed: grammatical(s, true) })
      // Amount6: the grammar with at most 12 integer digits and 6 written decimals.
      const point = s.indexOf('.')
      const bounded = (point < 0 ? s.length : point) <= 12 && (point < 0 || s.length - point - 1 <= 6)
      expect({ s, amount6: amount6.test(s) }).toEqual({ s, amount6: grammatical(s, false) && bounded })
      // The normal form: a string is normal exactly when formatDecimal writes it back unchanged.
      const written = point < 0 ? 0 : s.length - point - 1
      const v = parseDecimal(s, written, { allowNegative: true })
      if (v.ok) {
        accepted++
        const isNormal = formatDecimal(v.value, written) === s
        expect({ s, normal: signedNormal.test(s) }).toEqual({ s, normal: isNormal })
        expect({ s, normal: normal.test(s) }).toEqual({ s, normal: isNormal && !s.startsWith('-') })
      } else if (v.error === 'syntax' && fits) {
        expect({ s, normal: signedNormal.test(s) }).toEqual({ s, normal: false })
      }
    }
    expect(accepted).toBeGreaterThan(10_000)
  })
})
