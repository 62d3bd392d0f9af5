// The market lifecycle of docs/markets.md#lifecycle as a table: one row per transition (and per
// refused one), each starting from a fresh chain with a market in the row's state.
import { describe, expect, test } from 'bun:test'
import {
  activate,
  amend,
  cancelMarket,
  completeDelist,
  emergencyHalt,
  haltMarket,
  nextBlockMs,
  QUOTER,
  quote,
  requestDelist,
  resumeMarket,
  setFeeRecipient,
} from '../../../test/support/chain/markets.ts'
import {
  type Action,
  ADMIN,
  ALICE,
  BOB,
  CAROL,
  cancel,
  createMarket,
  DAVE,
  type ExpectedEvent,
  ev,
  place,
  runRows,
  TestChain,
} from '../../../test/support/chain/test-chain.ts'
import { resolveSymbol } from '../../wire/symbols.ts'
import type { HaltReason, Lifecycle } from '../core/types.ts'

/** The market every row works on: the first one created after the four dev markets. */
const M = 5

type From = 'Created' | 'Active' | 'Halted(Admin)' | 'Halted(QuoteStale)' | 'Halted(null)' | 'DelistPending' | 'Delisted'

/**
 * A chain whose market M is in state `from`. Native unless `peg`: an external-peg market quoted
 * stale after 3 s, which the QuoteStale and null halt reasons need.
 */
function reach(from: From, peg: boolean): TestChain {
  const chain = new TestChain()
  const routing = peg || from === 'Halted(QuoteStale)' || from === 'Halted(null)' ? 'external_peg' : 'native'
  chain.ok(ADMIN, createMarket({ symbol: 'LIFE-USD', routing, max_quote_lag_ms: 3_000 }))
  if (from === 'Created') return chain
  chain.ok(ADMIN, activate(M))
  const market = chain.state.markets.get(M)!
  switch (from) {
    case 'Active':
      break
    case 'Halted(Admin)':
      chain.ok(ADMIN, haltMarket(M))
      break
    case 'Halted(QuoteStale)':
    case 'Halted(null)':
      // Empty blocks until the end-of-block check finds no quote within 3 s of activation.
      for (let i = 0; i < 10 && market.lifecycle === 'Active'; i++) chain.block([])
      expect(market.haltReason).toBe('QuoteStale')
      // A market halted before halt_reason existed carries null; it behaves like QuoteStale.
      if (from === 'Halted(null)') market.haltReason = null
      break
    case 'DelistPending':
      chain.ok(ADMIN, requestDelist(M))
      break
    case 'Delisted':
      chain.ok(ADMIN, requestDelist(M))
      chain.ok(ADMIN, completeDelist(M))
      break
  }
  return chain
}

interface Transition {
  readonly from: From
  /** The row's action, built with the time of its block (for quotes). */
  readonly action: (blockMs: number) => Action
  readonly expect:
    | readonly ExpectedEvent[]
    | { readonly reject: 'InvalidLifecycleTransition' | 'MarketDelisted' | 'MarketNotInCreatedState' }
  /** The market's state after an accepted row. */
  readonly to?: [Lifecycle, HaltReason]
  /** An external-peg market even where the state does not need one (quote rows). */
  readonly peg?: boolean
}

const changed = (from: Lifecycle, to: Lifecycle, halt_reason: HaltReason = null) =>
  ev('MarketLifecycleChanged', { market_id: M, from, to, halt_reason, account: ADMIN })
const quoteNow = (blockMs: number) => quote(M, '99.9', '100.1', '100', blockMs)

const TRANSITIONS: readonly Transition[] = [
  // Created
  {
    from: 'Created',
    action: () => cancelMarket(M),
    expect: [ev('MarketCancelled', { market_id: M, symbol: 'LIFE-USD' }), changed('Created', 'Delisted')],
    to: ['Delisted', null],
  },
  { from: 'Created', action: () => activate(M), expect: [changed('Created', 'Active')], to: ['Active', null] },
  { from: 'Created', action: () => requestDelist(M), expect: { reject: 'InvalidLifecycleTransition' } },
  { from: 'Created', action: () => completeDelist(M), expect: { reject: 'InvalidLifecycleTransition' } },
  { from: 'Created', action: () => haltMarket(M), expect: { reject: 'InvalidLifecycleTransition' } },
  { from: 'Created', action: () => resumeMarket(M), expect: { reject: 'InvalidLifecycleTransition' } },
  // Active
  { from: 'Active', action: () => haltMarket(M), expect: [changed('Active', 'Halted', 'Admin')], to: ['Halted', 'Admin'] },
  { from: 'Active', action: () => requestDelist(M), expect: [changed('Active', 'DelistPending')], to: ['DelistPending', null] },
  { from: 'Active', action: () => cancelMarket(M), expect: { reject: 'InvalidLifecycleTransition' } },
  { from: 'Active', action: () => resumeMarket(M), expect: { reject: 'InvalidLifecycleTransition' } },
  { from: 'Active', action: () => completeDelist(M), expect: { reject: 'InvalidLifecycleTransition' } },
  { from: 'Active', action: () => activate(M), expect: { reject: 'MarketNotInCreatedState' } },
  // Halted by an Admin: quotes are accepted and refreshed, but only ResumeMarket resumes it.
  { from: 'Halted(Admin)', action: () => resumeMarket(M), expect: [changed('Halted', 'Active')], to: ['Active', null] },
  {
    from: 'Halted(Admin)',
    peg: true,
    action: quoteNow,
    expect: [ev('OracleQuoteAccepted', { market_id: M, account: QUOTER, mark_price_ticks: 10_000 })],
    to: ['Halted', 'Admin'],
  },
  { from: 'Halted(Admin)', action: () => requestDelist(M), expect: [changed('Halted', 'DelistPending')], to: ['DelistPending', null] },
  { from: 'Halted(Admin)', action: () => haltMarket(M), expect: { reject: 'InvalidLifecycleTransition' } },
  { from: 'Halted(Admin)', action: () => cancelMarket(M), expect: { reject: 'InvalidLifecycleTransition' } },
  { from: 'Halted(Admin)', action: () => completeDelist(M), expect: { reject: 'InvalidLifecycleTransition' } },
  // Halted for a stale quote (or with a null reason, which behaves alike): a fresh quote resumes it.
  {
    from: 'Halted(QuoteStale)',
    action: quoteNow,
    expect: ['OracleQuoteAccepted', ev('MarketResumedAfterQuote', { market_id: M, account: QUOTER })],
    to: ['Active', null],
  },
  { from: 'Halted(null)', action: quoteNow, expect: ['OracleQuoteAccepted', 'MarketResumedAfterQuote'], to: ['Active', null] },
  { from: 'Halted(QuoteStale)', action: () => haltMarket(M), expect: [changed('Halted', 'Halted', 'Admin')], to: ['Halted', 'Admin'] },
  // Resumed at once; its quote is still stale, so the block's own end check halts it again.
  { from: 'Halted(QuoteStale)', action: () => resumeMarket(M), expect: [changed('Halted', 'Active')], to: ['Halted', 'QuoteStale'] },
  { from: 'Halted(QuoteStale)', action: () => requestDelist(M), expect: [changed('Halted', 'DelistPending')], to: ['DelistPending', null] },
  // DelistPending
  {
    from: 'DelistPending',
    action: () => completeDelist(M),
    expect: [ev('DelistCompleted', { market_id: M, orders_cancelled: 0, positions_settled: 0 }), changed('DelistPending', 'Delisted')],
    to: ['Delisted', null],
  },
  { from: 'DelistPending', action: () => requestDelist(M), expect: { reject: 'InvalidLifecycleTransition' } },
  { from: 'DelistPending', action: () => haltMarket(M), expect: { reject: 'InvalidLifecycleTransition' } },
  { from: 'DelistPending', action: () => resumeMarket(M), expect: { reject: 'InvalidLifecycleTransition' } },
  { from: 'DelistPending', action: () => cancelMarket(M), expect: { reject: 'InvalidLifecycleTransition' } },
  // Delisted: sealed; every market action is refused.
  ...[cancelMarket, activate, haltMarket, resumeMarket, requestDelist, completeDelist].map((a) => ({
    from: 'Delisted' as const,
    action: () => a(M),
    expect: { reject: 'MarketDelisted' as const },
  })),
  { from: 'Delisted', action: () => emergencyHalt(M, true), expect: { reject: 'MarketDelisted' } },
  { from: 'Delisted', action: () => setFeeRecipient(M, BOB), expect: { reject: 'MarketDelisted' } },
  { from: 'Delisted', action: () => amend(M, { taker_fee_bps: 1 }), expect: { reject: 'MarketDelisted' } },
  { from: 'Delisted', peg: true, action: quoteNow, expect: { reject: 'MarketDelisted' } },
]

describe('market lifecycle', () => {
  for (const [i, t] of TRANSITIONS.entries()) {
    const name = `${i}: ${t.from} + ${Object.keys(t.action(0))[0]} -> ${'reject' in t.expect ? t.expect.reject : t.to?.join(' ')}`
    test(name, () => {
      const chain = reach(t.from, t.peg === true)
      const by = Object.keys(t.action(0))[0] === 'SubmitOracleQuote' ? QUOTER : ADMIN
      runRows(chain, [{ by, action: t.action(nextBlockMs(chain)), expect: t.expect }])
      if (t.to !== undefined) {
        const m = chain.state.markets.get(M)!
        expect([m.lifecycle, m.haltReason]).toEqual(t.to)
      }
    })
  }
})

describe('the end-of-block quote check', () => {
  test('Active -> Halted(QuoteStale) once the lag exceeds max_quote_lag_ms; orders then get MarketNotTradable', () => {
    const chain = reach('Active', true)
    const activatedMs = chain.state.timestampMs
    const stale: { lag: number; events: unknown[] }[] = []
    for (let i = 0; i < 5; i++) {
      const events = chain.block([]).events
      if (events.length > 0) stale.push({ lag: chain.state.timestampMs - activatedMs, events })
    }
    // Lag 3000 is still fresh; 4000 is the first stale one, and the halt is reported once.
    expect(stale).toEqual([
      {
        lag: 4_000,
        events: [
          {
            kind: 'Ops',
            sub_kind: 'MarketHaltedQuoteStale',
            market_id: M,
            account: null,
            lag_ms: 4_000,
            max_quote_lag_ms: 3_000,
            last_source_ts_ms: null,
          },
        ],
      },
    ])
    const m = chain.state.markets.get(M)!
    expect([m.lifecycle, m.haltReason]).toEqual(['Halted', 'QuoteStale'])
    runRows(chain, [{ by: ALICE, action: place(M, 'Bid', '100', '1'), expect: { reject: 'MarketNotTradable' } }])
  })

  test("staleness counts from the quote's source time: a quote 2 s ahead of its block stays fresh 2 s longer", () => {
    const chain = reach('Active', true)
    const ts = nextBlockMs(chain) + 2_000
    chain.ok(QUOTER, quote(M, '99.9', '100.1', '100', ts))
    const m = chain.state.markets.get(M)!
    for (let i = 0; i < 10 && m.lifecycle === 'Active'; i++) chain.block([])
    expect(chain.state.timestampMs - ts).toBe(4_000)
  })

  test('ResumeMarket of a market whose quote is stale: Active at once, halted again by the check of the same block', () => {
    const chain = reach('Halted(QuoteStale)', true)
    const out = chain.block([{ by: ADMIN, action: resumeMarket(M) }])
    expect(out.events.map((e) => e.sub_kind)).toEqual(['MarketLifecycleChanged', 'MarketHaltedQuoteStale'])
  })

  test('the check resumes a QuoteStale (or null) halted market whose quote is fresh at block end', () => {
    for (const from of ['Halted(QuoteStale)', 'Halted(null)'] as const) {
      const chain = reach(from, true)
      const m = chain.state.markets.get(M)!
      // A quote that is fresh while the market stayed halted (as a state from before the quote
      // path resumed markets would hold): the end-of-block check lifts the halt itself.
      const ts = nextBlockMs(chain)
      m.oracle.latest = {
        bidTicks: 9_990,
        askTicks: 10_010,
        markTicks: 10_000,
        sourceTsMs: ts,
        acceptedHeight: chain.state.height,
        acceptedAtMs: ts,
      }
      m.oracle.clockMs = ts
      const events = chain.block([]).events
      expect(events).toEqual([{ kind: 'Ops', sub_kind: 'MarketResumedAfterQuote', market_id: M, account: null, source_ts_ms: ts }])
      expect([m.lifecycle, m.haltReason]).toEqual(['Active', null])
    }
  })

  test('native markets never go stale; an Admin halt is never lifted by quotes or the check', () => {
    const chain = reach('Halted(Admin)', true)
    const nativeChain = reach('Active', false)
    for (let i = 0; i < 6; i++) {
      chain.ok(QUOTER, quote(M, '99.9', '100.1', '100', nextBlockMs(chain)))
      nativeChain.block([])
    }
    expect(chain.state.markets.get(M)!.lifecycle).toBe('Halted')
    expect(nativeChain.state.markets.get(M)!.lifecycle).toBe('Active')
  })
})

describe('addressing and authority', () => {
  test('market_id over symbol; a missing id or no reference is MarketNotFound; only an Admin master', () => {
    const chain = reach('Active', false)
    runRows(chain, [
      { by: ALICE, action: haltMarket(M), expect: { reject: 'Unauthorized' } },
      { by: ADMIN, action: haltMarket(99), expect: { reject: 'MarketNotFound' } },
      { by: ADMIN, action: { HaltMarket: {} }, expect: { reject: 'MarketNotFound' } },
      { by: ADMIN, action: { HaltMarket: { symbol: 'NOPE' } }, expect: { reject: 'MarketNotFound' } },
      // market_id wins over a symbol naming another market.
      { by: ADMIN, action: { HaltMarket: { market_id: M, symbol: 'BTC' } }, expect: [ev('MarketLifecycleChanged', { market_id: M })] },
      { by: ADMIN, action: { ResumeMarket: { symbol: 'life' } }, expect: [ev('MarketLifecycleChanged', { market_id: M, to: 'Active' })] },
    ])
    expect(chain.state.markets.get(1)!.lifecycle).toBe('Active')
  })

  test('RequestDelist keeps the request time for audit only; CompleteDelist may follow in the next block', () => {
    const chain = reach('Active', false)
    const ms = nextBlockMs(chain)
    chain.ok(ADMIN, requestDelist(M))
    expect(chain.state.markets.get(M)!.delistRequestedAtMs).toBe(ms)
    chain.ok(ADMIN, completeDelist(M))
    expect(chain.state.markets.get(M)!.delistRequestedAtMs).toBe(ms)
  })

  test('a cancelled market releases its symbol, keeps its entry and its id is not reused', () => {
    const chain = reach('Created', false)
    chain.ok(ADMIN, cancelMarket(M))
    expect(resolveSymbol(chain.state.markets.values(), 'LIFE-USD')).toBeUndefined()
    runRows(chain, [
      {
        by: ADMIN,
        action: createMarket({ symbol: 'LIFE-USD', market_id: M }),
        expect: [ev('MarketCreated', { market_id: M + 1, requested_market_id: M })],
      },
    ])
    expect(chain.state.markets.get(M)!.lifecycle).toBe('Delisted')
    expect(resolveSymbol(chain.state.markets.values(), 'LIFE-USD')!.marketId).toBe(M + 1)
  })
})

describe('what each state lets traders do', () => {
  test('DelistPending: reduce-only orders and cancels only', () => {
    const chain = reach('Active', false)
    const own = chain.placeOk(ALICE, place(M, 'Bid', '98', '1'))
    chain.ok(DAVE, place(M, 'Bid', '99', '1'))
    chain.ok(BOB, place(M, 'Ask', '101', '2'))
    chain.ok(ALICE, place(M, 'Bid', '101', '1', { tif: 'Ioc' }))
    chain.ok(ADMIN, requestDelist(M))
    runRows(chain, [
      { by: ALICE, action: place(M, 'Bid', '101', '1'), expect: { reject: 'MarketNotTradable' } },
      { by: CAROL, action: place(M, 'Ask', '99', '1', { reduceOnly: true }), expect: { reject: 'ReduceOnlyWouldOpenOrFlip' } },
      {
        by: ALICE,
        action: place(M, 'Ask', '99', '1', { reduceOnly: true, tif: 'Ioc' }),
        expect: ['OrderAccepted', ev('Filled', { maker: DAVE }), 'OrderDone', 'OrderDone'],
      },
      { by: ALICE, action: cancel(M, own), expect: [ev('OrderDone', { reason: 'Cancelled' })] },
    ])
  })

  test('emergency halt stops every new order (reduce-only too) whatever the lifecycle; cancels go on', () => {
    const chain = reach('Active', false)
    const resting = chain.placeOk(ALICE, place(M, 'Bid', '99', '1'))
    runRows(chain, [
      {
        by: ADMIN,
        action: emergencyHalt(M, true),
        expect: [ev('EmergencyHaltChanged', { market_id: M, halted: true, was_halted: false })],
      },
      { by: BOB, action: place(M, 'Ask', '99', '1', { tif: 'Ioc' }), expect: { reject: 'MarketNotTradable' } },
      { by: ALICE, action: cancel(M, resting), expect: ['OrderDone'] },
      { by: ADMIN, action: emergencyHalt('LIFE-USD', true), expect: [ev('EmergencyHaltChanged', { halted: true, was_halted: true })] },
      { by: ADMIN, action: emergencyHalt(M, false), expect: [ev('EmergencyHaltChanged', { halted: false, was_halted: true })] },
      { by: BOB, action: place(M, 'Ask', '99', '1'), expect: ['OrderAccepted', 'OrderResting'] },
    ])
    expect(chain.state.markets.get(M)!.lifecycle).toBe('Active')
  })
})
