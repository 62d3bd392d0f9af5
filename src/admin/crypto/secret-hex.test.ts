import { describe, expect, test } from 'bun:test'
import { secretFromHexBytes, secretToHexBytes } from './secret-hex.ts'

const ascii = (s: string) => new TextEncoder().encode(s)
const KEY = '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

describe('secretFromHexBytes', () => {
  test('decodes 64 hex digits, any case, with 0x (not 0X) and surrounding whitespace', () => {
    const want = Uint8Array.from(Buffer.from(KEY, 'hex'))
    for (const text of [KEY, `0x${KEY}`, `0x${KEY.toUpperCase()}`, ` \t${KEY}\r\n`])
      expect(secretFromHexBytes(ascii(text), 32)).toEqual(want)
  })

  test('refuses anything else', () => {
    for (const text of [
      '',
      '0x',
      KEY.slice(1),
      `${KEY}0`,
      `${KEY.slice(0, 63)}g`,
      `0x0x${KEY}`,
      `0X${KEY}`,
      `${KEY.slice(0, 32)} ${KEY.slice(32)}`,
      `é${KEY.slice(2)}`,
    ]) {
      expect(secretFromHexBytes(ascii(text), 32)).toBeUndefined()
    }
  })

  test('leaves its input alone', () => {
    const text = ascii(KEY)
    secretFromHexBytes(text, 32)
    expect(new TextDecoder().decode(text)).toBe(KEY)
  })
})

describe('secretToHexBytes', () => {
  test('is the lowercase hex as ASCII, with a suffix', () => {
    const bytes = Uint8Array.from(Buffer.from(KEY, 'hex'))
    expect(new TextDecoder().decode(secretToHexBytes(bytes, ascii('\n')))).toBe(`${KEY}\n`)
    expect(secretFromHexBytes(secretToHexBytes(bytes), 32)).toEqual(bytes)
  })
})
