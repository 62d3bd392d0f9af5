// Result schema of getBootstrap (docs/websocket.md#websocket-protocol): the resync read of
// WebSocket clients, markets, books and an account at one height.
import { Type } from '@sinclair/typebox'
import { U53 } from '../schema-types.ts'
import { Nullable, Strict } from './common.ts'
import { MarketListItemSchema } from './market.ts'
import { AccountViewSchema, OpenOrderViewSchema } from './shared-account.ts'
import { OrderbookViewSchema } from './shared-orderbook.ts'

export const BootstrapResult = Strict(
  {
    height: U53('chain height of every part of this reply'),
    timestamp_ms: U53('block time of that height, ms'),
    markets: Type.Array(MarketListItemSchema, { description: 'every market that is not Delisted, by market_id (as getMarkets)' }),
    books: Type.Array(OrderbookViewSchema, { description: 'the book of each listed market, or of the one market named, by market_id' }),
    account: Nullable(AccountViewSchema, 'the account of params.address (as getAccount); null without an address'),
    orders: Type.Array(OpenOrderViewSchema, { description: 'open orders of params.address in order id order; empty without an address' }),
  },
  'markets, books and an account at one height',
)
