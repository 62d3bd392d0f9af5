import { describe, expect, test } from 'bun:test'
import { parseCidrList } from '../lib/cidr.ts'
import { requestClientAddress } from './client-address.ts'

const serverWithPeer = (address: string | undefined) => ({
  requestIP: () => (address === undefined ? null : { address }),
})
const request = (forwardedFor?: string) =>
  new Request('http://127.0.0.1/api/v1/action', forwardedFor === undefined ? {} : { headers: { 'x-forwarded-for': forwardedFor } })

describe('requestClientAddress', () => {
  test('the socket peer in canonical form, the same on every call', () => {
    for (let i = 0; i < 3; i++) {
      expect(requestClientAddress(serverWithPeer('::ffff:127.0.0.1'), request(), [])).toBe('127.0.0.1')
      expect(requestClientAddress(serverWithPeer('::1'), request(), [])).toBe('0:0:0:0:0:0:0:1')
      expect(requestClientAddress(serverWithPeer('not an address'), request(), [])).toBe('not an address')
    }
  })

  test('without trusted proxies X-Forwarded-For is ignored', () => {
    expect(requestClientAddress(serverWithPeer('10.0.0.5'), request('203.0.113.9'), [])).toBe('10.0.0.5')
  })

  test('behind a trusted proxy the forwarded address counts', () => {
    const trusted = parseCidrList('10.0.0.0/8')
    expect(requestClientAddress(serverWithPeer('10.0.0.5'), request('203.0.113.9'), trusted)).toBe('203.0.113.9')
    expect(requestClientAddress(serverWithPeer('192.0.2.1'), request('203.0.113.9'), trusted)).toBe('192.0.2.1')
  })

  test('no peer: unknown', () => {
    expect(requestClientAddress(serverWithPeer(undefined), request(), [])).toBe('unknown')
    expect(requestClientAddress(null, request(), [])).toBe('unknown')
  })

  test('many distinct peers stay correct past the cache bound', () => {
    for (let i = 0; i < 5_000; i++) {
      const a = `10.${(i >> 8) & 255}.${i & 255}.1`
      expect(requestClientAddress(serverWithPeer(`::ffff:${a}`), request(), [])).toBe(a)
    }
  })
})
