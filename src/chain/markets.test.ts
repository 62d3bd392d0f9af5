// CreateMarket / ActivateMarket through applyBlock, and symbol resolution (spec §2.2).
import { describe, expect, test } from 'bun:test'
import { insertMarket, newMarket } from './markets.ts'
import { resolveMarketRef, resolveSymbol } from './symbols.ts'
import { activateMarket, ADMIN, ALICE, BTC, createMarket, ev, genesisState, place, runRows, SOL, TestChain } from './test-support.ts'
import type { ChainState } from './types.ts'

describe('CreateMarket', () => {
  test('ids are max(requested, max + 1), symbols are unique, only an Admin master creates', () => {
    const chain = new TestChain()
    runRows(chain, [
      { by: ALICE, action: createMarket({ symbol: 'DOGE-USD' }), expect: { reject: 'Unauthorized' } },
      { by: ADMIN, action: createMarket({ symbol: 'DOGE-USD', market_id: 10 }), expect: [ev('MarketCreated', { market_id: 10, requested_market_id: 10, symbol: 'DOGE-USD', account: ADMIN })] },
      { by: ADMIN, action: createMarket({ symbol: 'PEPE-USD', market_id: 5 }), expect: [ev('MarketCreated', { market_id: 11, requested_market_id: 5 })] },
      { by: ADMIN, action: createMarket({ symbol: 'WIF-USD' }), expect: [ev('MarketCreated', { market_id: 12, requested_market_id: null })] },
      { by: ADMIN, action: createMarket({ symbol: 'BTC-USD', market_id: 20 }), expect: { reject: 'MarketAlreadyExists' } },
      // A longer symbol that merely starts like an existing one is a different market.
      { by: ADMIN, action: createMarket({ symbol: 'BTC-USDT' }), expect: [ev('MarketCreated', { market_id: 13 })] },
      { by: ADMIN, action: createMarket({ symbol: 'BAD-USD', price_decimals: 12, size_decimals: 7 }), expect: { reject: 'InvalidMarketConfig' } },
      { by: ADMIN, action: createMarket({ symbol: 'BAD-USD', maintenance_margin_bps: 500, max_leverage: 20 }), expect: { reject: 'InvalidMarketConfig' } },
      { by: ADMIN, action: createMarket({ symbol: 'BAD-USD', max_fills_per_quote: 0 }), expect: { reject: 'InvalidMaxFillsPerQuote' } },
      { by: ADMIN, action: createMarket({ symbol: 'BAD-USD', mark_price: '0' }), expect: { reject: 'InvalidPrice' } },
      { by: ADMIN, action: createMarket({ symbol: 'BAD-USD', mark_price: '1.001' }), expect: { reject: 'InvalidPrice' } },
      { by: ADMIN, action: createMarket({ symbol: 'BAD-USD', min_order_qty: '0.0001' }), expect: { reject: 'InvalidQuantity' } },
    ])
    const doge = chain.state.markets.get(10)!
    expect(doge).toMatchObject({ symbol: 'DOGE-USD', lifecycle: 'Created', feeRecipient: ADMIN, markTicks: 10000, routing: 'native', minOrderLots: 1, maxFillsPerQuote: 16 })
    expect(chain.state.books.get(10)!.size).toBe(0)
    expect([...chain.state.markets.keys()]).toEqual([1, 2, 3, 4, 10, 11, 12, 13])
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
      { by: ADMIN, action: createMarket({ symbol: 'DOGE-USD', mark_price: '0.1', price_decimals: 5, size_decimals: 0 }), expect: [ev('MarketCreated', { market_id: 5 })] },
      { by: ADMIN, action: createMarket({ symbol: 'WIF-USD' }), expect: [ev('MarketCreated', { market_id: 6 })] },
      { by: ALICE, action: place(5, 'Bid', '0.1', '100'), expect: { reject: 'MarketNotTradable' } },
      { by: ALICE, action: activateMarket(5), expect: { reject: 'Unauthorized' } },
      { by: ADMIN, action: activateMarket(99), expect: { reject: 'MarketNotFound' } },
      { by: ADMIN, action: activateMarket(5), expect: [ev('MarketLifecycleChanged', { market_id: 5, from: 'Created', to: 'Active', account: ADMIN })] },
      { by: ADMIN, action: activateMarket(5), expect: { reject: 'MarketNotInCreatedState' } },
      { by: ADMIN, action: activateMarket(BTC), expect: { reject: 'MarketNotInCreatedState' } },
      { by: ADMIN, action: { ActivateMarket: { symbol: 'wif' } }, expect: [ev('MarketLifecycleChanged', { market_id: 6 })] },
      { by: ADMIN, action: { ActivateMarket: {} }, expect: { reject: 'MarketNotFound' } },
      { by: ALICE, action: place(5, 'Bid', '0.1', '100'), expect: ['OrderAccepted', 'OrderResting'] },
    ])
  })
})

describe('symbol resolution', () => {
  /** The dev markets plus a few that test the tie-breaks. */
  function marketsWith(extra: [id: number, symbol: string, lifecycle?: 'Delisted'][]): ChainState {
    const state = genesisState()
    const template = state.markets.get(BTC)!
    for (const [id, symbol, lifecycle] of extra) {
      const m = newMarket(id, { ...template, symbol }, 1)
      if (lifecycle !== undefined) m.lifecycle = lifecycle
      insertMarket(state, m)
    }
    return state
  }

  test('exact or prefix, case-insensitive, shortest wins, delisted skipped, smallest id among duplicates', () => {
    const state = marketsWith([[5, 'BTC-USDT'], [6, 'ETHFI-USD'], [7, 'OLD-USD', 'Delisted'], [8, 'DUP-USD'], [9, 'DUP-USD'], [10, 'GONE-USD', 'Delisted'], [11, 'GONE-USD']])
    const rows: [string, number | undefined][] = [
      ['BTC-USD', 1], ['btc-usd', 1], ['BTC', 1], ['BTC-USDT', 5], ['btc-usdt', 5],
      ['ETH', 2], ['ETHF', 6], ['ETH-USD', 2], ['S', 3], ['XAU', 4],
      ['OLD', undefined], ['OLD-USD', undefined], ['DUP-USD', 8], ['GONE-USD', 11], ['DOGE', undefined], ['BTC-USDC', undefined],
    ]
    for (const [symbol, id] of rows) expect({ symbol, id: resolveSymbol(state.markets.values(), symbol)?.marketId }).toEqual({ symbol, id })
  })

  test('market_id takes precedence over symbol and may name a delisted market', () => {
    const state = marketsWith([[7, 'OLD-USD', 'Delisted']])
    expect(resolveMarketRef(state, { market_id: 7, symbol: 'BTC' })?.symbol).toBe('OLD-USD')
    expect(resolveMarketRef(state, { market_id: 99, symbol: 'BTC' })).toBeUndefined()
    expect(resolveMarketRef(state, { symbol: 'sol' })?.marketId).toBe(3)
    expect(resolveMarketRef(state, {})).toBeUndefined()
  })
})
