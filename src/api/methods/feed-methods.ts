// getBootstrap (spec §4.6): markets, books and an account in one call, at one height. It is what a
// WebSocket client reads to (re)build its state after connecting, after a disconnect, and after a
// gap frame (spec §6.1): the live market list, each market's book, and when an address is given
// its account aggregate and open orders.
import { Type } from '@sinclair/typebox'
import { resolveMarketRef } from '../../chain/symbols.ts'
import type { Market } from '../../chain/types.ts'
import { normalizeAddress } from '../../lib/hex.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import { Address20, U32 } from '../../wire/schema-types.ts'
import { accountView, openOrderView } from '../views/account-view.ts'
import { marketListItem } from '../views/market-view.ts'
import { orderbookView } from '../views/orderbook-view.ts'
import { method, MethodError } from './registry.ts'

/** Book levels per side in a bootstrap: default and maximum. */
export const BOOTSTRAP_DEPTH_DEFAULT = 20
export const BOOTSTRAP_DEPTH_MAX = 50

export const feedMethods = [
  method({
    name: 'getBootstrap',
    description: 'Markets, books and (with address) the account and its open orders in one call, at one height: the resync read of WebSocket clients.',
    params: Type.Object({
      address: Type.Optional(Address20('the account to include')),
      market_id: Type.Optional(U32('only this market\'s book (takes precedence over symbol)')),
      symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'only this market\'s book; symbol or base-asset prefix' })),
      depth: Type.Optional(Type.Integer({ minimum: 0, description: `book levels per side; 0 = ${BOOTSTRAP_DEPTH_DEFAULT}; clamped to ${BOOTSTRAP_DEPTH_MAX}` })),
    }, { additionalProperties: false }),
    handler: (ctx, p) => {
      const state = ctx.node.state
      const depth = p.depth === undefined || p.depth === 0 ? BOOTSTRAP_DEPTH_DEFAULT : Math.min(p.depth, BOOTSTRAP_DEPTH_MAX)
      const live = [...state.markets.values()].filter((m) => m.lifecycle !== 'Delisted').sort((a, b) => a.marketId - b.marketId)
      let bookMarkets: Market[] = live
      if (p.market_id !== undefined || p.symbol !== undefined) {
        const m = resolveMarketRef(state, p)
        if (m === undefined) throw new MethodError(RPC.invalidParams, `market ${p.market_id ?? JSON.stringify(p.symbol)} not found`, { field: p.market_id !== undefined ? 'params.market_id' : 'params.symbol', reason: 'MarketNotFound' })
        bookMarkets = [m]
      }
      let address: string | undefined
      if (p.address !== undefined) {
        address = normalizeAddress(p.address)
        if (address === undefined) throw new MethodError(RPC.invalidParams, 'params.address: not a 20-byte hex address', { field: 'params.address' })
      }
      const account = address === undefined ? undefined : state.accounts.get(address)
      return {
        data: {
          height: state.height,
          timestamp_ms: state.timestampMs,
          markets: live.map(marketListItem),
          books: bookMarkets.map((m) => orderbookView(m, state.books.get(m.marketId)!, depth, state.height)),
          account: address === undefined ? null : accountView(state, address),
          orders: account === undefined ? [] : [...account.orders.values()].sort((a, b) => a.id - b.id).map((o) => openOrderView(state, o)),
        },
      }
    },
  }),
]
