// Folding trades into a candle. Prices and sizes are decimal strings compared and summed exactly
// at 10^-12 (the finest market precision), then printed back as the same minimal strings.
import { fine, fineString } from '../amounts.ts'

/** A candle being built: o/h/l/c/v as exact fine units. */
export interface CandleAcc {
  t: number
  closeT: number
  o: bigint
  h: bigint
  l: bigint
  c: bigint
  v: bigint
  n: number
  lastHeight: number
}

export interface CandleText {
  t: number
  close_t: number
  o: string
  h: string
  l: string
  c: string
  v: string
  n: number
  last_height: number
}

export const accFromText = (r: CandleText): CandleAcc => ({
  t: r.t,
  closeT: r.close_t,
  o: fine(r.o),
  h: fine(r.h),
  l: fine(r.l),
  c: fine(r.c),
  v: fine(r.v),
  n: r.n,
  lastHeight: r.last_height,
})

export const accToText = (a: CandleAcc): CandleText => ({
  t: a.t,
  close_t: a.closeT,
  o: fineString(a.o),
  h: fineString(a.h),
  l: fineString(a.l),
  c: fineString(a.c),
  v: fineString(a.v),
  n: a.n,
  last_height: a.lastHeight,
})

/** Folds one trade (in chain order) into acc, or starts a candle when acc is undefined. */
export function foldTrade(acc: CandleAcc | undefined, t: number, closeT: number, price: bigint, qty: bigint, height: number): CandleAcc {
  if (acc === undefined) return { t, closeT, o: price, h: price, l: price, c: price, v: qty, n: 1, lastHeight: height }
  if (price > acc.h) acc.h = price
  if (price < acc.l) acc.l = price
  acc.c = price
  acc.v += qty
  acc.n += 1
  acc.lastHeight = height
  return acc
}

/** Merges a later candle of the same bucket into an earlier one. */
export function mergeCandles(earlier: CandleAcc, later: CandleAcc): CandleAcc {
  return {
    t: earlier.t,
    closeT: earlier.closeT,
    o: earlier.o,
    h: later.h > earlier.h ? later.h : earlier.h,
    l: later.l < earlier.l ? later.l : earlier.l,
    c: later.c,
    v: earlier.v + later.v,
    n: earlier.n + later.n,
    lastHeight: Math.max(earlier.lastHeight, later.lastHeight),
  }
}
