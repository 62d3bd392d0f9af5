import { describe, expect, test } from 'bun:test'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, hexToBytes } from '../lib/hex.ts'
import { EciesError, type EciesPayload, eciesDecrypt, eciesEncrypt } from './ecies.ts'

const serverPriv = secp256k1.utils.randomSecretKey()
const serverPub = bytesToHex(secp256k1.getPublicKey(serverPriv, false))
const plaintext = new TextEncoder().encode('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')

function expectEciesError(f: () => unknown, code: EciesError['code']): EciesError {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(EciesError)
    const err = e as EciesError
    expect(err.name).toBe('EciesError')
    expect(err.code).toBe(code)
    return err
  }
  throw new Error('expected an EciesError')
}

describe('eciesEncrypt / eciesDecrypt', () => {
  test('round trip with random ephemeral key and iv', () => {
    const a = eciesEncrypt(serverPub, plaintext)
    const b = eciesEncrypt(serverPub, plaintext)
    expect(a.ephemeral_public_key).not.toBe(b.ephemeral_public_key)
    expect(a.iv).not.toBe(b.iv)
    expect(hexToBytes(a.iv).length).toBe(16)
    expect(hexToBytes(a.ephemeral_public_key).length).toBe(65)
    expect(hexToBytes(a.ciphertext).length).toBe(plaintext.length + 16)
    expect(eciesDecrypt(serverPriv, a)).toEqual(plaintext)
    expect(eciesDecrypt(serverPriv, b)).toEqual(plaintext)
  })
  test('empty plaintext and a compressed server key work', () => {
    const compressed = bytesToHex(secp256k1.getPublicKey(serverPriv, true))
    const p = eciesEncrypt(compressed, new Uint8Array(0))
    expect(eciesDecrypt(serverPriv, p)).toEqual(new Uint8Array(0))
  })
  test('a payload for an old server key fails with a message that says so', () => {
    const p = eciesEncrypt(serverPub, plaintext)
    const err = expectEciesError(() => eciesDecrypt(secp256k1.utils.randomSecretKey(), p), 'AUTH_FAILED')
    expect(err.message).toContain('different server key')
  })
  test('tampering with ciphertext, tag or iv fails authentication', () => {
    const p = eciesEncrypt(serverPub, plaintext)
    const flip = (h: string, i: number) => {
      const b = hexToBytes(h)
      b[i] = (b[i] as number) ^ 1
      return bytesToHex(b)
    }
    expectEciesError(() => eciesDecrypt(serverPriv, { ...p, ciphertext: flip(p.ciphertext, 0) }), 'AUTH_FAILED')
    expectEciesError(() => eciesDecrypt(serverPriv, { ...p, ciphertext: flip(p.ciphertext, plaintext.length + 3) }), 'AUTH_FAILED')
    expectEciesError(() => eciesDecrypt(serverPriv, { ...p, iv: flip(p.iv, 5) }), 'AUTH_FAILED')
  })
  test('an ephemeral key that is not a curve point is BAD_POINT', () => {
    const p = eciesEncrypt(serverPub, plaintext)
    const offCurve = `0x04${'11'.repeat(64)}`
    expectEciesError(() => eciesDecrypt(serverPriv, { ...p, ephemeral_public_key: offCurve }), 'BAD_POINT')
    const compressedE = bytesToHex(secp256k1.Point.fromBytes(hexToBytes(p.ephemeral_public_key)).toBytes(true))
    expectEciesError(() => eciesDecrypt(serverPriv, { ...p, ephemeral_public_key: compressedE }), 'BAD_POINT')
    expectEciesError(() => eciesEncrypt(`0x04${'11'.repeat(64)}`, plaintext), 'BAD_POINT')
  })
  test('malformed fields are BAD_PAYLOAD', () => {
    const p = eciesEncrypt(serverPub, plaintext)
    const cases: EciesPayload[] = [
      { ...p, iv: '0x0001' },
      { ...p, iv: 'zz' },
      { ...p, ciphertext: `0x${'00'.repeat(15)}` },
      { ...p, ciphertext: 5 as unknown as string },
      { ...p, ephemeral_public_key: '0x123' },
    ]
    for (const c of cases) expectEciesError(() => eciesDecrypt(serverPriv, c), 'BAD_PAYLOAD')
    expectEciesError(() => eciesDecrypt(serverPriv, null as unknown as EciesPayload), 'BAD_PAYLOAD')
    expectEciesError(() => eciesEncrypt(serverPub, plaintext, { iv: new Uint8Array(12) }), 'BAD_PAYLOAD')
  })
})
