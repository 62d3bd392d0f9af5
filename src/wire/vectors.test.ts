/**
 * Golden vectors from independent implementations (viem, @msgpack/msgpack, noble, eciesjs):
 * every field of test/fixtures/vectors.json is checked against this project's code.
 */
import { describe, expect, test } from 'bun:test'
import { gcm } from '@noble/ciphers/aes.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, concatBytes, hexToBytes } from '../lib/hex.ts'
import { keccak256Hex } from '../lib/keccak.ts'
import { encodeCanonical } from '../lib/msgpack.ts'
import { eciesDecrypt, eciesEncrypt, eciesKey } from './ecies.ts'
import { domainSeparator, hashStruct, type TypedField, typedDataDigest } from './eip712.ts'
import {
  addressOfPrivateKey,
  adminLoginMessage,
  eip191Digest,
  l1ConnectionId,
  l1Digest,
  parseSignature,
  recoverAddress,
  recoverPersonalSign,
  signDigest,
  sourceForNetwork,
  txHash,
  userSignedDigest,
  type WireSignature,
} from './signing.ts'

type Vector = Record<string, unknown> & { name: string }
const file = (await Bun.file(`${import.meta.dir}/../../test/fixtures/vectors.json`).json()) as { vectors: Vector[] }
const vectors = file.vectors
const byName = (name: string): Vector => {
  const v = vectors.find((x) => x.name === name)
  if (v === undefined) throw new Error(`vector ${name} missing`)
  return v
}
const str = (v: Vector, k: string): string => v[k] as string

/** Recovers, re-signs and tx-hashes a vector's signature over `digest`. */
function checkSignature(v: Vector, digest: Uint8Array): void {
  const sig = v.signature as WireSignature
  const parsed = parseSignature(sig)
  if (!parsed.ok) throw new Error(parsed.message)
  expect(parsed.v).toBe(sig.v as 27 | 28)
  expect(recoverAddress(digest, parsed.r, parsed.s, parsed.recovery)).toBe(str(v, 'signer').toLowerCase())
  // RFC 6979 is deterministic, so signing again reproduces viem's signature exactly.
  expect(signDigest(str(v, 'private_key'), digest)).toEqual(sig)
  expect(addressOfPrivateKey(str(v, 'private_key'))).toBe(str(v, 'signer').toLowerCase())
  expect(txHash(digest, parsed.r, parsed.s, parsed.v)).toBe(str(v, 'tx_hash'))
}

test('every vector is covered by a check below', () => {
  const known = new Set([
    'hyperliquid_sdk_compat',
    'place_order',
    'place_order_large_ints',
    'cancel_order',
    'register_agent',
    'withdraw_request',
    'admin_login',
    'ecies_key_upload',
  ])
  for (const v of vectors) expect(known.has(v.name)).toBe(true)
  expect(vectors.length).toBe(known.size)
})

describe('msgpack and connection ids', () => {
  for (const v of vectors.filter((x) => 'msgpack_hex' in x)) {
    test(v.name, () => {
      expect(bytesToHex(encodeCanonical(v.action))).toBe(str(v, 'msgpack_hex'))
      expect(bytesToHex(l1ConnectionId(v.action, v.nonce as number))).toBe(str(v, 'connection_id'))
    })
  }
})

describe('L1 actions: EIP-712 digest, signer, re-signing, tx hash', () => {
  for (const v of vectors.filter((x) => x.scheme === 'l1')) {
    test(v.name, () => {
      const source = str(v, 'source') as 'a' | 'b'
      const digest = l1Digest(v.action, v.nonce as number, source)
      expect(bytesToHex(digest)).toBe(str(v, 'eip712_digest'))
      checkSignature(v, digest)
    })
  }
  test('source: mainnet is "a", anything else "b"', () => {
    expect(sourceForNetwork('mainnet')).toBe('a')
    expect(sourceForNetwork('testnet')).toBe('b')
    expect(sourceForNetwork('dev')).toBe('b')
  })
})

describe('user-signed actions', () => {
  for (const v of vectors.filter((x) => x.scheme === 'user_signed')) {
    test(v.name, () => {
      const primary = str(v, 'primary_type')
      const kind = primary.slice('Perpd:'.length)
      const action = (v.action as Record<string, Record<string, unknown>>)[kind] as Record<string, unknown>
      const fields = v.types as TypedField[]
      const chainId = BigInt(action.signature_chain_id as string)
      const domain = v.domain as { name: string; version: string; chainId: number; verifyingContract: string }
      expect(chainId).toBe(BigInt(domain.chainId))
      const digest = userSignedDigest(kind, fields, action, chainId)
      expect(bytesToHex(digest)).toBe(str(v, 'eip712_digest'))
      // The same digest assembled from the generic EIP-712 pieces and the vector's own domain.
      expect(bytesToHex(typedDataDigest(domainSeparator(domain), hashStruct(primary, fields, action)))).toBe(str(v, 'eip712_digest'))
      checkSignature(v, digest)
    })
  }
})

describe('admin login (EIP-191 personal_sign over 28 msgpack bytes)', () => {
  const v = byName('admin_login')
  test('bytes, digest, recovery, re-signing', () => {
    const msg = adminLoginMessage(str(v, 'challenge'), v.timestamp_ms as number)
    expect(msg.length).toBe(28)
    expect(bytesToHex(msg)).toBe(str(v, 'signed_bytes_hex'))
    // The fixed layout is the canonical msgpack of [challenge_bytes, timestamp_ms].
    expect(bytesToHex(encodeCanonical([hexToBytes(str(v, 'challenge')), v.timestamp_ms]))).toBe(str(v, 'signed_bytes_hex'))
    const digest = eip191Digest(msg)
    expect(bytesToHex(digest)).toBe(str(v, 'eip191_digest'))
    expect(recoverPersonalSign(msg, str(v, 'signature'))).toBe(str(v, 'address').toLowerCase())
    const resigned = signDigest(str(v, 'private_key'), digest)
    const sig65 = `0x${resigned.r.slice(2)}${resigned.s.slice(2)}${resigned.v.toString(16)}`
    expect(sig65).toBe(str(v, 'signature'))
    expect(addressOfPrivateKey(str(v, 'private_key'))).toBe(str(v, 'address').toLowerCase())
  })
})

describe('ECIES key upload', () => {
  const v = byName('ecies_key_upload')
  const upload = v.upload as { ephemeral_public_key: string; iv: string; ciphertext: string }
  const serverPriv = hexToBytes(str(v, 'server_private_key'))
  const ephPriv = hexToBytes(str(v, 'ephemeral_private_key'))
  const plaintext = new TextEncoder().encode(str(v, 'plaintext_utf8'))

  test('keys and HKDF', () => {
    expect(bytesToHex(secp256k1.getPublicKey(serverPriv, false))).toBe(str(v, 'server_public_key'))
    expect(bytesToHex(secp256k1.getPublicKey(ephPriv, false))).toBe(upload.ephemeral_public_key)
    const S = secp256k1.getSharedSecret(ephPriv, hexToBytes(str(v, 'server_public_key')), false)
    expect(bytesToHex(eciesKey(hexToBytes(upload.ephemeral_public_key), S))).toBe(str(v, 'hkdf_key'))
  })
  test('decrypting the upload gives the plaintext, a key of the expected address', () => {
    const pt = eciesDecrypt(serverPriv, upload)
    expect(new TextDecoder().decode(pt)).toBe(str(v, 'plaintext_utf8'))
    expect(addressOfPrivateKey(new TextDecoder().decode(pt))).toBe(str(v, 'derived_address').toLowerCase())
  })
  test('encrypting with the given ephemeral key and iv reproduces the upload', () => {
    expect(eciesEncrypt(str(v, 'server_public_key'), plaintext, { ephemeralPrivateKey: ephPriv, iv: hexToBytes(upload.iv) })).toEqual(
      upload,
    )
  })
  test('eciesjs packing E ‖ iv ‖ tag ‖ ct', () => {
    const ctTag = hexToBytes(upload.ciphertext)
    const ct = ctTag.subarray(0, ctTag.length - 16)
    const tag = ctTag.subarray(ctTag.length - 16)
    const packed = concatBytes(hexToBytes(upload.ephemeral_public_key), hexToBytes(upload.iv), tag, ct)
    expect(bytesToHex(packed)).toBe(str(v, 'eciesjs_payload_hex'))
    // And decrypting the eciesjs packing directly with the HKDF key gives the plaintext.
    const key = hexToBytes(str(v, 'hkdf_key'))
    const p = hexToBytes(str(v, 'eciesjs_payload_hex'))
    const pt = gcm(key, p.subarray(65, 81)).decrypt(concatBytes(p.subarray(97), p.subarray(81, 97)))
    expect(new TextDecoder().decode(pt)).toBe(str(v, 'plaintext_utf8'))
  })
})

test('hyperliquid_sdk_compat connection id is the published SDK value', () => {
  const v = byName('hyperliquid_sdk_compat')
  expect(keccak256Hex(concatBytes(encodeCanonical(v.action), hexToBytes('0x00000186a3569598'), Uint8Array.of(0)))).toBe(
    str(v, 'connection_id'),
  )
})
