import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, hexToBytes } from '../lib/hex.ts'
import { keccak256 } from '../lib/keccak.ts'
import { addressOfPublicKey } from './admin-login.ts'
import { encodeType, hashStruct } from './eip712.ts'
import { loadAddon, loadSystemLibrary, nativeRecover, nativeRecoveryAvailable, recoveryLibrary } from './native-secp256k1.ts'
import {
  addressOfPrivateKey,
  adminLoginMessage,
  eip191Digest,
  l1ConnectionId,
  l1Digest,
  parseSignature,
  recoverAddress,
  recoverAddressNoble,
  recoverPersonalSign,
  signDigest,
  txHash,
  userSignedDigest,
  type WireSignature,
} from './signing.ts'

const N = secp256k1.Point.Fn.ORDER
const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const ADDRESS = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const digestOf = (i: number) => keccak256(new TextEncoder().encode(`digest ${i}`))
const hex64 = (x: bigint) => `0x${x.toString(16).padStart(64, '0')}`

function parsedOk(sig: WireSignature) {
  const p = parseSignature(sig)
  if (!p.ok) throw new Error(`${p.reason}: ${p.message}`)
  return p
}

describe('parseSignature', () => {
  const digest = digestOf(0)
  const sig = signDigest(KEY, digest)

  test('a fresh signature parses, low-s, v 27/28', () => {
    const p = parsedOk(sig)
    expect(p.s <= N >> 1n).toBe(true)
    expect([27, 28]).toContain(p.v)
    expect(p.recovery).toBe((p.v - 27) as 0 | 1)
  })

  test('v 0/1 are accepted and normalised to 27/28', () => {
    const p = parsedOk({ ...sig, v: sig.v - 27 })
    expect(p.v).toBe(sig.v as 27 | 28)
    expect(recoverAddress(digest, p.r, p.s, p.recovery)).toBe(ADDRESS)
  })

  test('the high-s twin (n - s, v flipped) is refused as HIGH_S', () => {
    const p = parsedOk(sig)
    // The twin is a valid ECDSA signature for the same key...
    const twin = new secp256k1.Signature(p.r, N - p.s, 1 - p.recovery)
    expect(bytesToHex(twin.recoverPublicKey(digest).toBytes(false))).toBe(bytesToHex(secp256k1.getPublicKey(hexToBytes(KEY), false)))
    // ...but would give a second tx hash, so it is refused.
    const r = parseSignature({ r: sig.r, s: hex64(N - p.s), v: sig.v === 27 ? 28 : 27 })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.reason).toBe('HIGH_S')
  })

  test('s = n/2 is low, n/2 + 1 is high', () => {
    const half = N >> 1n
    expect(parseSignature({ r: sig.r, s: hex64(half), v: 27 }).ok).toBe(true)
    const r = parseSignature({ r: sig.r, s: hex64(half + 1n), v: 27 })
    expect(!r.ok && r.reason).toBe('HIGH_S')
  })

  test('63 hex digits (leading zero nibble stripped) are accepted and mean the same signature', () => {
    // Find a digest whose s starts with a zero nibble (1 in 16).
    let found = false
    for (let i = 1; i < 500 && !found; i++) {
      const d = digestOf(i)
      const s = signDigest(KEY, d)
      for (const part of ['r', 's'] as const) {
        if (!s[part].startsWith('0x0')) continue
        const short = { ...s, [part]: `0x${s[part].slice(3)}` }
        expect(short[part].length).toBe(2 + 63)
        const p = parsedOk(short)
        expect(recoverAddress(d, p.r, p.s, p.recovery)).toBe(ADDRESS)
        const full = parsedOk(s)
        expect(txHash(d, p.r, p.s, p.v)).toBe(txHash(d, full.r, full.s, full.v))
        found = true
      }
    }
    expect(found).toBe(true)
  })

  test('malformed signatures are BAD_SIGNATURE', () => {
    const cases: unknown[] = [
      null,
      'sig',
      { ...sig, r: sig.r.slice(2) }, // no 0x
      { ...sig, r: '0x' }, // no digits
      { ...sig, s: `0x0${sig.s.slice(2)}` }, // 65 digits
      { ...sig, s: `${sig.s}g` },
      { ...sig, r: 5 },
      { ...sig, v: 29 },
      { ...sig, v: 2 },
      { ...sig, v: '27' },
      { ...sig, v: 27.5 },
      { ...sig, r: '0x0' },
      { ...sig, s: '0x00' },
      { ...sig, r: hex64(N) },
      { ...sig, s: hex64(N) },
      { ...sig, r: `0x${'f'.repeat(64)}` },
    ]
    for (const c of cases) {
      const r = parseSignature(c as WireSignature)
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.reason).toBe('BAD_SIGNATURE')
    }
  })
})

describe('recoverAddress', () => {
  test('agrees with noble Signature.recoverPublicKey on many random keys and digests', () => {
    for (let i = 0; i < 40; i++) {
      const priv = secp256k1.utils.randomSecretKey()
      const d = digestOf(1000 + i)
      const sig = signDigest(priv, d)
      const p = parsedOk(sig)
      const want = addressOfPrivateKey(priv)
      expect(recoverAddress(d, p.r, p.s, p.recovery)).toBe(want)
      const pub = new secp256k1.Signature(p.r, p.s, p.recovery).recoverPublicKey(d).toBytes(false)
      expect(bytesToHex(keccak256(pub.subarray(1)).subarray(12))).toBe(want)
    }
  })
  test('a wrong recovery bit or digest gives another address, not an error', () => {
    const d = digestOf(7)
    const p = parsedOk(signDigest(KEY, d))
    const other = recoverAddress(d, p.r, p.s, (1 - p.recovery) as 0 | 1)
    expect(other).toBeDefined()
    expect(other).not.toBe(ADDRESS)
    expect(recoverAddress(digestOf(8), p.r, p.s, p.recovery)).not.toBe(ADDRESS)
  })
  test('an r that is not the x of a curve point does not recover', () => {
    // Find r with no point on the curve (about half of all x values).
    let r = 5n
    for (; ; r++) {
      try {
        secp256k1.Point.fromBytes(hexToBytes(`0x02${hex64(r).slice(2)}`))
      } catch {
        break
      }
    }
    expect(recoverAddress(digestOf(1), r, 1n, 0)).toBeUndefined()
  })
  test('out-of-range inputs do not recover', () => {
    expect(recoverAddress(new Uint8Array(31), 1n, 1n, 0)).toBeUndefined()
    expect(recoverAddress(digestOf(1), 0n, 1n, 0)).toBeUndefined()
    expect(recoverAddress(digestOf(1), 1n, N, 0)).toBeUndefined()
  })
})

describe('signDigest / addressOfPrivateKey', () => {
  test('wire form is 0x + 64 hex, v 27/28, deterministic', () => {
    const sig = signDigest(hexToBytes(KEY), digestOf(3))
    expect(sig.r).toMatch(/^0x[0-9a-f]{64}$/)
    expect(sig.s).toMatch(/^0x[0-9a-f]{64}$/)
    expect([27, 28]).toContain(sig.v)
    expect(signDigest(KEY, digestOf(3))).toEqual(sig)
  })
  test('anvil account 0', () => {
    expect(addressOfPrivateKey('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')).toBe(
      '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    )
  })
  test('invalid keys throw', () => {
    expect(() => addressOfPrivateKey(`0x${'00'.repeat(32)}`)).toThrow()
    expect(() => addressOfPrivateKey('0x1234')).toThrow()
    expect(() => signDigest(KEY, new Uint8Array(31))).toThrow()
  })
})

describe('digests', () => {
  const action = { CancelOrder: { market_id: 1, order_id: 42 } }
  test('l1Digest depends on action, nonce and source', () => {
    const base = bytesToHex(l1Digest(action, 1, 'a'))
    expect(bytesToHex(l1Digest(action, 1, 'b'))).not.toBe(base)
    expect(bytesToHex(l1Digest(action, 2, 'a'))).not.toBe(base)
    expect(bytesToHex(l1Digest({ CancelOrder: { order_id: 42, market_id: 1 } }, 1, 'a'))).not.toBe(base) // key order is signed
  })
  test('l1ConnectionId refuses a nonce that is not a safe non-negative integer', () => {
    expect(() => l1ConnectionId(action, -1)).toThrow(RangeError)
    expect(() => l1ConnectionId(action, 1.5)).toThrow(RangeError)
  })
  test('userSignedDigest depends on the chain id and refuses a missing field', () => {
    const fields = [
      { name: 'network', type: 'string' },
      { name: 'amount', type: 'string' },
      { name: 'nonce', type: 'uint64' },
    ]
    const a = { network: 'dev', amount: '1', nonce: 1 }
    expect(bytesToHex(userSignedDigest('X', fields, a, 1n))).not.toBe(bytesToHex(userSignedDigest('X', fields, a, 2n)))
    expect(() => userSignedDigest('X', fields, { network: 'dev', nonce: 1 }, 1n)).toThrow(TypeError)
    expect(() => userSignedDigest('X', fields, { ...a, nonce: -1 }, 1n)).toThrow(RangeError)
  })
  test('txHash is keccak(digest ‖ r ‖ s ‖ v)', () => {
    const d = digestOf(4)
    const p = parsedOk(signDigest(KEY, d))
    const manual = bytesToHex(keccak256(hexToBytes(bytesToHex(d) + hex64(p.r).slice(2) + hex64(p.s).slice(2) + p.v.toString(16))))
    expect(txHash(d, p.r, p.s, p.v)).toBe(manual)
  })
})

describe('EIP-191 and admin login', () => {
  test('eip191Digest uses the decimal byte length', () => {
    const msg = new TextEncoder().encode('hello')
    const want = keccak256(new TextEncoder().encode('\x19Ethereum Signed Message:\n5hello'))
    expect(eip191Digest(msg)).toEqual(want)
  })
  test('adminLoginMessage is 28 bytes, accepts a 0x prefix, refuses a bad challenge', () => {
    const m = adminLoginMessage('0x9f86d081884c7d659a2feaa0c55ad015', 1767225600123)
    expect(bytesToHex(m)).toBe('0x92c4109f86d081884c7d659a2feaa0c55ad015cf0000019b76daa87b')
    expect(() => adminLoginMessage('9f86d081884c7d659a2feaa0c55ad0', 1)).toThrow()
    expect(() => adminLoginMessage('zz86d081884c7d659a2feaa0c55ad015', 1)).toThrow()
    expect(() => adminLoginMessage('9f86d081884c7d659a2feaa0c55ad015', -1)).toThrow(RangeError)
  })
  test('recoverPersonalSign: round trip, and undefined for malformed or high-s signatures', () => {
    const msg = adminLoginMessage('9f86d081884c7d659a2feaa0c55ad015', 1767225600123)
    const sig = signDigest(KEY, eip191Digest(msg))
    const hex65 = `0x${sig.r.slice(2)}${sig.s.slice(2)}${sig.v.toString(16)}`
    expect(recoverPersonalSign(msg, hex65)).toBe(ADDRESS)
    const v01 = `0x${sig.r.slice(2)}${sig.s.slice(2)}${(sig.v - 27).toString(16).padStart(2, '0')}`
    expect(recoverPersonalSign(msg, v01)).toBe(ADDRESS)
    expect(recoverPersonalSign(msg, hex65.slice(0, -2))).toBeUndefined()
    expect(recoverPersonalSign(msg, 'nothex')).toBeUndefined()
    const highS = `0x${sig.r.slice(2)}${hex64(N - BigInt(sig.s)).slice(2)}${sig.v === 27 ? '1c' : '1b'}`
    expect(recoverPersonalSign(msg, highS)).toBeUndefined()
    expect(recoverPersonalSign(new Uint8Array(28), hex65)).not.toBe(ADDRESS)
  })
})

test('recoverAddress speed (informational)', () => {
  const n = 200
  const items = Array.from({ length: n }, (_, i) => {
    const d = digestOf(5000 + i)
    return { d, p: parsedOk(signDigest(KEY, d)) }
  })
  for (const { d, p } of items.slice(0, 20)) recoverAddress(d, p.r, p.s, p.recovery)
  const t0 = performance.now()
  for (const { d, p } of items) recoverAddress(d, p.r, p.s, p.recovery)
  const perOp = ((performance.now() - t0) / n) * 1000
  console.log(`recoverAddress: ${perOp.toFixed(0)} µs per signature`)
  expect(perOp).toBeLessThan(20_000)
})

describe('EIP-712 field encoding', () => {
  const word = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0')
  const manual = (type: string, words: string[]) =>
    bytesToHex(keccak256(hexToBytes(bytesToHex(keccak256(new TextEncoder().encode(type))) + words.join(''))))

  test('uint, int (two’s complement), bool, address, bytes, bytes32, string', () => {
    const fields = [
      { name: 'u', type: 'uint256' },
      { name: 'i', type: 'int8' },
      { name: 'b', type: 'bool' },
      { name: 'a', type: 'address' },
      { name: 'd', type: 'bytes' },
      { name: 'h', type: 'bytes4' },
      { name: 's', type: 'string' },
    ]
    const msg = {
      u: (1n << 256n) - 1n,
      i: -1,
      b: true,
      a: '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      d: '0x0102',
      h: '0xdeadbeef',
      s: 'hé',
    }
    const want = manual('T(uint256 u,int8 i,bool b,address a,bytes d,bytes4 h,string s)', [
      'f'.repeat(64),
      'f'.repeat(64),
      word('1'),
      word('f39fd6e51aad88f6f4ce6ab8827279cfffb92266'),
      bytesToHex(keccak256(Uint8Array.of(1, 2))).slice(2),
      'deadbeef'.padEnd(64, '0'),
      bytesToHex(keccak256(new TextEncoder().encode('hé'))).slice(2),
    ])
    expect(bytesToHex(hashStruct('T', fields, msg))).toBe(want)
  })
  test('range and type errors', () => {
    expect(() => hashStruct('T', [{ name: 'x', type: 'uint8' }], { x: 256 })).toThrow(RangeError)
    expect(() => hashStruct('T', [{ name: 'x', type: 'int8' }], { x: -129 })).toThrow(RangeError)
    expect(() => hashStruct('T', [{ name: 'x', type: 'uint64' }], { x: 1.5 })).toThrow(TypeError)
    expect(() => hashStruct('T', [{ name: 'x', type: 'uint64' }], { x: '5' })).toThrow(TypeError)
    expect(() => hashStruct('T', [{ name: 'x', type: 'bytes32' }], { x: '0x01' })).toThrow(TypeError)
    expect(() => hashStruct('T', [{ name: 'x', type: 'address' }], { x: '0x1234' })).toThrow(TypeError)
    expect(() => hashStruct('T', [{ name: 'x', type: 'bool' }], { x: 1 })).toThrow(TypeError)
    expect(() => hashStruct('T', [{ name: 'x', type: 'uint7' }], { x: 1 })).toThrow(TypeError)
    expect(() => hashStruct('T', [{ name: 'x', type: 'string[]' }], { x: [] })).toThrow(TypeError)
    expect(() => hashStruct('T(', [{ name: 'x', type: 'string' }], { x: '' })).toThrow(TypeError)
    expect(() => hashStruct('T', [{ name: 'x,y', type: 'string' }], { 'x,y': '' })).toThrow(TypeError)
  })
  test('encodeType keeps a colon in the primary type name', () => {
    expect(
      encodeType('Perpd:RegisterAgent', [
        { name: 'network', type: 'string' },
        { name: 'nonce', type: 'uint64' },
      ]),
    ).toBe('Perpd:RegisterAgent(string network,uint64 nonce)')
  })
})

describe('libsecp256k1 and noble recover the same signer', () => {
  const system = loadSystemLibrary()
  const addon = loadAddon()
  // Where Debian 12's package libsecp256k1-1 (0.2.0), which .ci/run installs, puts the library.
  const debianSystemLibrary = '/usr/lib/x86_64-linux-gnu/libsecp256k1.so.1'

  test('the best library that loads is the one in use', () => {
    if (process.platform === 'linux' && process.arch === 'x64') expect(addon).toBeDefined()
    if (existsSync(debianSystemLibrary)) expect(system).toBeDefined()
    expect(recoveryLibrary).toBe(system ? 'system' : addon ? 'addon' : 'noble')
    expect(nativeRecoveryAvailable).toBe(recoveryLibrary !== 'noble')
  })

  /** The address each loaded libsecp256k1 recovers, beside noble's. */
  function addressesOf(digest: Uint8Array, r: bigint, s: bigint, recovery: 0 | 1): (string | undefined)[] {
    const signature64 = hexToBytes(r.toString(16).padStart(64, '0') + s.toString(16).padStart(64, '0'))
    const out = [recoverAddressNoble(digest, r, s, recovery), recoverAddress(digest, r, s, recovery)]
    for (const recover of [system, addon]) {
      if (recover === undefined) continue
      const publicKey = new Uint8Array(65)
      out.push(recover(publicKey, digest, signature64, recovery) ? addressOfPublicKey(publicKey) : undefined)
    }
    return out
  }

  test('random digests and keys give the same address every way', () => {
    let seed = 12345
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      return seed
    }
    for (let i = 0; i < 200; i++) {
      const key = new Uint8Array(32).map(() => next() & 0xff)
      key[0] = 1 + (key[0]! % 200) // keep it a valid scalar
      const digest = new Uint8Array(32).map(() => next() & 0xff)
      const sig = signDigest(key, digest)
      const r = BigInt(sig.r),
        s = BigInt(sig.s),
        rec = (sig.v - 27) as 0 | 1
      const expected = addressOfPrivateKey(key)
      for (const address of addressesOf(digest, r, s, rec)) expect(address).toBe(expected)
      // A different digest recovers some other address, identically every way.
      digest[0] = digest[0]! ^ 1
      const other = addressesOf(digest, r, s, rec)
      expect(other[0]).not.toBe(expected)
      for (const address of other) expect(address).toBe(other[0])
    }
  })

  test('arguments of the wrong size or a recovery id outside 0-3 are refused before they reach C', () => {
    const key = new Uint8Array(32).fill(3)
    const digest = new Uint8Array(32).fill(9)
    const sig = signDigest(key, digest)
    const signature64 = hexToBytes(sig.r.slice(2).padStart(64, '0') + sig.s.slice(2).padStart(64, '0'))
    const recovery = sig.v - 27
    for (const recover of [system, addon]) {
      if (recover === undefined) continue
      const out = new Uint8Array(65)
      expect(recover(out, digest, signature64, recovery)).toBe(true)
      expect(addressOfPublicKey(out)).toBe(addressOfPrivateKey(key))
      expect(recover(new Uint8Array(64), digest, signature64, recovery)).toBe(false)
      expect(recover(out, digest.subarray(1), signature64, recovery)).toBe(false)
      expect(recover(out, digest, signature64.subarray(0, 63), recovery)).toBe(false)
      expect(recover(out, digest, new Uint8Array(65), recovery)).toBe(false)
      for (const bad of [-1, 4, 0.5, Number.NaN]) expect(recover(out, digest, signature64, bad)).toBe(false)
    }
    if (nativeRecoveryAvailable) expect(nativeRecover(digest.subarray(0, 31), signature64, recovery)).toBeUndefined()
  })

  test("an r that is no point's x recovers nothing, every way", () => {
    const digest = new Uint8Array(32).fill(7)
    let misses = 0
    for (let r = 1n; misses < 5; r++) {
      const addresses = addressesOf(digest, r, 12345n, 0)
      if (addresses[0] !== undefined) continue
      misses++
      for (const address of addresses) expect(address).toBeUndefined()
    }
  })
})
