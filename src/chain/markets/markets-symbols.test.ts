// Symbol and market_id resolution (docs/markets.md#symbol-resolution): one table row per rule,
// against the dev markets plus markets that exercise the tie-breaks, through the one resolver
// (src/wire/symbols.ts, market-refs.ts).
import { describe, expect, test } from 'bun:test'
import { BTC, genesisState } from '../../../test/support/chain/test-chain.ts'
import { coinOf, type MarketRef } from '../../wire/symbols.ts'
import type { ChainState, Lifecycle } from '../core/types.ts'
import { liveMarketWithSymbol, resolveMarketFilter, resolveMarketRef } from './market-refs.ts'
import { insertMarket, newMarket } from './markets.ts'

/** The dev markets (1 BTC-USD, 2 ETH-USD, 3 SOL-USD, 4 XAU-USD) plus these. */
const EXTRA: [id: number, symbol: string, lifecycle: Lifecycle][] = [
  [5, 'BTC-USDT', 'Active'],
  [6, 'ETHFI-USD', 'Active'],
  [7, 'OLD-USD', 'Delisted'],
  [8, 'DUP-USD', 'Active'],
  [9, 'DUP-USD', 'Active'],
  [10, 'GONE-USD', 'Delisted'],
  [11, 'GONE-USD', 'DelistPending'],
  [12, 'WIND-USD', 'DelistPending'],
  [13, 'ETHW-USD', 'Delisted'],
]

function markets(): ChainState {
  const state = genesisState()
  const template = state.markets.get(BTC)!
  for (const [id, symbol, lifecycle] of EXTRA) {
    const m = newMarket(id, { ...template, symbol }, 1)
    m.lifecycle = lifecycle
    insertMarket(state, m)
  }
  return state
}

interface Rule {
  readonly rule: string
  readonly ref: MarketRef
  /** The market_id it resolves to, or undefined (market not found). */
  readonly id: number | undefined
}

const RULES: readonly Rule[] = [
  { rule: '1. exact match', ref: { symbol: 'BTC-USD' }, id: 1 },
  { rule: '1. case-insensitive', ref: { symbol: 'btc-usd' }, id: 1 },
  { rule: '1. prefix match', ref: { symbol: 'SOL' }, id: 3 },
  { rule: '1. among prefix matches the shortest wins (BTC-USD over BTC-USDT)', ref: { symbol: 'btc' }, id: 1 },
  { rule: '1. a longer exact symbol is found exactly', ref: { symbol: 'BTC-USDT' }, id: 5 },
  { rule: '1. the shortest wins whatever the id order (ETH-USD over ETHFI-USD)', ref: { symbol: 'ETH' }, id: 2 },
  { rule: '1. a prefix that only one symbol has', ref: { symbol: 'ethf' }, id: 6 },
  { rule: '1. no match', ref: { symbol: 'DOGE' }, id: undefined },
  { rule: '1. a query longer than every symbol', ref: { symbol: 'BTC-USDC' }, id: undefined },
  { rule: '2. Delisted markets are skipped', ref: { symbol: 'OLD-USD' }, id: undefined },
  { rule: '2. Delisted markets are skipped by prefix too (ETHW)', ref: { symbol: 'ETHW' }, id: undefined },
  { rule: '2. duplicates: the smallest market_id among live ones', ref: { symbol: 'DUP-USD' }, id: 8 },
  { rule: '2. duplicates: the delisted one is passed over for a live larger id', ref: { symbol: 'gone-usd' }, id: 11 },
  { rule: '3. DelistPending markets are not skipped', ref: { symbol: 'WIND' }, id: 12 },
  { rule: '4. market_id takes precedence over symbol', ref: { market_id: 2, symbol: 'BTC' }, id: 2 },
  { rule: '4. market_id may address a Delisted market', ref: { market_id: 7 }, id: 7 },
  { rule: '4. an unknown market_id does not fall back to the symbol', ref: { market_id: 99, symbol: 'BTC' }, id: undefined },
]

describe('symbol resolution', () => {
  const state = markets()
  for (const r of RULES) {
    test(r.rule, () => {
      expect(resolveMarketRef(state, r.ref)?.marketId).toBe(r.id)
    })
  }

  test('5. with neither market_id nor symbol, read methods apply no market filter', () => {
    expect(resolveMarketFilter(state, {})).toEqual({ kind: 'all' })
    expect(resolveMarketFilter(state, { symbol: 'nope' })).toEqual({ kind: 'missing' })
    expect(resolveMarketFilter(state, { symbol: 'xau' })).toMatchObject({ kind: 'market', market: { marketId: 4 } })
    expect(resolveMarketRef(state, {})).toBeUndefined()
  })

  test('7. the coin of a full symbol is the part before the dash', () => {
    expect(['BTC-USD', 'ETHFI-USD', 'BTC', ''].map(coinOf)).toEqual(['BTC', 'ETHFI', 'BTC', ''])
  })

  test('CreateMarket clashes only with a live market of exactly that symbol', () => {
    expect(liveMarketWithSymbol(state, 'btc-usd')?.marketId).toBe(1)
    expect(liveMarketWithSymbol(state, 'BTC')).toBeUndefined()
    expect(liveMarketWithSymbol(state, 'OLD-USD')).toBeUndefined()
    expect(liveMarketWithSymbol(state, 'GONE-USD')?.marketId).toBe(11)
  })
})
