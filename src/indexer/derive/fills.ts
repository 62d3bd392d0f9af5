// Derives `fills` (a taker row and a maker row per Filled event, spec §2.5) and `trades` (one row
// per match) from Filled events.
import { insertFill, noteAccountMarket } from '../tables/fills.ts'
import { orderTags } from '../tables/orders.ts'
import { insertTrade } from '../tables/trades.ts'
import { filledNumbers } from './filled.ts'
import { positionAction, realizedPnlPct } from './fill-math.ts'
import { optNum, type DeriveModule } from './types.ts'

export const fillsModule: DeriveModule = {
  table: 'fills',
  subKinds: ['Filled'],
  create: (db) => {
    // account_markets rows already written in this batch (the insert is a B-tree probe per call).
    const noted = new Set<string>()
    const note = (account: string, marketId: number) => {
      const key = `${account}:${marketId}`
      if (noted.has(key)) return
      noted.add(key)
      noteAccountMarket(db, account, marketId)
    }
    return { event(e) {
      const f = filledNumbers(e)
      note(f.taker, f.marketId)
      note(f.maker, f.marketId)
      insertTrade(db, {
        height: e.height, seq: e.seq, timestampMs: e.timestampMs, marketId: f.marketId, price: f.price, qty: f.qty, notional: f.notional, side: f.takerSide,
        taker: f.taker, maker: f.maker, takerFee: f.takerFee, makerFee: f.makerFee, takerRealizedPnl: f.takerPnl, makerRealizedPnl: f.makerPnl,
      })
      for (const isTaker of [true, false]) {
        const who = isTaker ? 'taker' : 'maker'
        const side = isTaker ? f.takerSide : f.takerSide === 'Bid' ? 'Ask' : 'Bid'
        const orderId = Number(e.body[`${who}_order_id`])
        const before = isTaker ? f.takerBefore : f.makerBefore
        const realizedPnl = isTaker ? f.takerPnl : f.makerPnl
        const tags = orderTags(db, orderId)
        insertFill(db, {
          account: isTaker ? f.taker : f.maker, height: e.height, seq: e.seq, isTaker, timestampMs: e.timestampMs, marketId: f.marketId, orderId,
          counterparty: isTaker ? f.maker : f.taker, side, price: f.price, qty: f.qty, notional: f.notional, fee: isTaker ? f.takerFee : f.makerFee, realizedPnl,
          realizedPnlPct: realizedPnlPct({ buying: side === 'Bid', sizeBefore: before, qty: f.qtyFine, notional: f.notional, realizedPnl }),
          positionAction: positionAction(before, isTaker ? f.takerAfter : f.makerAfter),
          triggerId: optNum(e.body, `${who}_source_trigger_id`) ?? tags?.trigger_id ?? null,
          clientOrderId: tags?.client_order_id ?? null,
        })
      }
    } }
  },
}
