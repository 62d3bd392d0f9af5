// Admin sessions (docs/admin.md#sessions): an opaque 256-bit token, kept in this process only (a
// restart logs everyone out) and stored only as its SHA-256, so a heap dump of the map yields no
// usable token. A session ends when it expires, at logout, or at a logout-all of its address.

import { sha256 } from '@noble/hashes/sha2.js'
import { randomBytes } from '@noble/hashes/utils.js'
import { bytesToHex } from '../../lib/hex.ts'

/** How long a session lives. */
export const SESSION_TTL_MS = 24 * 60 * 60_000
/** Live sessions kept at most; past it the oldest ends (logins are rate-limited too). */
export const SESSIONS_MAX = 10_000

/** A live session: whose it is, until when, and when its Admin role was last confirmed. */
export interface Session {
  readonly address: string
  readonly expiresAtMs: number
  /** When the on-chain Admin role was last confirmed for this session. */
  roleCheckedAtMs: number
}

const UTF8 = new TextEncoder()

function hashToken(token: string): string {
  return bytesToHex(sha256(UTF8.encode(token)))
}

/** The in-process sessions, keyed by SHA-256 of their token; bounded by SESSIONS_MAX. */
export class SessionStore {
  private readonly byHash = new Map<string, Session>()

  constructor(private readonly clock: () => number = Date.now) {}

  /** Starts a session; the token is returned once and never kept. */
  create(address: string): { token: string; session: Session } {
    const now = this.clock()
    this.prune(now)
    while (this.byHash.size >= SESSIONS_MAX) this.byHash.delete(this.byHash.keys().next().value as string)
    const token = bytesToHex(randomBytes(32)).slice(2)
    const session: Session = { address, expiresAtMs: now + SESSION_TTL_MS, roleCheckedAtMs: now }
    this.byHash.set(hashToken(token), session)
    return { token, session }
  }

  /** The live session of a token, or undefined (unknown or expired). */
  get(token: string): Session | undefined {
    const key = hashToken(token)
    const s = this.byHash.get(key)
    if (s === undefined) return undefined
    if (s.expiresAtMs <= this.clock()) {
      this.byHash.delete(key)
      return undefined
    }
    return s
  }

  /** Ends the session of a token (logout); whether there was a live one. */
  revoke(token: string): boolean {
    return this.byHash.delete(hashToken(token))
  }

  /** Ends every session of an address (logout-all); how many there were. */
  revokeAddress(address: string): number {
    let n = 0
    for (const [k, s] of this.byHash) {
      if (s.address !== address) continue
      this.byHash.delete(k)
      if (s.expiresAtMs > this.clock()) n++
    }
    return n
  }

  get size(): number {
    return this.byHash.size
  }

  private prune(now: number): void {
    // Sessions are created in time order with one TTL, so expiry order is insertion order.
    for (const [k, s] of this.byHash) {
      if (s.expiresAtMs > now) break
      this.byHash.delete(k)
    }
  }
}
