// Stage 3, candle: folds each derived block's trades into the 14 candle intervals. A bucket's row
// remembers the last block folded in, so a block is folded once however often the stage runs; a
// gap in time (the node was down) is simply a range of blocks the stage has not done yet, so
// catching up backfills every bucket it missed.
import type { Database } from 'bun:sqlite'
import { bucketEnd, bucketStart, CANDLE_INTERVALS, type CandleInterval } from '../../wire/candles.ts'
import { fine } from '../amounts.ts'
import { accFromText, accToText, type CandleAcc, type CandleText, foldTrade } from '../candles/candle-math.ts'
import { getCandle, putCandle } from '../tables/candles.ts'
import { matchesBetween } from '../tables/trades.ts'
import { writeWatermark } from '../watermarks.ts'

/** A candle the stage changed, as the feed pushes it (candles.{symbol}.{interval}). */
export interface CandleUpdate {
  readonly marketId: number
  readonly interval: CandleInterval
  readonly candle: CandleText
}

/** A bucket the batch touches, starting from its stored row. */
interface OpenBucket {
  readonly marketId: number
  readonly interval: CandleInterval
  readonly t: number
  readonly closeT: number
  /** Blocks up to this height are already in the stored row. */
  readonly storedHeight: number
  acc: CandleAcc | undefined
  changed: boolean
}

/** Folds blocks [from, to] (all derived) into candles in one transaction; returns what changed. */
export function candleBlocks(db: Database, from: number, to: number): CandleUpdate[] {
  const trades = matchesBetween(db, from, to)
  const updates: CandleUpdate[] = []
  db.transaction(() => {
    const open = new Map<string, OpenBucket>()
    // Per market, the bucket each interval is in: trades come in time order, so the bucket changes
    // rarely and the map is consulted only when it does.
    const current = new Map<number, (OpenBucket | undefined)[]>()
    const bucketFor = (marketId: number, interval: CandleInterval, tMs: number): OpenBucket => {
      const t = bucketStart(interval, tMs)
      const key = `${marketId}:${interval}:${t}`
      let b = open.get(key)
      if (b === undefined) {
        const row = getCandle(db, marketId, interval, t)
        b = {
          marketId,
          interval,
          t,
          closeT: bucketEnd(interval, t),
          storedHeight: row?.last_height ?? 0,
          acc: row === undefined ? undefined : accFromText(row),
          changed: false,
        }
        open.set(key, b)
      }
      return b
    }
    for (const tr of trades) {
      const price = fine(tr.price)
      const qty = fine(tr.qty)
      let slots = current.get(tr.market_id)
      if (slots === undefined) {
        slots = new Array<OpenBucket | undefined>(CANDLE_INTERVALS.length)
        current.set(tr.market_id, slots)
      }
      for (let i = 0; i < CANDLE_INTERVALS.length; i++) {
        let b = slots[i]
        if (b === undefined || tr.timestamp_ms < b.t || tr.timestamp_ms >= b.closeT)
          slots[i] = b = bucketFor(tr.market_id, CANDLE_INTERVALS[i]!, tr.timestamp_ms)
        // A block already in the stored row is not folded again.
        if (tr.height <= b.storedHeight) continue
        b.acc = foldTrade(b.acc, b.t, b.closeT, price, qty, tr.height)
        b.changed = true
      }
    }
    for (const b of open.values()) {
      if (!b.changed || b.acc === undefined) continue
      const text = accToText(b.acc)
      putCandle(db, b.marketId, b.interval, text)
      updates.push({ marketId: b.marketId, interval: b.interval, candle: text })
    }
    writeWatermark(db, 'candle', to)
  })()
  return updates
}
