// Client order ids (cloid) as Hyperliquid takes them: 16 bytes written as 0x + 32 hex digits. The
// venue refuses a cloid an account already used, so a cloid is an idempotency key: an order sent
// twice with the same cloid is placed at most once, and its fate can be asked by cloid after a
// lost reply. The generator below never hands out the same cloid twice.
import { randomBytes } from 'node:crypto'

/** 0x + 32 hex digits; Hyperliquid accepts either case and we always write lower case. */
export const CLOID_PATTERN = '^0x[0-9a-fA-F]{32}$'
const CLOID = new RegExp(CLOID_PATTERN)

export function isCloid(s: unknown): s is string {
  return typeof s === 'string' && CLOID.test(s)
}

/** The lower-case form of a cloid; throws for anything that is not one. */
export function normalizeCloid(s: string): string {
  if (!isCloid(s)) throw new Error(`cloid must be 0x followed by 32 hex digits (16 bytes), got ${JSON.stringify(String(s).slice(0, 40))}`)
  return s.toLowerCase()
}

/**
 * Makes cloids that never repeat: 6 bytes of the time in ms, 2 bytes of a counter within that ms,
 * 8 random bytes. Within one process (time, counter) strictly increases, even when the clock steps
 * back; across processes and restarts the 64 random bits make a collision negligible.
 */
export class CloidGenerator {
  private lastMs = 0
  private counter = 0

  constructor(private readonly clock: () => number = Date.now) {}

  next(): string {
    let ms = Math.max(this.clock(), this.lastMs)
    if (ms === this.lastMs) {
      this.counter++
      if (this.counter > 0xffff) {
        ms++
        this.counter = 0
      }
    } else this.counter = 0
    this.lastMs = ms
    const head = ms.toString(16).padStart(12, '0').slice(-12) + this.counter.toString(16).padStart(4, '0')
    return `0x${head}${randomBytes(8).toString('hex')}`
  }
}
