// CreateMarket, ActivateMarket, AmendMarketConfig, SetFeeRecipient through applyBlock.
import { describe, expect, test } from 'bun:test'
import { amend, setFeeRecipient } from '../../../test/support/chain/markets.ts'
import {
  ADMIN,
  ALICE,
  activateMarket,
  BOB,
  BTC,
  createMarket,
  ev,
  place,
  runRows,
  SOL,
  TestChain,
  XAU,
} from '../../../test/support/chain/test-chain.ts'
import { resolveSymbol } from '../../wire/symbols.ts'

describe('CreateMarket', () => {
  test('a free requested id is taken; a taken one advances to max(requested, max + 1); symbols unique; only an Admin master', () => {
    const chain = new TestChain()
    runRows(chain, [
      { by: ALICE, action: createMarket({ symbol: 'DOGE-USD' }), expect: { reject: 'Unauthorized' } },
      {
        by: ADMIN,
        action: createMarket({ symbol: 'DOGE-USD', market_id: 10 }),
        expect: [ev('MarketCreated', { market_id: 10, requested_market_id: 10, symbol: 'DOGE-USD', account: ADMIN })],
      },
      // 5 was never used: it is free, and ids are never reused only once taken.
      {
        by: ADMIN,
        action: createMarket({ symbol: 'PEPE-USD', market_id: 5 }),
        expect: [ev('MarketCreated', { market_id: 5, requested_market_id: 5 })],
      },
      // 3 is taken: max(3, 10 + 1).
      {
        by: ADMIN,
        action: createMarket({ symbol: 'BONK-USD', market_id: 3 }),
        expect: [ev('MarketCreated', { market_id: 11, requested_market_id: 3 })],
      },
      {
        by: ADMIN,
        action: createMarket({ symbol: 'WIF-USD' }),
        expect: [ev('MarketCreated', { market_id: 12, requested_market_id: null })],
      },
      { by: ADMIN, action: createMarket({ symbol: 'BTC-USD', market_id: 20 }), expect: { reject: 'MarketAlreadyExists' } },
      // A longer symbol that merely starts like an existing one is a different market.
      { by: ADMIN, action: createMarket({ symbol: 'BTC-USDT' }), expect: [ev('MarketCreated', { market_id: 13 })] },
      {
        by: ADMIN,
        action: createMarket({ symbol: 'BAD-USD', price_decimals: 12, size_decimals: 7 }),
        expect: { reject: 'InvalidMarketConfig' },
      },
      {
        by: ADMIN,
        action: createMarket({ symbol: 'BAD-USD', maintenance_margin_bps: 500, max_leverage: 20 }),
        expect: { reject: 'InvalidMarketConfig' },
      },
      { by: ADMIN, action: createMarket({ symbol: 'BAD-USD', max_fills_per_quote: 0 }), expect: { reject: 'InvalidMaxFillsPerQuote' } },
      { by: ADMIN, action: createMarket({ symbol: 'BAD-USD', mark_price: '0' }), expect: { reject: 'InvalidPrice' } },
      { by: ADMIN, action: createMarket({ symbol: 'BAD-USD', mark_price: '1.001' }), expect: { reject: 'InvalidPrice' } },
      { by: ADMIN, action: createMarket({ symbol: 'BAD-USD', min_quote_price: '1.001' }), expect: { reject: 'InvalidPrice' } },
      {
        by: ADMIN,
        action: createMarket({ symbol: 'BAD-USD', min_quote_price: '10', max_quote_price: '5' }),
        expect: { reject: 'InvalidMarketConfig' },
      },
      { by: ADMIN, action: createMarket({ symbol: 'BAD-USD', min_order_qty: '0.0001' }), expect: { reject: 'InvalidQuantity' } },
    ])
    const doge = chain.state.markets.get(10)!
    expect(doge).toMatchObject({
      symbol: 'DOGE-USD',
      lifecycle: 'Created',
      feeRecipient: ADMIN,
      markTicks: 10000,
      routing: 'native',
      minOrderLots: 1,
      maxFillsPerQuote: 16,
    })
    expect(doge.quoteLimits).toEqual({
      maxLagMs: 10_000,
      minIntervalMs: 0,
      maxChangeBps: 1_000,
      minPriceTicks: 0,
      maxPriceTicks: 0,
      maxSpreadBps: 500,
    })
    expect(chain.state.books.get(10)!.size).toBe(0)
    expect([...chain.state.markets.keys()]).toEqual([1, 2, 3, 4, 10, 5, 11, 12, 13])
  })

  test("quote limits are taken from the payload at the market's precision", () => {
    const chain = new TestChain()
    chain.ok(
      ADMIN,
      createMarket({
        symbol: 'OIL-USD',
        routing: 'external_peg',
        price_decimals: 3,
        max_quote_lag_ms: 2_000,
        min_quote_interval_ms: 50,
        max_quote_change_bps: 300,
        min_quote_price: '10',
        max_quote_price: '500.5',
        max_quote_spread_bps: 40,
        max_fills_per_quote: 4,
      }),
    )
    expect(chain.state.markets.get(5)!.quoteLimits).toEqual({
      maxLagMs: 2_000,
      minIntervalMs: 50,
      maxChangeBps: 300,
      minPriceTicks: 10_000,
      maxPriceTicks: 500_500,
      maxSpreadBps: 40,
    })
  })

  test('a delisted symbol can be created again under a new id', () => {
    const chain = new TestChain()
    chain.state.markets.get(SOL)!.lifecycle = 'Delisted'
    runRows(chain, [{ by: ADMIN, action: createMarket({ symbol: 'SOL-USD' }), expect: [ev('MarketCreated', { market_id: 5 })] }])
    expect(resolveSymbol(chain.state.markets.values(), 'SOL-USD')!.marketId).toBe(5)
  })
})

describe('ActivateMarket', () => {
  test('Created -> Active once, by id or by symbol; only then tradable', () => {
    const chain = new TestChain()
    runRows(chain, [
      {
        by: ADMIN,
        action: createMarket({ symbol: 'DOGE-USD', mark_price: '0.1', price_decimals: 5, size_decimals: 0 }),
        expect: [ev('MarketCreated', { market_id: 5 })],
      },
      { by: ADMIN, action: createMarket({ symbol: 'WIF-USD' }), expect: [ev('MarketCreated', { market_id: 6 })] },
      { by: ALICE, action: place(5, 'Bid', '0.1', '100'), expect: { reject: 'MarketNotTradable' } },
      { by: ALICE, action: activateMarket(5), expect: { reject: 'Unauthorized' } },
      { by: ADMIN, action: activateMarket(99), expect: { reject: 'MarketNotFound' } },
      {
        by: ADMIN,
        action: activateMarket(5),
        expect: [ev('MarketLifecycleChanged', { market_id: 5, from: 'Created', to: 'Active', halt_reason: null, account: ADMIN })],
      },
      { by: ADMIN, action: activateMarket(5), expect: { reject: 'MarketNotInCreatedState' } },
      { by: ADMIN, action: activateMarket(BTC), expect: { reject: 'MarketNotInCreatedState' } },
      { by: ADMIN, action: { ActivateMarket: { symbol: 'wif' } }, expect: [ev('MarketLifecycleChanged', { market_id: 6 })] },
      { by: ADMIN, action: { ActivateMarket: {} }, expect: { reject: 'MarketNotFound' } },
      { by: ALICE, action: place(5, 'Bid', '0.1', '100'), expect: ['OrderAccepted', 'OrderResting'] },
    ])
  })
})

describe('AmendMarketConfig', () => {
  test('changes only the given fields; the combined config must stay valid', () => {
    const chain = new TestChain()
    runRows(chain, [
      { by: ALICE, action: amend(BTC, { taker_fee_bps: 1 }), expect: { reject: 'Unauthorized' } },
      { by: ADMIN, action: amend(99, { taker_fee_bps: 1 }), expect: { reject: 'MarketNotFound' } },
      { by: ADMIN, action: amend(BTC, {}), expect: { reject: 'InvalidMarketConfig' } },
      { by: ADMIN, action: amend(BTC, { max_fills_per_quote: 0 }), expect: { reject: 'InvalidMaxFillsPerQuote' } },
      // BTC: maintenance 100 bps, max leverage 50: 100 x 100 is not below 10000.
      { by: ADMIN, action: amend(BTC, { max_leverage: 100 }), expect: { reject: 'InvalidMarketConfig' } },
      { by: ADMIN, action: amend(BTC, { liquidation_penalty_bps: 101 }), expect: { reject: 'InvalidMarketConfig' } },
      { by: ADMIN, action: amend(BTC, { min_order_qty: '0.00001' }), expect: { reject: 'InvalidQuantity' } },
      { by: ADMIN, action: amend(XAU, { min_quote_price: '0.001' }), expect: { reject: 'InvalidPrice' } },
      {
        by: ADMIN,
        action: amend('BTC', { maker_fee_bps: 1, taker_fee_bps: 4, max_leverage: 25, maintenance_margin_bps: 200, min_order_qty: '0.001' }),
        expect: [
          ev('MarketConfigAmended', {
            market_id: BTC,
            account: ADMIN,
            changes: { maker_fee_bps: 1, taker_fee_bps: 4, max_leverage: 25, maintenance_margin_bps: 200, min_order_qty: '0.001' },
          }),
        ],
      },
      {
        by: ADMIN,
        action: amend(XAU, { max_fills_per_quote: 3, max_quote_lag_ms: 4_000, max_quote_price: '9000' }),
        expect: ['MarketConfigAmended'],
      },
      { by: ALICE, action: place(BTC, 'Bid', '65000', '0.0001'), expect: { reject: 'BelowMinOrderSize' } },
    ])
    expect(chain.state.markets.get(BTC)).toMatchObject({
      makerFeeBps: 1,
      takerFeeBps: 4,
      maxLeverage: 25,
      maintenanceMarginBps: 200,
      minOrderLots: 10,
      symbol: 'BTC-USD',
    })
    const xau = chain.state.markets.get(XAU)!
    expect(xau.maxFillsPerQuote).toBe(3)
    expect(xau.quoteLimits).toMatchObject({ maxLagMs: 4_000, maxPriceTicks: 900_000, minPriceTicks: 10_000, maxSpreadBps: 200 })
  })
})

describe('SetFeeRecipient', () => {
  test('fees of later fills go to the new recipient', () => {
    const chain = new TestChain()
    runRows(chain, [
      { by: BOB, action: setFeeRecipient(BTC, BOB), expect: { reject: 'Unauthorized' } },
      {
        by: ADMIN,
        action: setFeeRecipient(BTC, '0x00000000000000000000000000000000000000F1'),
        expect: [ev('FeeRecipientChanged', { old_recipient: ADMIN, new_recipient: '0x00000000000000000000000000000000000000f1' })],
      },
      { by: BOB, action: place(BTC, 'Ask', '65000', '1'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: ALICE, action: place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' }), expect: ['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'] },
    ])
    // Maker 2 bps and taker 5 bps of 65000.
    expect(chain.balance('0x00000000000000000000000000000000000000f1')).toBe(45_500_000n)
  })
})
