// SubmitOracleQuote (docs/markets.md#validation-in-precedence-order): one row per reject reason
// against the dev external-peg market XAU-USD (max_quote_lag_ms 10000, min_quote_interval_ms 100,
// max_quote_change_bps 500, prices in [100, 100000], max_quote_spread_bps 200), batch semantics,
// the reject storm, the Quoter role.
import { describe, expect, test } from 'bun:test'
import { amend, nextBlockMs, QUOTER, quote, quotes } from '../../../test/support/chain/markets.ts'
import {
  ADMIN,
  ALICE,
  agentAddress,
  BTC,
  ev,
  type Row,
  registerAgent,
  runRows,
  TestChain,
  XAU,
} from '../../../test/support/chain/test-chain.ts'
import { eventEnvelopeIndexes } from '../block/apply.ts'
import { MAX_QUOTE_AHEAD_MS, QUOTE_REJECT_STORM_COUNT } from './quote-validation.ts'

/** A row whose quote is built from the time of its own block. */
type TimedRow = Omit<Row, 'action' | 'by'> & { readonly by?: string; readonly action: (blockMs: number, lastTs: number) => Row['action'] }

/** Runs timed rows in order, each in its own block; lastTs is the last accepted quote's source time. */
function runTimed(chain: TestChain, rows: readonly TimedRow[]): void {
  for (const r of rows) {
    const lastTs = chain.state.markets.get(XAU)!.oracle.latest?.sourceTsMs ?? 0
    runRows(chain, [{ by: r.by ?? QUOTER, action: r.action(nextBlockMs(chain), lastTs), expect: r.expect }])
  }
}

const xau = (bid: string, ask: string, mark: string) => (ts: number) => quote(XAU, bid, ask, mark, ts)
const ok = ev('OracleQuoteAccepted', { market_id: XAU, account: QUOTER })

describe('SubmitOracleQuote validation, one row per reason', () => {
  test('time, freshness, interval, bounds, spread and change', () => {
    const chain = new TestChain()
    const at = xau('2399', '2401', '2400')
    runTimed(chain, [
      { by: ALICE, action: (t) => at(t), expect: { reject: 'Unauthorized' } },
      { action: (t) => quote(99, '1', '1', '1', t), expect: { reject: 'MarketNotFound' } },
      { action: (t) => quote(BTC, '64999', '65001', '65000', t), expect: { reject: 'MarketNotExternalPeg' } },
      { action: (t) => xau('2399.001', '2401', '2400')(t), expect: { reject: 'InvalidPrice' } },
      { action: (t) => xau('0', '2401', '2400')(t), expect: { reject: 'InvalidPrice' } },
      // Stale on arrival: older than max_quote_lag_ms (10000 ms is still fresh).
      { action: (t) => at(t - 10_001), expect: { reject: 'QuoteSourceTooOld' } },
      {
        action: (t) => at(t - 10_000),
        expect: [ev('OracleQuoteAccepted', { bid_price_ticks: 239_900, ask_price_ticks: 240_100, mark_price_ticks: 240_000 })],
      },
      { action: (t) => at(t), expect: [ok] },
      // Earlier than the last accepted source time.
      { action: (_t, last) => at(last - 1), expect: { reject: 'QuoteTimeNotMonotonic' } },
      // Less than min_quote_interval_ms after the last accepted one (so also the equal time here).
      { action: (_t, last) => at(last), expect: { reject: 'QuoteTooFrequent' } },
      { action: (_t, last) => at(last + 99), expect: { reject: 'QuoteTooFrequent' } },
      { action: (_t, last) => at(last + 100), expect: [ok] },
      // More than 13,000 ms ahead of block time (13,000 itself is allowed).
      { action: (t) => at(t + MAX_QUOTE_AHEAD_MS + 1), expect: { reject: 'QuoteSourceTooFuture' } },
      { action: (t) => at(t + MAX_QUOTE_AHEAD_MS), expect: [ok] },
      { action: (t) => xau('99.99', '101', '100')(t + MAX_QUOTE_AHEAD_MS), expect: { reject: 'QuotePriceOutOfBounds' } },
      { action: (_t, last) => xau('99999', '100001', '100000')(last + 100), expect: { reject: 'QuotePriceOutOfBounds' } },
      { action: (_t, last) => xau('2401', '2399', '2400')(last + 100), expect: { reject: 'QuoteCrossed' } },
      { action: (_t, last) => xau('2399', '2401', '2401.01')(last + 100), expect: { reject: 'QuoteMarkOutsideSpread' } },
      // 48.01 wide on a bid of 2400: 200.04 bps; 48 is exactly 200 bps and passes.
      { action: (_t, last) => xau('2400', '2448.01', '2420')(last + 100), expect: { reject: 'QuoteSpreadTooWide' } },
      { action: (_t, last) => xau('2400', '2448', '2420')(last + 100), expect: [ok] },
      // 500 bps of the last mark 2420 is 121: 2541 passes, 2541.01 does not.
      { action: (_t, last) => xau('2541', '2541.02', '2541.01')(last + 100), expect: { reject: 'QuoteChangeTooLarge' } },
      { action: (_t, last) => xau('2541', '2541', '2541')(last + 100), expect: [ok] },
    ])
    const m = chain.state.markets.get(XAU)!
    expect(m.markTicks).toBe(254_100)
    expect(m.oracle.latest).toMatchObject({ bidTicks: 254_100, askTicks: 254_100, markTicks: 254_100, acceptedHeight: chain.state.height })
  })

  test('equal source times pass the monotonic check when min_quote_interval_ms is 0', () => {
    const chain = new TestChain()
    chain.ok(ADMIN, amend(XAU, { min_quote_interval_ms: 0 }))
    runTimed(chain, [
      { action: (t) => quote(XAU, '2399', '2401', '2400', t), expect: [ok] },
      { action: (_t, last) => quote(XAU, '2399', '2401', '2400.5', last), expect: [ok] },
      { action: (_t, last) => quote(XAU, '2399', '2401', '2400', last - 1), expect: { reject: 'QuoteTimeNotMonotonic' } },
    ])
  })

  test('after a gap longer than max_quote_lag_ms the change bound does not apply: the feed may restart at a new level', () => {
    const chain = new TestChain()
    const t0 = nextBlockMs(chain)
    chain.ok(QUOTER, quote(XAU, '2399', '2401', '2400', t0))
    for (let i = 0; i < 11; i++) chain.block([])
    runTimed(chain, [
      { action: (t) => quote(XAU, '2999', '3001', '3000', t), expect: [ok, 'MarketResumedAfterQuote'] },
      { action: (_t, last) => quote(XAU, '3499', '3501', '3500', last + 100), expect: { reject: 'QuoteChangeTooLarge' } },
    ])
  })

  test('an agent with the Quoter role of a Quoter master may quote; a Trader agent may not', () => {
    const chain = new TestChain()
    chain.ok(QUOTER, registerAgent(agentAddress(1), 'Quoter'))
    chain.ok(QUOTER, registerAgent(agentAddress(2), 'Trader'))
    runTimed(chain, [
      {
        by: agentAddress(1),
        action: (t) => quote(XAU, '2399', '2401', '2400', t),
        expect: [ev('OracleQuoteAccepted', { account: QUOTER })],
      },
      { by: agentAddress(2), action: (t) => quote(XAU, '2399', '2401', '2400', t), expect: { reject: 'Unauthorized' } },
    ])
  })
})

describe('batches', () => {
  test('each item stands on its own: accepted items apply, rejected ones are BatchItemRejected', () => {
    const chain = new TestChain()
    const t = nextBlockMs(chain)
    runRows(chain, [
      {
        by: QUOTER,
        action: quotes([
          { market: XAU, bid: '2399', ask: '2401', mark: '2400', ts: t },
          { market: BTC, bid: '1', ask: '2', mark: '1', ts: t },
          { market: 'XAU', bid: '2399', ask: '2401', mark: '2400', ts: t + 50 },
          { market: 'xau-usd', bid: '2399', ask: '2401', mark: '2400.5', ts: t + 100 },
        ]),
        expect: [
          ev('OracleQuoteAccepted', { market_id: XAU, mark_price_ticks: 240_000 }),
          ev('BatchItemRejected', { market_id: BTC, action_kind: 'SubmitOracleQuote', index: 1, reason: 'MarketNotExternalPeg' }),
          ev('BatchItemRejected', { market_id: XAU, index: 2, reason: 'QuoteTooFrequent' }),
          ev('OracleQuoteAccepted', { market_id: XAU, mark_price_ticks: 240_050 }),
        ],
      },
    ])
    // The accepted quote after the rejected one reset XAU's streak; BTC's counts its one rejection.
    expect(chain.state.markets.get(XAU)!.oracle.consecutiveRejects).toBe(0)
    expect(chain.state.markets.get(BTC)!.oracle.consecutiveRejects).toBe(1)
  })

  test('a batch whose every item is rejected is a kept-reject with the first reason, and still counts toward the streak', () => {
    const chain = new TestChain()
    const t = nextBlockMs(chain)
    const out = chain.send(
      QUOTER,
      quotes([
        { market: XAU, bid: '2401', ask: '2399', mark: '2400', ts: t },
        { market: XAU, bid: '2399', ask: '2401', mark: '2400', ts: t + MAX_QUOTE_AHEAD_MS + 1 },
      ]),
    )
    expect(out.status).toBe('kept-reject')
    expect(out.reason).toBe('QuoteCrossed')
    expect(out.events[0]).toMatchObject({
      sub_kind: 'Rejected',
      reason: 'QuoteCrossed',
      message: expect.stringContaining('item 1: QuoteSourceTooFuture'),
    })
    expect(chain.state.markets.get(XAU)!.oracle.consecutiveRejects).toBe(2)
  })
})

describe('QuoteRejectStorm', () => {
  test(
    `raised once after ${QUOTE_REJECT_STORM_COUNT} consecutive rejected quotes of a market, ` +
      'again after an accepted quote and a new streak',
    () => {
      const chain = new TestChain()
      const crossed = (t: number) => quote(XAU, '2401', '2399', '2400', t)
      const storms: number[] = []
      const sendBlock = (action: ReturnType<typeof crossed>) => {
        const result = chain.block([{ by: QUOTER, action }])
        for (const e of result.events) if (e.sub_kind === 'QuoteRejectStorm') storms.push(chain.state.height)
        return result
      }
      for (let i = 0; i < 4; i++) sendBlock(crossed(nextBlockMs(chain)))
      expect(storms).toEqual([])
      const fifth = sendBlock(crossed(nextBlockMs(chain)))
      expect(fifth.events.map((e, seq) => [eventEnvelopeIndexes(fifth)[seq], e.sub_kind])).toEqual([
        [0, 'Rejected'],
        [null, 'QuoteRejectStorm'],
      ])
      expect(fifth.events[1]!).toEqual({ kind: 'Ops', sub_kind: 'QuoteRejectStorm', market_id: XAU, account: null, consecutive_rejects: 5 })
      sendBlock(crossed(nextBlockMs(chain)))
      expect(storms).toEqual([5])
      sendBlock(quote(XAU, '2399', '2401', '2400', nextBlockMs(chain)))
      expect(chain.state.markets.get(XAU)!.oracle.consecutiveRejects).toBe(0)
      // Five rejected items of one batch count as five.
      const t = nextBlockMs(chain)
      sendBlock(quotes(Array.from({ length: 5 }, (_, i) => ({ market: XAU, bid: '2401', ask: '2399', mark: '2400', ts: t + i * 100 }))))
      expect(storms).toEqual([5, 8])
    },
  )
})
