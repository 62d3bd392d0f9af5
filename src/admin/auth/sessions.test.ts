import { describe, expect, test } from 'bun:test'
import { SESSION_TTL_MS, SessionStore } from './sessions.ts'

describe('SessionStore', () => {
  test('a token is 256 random bits as hex and finds its session until it expires after 24 h', () => {
    let now = 1_800_000_000_000
    const store = new SessionStore(() => now)
    const { token, session } = store.create('0xabc')
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    expect(session.expiresAtMs).toBe(now + SESSION_TTL_MS)
    expect(store.get(token)?.address).toBe('0xabc')
    now += SESSION_TTL_MS - 1
    expect(store.get(token)).toBeDefined()
    now += 1
    expect(store.get(token)).toBeUndefined()
  })

  test('only a hash of the token is kept', () => {
    const store = new SessionStore()
    const { token } = store.create('0xabc')
    const keys = [...(store as unknown as { byHash: Map<string, unknown> }).byHash.keys()]
    expect(keys).toHaveLength(1)
    expect(keys[0]).not.toContain(token)
    expect(store.get(token.toUpperCase())).toBeUndefined()
    expect(store.get('ab'.repeat(32))).toBeUndefined()
  })

  test('logout ends one session; logout-all every session of the address', () => {
    const store = new SessionStore()
    const a1 = store.create('0xa').token
    const a2 = store.create('0xa').token
    const b = store.create('0xb').token
    expect(store.revoke(a1)).toBe(true)
    expect(store.revoke(a1)).toBe(false)
    expect(store.get(a1)).toBeUndefined()
    expect(store.get(a2)).toBeDefined()
    const a3 = store.create('0xa').token
    expect(store.revokeAddress('0xa')).toBe(2)
    expect(store.get(a2)).toBeUndefined()
    expect(store.get(a3)).toBeUndefined()
    expect(store.get(b)?.address).toBe('0xb')
  })
})
