// IPv4 and IPv6 addresses and CIDR ranges, and the client address of a request that came through
// trusted reverse proxies (X-Forwarded-For). Every address is held as 16 bytes, an IPv4 address
// as its IPv4-mapped IPv6 form (::ffff:a.b.c.d), so `10.0.0.0/8` also matches `::ffff:10.1.2.3`
// (what a dual-stack socket reports for an IPv4 peer).

/** An address range: the first `prefix` bits of `bytes` (0..128, over the 16-byte form). */
export interface CidrRange {
  readonly bytes: Uint8Array
  readonly prefix: number
  /** The range as given, for messages. */
  readonly text: string
}

const V4_MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]

function parseV4(text: string): number[] | undefined {
  const parts = text.split('.')
  if (parts.length !== 4) return undefined
  const out: number[] = []
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined
    const n = Number(p)
    if (n > 255) return undefined
    out.push(n)
  }
  return out
}

function parseV6(text: string): Uint8Array | undefined {
  let s = text
  // A dotted IPv4 tail (::ffff:1.2.3.4) stands for the last two groups.
  let tail: number[] = []
  const lastColon = s.lastIndexOf(':')
  if (s.includes('.', lastColon)) {
    const v4 = parseV4(s.slice(lastColon + 1))
    if (v4 === undefined) return undefined
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!]
    s = `${s.slice(0, lastColon + 1)}0:0`
  }
  const halves = s.split('::')
  if (halves.length > 2) return undefined
  const groups = (h: string) => (h === '' ? [] : h.split(':'))
  const head = groups(halves[0]!)
  const rest = halves.length === 2 ? groups(halves[1]!) : []
  const all = [...head, ...rest]
  if (all.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined
  if (halves.length === 1 ? all.length !== 8 : all.length > 7) return undefined
  const words = [...head.map((g) => parseInt(g, 16)), ...new Array<number>(8 - all.length).fill(0), ...rest.map((g) => parseInt(g, 16))]
  if (tail.length > 0) words.splice(6, 2, ...tail)
  const out = new Uint8Array(16)
  words.forEach((w, i) => {
    out[2 * i] = w >> 8
    out[2 * i + 1] = w & 0xff
  })
  return out
}

/**
 * Parses an IPv4 or IPv6 address (an IPv6 zone, `%eth0`, is dropped) into its 16-byte form;
 * undefined when it is not one.
 */
export function parseIp(text: string): Uint8Array | undefined {
  const s = text.trim()
  const v4 = parseV4(s)
  if (v4 !== undefined) return new Uint8Array([...V4_MAPPED_PREFIX, ...v4])
  if (!s.includes(':')) return undefined
  const zone = s.indexOf('%')
  return parseV6(zone >= 0 ? s.slice(0, zone) : s)
}

const isV4Mapped = (b: Uint8Array) => V4_MAPPED_PREFIX.every((v, i) => b[i] === v)

/** The canonical text of an address: dotted for IPv4 (mapped or not), eight lower-case groups for IPv6. */
export function formatIp(b: Uint8Array): string {
  if (isV4Mapped(b)) return `${b[12]}.${b[13]}.${b[14]}.${b[15]}`
  const words: string[] = []
  for (let i = 0; i < 16; i += 2) words.push(((b[i]! << 8) | b[i + 1]!).toString(16))
  return words.join(':')
}

/** Parses `ADDRESS/PREFIX` (a bare address is one host: /32 or /128). Throws on anything else. */
export function parseCidr(text: string): CidrRange {
  const t = text.trim()
  const slash = t.indexOf('/')
  const addr = slash < 0 ? t : t.slice(0, slash)
  const bytes = parseIp(addr)
  if (bytes === undefined) throw new Error(`${JSON.stringify(t)} is not an IPv4 or IPv6 CIDR range`)
  const v4 = parseV4(addr.trim()) !== undefined
  const max = v4 ? 32 : 128
  let prefix = max
  if (slash >= 0) {
    const p = t.slice(slash + 1)
    if (!/^\d{1,3}$/.test(p) || Number(p) > max) throw new Error(`${JSON.stringify(t)}: the prefix length must be 0 to ${max}`)
    prefix = Number(p)
  }
  return { bytes, prefix: v4 ? prefix + 96 : prefix, text: t }
}

/** Parses a comma-separated list of CIDR ranges (`10.0.0.0/8,::1`). Throws naming the bad one. */
export function parseCidrList(text: string): CidrRange[] {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  if (items.length === 0) throw new Error('no CIDR range given')
  return items.map(parseCidr)
}

/** Whether an address (16-byte form) lies in a range. */
export function inRange(ip: Uint8Array, range: CidrRange): boolean {
  const full = range.prefix >> 3
  for (let i = 0; i < full; i++) if (ip[i] !== range.bytes[i]) return false
  const bits = range.prefix & 7
  if (bits === 0) return true
  const mask = (0xff << (8 - bits)) & 0xff
  return (ip[full]! & mask) === (range.bytes[full]! & mask)
}

export const inRanges = (ip: Uint8Array, ranges: readonly CidrRange[]) => ranges.some((r) => inRange(ip, r))

/** One X-Forwarded-For entry as an address: `1.2.3.4`, `1.2.3.4:5678`, `::1`, `[::1]:80`. */
function forwardedEntry(entry: string): Uint8Array | undefined {
  const e = entry.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(e)
  if (bracketed !== null) return parseIp(bracketed[1]!)
  const v4Port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(e)
  return parseIp(v4Port === null ? e : v4Port[1]!)
}

/**
 * The address a request comes from, for per-IP limits. Without trusted proxies, or when the socket
 * peer is not inside a trusted range, it is the peer. When it is, X-Forwarded-For is read from the
 * right (each proxy appends the address it received from): the rightmost entry that is not itself
 * trusted is the client. Every entry trusted: the leftmost. An entry that is not an address stops
 * the walk at the hop that forwarded it. Returned in canonical form (formatIp); a peer that is not
 * an address comes back as given.
 */
export function clientAddress(peer: string, forwardedFor: string | null | undefined, trusted: readonly CidrRange[]): string {
  const peerIp = parseIp(peer)
  if (peerIp === undefined) return peer
  if (trusted.length === 0 || !inRanges(peerIp, trusted) || forwardedFor == null) return formatIp(peerIp)
  const entries = forwardedFor.split(',')
  let hop = peerIp
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i]!.trim() === '') continue
    const ip = forwardedEntry(entries[i]!)
    if (ip === undefined) break
    hop = ip
    if (!inRanges(ip, trusted)) break
  }
  return formatIp(hop)
}
