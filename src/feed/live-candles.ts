// The open candle of every interval of one market, moved by fills
// (docs/websocket.md#websocket-protocol `candles.*`: bar updates, the current open bucket on
// subscribe). History of closed candles is the indexer's.
import { CANDLE_INTERVALS, type CandleInterval } from '../wire/candles.ts'
import { candleBucket } from './candle-buckets.ts'

/** An open bar in integer units: prices in ticks, volume in lots. */
export interface LiveBar {
  readonly t: number
  readonly T: number
  o: number
  h: number
  l: number
  c: number
  v: number
  n: number
}

export class LiveCandles {
  private readonly bars = new Map<CandleInterval, LiveBar>()

  /** Adds a fill at block time `ms` to every interval's bar (a new bucket starts a new bar). */
  addFill(priceTicks: number, lots: number, ms: number): void {
    for (const interval of CANDLE_INTERVALS) {
      const bar = this.bars.get(interval)
      if (bar !== undefined && ms < bar.T && ms >= bar.t) {
        if (priceTicks > bar.h) bar.h = priceTicks
        if (priceTicks < bar.l) bar.l = priceTicks
        bar.c = priceTicks
        bar.v += lots
        bar.n++
        continue
      }
      const { t, T } = candleBucket(interval, ms)
      this.bars.set(interval, { t, T, o: priceTicks, h: priceTicks, l: priceTicks, c: priceTicks, v: lots, n: 1 })
    }
  }

  /** The bar of the bucket open at `nowMs`, if that bucket has fills. */
  current(interval: CandleInterval, nowMs: number): LiveBar | undefined {
    const bar = this.bars.get(interval)
    return bar !== undefined && nowMs >= bar.t && nowMs < bar.T ? bar : undefined
  }

  /** The latest bar of every interval that has one, for saving (day-state.ts). */
  entries(): [CandleInterval, LiveBar][] {
    return [...this.bars].map(([interval, bar]) => [interval, { ...bar }])
  }

  /** Puts back a bar entries() gave. */
  restore(interval: CandleInterval, bar: LiveBar): void {
    this.bars.set(interval, { ...bar })
  }

  /** The latest bar of an interval, whatever its bucket (the one the last fill moved). */
  latest(interval: CandleInterval): LiveBar | undefined {
    return this.bars.get(interval)
  }
}
