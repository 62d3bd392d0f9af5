// Every /query method on a real dev node after the trading scenario of docs/rpc.md: one test per
// method of the table, called with its example params (the scenario's ids in place), the whole reply
// checked against the wrapper and the method's result schema, and its values against what the
// scenario makes certain. A method without a check, or without a result schema, fails. Then the
// framing limits and error codes of the read API.
import { beforeAll, describe, expect, test } from 'bun:test'
import { resultWrapperSchema } from '../../src/api/methods/openrpc.ts'
import { queryMethodTable } from '../../src/api/routes/query-routes.ts'
import type { QueryResult } from '../../src/client/rpc-client.ts'
import { DEV_ADMIN } from '../../src/node/dev-genesis.ts'
import { ACTION_KINDS } from '../../src/wire/actions.ts'
import { compileValidator } from '../../src/wire/validate.ts'
import { startDevNodeForFile } from '../support/dev-node.ts'
import { BTC, exampleParams, NEWCOMER, PAYOUT, type RpcScenario, runRpcScenario, waitForHistory, XAU } from '../support/rpc-scenario.ts'

const { node, rpc } = await startDevNodeForFile({ blockTimeMs: 40 })
let s: RpcScenario

beforeAll(async () => {
  s = await runRpcScenario(node.url)
  await waitForHistory(node.url, s)
}, 30_000)

// The checks read replies whose shapes the result schemas have already checked.
type Reply = QueryResult<any>

const anyHeight = expect.any(Number)
const anyTime = expect.any(Number)

/** The trader's BTC position: 0.2 and 0.01 at 64000 as maker, 0.1 at 65000 as taker; mark 64000. */
const traderPosition = () => ({
  market_id: BTC,
  symbol: 'BTC-USD',
  mark_price: '64000',
  size: '0.31',
  entry_vwap: '64322.580645',
  margin_mode: 'Cross',
  leverage: 20,
  isolated_margin: '0',
  margin_used: '992',
  unrealized_pnl: '-100',
  realized_pnl: '0',
  notional: '19840',
  liquidation_price: null,
  roe: '-0.100806',
})
/** The trader's resting bid: 64000 x 0.5, 0.21 filled; it holds 0.29 x 64000 / 20 of margin. */
const restingBid = () => ({
  order_id: s.restingOrderId,
  market_id: BTC,
  symbol: 'BTC-USD',
  side: 'Bid',
  price: '64000',
  qty: '0.5',
  remaining: '0.29',
  filled: '0.21',
  tif: 'Gtc',
  reduce_only: false,
  client_order_id: 'doc-bid',
  margin_held: '928',
  placed_height: anyHeight,
})
/** The limit leg of the trader's OCO pair. */
const pairAsk = () => ({
  order_id: s.pairOrderId,
  market_id: BTC,
  symbol: 'BTC-USD',
  side: 'Ask',
  price: '70000',
  qty: '0.1',
  remaining: '0.1',
  filled: '0',
  tif: 'Gtc',
  reduce_only: true,
  client_order_id: null,
  margin_held: '0',
  placed_height: anyHeight,
})
const btcBook = () => ({
  bids: [{ price: '64000', qty: '0.29', cumulative_qty: '0.29', orders: 1 }],
  asks: [
    { price: '65000', qty: '0.1', cumulative_qty: '0.1', orders: 1 },
    { price: '70000', qty: '0.1', cumulative_qty: '0.2', orders: 1 },
  ],
})
/**
 * The trader's account. Fees: maker 2 bps of 12800 and 640, taker 5 bps of 6500; 20% of each comes
 * back as rebates, half to the trader: 1e6 - 2.56 - 0.128 - 3.25 + 0.256 + 0.0128 + 0.325 - 125.5
 * (the withdrawal) = 999869.1558; uPnL 0.31 x 64000 - 19940 = -100.
 */
const traderAccount = () => ({
  address: s.trader,
  exists: true,
  agent_of: null,
  nonce: 9,
  role_mask: 2,
  roles: ['Trader'],
  balance: '999869.1558',
  account_value: '999769.1558',
  total_margin_used: '1920',
  total_notional: '19840',
  withdrawable: '997849.1558',
  cross_cash_available: '997949.1558',
  cross_trading_available: '997849.1558',
  open_orders: 2,
  frozen: false,
  positions: { [String(BTC)]: traderPosition() },
  margin_settings: {},
  agents: [{ address: s.agent, role: 'Trader', name: 'desk' }],
  dms_deadline_ms: null,
})
/** A fill of the trader as the history reads show it. */
const traderFill = (
  orderId: number,
  clientOrderId: string,
  price: string,
  qty: string,
  notional: string,
  fee: string,
  isTaker: boolean,
  counterparty: string,
) => ({
  block_height: anyHeight,
  event_seq: expect.any(Number),
  timestamp_ms: anyTime,
  market_id: BTC,
  symbol: 'BTC-USD',
  order_id: orderId,
  client_order_id: clientOrderId,
  price,
  qty,
  notional,
  fee,
  is_taker: isTaker,
  aggressor_side: isTaker ? 'Bid' : 'Ask',
  side: 'Bid',
  realized_pnl: '0',
  counterparty,
  position_action: 'open_long',
})
const traderFills = () => [
  traderFill(s.restingOrderId, 'doc-bid', '64000', '0.2', '12800', '2.56', false, s.counterparty),
  { ...traderFill(s.takerOrderId, 'doc-lift', '65000', '0.1', '6500', '3.25', true, s.counterparty), block_height: s.takerHeight },
  traderFill(s.restingOrderId, 'doc-bid', '64000', '0.01', '640', '0.128', false, s.markMover),
]
const stopTrigger = () => ({
  trigger_id: s.stopTriggerId,
  market_id: BTC,
  symbol: 'BTC-USD',
  side: 'Ask',
  order_type: 'market',
  qty: '0.1',
  trigger_price: '60000',
  trigger_direction: 'Below',
  limit_price: null,
  tif: 'Ioc',
  reduce_only: true,
  client_order_id: 'doc-stop',
  expires_at_ms: null,
  pair_id: null,
  tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
  placed_height: anyHeight,
})
const btcSettings = {
  maker_fee_bps: 2,
  taker_fee_bps: 5,
  max_leverage: 50,
  initial_margin_bps: 200,
  maintenance_margin_bps: 100,
  liquidation_penalty_bps: 50,
  min_order_qty: '0.0001',
  fee_recipient: DEV_ADMIN,
  max_fills_per_quote: 16,
}
/** The events of the trader's lift: the fill, the referral rebate and its two payouts, the done order. */
const LIFT_EVENTS = ['OrderAccepted', 'Filled', 'RebatePaid', 'BalanceChanged', 'BalanceChanged', 'OrderDone']

const checks: Record<string, (r: Reply) => void> = {
  getHealth: (r) => expect(r.data).toEqual({ status: 'ok', height: r.height }),
  getExchangeConfig: (r) =>
    expect(r.data).toEqual({
      network: 'dev',
      action_version: 2,
      max_decimals: 6,
      max_tx_per_block: 2000,
      settlement_paused: false,
      global_rebate_ratio_bps: 2000,
      market_count: 4,
      nonce_window: 64,
    }),
  getExchangeStats: (r) => {
    // 10 dev accounts, Book B and the deposit's newcomer; OI notional 0.41 x 64000 + 1 x 2400.
    expect(r.data).toMatchObject({ market_count: 4, account_count: 12, open_orders: 3, total_open_interest_notional: '28640' })
    expect(
      r.data.markets.map((m: Record<string, unknown>) => [
        m.symbol,
        m.mark_price,
        m.open_interest,
        m.open_interest_notional,
        m.open_orders,
      ]),
    ).toEqual([
      ['BTC-USD', '64000', '0.41', '26240', 3],
      ['ETH-USD', '3500', '0', '0', 0],
      ['SOL-USD', '150', '0', '0', 0],
      ['XAU-USD', '2400', '1', '2400', 0],
    ])
  },
  getActionsMeta: (r) => {
    expect(r.data.action_version).toBe(2)
    expect(r.data.actions.map((a: { name: string }) => a.name)).toEqual(ACTION_KINDS.map((k) => k.name))
    expect(r.data.actions.find((a: { name: string }) => a.name === 'PlaceOrder')).toMatchObject({
      auth: 'master_or_agent_with_role',
      role: 'Trader',
      master_only: false,
    })
  },
  getOrderbook: (r) => expect(r.data).toEqual({ market_id: BTC, symbol: 'BTC-USD', height: r.height, ...btcBook() }),
  getAccount: (r) => expect(r.data).toEqual(traderAccount()),
  getAccountOrders: (r) => expect(r.data).toEqual([restingBid(), pairAsk()]),
  getTx: (r) => {
    expect(r.data).toMatchObject({
      height: s.takerHeight,
      tx_hash: s.takerTxHash,
      signer: s.trader,
      nonce: 2,
      status: 'accepted',
      action_kind: 'PlaceOrder',
      market_id: BTC,
      symbol: 'BTC-USD',
      reason: null,
      action: {
        PlaceOrder: {
          market_id: BTC,
          side: 'Bid',
          price: '65000',
          qty: '0.1',
          tif: 'Ioc',
          reduce_only: false,
          client_order_id: 'doc-lift',
        },
      },
    })
    expect(r.data.events.map((e: { sub_kind: string }) => e.sub_kind)).toEqual(LIFT_EVENTS)
    expect(r.data.events[1].body).toMatchObject({
      taker: s.trader,
      maker: s.counterparty,
      taker_order_id: s.takerOrderId,
      price: '65000',
      qty: '0.1',
      notional: '6500',
      taker_fee: '3.25',
      maker_fee: '1.3',
      taker_size_before: '0.2',
      taker_size_after: '0.3',
    })
    expect(r.data.events[2].body).toMatchObject({ inviter: s.inviter, fee: '3.25', rebate_to_inviter: '0.325', rebate_to_invitee: '0.325' })
  },
  getBlock: (r) => {
    expect(r.data).toMatchObject({ height: s.takerHeight, envelope_count: 1, event_count: LIFT_EVENTS.length })
    expect(r.data.envelopes).toEqual([
      expect.objectContaining({
        height: s.takerHeight,
        envelope_idx: 0,
        tx_hash: s.takerTxHash,
        signer: s.trader,
        status: 'accepted',
        action_kind: 'PlaceOrder',
      }),
    ])
  },
  getMarkets: (r) => {
    expect(r.data.map((m: Record<string, unknown>) => [m.market_id, m.symbol, m.routing, m.mark_price, m.open_interest])).toEqual([
      [1, 'BTC-USD', 'native', '64000', '0.41'],
      [2, 'ETH-USD', 'native', '3500', '0'],
      [3, 'SOL-USD', 'native', '150', '0'],
      [4, 'XAU-USD', 'external_peg', '2400', '1'],
    ])
    expect(r.data[0]).toMatchObject({
      lifecycle: 'Active',
      emergency_halt: false,
      halt_reason: null,
      open_interest_notional: '26240',
      price_decimals: 1,
      size_decimals: 4,
    })
  },
  getMarket: (r) =>
    expect(r.data).toMatchObject({
      market_id: BTC,
      symbol: 'BTC-USD',
      lifecycle: 'Active',
      mark_price: '64000',
      open_interest: '0.41',
      open_interest_notional: '26240',
      ...btcSettings,
      best_bid: '64000',
      best_ask: '65000',
      last_trade_price: '64000',
      open_orders: 3,
      latest_quote: null,
    }),
  getMarketById: (r) => {
    // XAU: the last quote (its freshness, and so the lifecycle, depends on the clock) and the buy at its ask.
    expect(r.data).toMatchObject({
      market_id: XAU,
      symbol: 'XAU-USD',
      routing: 'external_peg',
      mark_price: '2400',
      open_interest: '1',
      last_trade_price: '2400.5',
      taker_fee_bps: 3,
    })
    expect(r.data.latest_quote).toMatchObject({
      bid_price: '2399.5',
      ask_price: '2400.5',
      mark_price: '2400',
      fills_on_quote: 1,
      last_price: null,
      volume: null,
    })
  },
  getMarketSummary: (r) =>
    expect(r.data).toMatchObject({
      market_id: BTC,
      symbol: 'BTC-USD',
      mark_price: '64000',
      best_bid: '64000',
      best_ask: '65000',
      spread: '1000',
      open_interest: '0.41',
      open_interest_notional: '26240',
      bid_levels: 1,
      ask_levels: 2,
      open_orders: 3,
      day_ntl_volume: '26440',
      day_base_volume: '0.41',
    }),
  getMarketSettings: (r) =>
    expect(r.data).toMatchObject({
      market_id: BTC,
      symbol: 'BTC-USD',
      routing: 'native',
      price_decimals: 1,
      size_decimals: 4,
      ...btcSettings,
    }),
  getAllBBOs: (r) =>
    expect(r.data).toEqual([
      { symbol: 'BTC-USD', bid: '64000', ask: '65000', spread: '1000' },
      { symbol: 'ETH-USD', bid: null, ask: null, spread: null },
      { symbol: 'SOL-USD', bid: null, ask: null, spread: null },
      { symbol: 'XAU-USD', bid: '2399.5', ask: '2400.5', spread: '1' },
    ]),
  getAllMarks: (r) => expect(r.data).toEqual({ 'BTC-USD': '64000', 'ETH-USD': '3500', 'SOL-USD': '150', 'XAU-USD': '2400' }),
  getOracleQuote: (r) => {
    expect(r.data).toMatchObject({
      market_id: XAU,
      symbol: 'XAU-USD',
      routing: 'external_peg',
      consecutive_rejects: 0,
      max_fills_per_quote: 16,
      max_quote_lag_ms: 10_000,
      min_quote_interval_ms: 100,
      max_quote_change_bps: 500,
      min_quote_price: '100',
      max_quote_price: '100000',
      max_quote_spread_bps: 200,
    })
    expect(r.data.quote).toMatchObject({ bid_price: '2399.5', ask_price: '2400.5', mark_price: '2400', fills_on_quote: 1 })
  },
  // Book B sold 1 at 2400.5; at the mark 2400 it is 0.5 up.
  getMarketStats: (r) =>
    expect(r.data).toMatchObject({
      market_id: XAU,
      symbol: 'XAU-USD',
      long_size: '1',
      short_size: '0',
      net_size: '1',
      oracle_counter_pnl: '0.5',
      open_interest: '1',
      open_interest_notional: '2400',
    }),
  getAdminAuditLog: (r) => {
    expect(r.data).toEqual([
      {
        block_height: s.firstHeight,
        event_seq: 0,
        timestamp_ms: anyTime,
        signer: s.admin,
        event: expect.objectContaining({
          kind: 'Ops',
          sub_kind: 'GlobalRebateRatioChanged',
          body: expect.objectContaining({ old_ratio_bps: 1000, new_ratio_bps: 2000 }),
        }),
      },
    ])
    expect(r.page).toMatchObject({ offset: 0, has_more: false })
  },
  // 0.1 at 65000 on 50x: 130 of margin; at 64000 it has lost 100; maintenance 1% of 6400.
  getLiquidatablePositions: (r) =>
    expect(r.data).toEqual([
      {
        address: s.leveraged,
        market_id: BTC,
        symbol: 'BTC-USD',
        margin_mode: 'Isolated',
        size: '0.1',
        mark_price: '64000',
        margin_used: '130',
        isolated_margin: '130',
        unrealized_pnl: '-100',
        maintenance: '64',
        equity: '30',
        maintenance_required: '64',
        account_value: '999896.75',
        liquidation_price: '64343.4',
      },
    ]),
  getTriggerOrders: (r) =>
    expect(r.data).toEqual([
      stopTrigger(),
      { ...stopTrigger(), trigger_id: s.pairTriggerId, trigger_price: '58000', client_order_id: null, pair_id: s.pairId },
    ]),
  getOcoPairs: (r) =>
    expect(r.data).toEqual([
      {
        pair_id: s.pairId,
        client_pair_id: 7,
        market_id: BTC,
        symbol: 'BTC-USD',
        status: 'armed',
        side: 'Ask',
        qty: '0.1',
        limit_price: '70000',
        stop: { trigger_price: '58000', trigger_direction: 'Below', order_type: 'market', limit_price: null, expires_at_ms: null },
        reduce_only: true,
        parent_order_id: null,
        limit_order_id: s.pairOrderId,
        stop_trigger_id: s.pairTriggerId,
        tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        placed_height: anyHeight,
      },
    ]),
  getWithdrawals: (r) =>
    expect(r.data).toEqual([
      {
        withdrawal_id: s.withdrawalId,
        destination: PAYOUT,
        amount: '125.5',
        requested_height: anyHeight,
        requested_at_ms: anyTime,
        status: 'pending',
        claimed_by: null,
        claimed_height: null,
      },
    ]),
  // Rebates to the trader: half of 20% of 2.56, 3.25 and 0.128.
  getReferral: (r) =>
    expect(r.data).toEqual({
      address: s.trader,
      inviter: s.inviter,
      invitees: 0,
      rebates_earned: '0',
      rebates_received: '0.5938',
      global_rebate_ratio_bps: 2000,
    }),
  getBootstrap: (r) => {
    expect(r.data.markets.map((m: { symbol: string }) => m.symbol)).toEqual(['BTC-USD', 'ETH-USD', 'SOL-USD', 'XAU-USD'])
    expect(r.data.books).toEqual([{ market_id: BTC, symbol: 'BTC-USD', height: r.data.height, ...btcBook() }])
    expect(r.data.account).toEqual(traderAccount())
    expect(r.data.orders).toEqual([restingBid(), pairAsk()])
  },
  getCandles: (r) => {
    // Four BTC trades; the scenario may straddle a minute, so the candles are summed.
    const candles = r.data as { high: string; low: string; volume: string; trades: number }[]
    expect(candles.reduce((n, c) => n + c.trades, 0)).toBe(4)
    expect(candles.reduce((v, c) => v + Number(c.volume), 0)).toBeCloseTo(0.41, 9)
    expect(Math.max(...candles.map((c) => Number(c.high)))).toBe(65000)
    expect(Math.min(...candles.map((c) => Number(c.low)))).toBe(64000)
    expect(candles.at(-1)).toMatchObject({ close: '64000' })
  },
  getUserFills: (r) => {
    expect(r.data).toEqual(traderFills().reverse())
    expect(r.page).toMatchObject({ has_more: false, next_cursor: null })
  },
  getUserFillsSince: (r) => expect(r.data).toEqual(traderFills()),
  getOrderFills: (r) => expect(r.data).toEqual([traderFills()[0], traderFills()[2]]),
  getOrderStatus: (r) =>
    expect(r.data).toEqual({
      status: 'open',
      source: 'chain',
      owner: s.trader,
      ...restingBid(),
      close_reason: null,
      closed_height: null,
      closed_timestamp_ms: null,
    }),
  // The taker's side: the counterparty and the mark-setting sale sold; the trader and the 50x long bought.
  getRecentTrades: (r) =>
    expect(r.data.map((t: Record<string, unknown>) => [t.price, t.qty, t.notional, t.side])).toEqual([
      ['64000', '0.01', '640', 'Ask'],
      ['65000', '0.1', '6500', 'Bid'],
      ['65000', '0.1', '6500', 'Bid'],
      ['64000', '0.2', '12800', 'Ask'],
    ]),
  // Notional of the trader's fills: 12800 + 6500 + 640; nine envelopes signed.
  getUserRateLimit: (r) =>
    expect(r.data).toEqual({ address: s.trader, cum_vlm: '19940', n_requests_used: 9, n_requests_cap: 2000, window_blocks: 10_000 }),
  getNonce: (r) => expect(r.data).toEqual({ address: s.trader, nonce: 9, window: 64, used_above: [] }),
  getAgents: (r) =>
    expect(r.data).toEqual({ address: s.trader, agent_of: null, agents: [{ address: s.agent, role: 'Trader', name: 'desk' }] }),
  getRoleHolders: (r) => expect(r.data).toEqual({ role: 'Admin', accounts: [DEV_ADMIN], truncated: false }),
  getRoles: (r) => expect(r.data).toEqual({ address: s.trader, role_mask: 2, roles: ['Trader'] }),
  getOrder: (r) => expect(r.data).toEqual({ ...restingBid(), owner: s.trader }),
  getTrigger: (r) => expect(r.data).toEqual(stopTrigger()),
  getPositions: (r) => expect(r.data).toEqual([traderPosition()]),
  getPosition: (r) => expect(r.data).toEqual(traderPosition()),
  getFeeSchedule: (r) =>
    expect(r.data).toEqual({
      global_rebate_ratio_bps: 2000,
      markets: [{ market_id: BTC, symbol: 'BTC-USD', maker_fee_bps: 2, taker_fee_bps: 5, fee_recipient: DEV_ADMIN }],
    }),
  // The dev Admin is the insurance fund and the fee recipient: every fee of the scenario (19.22815)
  // less the rebates paid out (1.1876).
  getInsuranceFund: (r) => expect(r.data).toEqual({ address: DEV_ADMIN, balance: '1000018.04055' }),
  getPendingWithdrawals: (r) => {
    expect(r.data).toEqual([
      {
        withdrawal_id: s.withdrawalId,
        account: s.trader,
        destination: PAYOUT,
        amount: '125.5',
        requested_height: anyHeight,
        requested_at_ms: anyTime,
        status: 'pending',
        claimed_by: null,
        claimed_height: null,
      },
    ])
    expect(r.page).toMatchObject({ has_more: false, next_cursor: null })
  },
  getBlocks: (r) => {
    const heights = r.data.map((b: { height: number }) => b.height)
    expect(heights).toHaveLength(10)
    expect(heights).toEqual(heights.map((_: number, i: number) => heights[0] - i))
    expect(heights[0]).toBeGreaterThanOrEqual(s.lastHeight)
    expect(r.data.every((b: { envelopes: unknown[] }) => b.envelopes.length === 0)).toBe(true)
    expect(r.page).toMatchObject({ has_more: true, next_cursor: String(heights[9]) })
  },
  getBlockEvents: (r) => {
    expect(r.data.map((e: { sub_kind: string }) => e.sub_kind)).toEqual(LIFT_EVENTS)
    expect(r.data.every((e: { height: number; envelope_idx: number }) => e.height === s.takerHeight && e.envelope_idx === 0)).toBe(true)
    expect(r.page).toMatchObject({ offset: 0, total: LIFT_EVENTS.length, has_more: false })
  },
  getChainInfo: (r) => {
    expect(r.data).toMatchObject({
      network: 'dev',
      action_version: 2,
      max_tx_per_block: 2000,
      nonce_window: 64,
      market_count: 4,
      account_count: 12,
    })
    expect(r.data.height).toBeGreaterThanOrEqual(s.lastHeight)
  },
}

const methods = [...queryMethodTable.values()]

describe('every read method on the scenario', () => {
  test('every method has a result schema and a check here; every check names a method', () => {
    expect(methods.filter((m) => m.result === undefined).map((m) => m.name)).toEqual([])
    expect(methods.filter((m) => checks[m.name] === undefined).map((m) => m.name)).toEqual([])
    expect(Object.keys(checks).filter((name) => !queryMethodTable.has(name))).toEqual([])
  })

  for (const m of methods) {
    const wrapper = compileValidator(resultWrapperSchema(m))
    test(m.name, async () => {
      const check = checks[m.name]
      if (check === undefined) throw new Error(`no check for ${m.name}: add one to checks`)
      // rpc is a CheckedRpcClient: data is checked against the result schema; here the whole wrapper too.
      const r = await rpc.query(m.name, exampleParams(m, s))
      expect(wrapper.validate(r, 'result')).toEqual({ ok: true })
      expect(r.height).toBeLessThanOrEqual(r.chain_height)
      expect(r.stale).toBe(r.height < r.chain_height)
      check(r)
    })
  }

  test('a deposit opens a Trader account; the cancelled order is closed in the hot cache', async () => {
    expect((await rpc.query('getAccount', { address: NEWCOMER })).data).toMatchObject({ exists: true, balance: '2500', roles: ['Trader'] })
    expect((await rpc.query('getOrderStatus', { order_id: s.cancelledOrderId })).data).toMatchObject({
      status: 'closed',
      source: 'hot_cache',
      order_id: s.cancelledOrderId,
      close_reason: 'cancelled',
      remaining: '0.01',
      filled: '0',
    })
  })
})

/** POSTs a raw body to /api/v1/query. */
async function post(body: string) {
  const res = await fetch(`${node.url}/api/v1/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return {
    status: res.status,
    json: (await res.json()) as { id?: unknown; error?: { code: number; data?: Record<string, unknown> } } & unknown[],
  }
}
const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params })

describe('framing, limits and error codes', () => {
  test('-32700: a body that is not JSON', async () => {
    const r = await post('{"jsonrpc":"2.0",')
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ id: null, error: { code: -32700, data: { reason: 'PARSE_ERROR' } } })
  })

  test('-32600: a batch of 20 is answered in order; 21 are refused whole; an empty batch and a non-request too', async () => {
    const twenty = await post(JSON.stringify(Array.from({ length: 20 }, (_, i) => request(i, 'getHealth'))))
    expect(twenty.json.map((r) => (r as { id: number }).id)).toEqual(Array.from({ length: 20 }, (_, i) => i))
    const tooMany = await post(JSON.stringify(Array.from({ length: 21 }, (_, i) => request(i, 'getHealth'))))
    expect(tooMany.status).toBe(200)
    expect(tooMany.json).toMatchObject({ id: null, error: { code: -32600, data: { reason: 'BATCH_TOO_LARGE', max: 20 } } })
    expect((await post('[]')).json).toMatchObject({ error: { code: -32600 } })
    expect((await post(JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'getHealth' }))).json).toMatchObject({
      id: 7,
      error: { code: -32600, data: { field: 'jsonrpc' } },
    })
  })

  test('-32601: an unknown method; the other items of its batch are answered', async () => {
    const r = await post(JSON.stringify([request(1, 'getNothing'), request(2, 'getHealth')]))
    expect(r.json[0]).toMatchObject({ id: 1, error: { code: -32601, data: { reason: 'METHOD_NOT_FOUND' } } })
    expect(r.json[1]).toMatchObject({ id: 2, result: { data: { status: 'ok' } } })
  })

  test('-32602: params the schema refuses name the field; a market that does not exist is MarketNotFound', async () => {
    expect((await post(JSON.stringify(request(1, 'getOrderbook', { symbol: 'BTC', depth: -1 })))).json).toMatchObject({
      error: { code: -32602, data: { reason: 'INVALID_PARAMS', field: 'params.depth' } },
    })
    expect((await post(JSON.stringify(request(1, 'getHealth', { extra: 1 })))).json).toMatchObject({ error: { code: -32602 } })
    expect((await post(JSON.stringify(request(1, 'getMarket', { symbol: 'NOSUCH' })))).json).toMatchObject({
      error: { code: -32602, data: { reason: 'MarketNotFound', field: 'params.symbol' } },
    })
    // market_id takes precedence over symbol (docs/markets.md#symbol-resolution).
    const both = await rpc.query<{ symbol: string }>('getMarket', { market_id: XAU, symbol: 'BTC' })
    expect(both.data.symbol).toBe('XAU-USD')
  })

  test('offset above 1000 on getOrderFills is HTTP 400 with -32602 OFFSET_TOO_DEEP; 1000 is answered', async () => {
    const deep = await post(JSON.stringify(request(1, 'getOrderFills', { order_id: s.restingOrderId, offset: 1001 })))
    expect(deep.status).toBe(400)
    expect(deep.json).toMatchObject({ id: 1, error: { code: -32602, data: { reason: 'OFFSET_TOO_DEEP', field: 'params.offset' } } })
    const edge = await rpc.query<unknown[]>('getOrderFills', { order_id: s.restingOrderId, offset: 1000 })
    expect(edge.data).toEqual([])
  })
})
