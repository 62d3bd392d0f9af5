// Test helpers of the markets area: action builders for the lifecycle, configuration and oracle
// quotes, the dev Quoter, and the money-conservation sum. Test-only.

import type { ChainState } from '../../../src/chain/index.ts'
import { DEV_QUOTER } from '../../../src/node/dev-genesis.ts'
import type { Action, TestChain } from './test-chain.ts'

/** The dev account with the Quoter role (#7). */
export const QUOTER: string = DEV_QUOTER

type Ref = number | string
const ref = (m: Ref) => (typeof m === 'number' ? { market_id: m } : { symbol: m })

export const cancelMarket = (m: Ref): Action => ({ CancelMarket: ref(m) })
export const haltMarket = (m: Ref): Action => ({ HaltMarket: ref(m) })
export const resumeMarket = (m: Ref): Action => ({ ResumeMarket: ref(m) })
export const requestDelist = (m: Ref): Action => ({ RequestDelist: ref(m) })
export const completeDelist = (m: Ref): Action => ({ CompleteDelist: ref(m) })
export const activate = (m: Ref): Action => ({ ActivateMarket: ref(m) })
export const emergencyHalt = (m: Ref, halted: boolean): Action => ({ SetEmergencyHalt: { ...ref(m), halted } })
export const setFeeRecipient = (m: Ref, feeRecipient: string): Action => ({ SetFeeRecipient: { ...ref(m), fee_recipient: feeRecipient } })
export const amend = (m: Ref, fields: Record<string, unknown>): Action => ({ AmendMarketConfig: { ...ref(m), ...fields } })

/** One quote item: prices as decimal strings, the source time in ms. */
export interface QuoteItem {
  readonly market: Ref
  readonly bid: string
  readonly ask: string
  readonly mark: string
  readonly ts: number
}

const item = (q: QuoteItem) => ({ ...ref(q.market), bid_price: q.bid, ask_price: q.ask, mark_price: q.mark, source_ts_ms: q.ts })

/** SubmitOracleQuote of one quote. */
export const quote = (market: Ref, bid: string, ask: string, mark: string, ts: number): Action => ({
  SubmitOracleQuote: { quotes: [item({ market, bid, ask, mark, ts })] },
})

/** SubmitOracleQuote of several quotes. */
export const quotes = (items: readonly QuoteItem[]): Action => ({ SubmitOracleQuote: { quotes: items.map(item) } })

/** The block time the next block of a TestChain will have (TestChain advances 1 s per block). */
export const nextBlockMs = (chain: TestChain): number => chain.state.timestampMs + 1_000

/** Sum over accounts of balance + isolated margin - cost basis: trades, fees and settlement keep it. */
export function moneySum(state: ChainState): bigint {
  let sum = 0n
  for (const a of state.accounts.values()) {
    sum += a.balance
    for (const p of a.positions.values()) sum += p.isolatedMargin - p.costBasis
  }
  return sum
}
