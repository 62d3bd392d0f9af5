// Admission checks of the order area's batch kinds that a schema cannot express (admission.ts
// calls it): a malformed batch is refused before it reaches a block, so it consumes no nonce,
// while an item that is well-formed but fails against the state is the chain's BatchItemRejected.
// Unknown markets pass (the chain rejects them as MarketNotFound, docs/errors.md#reject-reasons).
import { type ChainState, decodePlaceOrder, isRejection } from '../chain/index.ts'
import { parseDecimal } from '../lib/decimal.ts'
import type { BatchModifyPayload, BatchPlaceOrderPayload, MassCancelPayload } from '../wire/actions.ts'

/** Where a payload is malformed: the field path and what is wrong. */
export interface ShapeError {
  readonly field: string
  readonly message: string
}

/** The first cross-field error of a BatchPlaceOrder, BatchModify or MassCancel payload, if any. */
export function orderShapeError(kind: string, payload: Record<string, unknown>, state: ChainState): ShapeError | undefined {
  const at = `params.action.${kind}`
  switch (kind) {
    case 'BatchPlaceOrder': {
      const { orders } = payload as BatchPlaceOrderPayload
      for (let i = 0; i < orders.length; i++) {
        const decoded = decodePlaceOrder(state, orders[i]!)
        if (isRejection(decoded) && decoded.reason === 'InvalidPrice') return { field: `${at}.orders.${i}.price`, message: decoded.message }
        if (isRejection(decoded) && decoded.reason === 'InvalidQuantity')
          return { field: `${at}.orders.${i}.qty`, message: decoded.message }
      }
      return undefined
    }
    case 'BatchModify': {
      const { modifies } = payload as BatchModifyPayload
      for (let i = 0; i < modifies.length; i++) {
        const m = modifies[i]!
        const item = `${at}.modifies.${i}`
        if ((m.order_id === undefined) === (m.client_order_id === undefined))
          return { field: item, message: 'give exactly one of order_id and client_order_id' }
        if (m.price === undefined && m.qty === undefined && m.tif === undefined)
          return { field: item, message: 'give at least one of price, qty and tif' }
        const market = state.markets.get(m.market_id)
        if (market === undefined) continue
        const price = m.price === undefined ? undefined : parseDecimal(m.price, market.priceDecimals)
        if (price !== undefined && !price.ok)
          return { field: `${item}.price`, message: `${price.message} (${market.symbol} price_decimals ${market.priceDecimals})` }
        const qty = m.qty === undefined ? undefined : parseDecimal(m.qty, market.sizeDecimals)
        if (qty !== undefined && !qty.ok)
          return { field: `${item}.qty`, message: `${qty.message} (${market.symbol} size_decimals ${market.sizeDecimals})` }
      }
      return undefined
    }
    case 'MassCancel': {
      const p = payload as MassCancelPayload
      if (p.by === 'Side' && (p.market_id === undefined || p.side === undefined))
        return { field: at, message: 'by Side needs market_id and side' }
      if (p.by !== 'Side' && p.side !== undefined) return { field: `${at}.side`, message: `only for by Side, not by ${p.by}` }
      if (p.by === 'Ids' && p.order_ids === undefined) return { field: `${at}.order_ids`, message: 'by Ids needs order_ids' }
      if (p.by !== 'Ids' && p.order_ids !== undefined) return { field: `${at}.order_ids`, message: `only for by Ids, not by ${p.by}` }
      return undefined
    }
    default:
      return undefined
  }
}
