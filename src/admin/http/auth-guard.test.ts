import { describe, expect, test } from 'bun:test'
import { bearerToken } from './auth-guard.ts'

describe('bearerToken', () => {
  test('reads "Bearer <token>" in any case, and a bare token', () => {
    expect(bearerToken('Bearer abc')).toBe('abc')
    expect(bearerToken('bearer abc')).toBe('abc')
    expect(bearerToken('  Bearer   abc  ')).toBe('abc')
    expect(bearerToken('abc')).toBe('abc')
  })

  test('refuses a missing, empty or malformed header', () => {
    expect(bearerToken(undefined)).toBeUndefined()
    expect(bearerToken(null)).toBeUndefined()
    expect(bearerToken('')).toBeUndefined()
    expect(bearerToken('Bearer')).toBeUndefined()
    expect(bearerToken('Bearer a b')).toBeUndefined()
    expect(bearerToken('Basic a b')).toBeUndefined()
  })
})
