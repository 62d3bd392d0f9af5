import { describe, expect, test } from 'bun:test'
import { Unpackr, unpack } from 'msgpackr'
import { bytesToHex } from './hex.ts'
import { encodeCanonical } from './msgpack.ts'

const hex = (v: unknown) => bytesToHex(encodeCanonical(v))
// int64AsType 'bigint' so 64-bit integers decode exactly; mapsAsObjects keeps plain objects.
const decoder = new Unpackr({ int64AsType: 'bigint', mapsAsObjects: true, useRecords: false })

describe('encodeCanonical: integers use the smallest format', () => {
  const cases: [number | bigint, string][] = [
    [0, '0x00'],
    [-0, '0x00'],
    [1, '0x01'],
    [127, '0x7f'],
    [128, '0xcc80'],
    [255, '0xccff'],
    [256, '0xcd0100'],
    [65535, '0xcdffff'],
    [65536, '0xce00010000'],
    [4294967295, '0xceffffffff'],
    [4294967296, '0xcf0000000100000000'],
    [Number.MAX_SAFE_INTEGER, '0xcf001fffffffffffff'],
    [-1, '0xff'],
    [-32, '0xe0'],
    [-33, '0xd0df'],
    [-128, '0xd080'],
    [-129, '0xd1ff7f'],
    [-32768, '0xd18000'],
    [-32769, '0xd2ffff7fff'],
    [-2147483648, '0xd280000000'],
    [-2147483649, '0xd3ffffffff7fffffff'],
    [Number.MIN_SAFE_INTEGER, '0xd3ffe0000000000001'],
    [5n, '0x05'],
    [-5n, '0xfb'],
    [300n, '0xcd012c'],
    [0xffffffffffffffffn, '0xcfffffffffffffffff'],
    [-0x8000000000000000n, '0xd38000000000000000'],
    [1n << 40n, '0xcf0000010000000000'],
  ]
  for (const [v, want] of cases) {
    test(`${typeof v} ${v}`, () => expect(hex(v)).toBe(want))
  }
  test('bigint beyond 64 bits is refused', () => {
    expect(() => encodeCanonical(1n << 64n)).toThrow(RangeError)
    expect(() => encodeCanonical(-(1n << 63n) - 1n)).toThrow(RangeError)
  })
  test('an integer number beyond 2^53 is refused (it already lost precision)', () => {
    expect(() => encodeCanonical(2 ** 53)).toThrow(RangeError)
    expect(() => encodeCanonical(-(2 ** 60))).toThrow(RangeError)
  })
})

describe('encodeCanonical: other scalars', () => {
  test('nil, bool', () => {
    expect(hex(null)).toBe('0xc0')
    expect(hex(true)).toBe('0xc3')
    expect(hex(false)).toBe('0xc2')
  })
  test('non-integer numbers are float64', () => {
    expect(hex(1.5)).toBe('0xcb3ff8000000000000')
    expect(hex(-0.1)).toBe('0xcbbfb999999999999a')
  })
  test('NaN, Infinity, undefined, functions, symbols, class instances are refused', () => {
    for (const v of [NaN, Infinity, -Infinity, undefined, () => 1, Symbol('x'), new Date(0), new Map(), [Symbol('y')]]) {
      expect(() => encodeCanonical(v)).toThrow(TypeError)
    }
  })
  test('strings: fixstr / str8 / str16 / str32 by UTF-8 byte length', () => {
    expect(hex('')).toBe('0xa0')
    expect(hex('a')).toBe('0xa161')
    expect(hex('x'.repeat(31))).toBe(`0xbf${'78'.repeat(31)}`)
    expect(hex('x'.repeat(32))).toBe(`0xd920${'78'.repeat(32)}`)
    expect(hex('x'.repeat(255))).toBe(`0xd9ff${'78'.repeat(255)}`)
    expect(hex('x'.repeat(256))).toBe(`0xda0100${'78'.repeat(256)}`)
    expect(hex('x'.repeat(65536)).slice(0, 12)).toBe('0xdb00010000')
    // 'é' is 2 bytes, '€' 3, '😀' 4: byte length, not character count, picks the format.
    expect(hex('é')).toBe('0xa2c3a9')
    expect(hex('€')).toBe('0xa3e282ac')
    expect(hex('😀')).toBe('0xa4f09f9880')
    expect(hex('€'.repeat(11))).toBe(`0xd921${'e282ac'.repeat(11)}`) // 11 chars, 33 bytes
    expect(hex('é'.repeat(40))).toBe(`0xd950${'c3a9'.repeat(40)}`)
  })
  test('a lone surrogate is refused', () => {
    expect(() => encodeCanonical('a\ud800b')).toThrow(TypeError)
    expect(() => encodeCanonical('\udc00')).toThrow(TypeError)
  })
  test('binary: bin8 / bin16 / bin32', () => {
    expect(hex(new Uint8Array(0))).toBe('0xc400')
    expect(hex(Uint8Array.of(1, 2))).toBe('0xc4020102')
    expect(hex(new Uint8Array(256)).slice(0, 8)).toBe('0xc50100')
    expect(hex(new Uint8Array(65536)).slice(0, 12)).toBe('0xc600010000')
  })
})

describe('encodeCanonical: containers', () => {
  test('arrays: fixarray / array16 / array32', () => {
    expect(hex([])).toBe('0x90')
    expect(hex([1, 'a', null])).toBe('0x9301a161c0')
    expect(hex(new Array(15).fill(0))).toBe(`0x9f${'00'.repeat(15)}`)
    expect(hex(new Array(16).fill(0))).toBe(`0xdc0010${'00'.repeat(16)}`)
    expect(hex(new Array(65536).fill(0)).slice(0, 12)).toBe('0xdd00010000')
  })
  test('maps: fixmap / map16, keys in insertion order', () => {
    expect(hex({})).toBe('0x80')
    expect(hex({ b: 1, a: 2 })).toBe('0x82a16201a16102')
    const o15 = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, i]))
    expect(hex(o15).slice(0, 4)).toBe('0x8f')
    const o16 = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, i]))
    expect(hex(o16).slice(0, 8)).toBe('0xde0010')
  })
  test('an undefined property is omitted (absent optional field); null is nil', () => {
    expect(hex({ a: 1, b: undefined, c: null })).toBe('0x82a16101a163c0')
    expect(hex({ a: undefined })).toBe('0x80')
  })
  test('undefined inside an array is nil, as JSON.stringify sends it', () => {
    expect(hex([undefined, 1])).toBe('0x92c001')
  })
  test('null-prototype objects are maps', () => {
    const o = Object.create(null) as Record<string, unknown>
    o.x = 1
    expect(hex(o)).toBe('0x81a17801')
  })
  test('nesting deeper than 100 is refused', () => {
    let v: unknown = 1
    for (let i = 0; i < 99; i++) v = [v]
    expect(() => encodeCanonical(v)).not.toThrow()
    expect(() => encodeCanonical([v])).toThrow(RangeError)
  })
  test('JSON.parse key order is what gets hashed', () => {
    const parsed = JSON.parse('{"side":"Bid","market_id":1,"price":"1.5"}')
    expect(hex(parsed)).toBe(hex({ side: 'Bid', market_id: 1, price: '1.5' }))
  })
})

describe('encodeCanonical: round trips through msgpackr', () => {
  test('a nested JSON-like value decodes back to itself', () => {
    const v = {
      PlaceOrder: {
        market_id: 70000,
        side: 'Ask',
        price: '0.000123',
        qty: '1500000',
        reduce_only: true,
        nums: [0, -1, -200, 1e6, 2 ** 40, -(2 ** 40), 1.25],
      },
      s: 'ünïcødé €😀',
      long: 'z'.repeat(70000),
      n: null,
      list: Array.from({ length: 20 }, (_, i) => ({ i })),
    }
    const back = decoder.unpack(encodeCanonical(v)) as Record<string, unknown>
    // msgpackr decodes uint64/int64 as bigint with int64AsType; convert for comparison.
    const normalized = JSON.parse(JSON.stringify(back, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)))
    expect(normalized).toEqual(v)
  })
  test('binary decodes back to bytes', () => {
    const b = Uint8Array.from({ length: 300 }, (_, i) => i & 255)
    expect(new Uint8Array(unpack(encodeCanonical({ b })).b)).toEqual(b)
  })
  test('random integers round-trip exactly', () => {
    let seed = 12345
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    for (let i = 0; i < 2000; i++) {
      const mag = Math.floor(rnd() * 2 ** Math.floor(rnd() * 53))
      const n = rnd() < 0.5 ? -mag : mag
      const back = decoder.unpack(encodeCanonical(n))
      expect(Number(back)).toBe(n === 0 ? 0 : n)
    }
  })
  test('the shared buffer is not corrupted by a big value followed by a small one', () => {
    const big = encodeCanonical('q'.repeat(3_000_000))
    expect(big.length).toBe(3_000_005)
    expect(hex({ a: 1 })).toBe('0x81a16101')
  })
  test('returned bytes are a copy, not a view into the shared buffer', () => {
    const first = encodeCanonical([1, 2, 3])
    encodeCanonical([9, 9, 9])
    expect(bytesToHex(first)).toBe('0x93010203')
  })
})
