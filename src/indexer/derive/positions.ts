// Derives `positions`: a row per (account, market, block) whose position changed, from Filled
// (both sides), PositionLiquidated (the trader closed to zero at the mark, the insurance fund taking
// it over) and DelistSettlement (closed to zero at the mark). Rows are built per block and written
// when the block ends.
import type { Database } from 'bun:sqlite'
import { fine, units6 } from '../amounts.ts'
import { upsertPositionChange } from '../tables/positions.ts'
import { positionAction } from './fill-math.ts'
import { filledNumbers } from './filled.ts'
import type { BlockDeriver, DeriveEvent, DeriveModule } from './types.ts'

interface Change {
  readonly account: string
  readonly marketId: number
  /** Signed sizes as the chain printed them. */
  readonly before: string
  after: string
  realizedPnl: bigint
  fills: number
  volume: bigint
  causes: string[]
  readonly firstSeq: number
  lastSeq: number
}

/** Notional of size x price at SCALE_6, truncated (both in 10^-12 units). */
const notionalOf = (size: bigint, price: bigint) => ((size < 0n ? -size : size) * price) / 10n ** 18n

function positionsDeriver(db: Database): BlockDeriver {
  // The block's changes by account, then market (no composite string keys on the hot path).
  const block = new Map<string, Map<number, Change>>()
  const touch = (
    e: DeriveEvent,
    account: string,
    marketId: number,
    before: string,
    after: string,
    pnl: bigint,
    volume: bigint,
    fill: boolean,
    cause: string,
  ) => {
    let byMarket = block.get(account)
    if (byMarket === undefined) {
      byMarket = new Map()
      block.set(account, byMarket)
    }
    let c = byMarket.get(marketId)
    if (c === undefined) {
      c = { account, marketId, before, after, realizedPnl: 0n, fills: 0, volume: 0n, causes: [cause], firstSeq: e.seq, lastSeq: e.seq }
      byMarket.set(marketId, c)
    } else if (!c.causes.includes(cause)) c.causes.push(cause)
    c.after = after
    c.realizedPnl += pnl
    c.volume += volume
    if (fill) c.fills += 1
    c.lastSeq = e.seq
  }
  return {
    event(e) {
      const b = e.body
      switch (b.sub_kind) {
        case 'Filled': {
          const marketId = e.marketId ?? b.market_id
          const f = filledNumbers(e, b)
          touch(e, f.taker, marketId, f.takerBefore, f.takerAfter, f.takerPnl, f.notional, true, 'trade')
          touch(e, f.maker, marketId, f.makerBefore, f.makerAfter, f.makerPnl, f.notional, true, 'trade')
          return
        }
        case 'PositionLiquidated': {
          const marketId = e.marketId ?? b.market_id
          const notional = units6(b.notional)
          touch(e, e.account ?? b.account, marketId, b.size, '0', units6(b.realized_pnl), notional, false, 'liquidation')
          touch(e, b.insurance_fund, marketId, b.fund_size_before, b.fund_size_after, 0n, notional, false, 'liquidation_takeover')
          return
        }
        case 'DelistSettlement':
          touch(
            e,
            e.account ?? b.account,
            e.marketId ?? b.market_id,
            b.size,
            '0',
            units6(b.realized_pnl),
            notionalOf(fine(b.size), fine(b.price)),
            false,
            'delist_settlement',
          )
          return
      }
    },
    endBlock(ref) {
      for (const byMarket of block.values()) {
        for (const c of byMarket.values()) {
          upsertPositionChange(db, {
            account: c.account,
            height: ref.height,
            marketId: c.marketId,
            timestampMs: ref.timestampMs,
            sizeBefore: c.before,
            sizeAfter: c.after,
            realizedPnl: c.realizedPnl,
            fills: c.fills,
            volume: c.volume,
            action: positionAction(c.before, c.after),
            cause: c.causes.join(','),
            firstSeq: c.firstSeq,
            lastSeq: c.lastSeq,
          })
        }
      }
      block.clear()
    },
  }
}

export const positionsModule: DeriveModule = {
  table: 'positions',
  subKinds: ['Filled', 'PositionLiquidated', 'DelistSettlement'],
  create: positionsDeriver,
}
