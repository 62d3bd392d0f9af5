// The safe-integer fast paths of math.ts against plain bigint arithmetic, with operands around the
// 2^53 boundary where the fast paths hand over to bigints.
import { describe, expect, test } from 'bun:test'
import { genesisState, Rng } from '../../../test/support/chain/test-chain.ts'
import { newMarket } from '../markets/markets.ts'
import { divCeil, divFloor, feeOf, marginOf, mulDivFloor, mulDivTrunc, notionalNumber, notionalOf } from './math.ts'
import type { Market } from './types.ts'

const SAFE = Number.MAX_SAFE_INTEGER

/** An integer in [0, 2^53] that is often near a power of two, ten, or the safe limit. */
function edgy(rng: Rng): number {
  switch (rng.int(4)) {
    case 0:
      return rng.range(0, 1_000_000)
    case 1:
      return Math.max(1, Math.min(SAFE, 2 ** rng.range(0, 53) + rng.range(-3, 3)))
    case 2:
      return SAFE - rng.range(0, 1_000)
    default:
      return (rng.u32() * 2 ** 21 + rng.int(2 ** 21)) % (SAFE + 1)
  }
}

/** Markets with every exponent the config allows: multipliers up to 10^6, divisors up to 10^12. */
function markets(): Market[] {
  const template = genesisState().markets.get(1)!
  const out: Market[] = []
  for (let pd = 0; pd <= 12; pd += 3)
    for (let sd = 0; sd <= 6; sd += 2) if (pd + sd <= 18) out.push(newMarket(9, { ...template, priceDecimals: pd, sizeDecimals: sd }, 1))
  return out
}

describe('safe-integer fast paths equal bigint arithmetic', () => {
  test('notionalOf and notionalNumber', () => {
    const rng = new Rng(1)
    for (const m of markets()) {
      for (let i = 0; i < 3_000; i++) {
        const ticks = rng.chance(50) ? rng.range(1, 10_000_000) : Math.max(1, edgy(rng))
        const lots = rng.chance(50) ? rng.range(1, 10_000_000) : Math.max(1, edgy(rng))
        const exact = (BigInt(ticks) * BigInt(lots) * m.notionalMultiplier) / m.notionalDivisor
        expect(notionalOf(m, ticks, lots)).toBe(exact)
        const n = notionalNumber(m, ticks, lots)
        if (n >= 0) expect(BigInt(n)).toBe(exact)
        else expect(BigInt(ticks) * BigInt(lots) * m.notionalMultiplier > BigInt(SAFE)).toBe(true) // declined only beyond 2^53
      }
    }
  })

  test('feeOf and marginOf round up exactly', () => {
    const rng = new Rng(2)
    for (let i = 0; i < 50_000; i++) {
      const notional = rng.chance(10) ? BigInt(edgy(rng)) * BigInt(rng.range(1, 5_000)) : BigInt(edgy(rng))
      const bps = rng.range(0, 1_000) * (rng.chance(10) ? -1 : 1)
      const leverage = rng.range(1, 200)
      expect(feeOf(notional, bps)).toBe(bps === 0 ? 0n : divCeil(notional * BigInt(bps), 10_000n))
      expect(marginOf(notional, leverage)).toBe(divCeil(notional, BigInt(leverage)))
      expect(marginOf(-notional, leverage)).toBe(divCeil(-notional, BigInt(leverage)))
      expect(feeOf(-notional, bps)).toBe(bps === 0 ? 0n : divCeil(-notional * BigInt(bps), 10_000n))
    }
  })

  test('mulDivFloor and mulDivTrunc', () => {
    const rng = new Rng(3)
    for (let i = 0; i < 50_000; i++) {
      const magnitude = rng.chance(10) ? BigInt(edgy(rng)) * BigInt(rng.range(1, 5_000)) : BigInt(edgy(rng))
      const a = rng.chance(50) ? magnitude : -magnitude
      const d = Math.max(1, rng.chance(50) ? rng.range(1, 10_000) : edgy(rng))
      const m = rng.range(0, d)
      expect(mulDivFloor(a, m, d)).toBe(divFloor(a * BigInt(m), BigInt(d)))
      expect(mulDivTrunc(a, m, d)).toBe((a * BigInt(m)) / BigInt(d))
    }
  })
})
