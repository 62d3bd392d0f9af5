import { describe, expect, test } from 'bun:test'
import { HttpError } from './errors.ts'
import { parseJsonBytes, readJsonObjectBody } from './json-body.ts'

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p))).buffer

function reasonOf(f: () => unknown): string | undefined {
  try {
    f()
    return undefined
  } catch (err) {
    return err instanceof HttpError ? `${err.status} ${err.reason}` : String(err)
  }
}

describe('parseJsonBytes', () => {
  test('UTF-8 JSON text is its value; a leading BOM is skipped', () => {
    expect(parseJsonBytes(bytes('{"label":"é😀"}'))).toEqual({ label: 'é😀' })
    expect(parseJsonBytes(bytes([0xef, 0xbb, 0xbf], '[1]'))).toEqual([1])
  })

  test('bytes that are not UTF-8 are invalid JSON, not text with replacement characters', () => {
    expect(reasonOf(() => parseJsonBytes(bytes('{"label":"a', [0xff, 0xfe], '"}')))).toBe('400 INVALID_JSON')
    expect(reasonOf(() => parseJsonBytes(bytes('{"label":"', [0xc0, 0xaf], '"}')))).toBe('400 INVALID_JSON')
  })

  test('no body, an empty one or text that is not JSON is 400 INVALID_JSON', () => {
    expect(reasonOf(() => parseJsonBytes(undefined))).toBe('400 INVALID_JSON')
    expect(reasonOf(() => parseJsonBytes(bytes('')))).toBe('400 INVALID_JSON')
    expect(reasonOf(() => parseJsonBytes(bytes('{nope')))).toBe('400 INVALID_JSON')
  })
})

describe('readJsonObjectBody', () => {
  test('an object becomes the body', () => {
    const ctx: { body: unknown } = { body: bytes('{"add":["btc-usd"]}') }
    readJsonObjectBody(ctx)
    expect(ctx.body).toEqual({ add: ['btc-usd'] })
  })

  test('JSON that is not an object is 400 INVALID_REQUEST, and the body is left as it was', () => {
    for (const text of ['true', 'false', '1', '0', '"x"', 'null', '[]', '[{}]']) {
      const raw = bytes(text)
      const ctx: { body: unknown } = { body: raw }
      expect(reasonOf(() => readJsonObjectBody(ctx))).toBe('400 INVALID_REQUEST')
      expect(ctx.body).toBe(raw)
    }
    expect(reasonOf(() => readJsonObjectBody({ body: bytes('{nope') }))).toBe('400 INVALID_JSON')
  })
})
