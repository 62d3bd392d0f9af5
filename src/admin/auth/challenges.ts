// Login challenges (docs/admin.md#login; the signed bytes: docs/protocol.md#admin-login-signature):
// 16 random bytes, valid 5 minutes, used once. The login body names its challenge only by
// timestamp_ms, so each challenge gets a distinct timestamp (bumped by a millisecond on a
// collision) and the timestamp is its key.
import { randomBytes } from '@noble/hashes/utils.js'
import { bytesToHex } from '../../lib/hex.ts'

/** How long a challenge may be answered. */
export const CHALLENGE_TTL_MS = 5 * 60_000
/**
 * Live challenges kept at most. Past it new ones are refused (503) until some expire or are used:
 * evicting the oldest instead would let anyone who requests challenges fast enough (from many IPs,
 * each under its own limit) void the challenge an operator is signing.
 */
export const CHALLENGES_MAX = 10_000

/** A challenge as GET /api/auth/challenge returns it. */
export interface Challenge {
  /** 32 lowercase hex characters, no 0x. */
  readonly challenge: string
  readonly timestamp_ms: number
}

/** The live login challenges, keyed by their timestamp; bounded by CHALLENGES_MAX. */
export class ChallengeBook {
  // Insertion order is timestamp order (timestamps only grow), so the oldest is always first.
  private readonly live = new Map<number, { challenge: string; expiresAtMs: number }>()
  private lastTimestampMs = 0

  constructor(private readonly clock: () => number = Date.now) {}

  /** A new challenge, or undefined when CHALLENGES_MAX are live. */
  issue(): Challenge | undefined {
    const now = this.clock()
    this.prune(now)
    if (this.live.size >= CHALLENGES_MAX) return undefined
    const timestampMs = Math.max(now, this.lastTimestampMs + 1)
    this.lastTimestampMs = timestampMs
    const challenge = bytesToHex(randomBytes(16)).slice(2)
    this.live.set(timestampMs, { challenge, expiresAtMs: now + CHALLENGE_TTL_MS })
    return { challenge, timestamp_ms: timestampMs }
  }

  /** The unexpired, unused challenge issued with this timestamp, if any. Does not consume it. */
  find(timestampMs: number): string | undefined {
    const c = this.live.get(timestampMs)
    if (c === undefined) return undefined
    if (c.expiresAtMs <= this.clock()) {
      this.live.delete(timestampMs)
      return undefined
    }
    return c.challenge
  }

  /** Uses a challenge up; called only once a login has fully succeeded. */
  consume(timestampMs: number): void {
    this.live.delete(timestampMs)
  }

  get size(): number {
    return this.live.size
  }

  /** Milliseconds until the oldest live challenge expires (when the book is full, the wait for room). */
  msUntilRoom(): number {
    const oldest = this.live.values().next().value as { expiresAtMs: number } | undefined
    return oldest === undefined ? 0 : Math.max(0, oldest.expiresAtMs - this.clock())
  }

  private prune(now: number): void {
    for (const [ts, c] of this.live) {
      if (c.expiresAtMs > now) break
      this.live.delete(ts)
    }
  }
}
