import { describe, expect, test } from 'bun:test'
import { eciesEncrypt } from '../../wire/ecies.ts'
import { ServerKey } from './server-key.ts'

const plain = new TextEncoder().encode('ab'.repeat(32))

describe('ServerKey', () => {
  test('decrypts what was encrypted to it; every instance has its own key', () => {
    const a = new ServerKey()
    const b = new ServerKey()
    expect(a.publicKey).toMatch(/^0x04[0-9a-f]{128}$/)
    expect(a.publicKey).not.toBe(b.publicKey)
    const r = a.decrypt(eciesEncrypt(a.publicKey, plain), a.publicKey)
    expect(r.ok && new TextDecoder().decode(r.plaintext)).toBe('ab'.repeat(32))
  })

  test('a payload for an earlier key names the stale key', () => {
    const old = new ServerKey()
    const current = new ServerKey()
    const payload = eciesEncrypt(old.publicKey, plain)
    const named = current.decrypt(payload, old.publicKey)
    expect(named).toMatchObject({ ok: false, reason: 'STALE_SERVER_KEY' })
    const unnamed = current.decrypt(payload)
    expect(unnamed).toMatchObject({ ok: false, reason: 'DECRYPTION_FAILED' })
    expect(!unnamed.ok && unnamed.message).toContain('stale server key')
  })

  test('a malformed payload is BAD_PAYLOAD', () => {
    const k = new ServerKey()
    expect(k.decrypt({ ephemeral_public_key: '0x04', iv: '0x00', ciphertext: '0x00' })).toMatchObject({ ok: false, reason: 'BAD_PAYLOAD' })
  })
})
