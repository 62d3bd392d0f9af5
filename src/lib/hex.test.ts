import { describe, expect, test } from 'bun:test'
import { AssertionError, assert } from './assert.ts'
import { bytesToHex, concatBytes, hexToBytes, isHex, normalizeAddress, u64be } from './hex.ts'
import { keccak256Hex } from './keccak.ts'

describe('bytesToHex / hexToBytes', () => {
  test('round trip, lowercase, 0x prefix', () => {
    const b = Uint8Array.from({ length: 256 }, (_, i) => i)
    const h = bytesToHex(b)
    expect(h.startsWith('0x00010203')).toBe(true)
    expect(h.endsWith('fdfeff')).toBe(true)
    expect(h).toBe(h.toLowerCase())
    expect(hexToBytes(h)).toEqual(b)
    expect(bytesToHex(new Uint8Array(0))).toBe('0x')
  })
  test('prefix optional, any case', () => {
    expect(hexToBytes('ABcd')).toEqual(Uint8Array.of(0xab, 0xcd))
    expect(hexToBytes('0xABcd')).toEqual(Uint8Array.of(0xab, 0xcd))
    expect(hexToBytes('0x')).toEqual(new Uint8Array(0))
    expect(hexToBytes('')).toEqual(new Uint8Array(0))
  })
  test('odd length and non-hex characters throw', () => {
    for (const s of ['0x1', 'abc', '0xgg', 'zz', '0x 1', '0x12 ', '0X12', '0x١٢', 'x0']) {
      expect(() => hexToBytes(s)).toThrow()
    }
  })
})

describe('concatBytes / u64be', () => {
  test('concat', () => {
    expect(concatBytes(Uint8Array.of(1), new Uint8Array(0), Uint8Array.of(2, 3))).toEqual(Uint8Array.of(1, 2, 3))
    expect(concatBytes()).toEqual(new Uint8Array(0))
  })
  test('u64be', () => {
    expect(bytesToHex(u64be(0))).toBe('0x0000000000000000')
    expect(bytesToHex(u64be(0x0102030405060708n))).toBe('0x0102030405060708')
    expect(bytesToHex(u64be(4294967301))).toBe('0x0000000100000005')
    expect(bytesToHex(u64be(Number.MAX_SAFE_INTEGER))).toBe('0x001fffffffffffff')
    expect(bytesToHex(u64be(0xffffffffffffffffn))).toBe('0xffffffffffffffff')
    expect(() => u64be(-1)).toThrow(RangeError)
    expect(() => u64be(1.5)).toThrow(RangeError)
    expect(() => u64be(2 ** 53)).toThrow(RangeError)
    expect(() => u64be(1n << 64n)).toThrow(RangeError)
    expect(() => u64be(-1n)).toThrow(RangeError)
  })
})

describe('isHex', () => {
  test('matches what hexToBytes accepts, with an optional byte count', () => {
    expect(isHex('0x')).toBe(true)
    expect(isHex('0xabCD')).toBe(true)
    expect(isHex('abcd', 2)).toBe(true)
    expect(isHex('0xabcd', 3)).toBe(false)
    expect(isHex('0xabc')).toBe(false)
    expect(isHex('0xzz')).toBe(false)
    expect(isHex('9f86d081884c7d659a2feaa0c55ad015', 16)).toBe(true)
    expect(isHex(5 as unknown as string)).toBe(false)
  })
})

describe('normalizeAddress', () => {
  test('accepts prefixed or bare 40 hex digits in any case', () => {
    const want = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
    expect(normalizeAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe(want)
    expect(normalizeAddress('f39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe(want)
    expect(normalizeAddress(want.toUpperCase().replace('0X', '0x'))).toBe(want)
  })
  test('refuses malformed input', () => {
    for (const s of [
      '',
      '0x',
      '0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226',
      '0xf39fd6e51aad88f6f4ce6ab8827279cfffb922666',
      '0xg39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      ' 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    ]) {
      expect(normalizeAddress(s)).toBeUndefined()
    }
    expect(normalizeAddress(null as unknown as string)).toBeUndefined()
  })
})

describe('keccak256 / assert', () => {
  test('keccak of the empty string', () => {
    expect(keccak256Hex(new Uint8Array(0))).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
  })
  test('assert throws a named AssertionError', () => {
    expect(() => assert(false, 'boom')).toThrow(AssertionError)
    try {
      assert(0, 'boom')
    } catch (e) {
      expect((e as Error).name).toBe('AssertionError')
      expect((e as Error).message).toBe('boom')
    }
    expect(() => assert(1, 'fine')).not.toThrow()
  })
})
