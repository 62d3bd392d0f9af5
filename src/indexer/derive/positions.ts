// Derives `positions`: a row per (account, market, block) whose position changed, from Filled
// (both sides), PositionLiquidated (the trader closed to zero at the mark, the insurance fund taking
// it over) and DelistSettlement (closed to zero at the mark). Rows are built per block and written
// when the block ends.
import { fine, fineString, units6 } from '../amounts.ts'
import { upsertPositionChange } from '../tables/positions.ts'
import { filledNumbers } from './filled.ts'
import { positionAction } from './fill-math.ts'
import { str, type DeriveEvent, type DeriveModule } from './types.ts'

interface Change {
  account: string
  marketId: number
  before: bigint
  after: bigint
  realizedPnl: bigint
  fills: number
  volume: bigint
  causes: string[]
  firstSeq: number
  lastSeq: number
}

/** Notional of size x price at SCALE_6, truncated (both in 10^-12 units). */
const notionalOf = (size: bigint, price: bigint) => ((size < 0n ? -size : size) * price) / 10n ** 18n

export const positionsModule: DeriveModule = {
  table: 'positions',
  subKinds: ['Filled', 'PositionLiquidated', 'DelistSettlement'],
  create: (db) => {
    const block = new Map<string, Change>()
    const touch = (e: DeriveEvent, account: string, before: bigint, after: bigint, pnl: bigint, volume: bigint, fill: boolean, cause: string) => {
      const marketId = e.marketId ?? Number(e.body.market_id)
      const key = `${account}:${marketId}`
      let c = block.get(key)
      if (c === undefined) {
        c = { account, marketId, before, after, realizedPnl: 0n, fills: 0, volume: 0n, causes: [], firstSeq: e.seq, lastSeq: e.seq }
        block.set(key, c)
      }
      c.after = after
      c.realizedPnl += pnl
      c.volume += volume
      if (fill) c.fills += 1
      if (!c.causes.includes(cause)) c.causes.push(cause)
      c.lastSeq = e.seq
    }
    return {
      event(e) {
        const b = e.body
        if (e.subKind === 'Filled') {
          const f = filledNumbers(e)
          touch(e, f.taker, f.takerBefore, f.takerAfter, f.takerPnl, f.notional, true, 'trade')
          touch(e, f.maker, f.makerBefore, f.makerAfter, f.makerPnl, f.notional, true, 'trade')
          return
        }
        const size = fine(b.size)
        const account = e.account ?? str(b, 'account')
        if (e.subKind === 'PositionLiquidated') {
          const notional = units6(b.notional)
          touch(e, account, size, 0n, units6(b.realized_pnl), notional, false, 'liquidation')
          touch(e, str(b, 'insurance_fund'), fine(b.fund_size_before), fine(b.fund_size_after), 0n, notional, false, 'liquidation_takeover')
          return
        }
        touch(e, account, size, 0n, units6(b.realized_pnl), notionalOf(size, fine(b.price)), false, 'delist_settlement')
      },
      endBlock(ref) {
        for (const c of block.values()) {
          upsertPositionChange(db, {
            account: c.account, height: ref.height, marketId: c.marketId, timestampMs: ref.timestampMs,
            sizeBefore: fineString(c.before), sizeAfter: fineString(c.after), realizedPnl: c.realizedPnl, fills: c.fills, volume: c.volume,
            action: positionAction(c.before, c.after), cause: c.causes.join(','), firstSeq: c.firstSeq, lastSeq: c.lastSeq,
          })
        }
        block.clear()
      },
    }
  },
}
