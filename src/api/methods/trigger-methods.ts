// Read methods of the trigger area (docs/orders.md#trigger-orders): getTriggerOrders and
// getOcoPairs, over live state.
import { type Static, Type } from '@sinclair/typebox'
import type { ChainState, OcoPair, TriggerOrder } from '../../chain/index.ts'
import type { TriggerViewSchema } from '../../wire/results/shared-trigger.ts'
import { OcoPairsResult, type OcoPairViewSchema, TriggerOrdersResult } from '../../wire/results/trigger.ts'
import { Address20 } from '../../wire/schema-types.ts'
import { formatPrice, formatSize } from '../views/market-view.ts'
import { marketFilter, marketRefFields, requireAddress } from './params.ts'
import { method } from './registry.ts'

const AddressMarketParams = Type.Object(
  {
    address: Address20(),
    ...marketRefFields({
      market_id: 'only this market; takes precedence over symbol',
      symbol: 'only this market: symbol or base-asset prefix, case-insensitive',
    }),
  },
  { additionalProperties: false },
)

/** An active trigger as the read methods show it (the triggerUpdates `placed` fields and more). */
export function triggerView(state: ChainState, t: TriggerOrder): Static<typeof TriggerViewSchema> {
  const m = state.markets.get(t.marketId)!
  return {
    trigger_id: t.id,
    market_id: t.marketId,
    symbol: m.symbol,
    side: t.side,
    order_type: t.orderType,
    qty: formatSize(m, t.qtyLots),
    trigger_price: formatPrice(m, t.triggerTicks),
    trigger_direction: t.direction,
    limit_price: t.limitTicks === null ? null : formatPrice(m, t.limitTicks),
    tif: t.tif,
    reduce_only: t.reduceOnly,
    client_order_id: t.clientOrderId ?? null,
    expires_at_ms: t.expiresAtMs,
    pair_id: t.pairId,
    tx_hash: t.txHash,
    placed_height: t.placedHeight,
  }
}

/** An open OCO pair: `armed` with both legs, or `waiting` for its bracket parent to fill. */
export function ocoPairView(state: ChainState, p: OcoPair): Static<typeof OcoPairViewSchema> {
  const m = state.markets.get(p.marketId)!
  return {
    pair_id: p.id,
    client_pair_id: p.clientPairId,
    market_id: p.marketId,
    symbol: m.symbol,
    status: p.limitOrderId === null ? 'waiting' : 'armed',
    side: p.side,
    qty: formatSize(m, p.qtyLots),
    limit_price: formatPrice(m, p.limitTicks),
    stop: {
      trigger_price: formatPrice(m, p.stop.triggerTicks),
      trigger_direction: p.stop.direction,
      order_type: p.stop.orderType,
      limit_price: p.stop.limitTicks === null ? null : formatPrice(m, p.stop.limitTicks),
      expires_at_ms: p.stop.expiresAtMs,
    },
    reduce_only: p.reduceOnly,
    parent_order_id: p.parentOrderId,
    limit_order_id: p.limitOrderId,
    stop_trigger_id: p.stopTriggerId,
    tx_hash: p.txHash,
    placed_height: p.placedHeight,
  }
}

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id

export const triggerMethods = [
  method({
    name: 'getTriggerOrders',
    description: 'Active trigger orders of an address, optionally of one market, in trigger id order.',
    params: AddressMarketParams,
    result: TriggerOrdersResult,
    example: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', symbol: 'BTC' },
    handler: (ctx, p) => {
      const state = ctx.node.state
      const market = marketFilter(state, p)
      const mine = state.triggers.accounts.get(requireAddress(p.address))
      const triggers =
        mine === undefined ? [] : [...mine.triggers.values()].filter((t) => market === undefined || t.marketId === market.marketId)
      return { data: triggers.sort(byId).map((t) => triggerView(state, t)) }
    },
  }),
  method({
    name: 'getOcoPairs',
    description: 'Open OCO pairs and brackets of an address, optionally of one market, in pair id order.',
    params: AddressMarketParams,
    result: OcoPairsResult,
    example: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    handler: (ctx, p) => {
      const state = ctx.node.state
      const market = marketFilter(state, p)
      const mine = state.triggers.accounts.get(requireAddress(p.address))
      const pairs = mine === undefined ? [] : [...mine.pairs.values()].filter((x) => market === undefined || x.marketId === market.marketId)
      return { data: pairs.sort(byId).map((x) => ocoPairView(state, x)) }
    },
  }),
]
