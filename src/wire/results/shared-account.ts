// The account views (getAccount and the account push, docs/websocket.md#websocket-protocol): the
// account aggregate, its position rows and open-order rows, shared by getAccount, getPositions,
// getAccountOrders, getOrder, getBootstrap and getOrderStatus.
import { Type } from '@sinclair/typebox'
import { MarginModeSchema } from '../actions/margin.ts'
import { DecimalString, RoleSchema, SideSchema, TifSchema, U32, U53 } from '../schema-types.ts'
import { Address, ByMarketId, Nullable, SignedDecimalString, Strict } from './common.ts'

/** Position fields (docs/liquidation.md#2-where-the-money-sits-and-the-account-figures). */
export const PositionViewSchema = Strict(
  {
    market_id: U32('the market'),
    symbol: Type.String({ minLength: 1, description: 'the market symbol' }),
    mark_price: DecimalString("the market's mark price (px precision): the liquidation and uPnL price"),
    size: SignedDecimalString('signed size (sz precision): long > 0, short < 0'),
    entry_vwap: DecimalString('average entry price of the open size (SCALE_6)'),
    margin_mode: MarginModeSchema,
    leverage: Type.Integer({ minimum: 1, description: 'leverage of the position' }),
    isolated_margin: DecimalString('margin moved into an Isolated position (SCALE_6); 0 for Cross'),
    margin_used: DecimalString('Cross: initial margin at the mark; Isolated: the isolated margin (SCALE_6)'),
    unrealized_pnl: SignedDecimalString('unrealized PnL at the mark (SCALE_6); 0 while the mark is 0'),
    realized_pnl: SignedDecimalString("PnL realized by the position's closing fills (SCALE_6)"),
    notional: DecimalString('|size| x mark (SCALE_6)'),
    liquidation_price: Nullable(
      DecimalString('price (px precision)'),
      'the mark at which the position reaches its maintenance requirement; null when no mark does',
    ),
    roe: SignedDecimalString('return on equity: unrealized_pnl / margin_used as a decimal fraction (6 places)'),
  },
  'an open position',
)

/** An open (resting) order row. */
export const OpenOrderViewSchema = Strict(
  {
    order_id: U53('the order'),
    market_id: U32('the market'),
    symbol: Type.String({ minLength: 1, description: 'the market symbol' }),
    side: SideSchema,
    price: DecimalString('limit price (px precision)'),
    qty: DecimalString('original size (sz precision)'),
    remaining: DecimalString('size still resting (sz precision)'),
    filled: DecimalString('size filled so far (sz precision)'),
    tif: TifSchema,
    reduce_only: Type.Boolean({ description: 'only reduces a position' }),
    client_order_id: Nullable(
      Type.String({ minLength: 1, maxLength: 64, description: "the caller's id" }),
      'the client_order_id it was placed with; null without one',
    ),
    margin_held: DecimalString('initial margin reserved for the order (SCALE_6)'),
    placed_height: U53('height of the block that placed it'),
    expires_at_ms: Type.Optional(U53('block time (ms) after which the order expires; present only for orders placed with an expiry')),
  },
  'an open order',
)

/** The getAccount aggregate (the account push fields of docs/websocket.md#websocket-protocol plus agents and dms_deadline_ms). */
export const AccountViewSchema = Strict(
  {
    address: Address('the account'),
    exists: Type.Boolean({ description: 'whether the chain holds an account at this address (an unknown one reads as zeros)' }),
    agent_of: Nullable(Address('the master'), 'for an agent address, the master account it acts for; null otherwise'),
    nonce: U53('lowest unused nonce of this address as a signer'),
    role_mask: U32('roles as a bit mask: Admin 1, Trader 2, Quoter 4, Liquidator 8, BridgeDeposit 16, BridgeWithdraw 32'),
    roles: Type.Array(RoleSchema, { description: 'the roles of role_mask, by name' }),
    balance: SignedDecimalString('cross balance (SCALE_6); negative only while Cross positions back a loss'),
    account_value: SignedDecimalString('balance + isolated margins + sum of uPnL (SCALE_6); a market with mark 0 counts uPnL 0'),
    total_margin_used: DecimalString('Cross initial margin of positions + margin held by open orders + isolated margins (SCALE_6)'),
    total_notional: DecimalString('sum of position notionals at the mark (SCALE_6)'),
    withdrawable: DecimalString(
      'display approximation: max(0, account_value - total_margin_used) (SCALE_6); includes uPnL, not the on-chain withdraw limit',
    ),
    cross_cash_available: SignedDecimalString(
      'balance - Cross initial margin - margin held by orders (SCALE_6), excludes uPnL; may be negative; basis for withdraw, isolated transfer and reduce-only admission',
    ),
    cross_trading_available: SignedDecimalString(
      'cross_cash_available + Cross uPnL (SCALE_6); may be negative; basis for opening or adding Cross positions',
    ),
    open_orders: U53('resting orders of the account'),
    frozen: Type.Boolean({ description: 'an Admin froze the account: it may only cancel and reduce, and moves no money out' }),
    positions: ByMarketId(PositionViewSchema, 'open positions by market id; only markets with size != 0'),
    margin_settings: ByMarketId(
      Strict(
        {
          leverage: Type.Integer({ minimum: 1, description: 'leverage of the next position opened in the market' }),
          margin_mode: MarginModeSchema,
        },
        'the leverage and margin mode set for a market',
      ),
      'leverage and margin mode set per market by UpdateLeverage / UpdateMarginMode, kept while flat',
    ),
    agents: Type.Array(
      Strict(
        {
          address: Address('the agent'),
          role: RoleSchema,
          name: Type.String({ maxLength: 32, description: "the agent's name" }),
        },
        'an agent of the account',
      ),
      { description: 'agents registered by this account' },
    ),
    dms_deadline_ms: Nullable(
      U53('block time (ms)'),
      "dead man's switch: at the first block past this time every resting order is cancelled; null when off",
    ),
  },
  'an account (getAccount)',
)
