// The numbers of a Filled event body, parsed once per event however many modules read them.
import { units6 } from '../amounts.ts'
import { str, type DeriveEvent } from './types.ts'

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

/** The event's FilledNumbers, parsed on first use and kept on the event for the other modules. */
export function filledNumbers(e: DeriveEvent): FilledNumbers {
  let n = e.memo as FilledNumbers | undefined
  if (n === undefined) {
    const b = e.body
    n = {
      marketId: e.marketId ?? Number(b.market_id), taker: str(b, 'taker'), maker: str(b, 'maker'), takerSide: str(b, 'taker_side'),
      price: str(b, 'price'), qty: str(b, 'qty'), notional: units6(b.notional),
      takerFee: units6(b.taker_fee), makerFee: units6(b.maker_fee), takerPnl: units6(b.taker_realized_pnl), makerPnl: units6(b.maker_realized_pnl),
      takerBefore: str(b, 'taker_size_before'), takerAfter: str(b, 'taker_size_after'), makerBefore: str(b, 'maker_size_before'), makerAfter: str(b, 'maker_size_after'),
    }
    e.memo = n
  }
  return n
}
