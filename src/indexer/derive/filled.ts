// The numbers of a Filled event body, parsed once per event however many modules read them.
import type { EventBodyOf } from '../../wire/events/index.ts'
import { units6 } from '../amounts.ts'
import type { DeriveEvent } from './types.ts'

export interface FilledNumbers {
  readonly marketId: number
  readonly taker: string
  readonly maker: string
  readonly takerSide: string
  readonly price: string
  readonly qty: string
  readonly notional: bigint
  readonly takerFee: bigint
  readonly makerFee: bigint
  readonly takerPnl: bigint
  readonly makerPnl: bigint
  /** Signed sizes before and after, decimal strings (compared without parsing). */
  readonly takerBefore: string
  readonly takerAfter: string
  readonly makerBefore: string
  readonly makerAfter: string
}

/** The FilledNumbers of event e, whose body is b; parsed on first use and kept on the event for the other modules. */
export function filledNumbers(e: DeriveEvent, b: EventBodyOf<'Filled'>): FilledNumbers {
  let n = e.memo as FilledNumbers | undefined
  if (n === undefined) {
    n = {
      marketId: e.marketId ?? b.market_id,
      taker: b.taker,
      maker: b.maker,
      takerSide: b.taker_side,
      price: b.price,
      qty: b.qty,
      notional: units6(b.notional),
      takerFee: units6(b.taker_fee),
      makerFee: units6(b.maker_fee),
      takerPnl: units6(b.taker_realized_pnl),
      makerPnl: units6(b.maker_realized_pnl),
      takerBefore: b.taker_size_before,
      takerAfter: b.taker_size_after,
      makerBefore: b.maker_size_before,
      makerAfter: b.maker_size_after,
    }
    e.memo = n
  }
  return n
}
