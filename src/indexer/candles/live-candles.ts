// The in-progress candle buckets from memory (docs/history-api.md#candles): the trades of committed
// blocks the candle stage has not folded yet, kept on the main thread per block, merged into a
// candle read when its range reaches now. Blocks at or below the candle watermark are dropped as
// progress arrives.
import { bucketEnd, bucketStart, type CandleInterval } from '../../wire/candles.ts'
import { accFromText, accToText, type CandleAcc, type CandleText, foldTrade, mergeCandles } from './candle-math.ts'

/** A trade as the live merge needs it: prices and sizes in 10^-12 units. */
export interface LiveTrade {
  readonly marketId: number
  readonly timestampMs: number
  readonly price: bigint
  readonly qty: bigint
}

/** Blocks kept at most; beyond it (the index far behind) the oldest go and the merge is partial. */
export const PENDING_BLOCKS_MAX = 4_096

export class PendingTrades {
  private readonly blocks: { height: number; trades: readonly LiveTrade[] }[] = []

  /** Records a committed block's trades (blocks arrive in height order). */
  add(height: number, trades: readonly LiveTrade[]): void {
    this.blocks.push({ height, trades })
    if (this.blocks.length > PENDING_BLOCKS_MAX) this.blocks.shift()
  }

  /** Drops blocks the candle stage has folded (height <= watermark). */
  dropThrough(watermark: number): void {
    let n = 0
    while (n < this.blocks.length && this.blocks[n]!.height <= watermark) n++
    if (n > 0) this.blocks.splice(0, n)
  }

  get size(): number {
    return this.blocks.length
  }

  /**
   * Merges the trades of blocks above `watermark` into stored candles (ascending, open time in
   * [fromMs, toMs]) and returns the newest `limit` (or with pick 'first' the first `limit`),
   * ascending. `bucket` maps a time to its bucket.
   */
  merge(a: {
    marketId: number
    watermark: number
    fromMs: number
    toMs: number
    limit: number
    stored: readonly CandleText[]
    bucket: (tMs: number) => { t: number; closeT: number }
    pick?: 'first' | 'last' | undefined
  }): CandleText[] {
    const live = new Map<number, CandleAcc>()
    for (const b of this.blocks) {
      if (b.height <= a.watermark) continue
      for (const tr of b.trades) {
        if (tr.marketId !== a.marketId) continue
        const { t, closeT } = a.bucket(tr.timestampMs)
        if (t < a.fromMs || t > a.toMs) continue
        live.set(t, foldTrade(live.get(t), t, closeT, tr.price, tr.qty, b.height))
      }
    }
    if (live.size === 0) return [...a.stored]
    const out = new Map<number, CandleAcc>()
    for (const c of a.stored) out.set(c.t, accFromText(c))
    for (const [t, acc] of live) {
      const stored = out.get(t)
      out.set(t, stored === undefined ? acc : mergeCandles(stored, acc))
    }
    const sorted = [...out.values()].sort((x, y) => x.t - y.t)
    return (a.pick === 'first' ? sorted.slice(0, a.limit) : sorted.slice(-a.limit)).map(accToText)
  }
}

/** The bucket function of a named interval. */
export const intervalBucket = (interval: CandleInterval) => (tMs: number) => {
  const t = bucketStart(interval, tMs)
  return { t, closeT: bucketEnd(interval, t) }
}

/** The bucket function of a fixed length in ms. */
export const msBucket = (intervalMs: number) => (tMs: number) => {
  const t = Math.floor(tMs / intervalMs) * intervalMs
  return { t, closeT: t + intervalMs }
}
