import { describe, expect, test } from 'bun:test'
import { clientAddress, formatIp, inRanges, parseCidr, parseCidrList, parseIp } from './cidr.ts'

const ip = (s: string) => parseIp(s)!

describe('parseIp and formatIp', () => {
  test('IPv4, IPv4-mapped IPv6 and IPv6 forms', () => {
    expect(formatIp(ip('127.0.0.1'))).toBe('127.0.0.1')
    expect(formatIp(ip('::ffff:127.0.0.1'))).toBe('127.0.0.1')
    expect(formatIp(ip('::FFFF:7f00:1'))).toBe('127.0.0.1')
    expect(formatIp(ip('::1'))).toBe('0:0:0:0:0:0:0:1')
    expect(formatIp(ip('2001:db8::8a2e:370:7334'))).toBe('2001:db8:0:0:0:8a2e:370:7334')
    expect(formatIp(ip('fe80::1%eth0'))).toBe('fe80:0:0:0:0:0:0:1')
    expect(formatIp(ip('1:2:3:4:5:6:7:8'))).toBe('1:2:3:4:5:6:7:8')
  })

  test('what is not an address', () => {
    for (const bad of [
      '',
      'localhost',
      '1.2.3',
      '1.2.3.256',
      '1.2.3.4.5',
      '01234.1.1.1',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '12345::',
      'g::1',
      ':::',
    ]) {
      expect(parseIp(bad)).toBeUndefined()
    }
  })
})

describe('CIDR ranges', () => {
  test('IPv4 ranges match IPv4 and IPv4-mapped peers; prefix bits that are not whole bytes', () => {
    const r = parseCidrList('10.0.0.0/8, 192.168.1.128/25')
    expect(inRanges(ip('10.255.0.1'), r)).toBe(true)
    expect(inRanges(ip('::ffff:10.1.2.3'), r)).toBe(true)
    expect(inRanges(ip('11.0.0.1'), r)).toBe(false)
    expect(inRanges(ip('192.168.1.200'), r)).toBe(true)
    expect(inRanges(ip('192.168.1.127'), r)).toBe(false)
    // An IPv4 range is no IPv6 range: ::a00:1 is not 10.0.0.1.
    expect(inRanges(ip('::a00:1'), r)).toBe(false)
  })

  test('IPv6 ranges, single hosts and /0', () => {
    const r = parseCidrList('2001:db8::/32,::1')
    expect(inRanges(ip('2001:db8:ffff::1'), r)).toBe(true)
    expect(inRanges(ip('2001:db9::1'), r)).toBe(false)
    expect(inRanges(ip('::1'), r)).toBe(true)
    expect(inRanges(ip('::2'), r)).toBe(false)
    expect(inRanges(ip('127.0.0.1'), [parseCidr('127.0.0.1')])).toBe(true)
    expect(inRanges(ip('127.0.0.2'), [parseCidr('127.0.0.1')])).toBe(false)
    expect(inRanges(ip('8.8.8.8'), [parseCidr('0.0.0.0/0')])).toBe(true)
    expect(inRanges(ip('2001:db8::1'), [parseCidr('::/0')])).toBe(true)
  })

  test('bad ranges are refused, naming them', () => {
    expect(() => parseCidr('10.0.0.0/33')).toThrow('prefix length must be 0 to 32')
    expect(() => parseCidr('::/129')).toThrow('prefix length must be 0 to 128')
    expect(() => parseCidr('10.0.0.0/x')).toThrow('10.0.0.0/x')
    expect(() => parseCidr('example.com/8')).toThrow('not an IPv4 or IPv6 CIDR range')
    expect(() => parseCidrList(' , ')).toThrow('no CIDR range')
  })
})

describe('clientAddress', () => {
  const proxies = parseCidrList('127.0.0.1/32,10.0.0.0/8')

  test('without trusted ranges, or from a peer outside them, the socket peer (X-Forwarded-For ignored)', () => {
    expect(clientAddress('127.0.0.1', '203.0.113.7', [])).toBe('127.0.0.1')
    expect(clientAddress('198.51.100.1', '203.0.113.7', proxies)).toBe('198.51.100.1')
    expect(clientAddress('::ffff:198.51.100.1', '203.0.113.7', proxies)).toBe('198.51.100.1')
  })

  test('from a trusted peer: the rightmost entry that is not trusted', () => {
    expect(clientAddress('127.0.0.1', '203.0.113.7', proxies)).toBe('203.0.113.7')
    expect(clientAddress('::ffff:127.0.0.1', '203.0.113.7', proxies)).toBe('203.0.113.7')
    // A client may put anything on the left; the proxies' own entries on the right are skipped.
    expect(clientAddress('127.0.0.1', '1.1.1.1, 203.0.113.7, 10.0.0.5', proxies)).toBe('203.0.113.7')
    expect(clientAddress('127.0.0.1', '203.0.113.7:4711', proxies)).toBe('203.0.113.7')
    expect(clientAddress('127.0.0.1', '[2001:db8::1]:443', proxies)).toBe('2001:db8:0:0:0:0:0:1')
    expect(clientAddress('127.0.0.1', '2001:db8::1', proxies)).toBe('2001:db8:0:0:0:0:0:1')
  })

  test('every entry trusted: the leftmost; no header: the peer; garbage stops at the hop that forwarded it', () => {
    expect(clientAddress('127.0.0.1', '10.0.0.9, 10.0.0.5', proxies)).toBe('10.0.0.9')
    expect(clientAddress('127.0.0.1', null, proxies)).toBe('127.0.0.1')
    expect(clientAddress('127.0.0.1', '', proxies)).toBe('127.0.0.1')
    expect(clientAddress('127.0.0.1', '203.0.113.7, unknown', proxies)).toBe('127.0.0.1')
    expect(clientAddress('127.0.0.1', 'unknown, 10.0.0.5', proxies)).toBe('10.0.0.5')
  })
})
