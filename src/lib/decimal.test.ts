import { describe, expect, test } from 'bun:test';
import { formatDecimal, parseDecimal } from './decimal.ts';

function ok(s: string, decimals: number, allowNegative = false): bigint {
  const r = parseDecimal(s, decimals, { allowNegative });
  if (!r.ok) throw new Error(`expected ${s} to parse: ${r.message}`);
  return r.value;
}

function err(s: string, decimals: number, allowNegative = false): string {
  const r = parseDecimal(s, decimals, { allowNegative });
  if (r.ok) throw new Error(`expected ${s} to be refused, got ${r.value}`);
  return r.error;
}

describe('parseDecimal: accepted forms', () => {
  test('integers and fractions scale to units of 10^-decimals', () => {
    expect(ok('65000.5', 1)).toBe(650005n);
    expect(ok('65000', 1)).toBe(650000n);
    expect(ok('0.01', 4)).toBe(100n);
    expect(ok('0', 6)).toBe(0n);
    expect(ok('0.5', 1)).toBe(5n);
    expect(ok('1', 0)).toBe(1n);
    expect(ok('1000000', 6)).toBe(1000000000000n);
    expect(ok('0.000001', 6)).toBe(1n);
  });
  test('extra decimals are fine when they are zeros', () => {
    expect(ok('65000.50', 1)).toBe(650005n);
    expect(ok('65000.5000000', 1)).toBe(650005n);
    expect(ok('5.0', 0)).toBe(5n);
    expect(ok('0.00', 0)).toBe(0n);
  });
  test('negatives only with allowNegative', () => {
    expect(ok('-1.5', 2, true)).toBe(-150n);
    expect(ok('-0', 2, true)).toBe(0n);
    expect(ok('-0.01', 2, true)).toBe(-1n);
    expect(err('-1.5', 2)).toBe('syntax');
  });
  test('options are optional', () => {
    expect(parseDecimal('2.5', 1)).toEqual({ ok: true, value: 25n });
  });
});

describe('parseDecimal: syntax errors', () => {
  const bad = ['', ' ', '1 ', ' 1', '+1', '1e5', '1E5', '.5', '5.', '.', '-', '--1', '00.5', '01', '00', '-01', '1,5', '0x10', '1.2.3', 'NaN', 'Infinity', '١', '1_000', '\n1', '--', '-.5', '½'];
  for (const s of bad) test(JSON.stringify(s), () => expect(err(s, 6, true)).toBe('syntax'));
  test('longer than 40 characters', () => {
    expect(err('1'.repeat(41), 0)).toBe('syntax');
    expect(err('0.' + '0'.repeat(39), 40)).toBe('syntax'); // 41 characters
    expect(ok('0.' + '0'.repeat(38), 6)).toBe(0n); // exactly 40
  });
  test('a non-string is a syntax error, not a crash', () => {
    expect(parseDecimal(5 as unknown as string, 0).ok).toBe(false);
  });
  test('the message quotes the input and says what is wrong', () => {
    const r = parseDecimal('-3', 0);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('negative');
  });
});

describe('parseDecimal: precision', () => {
  test('a nonzero digit past the precision is refused, never rounded', () => {
    expect(err('65000.55', 1)).toBe('precision');
    expect(err('0.0000001', 6)).toBe('precision');
    expect(err('1.5', 0)).toBe('precision');
    expect(err('1.000000000000001', 6)).toBe('precision');
    const r = parseDecimal('65000.55', 1);
    if (r.ok) throw new Error('unreachable');
    expect(r.message).toContain('has more than 1 decimal places');
  });
});

describe('parseDecimal: range', () => {
  test('|value| must be below 2^63', () => {
    const max = (1n << 63n) - 1n; // 9223372036854775807
    expect(ok(max.toString(), 0)).toBe(max);
    expect(err((max + 1n).toString(), 0)).toBe('range');
    expect(ok('-' + max.toString(), 0, true)).toBe(-max);
    expect(err('-' + (max + 1n).toString(), 0, true)).toBe('range');
    expect(ok('9223372.036854775807', 12)).toBe(max);
    expect(err('9223372.036854775808', 12)).toBe('range');
    expect(err('10000000000000', 6)).toBe('range');
  });
});

describe('formatDecimal', () => {
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
  ];
  for (const [v, d, want] of cases) test(`${v} @${d}`, () => expect(formatDecimal(v, d)).toBe(want));
  test('round trips with parseDecimal', () => {
    for (const s of ['0', '1', '0.5', '123.456', '65000.5', '1000000', '0.000001', '-2.25']) {
      expect(formatDecimal(ok(s, 6, true), 6)).toBe(s);
    }
  });
  test('invalid decimals throw', () => {
    expect(() => formatDecimal(1n, -1)).toThrow(RangeError);
    expect(() => parseDecimal('1', 1.5)).toThrow(RangeError);
  });
});
