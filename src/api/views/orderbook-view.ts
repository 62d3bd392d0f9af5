// The chain order book view (getOrderbook): aggregated levels with cumulative quantity.
import type { Static } from '@sinclair/typebox'
import type { Market, Order, OrderBook } from '../../chain/index.ts'
import type { OrderbookViewSchema } from '../../wire/results/shared-orderbook.ts'
import { formatPrice, formatSize } from './market-view.ts'

/** Default and maximum depth per side of getOrderbook. */
export const ORDERBOOK_DEPTH_DEFAULT = 50
export const ORDERBOOK_DEPTH_MAX = 500

export function orderbookView(m: Market, book: OrderBook<Order>, depth: number, height: number): Static<typeof OrderbookViewSchema> {
  const side = (s: 'Bid' | 'Ask') => {
    let cumulative = 0
    return book.levels(s, depth).map((l) => {
      cumulative += l.lots
      return {
        price: formatPrice(m, l.priceTicks),
        qty: formatSize(m, l.lots),
        cumulative_qty: formatSize(m, cumulative),
        orders: l.orders,
      }
    })
  }
  return { market_id: m.marketId, symbol: m.symbol, height, bids: side('Bid'), asks: side('Ask') }
}
