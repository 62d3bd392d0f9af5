// Derives `fills` (a taker row and a maker row per Filled event,
// docs/history-api.md#fills-and-orders) and `trades` (one row per match) from Filled events.

import type { Database } from 'bun:sqlite'
import { type FillInsert, insertFill, noteAccountMarket } from '../tables/fills.ts'
import type { OrderArchiveBatch } from '../tables/orders.ts'
import { insertTrade } from '../tables/trades.ts'
import { positionAction, realizedPnlPct } from './fill-math.ts'
import { filledNumbers } from './filled.ts'
import type { BlockDeriver, DeriveEvent, DeriveModule } from './types.ts'

function fillsDeriver(db: Database, archive: OrderArchiveBatch): BlockDeriver {
  // Fill rows are written at the end of the batch in key order: the table is clustered by
  // (account, market), so sorted inserts touch each account's leaf pages once per batch instead of
  // once per fill, which is most of the cost of deriving fills.
  const rows: FillInsert[] = []
  // account_markets rows already written in this batch (each insert is a B-tree probe).
  const noted = new Set<string>()
  const note = (account: string, marketId: number) => {
    const key = `${account}:${marketId}`
    if (noted.has(key)) return
    noted.add(key)
    noteAccountMarket(db, account, marketId)
  }
  return {
    event(e: DeriveEvent) {
      const b = e.body
      if (b.sub_kind !== 'Filled') return
      const f = filledNumbers(e, b)
      insertTrade(db, {
        height: e.height,
        seq: e.seq,
        timestampMs: e.timestampMs,
        marketId: f.marketId,
        price: f.price,
        qty: f.qty,
        notional: f.notional,
        side: f.takerSide,
        taker: f.taker,
        maker: f.maker,
        takerFee: f.takerFee,
        makerFee: f.makerFee,
        takerRealizedPnl: f.takerPnl,
        makerRealizedPnl: f.makerPnl,
      })
      for (const isTaker of [true, false]) {
        const account = isTaker ? f.taker : f.maker
        const side = isTaker ? f.takerSide : f.takerSide === 'Bid' ? 'Ask' : 'Bid'
        const orderId = isTaker ? b.taker_order_id : b.maker_order_id
        const before = isTaker ? f.takerBefore : f.makerBefore
        const realizedPnl = isTaker ? f.takerPnl : f.makerPnl
        const tags = archive.tags(orderId)
        note(account, f.marketId)
        rows.push({
          account,
          height: e.height,
          seq: e.seq,
          isTaker,
          timestampMs: e.timestampMs,
          marketId: f.marketId,
          orderId,
          counterparty: isTaker ? f.maker : f.taker,
          side,
          price: f.price,
          qty: f.qty,
          notional: f.notional,
          fee: isTaker ? f.takerFee : f.makerFee,
          realizedPnl,
          realizedPnlPct: realizedPnlPct({ buying: side === 'Bid', sizeBefore: before, qty: f.qty, notional: f.notional, realizedPnl }),
          positionAction: positionAction(before, isTaker ? f.takerAfter : f.makerAfter),
          triggerId: (isTaker ? b.taker_source_trigger_id : b.maker_source_trigger_id) ?? tags?.trigger_id ?? null,
          clientOrderId: tags?.client_order_id ?? null,
        })
      }
    },
    endBatch() {
      rows.sort(compareFillKeys)
      for (const r of rows) insertFill(db, r)
      rows.length = 0
    },
  }
}

/** The fills primary key order: (account, market_id, height, seq, is_taker). */
function compareFillKeys(a: FillInsert, b: FillInsert): number {
  if (a.account !== b.account) return a.account < b.account ? -1 : 1
  return a.marketId - b.marketId || a.height - b.height || a.seq - b.seq || Number(a.isTaker) - Number(b.isTaker)
}

export const fillsModule: DeriveModule = { table: 'fills', subKinds: ['Filled'], create: (db, batch) => fillsDeriver(db, batch.orders) }
