// getBootstrap (docs/rpc.md#getbootstrap): markets, books and an account in one call, at one
// height. It is what a WebSocket client reads to (re)build its state after connecting, after a
// disconnect, and after a gap frame (docs/websocket.md#websocket-protocol): the live market list,
// each market's book, and when an address is given its account aggregate and open orders.
import { Type } from '@sinclair/typebox'
import { BootstrapResult } from '../../wire/results/feed.ts'
import { Address20 } from '../../wire/schema-types.ts'
import { accountView, openOrderView } from '../views/account-view.ts'
import { liveMarkets, marketListItem } from '../views/market-view.ts'
import { orderbookView } from '../views/orderbook-view.ts'
import { marketFilter, marketRefFields, requireAddress } from './params.ts'
import { method } from './registry.ts'

/** Book levels per side in a bootstrap: default and maximum. */
export const BOOTSTRAP_DEPTH_DEFAULT = 20
export const BOOTSTRAP_DEPTH_MAX = 50

export const feedMethods = [
  method({
    name: 'getBootstrap',
    description:
      'Markets, books and (with address) the account and its open orders in one call, at one height: the resync read of WebSocket clients.',
    params: Type.Object(
      {
        address: Type.Optional(Address20('the account to include')),
        ...marketRefFields({
          market_id: "only this market's book (takes precedence over symbol)",
          symbol: "only this market's book; symbol or base-asset prefix",
        }),
        depth: Type.Optional(
          Type.Integer({
            minimum: 0,
            description: `book levels per side; 0 = ${BOOTSTRAP_DEPTH_DEFAULT}; clamped to ${BOOTSTRAP_DEPTH_MAX}`,
          }),
        ),
      },
      { additionalProperties: false },
    ),
    result: BootstrapResult,
    example: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', symbol: 'BTC', depth: 10 },
    handler: (ctx, p) => {
      const state = ctx.node.state
      const depth = p.depth === undefined || p.depth === 0 ? BOOTSTRAP_DEPTH_DEFAULT : Math.min(p.depth, BOOTSTRAP_DEPTH_MAX)
      const live = liveMarkets(state)
      const named = marketFilter(state, p, { quoteSymbol: true })
      const bookMarkets = named === undefined ? live : [named]
      const address = p.address === undefined ? undefined : requireAddress(p.address)
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
