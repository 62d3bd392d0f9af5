// The hot feed's day state: a feed seeded fresh and resumed from a state saved some blocks earlier
// (plus the fills after it) shows the same 24 h counters and open candles as the feed that saw every
// block; across UTC midnight the new day counts only its own fills and its closing mark is unset.
import { describe, expect, test } from 'bun:test'
import { ALICE, BOB, BTC, ETH, place } from '../../test/support/chain/test-chain.ts'
import { FeedHarness } from '../../test/support/feed.ts'
import { CANDLE_INTERVALS } from '../wire/candles.ts'
import { compileValidator } from '../wire/validate.ts'
import { type FeedDayState, FeedDayStateSchema } from './day-state.ts'
import { HotFeed } from './hot-feed.ts'
import type { SeedFill } from './types.ts'

/** The Filled events of a harness block in the form the block store gives them. */
const fillsOf = (delta: ReturnType<FeedHarness['send']>): SeedFill[] =>
  delta.block.events
    .filter((e) => e.subKind === 'Filled')
    .map((e) => ({ height: delta.height, seq: e.seq, marketId: e.marketId, timestampMs: delta.timestampMs, bodyJson: e.bodyJson }))

/** What a restart must reproduce: each market's summary and every interval's bar. */
function dayView(feed: HotFeed) {
  return feed
    .liveMarkets()
    .map((m) => ({ summary: { ...feed.summary(m), fills_in_block: 0 }, bars: CANDLE_INTERVALS.map((i) => m.candles.latest(i) ?? null) }))
}

/** A feed seeded from the harness's chain now, resumed from `saved` and the fills after it. */
function restarted(h: FeedHarness, saved: FeedDayState, fills: SeedFill[]): HotFeed {
  const feed = new HotFeed(h.source, { log: () => {} })
  feed.seed()
  feed.resumeDay(JSON.parse(JSON.stringify(saved)) as FeedDayState, fills)
  return feed
}

describe('feed day state', () => {
  test('resumed from an earlier height plus the fills after it, a feed shows what the feed that saw every block shows', () => {
    const h = new FeedHarness()
    const day = Date.UTC(2026, 5, 1)
    h.block(
      [
        { by: ALICE, action: place(BTC, 'Bid', '65000', '2') },
        { by: ALICE, action: place(ETH, 'Bid', '3500', '10') },
      ],
      { timestampMs: day + 1_000 },
    )
    h.block([{ by: BOB, action: place(BTC, 'Ask', '65000', '0.4', { tif: 'Ioc' }) }], { timestampMs: day + 2_000 })
    const saved = h.feed.dayState()
    expect(compileValidator(FeedDayStateSchema).check(JSON.parse(JSON.stringify(saved)))).toBe(true)
    const fills: SeedFill[] = []
    fills.push(
      ...fillsOf(h.block([{ by: BOB, action: place(BTC, 'Ask', '65000', '0.3', { tif: 'Ioc' }) }], { timestampMs: day + 70_000 }).delta),
    )
    h.block([], { timestampMs: day + 71_000 })
    fills.push(
      ...fillsOf(h.block([{ by: BOB, action: place(ETH, 'Ask', '3500', '2', { tif: 'Ioc' }) }], { timestampMs: day + 3_700_000 }).delta),
    )
    expect(fills.length).toBe(2)

    const resumed = restarted(h, saved, fills)
    expect(dayView(resumed)).toEqual(dayView(h.feed))
    expect(h.feed.summary(h.feed.market(BTC)!)).toMatchObject({ day_base_volume: '0.7', day_ntl_volume: '45500' })
    // Without the day state, a restarted feed starts the day at zero: what this replaces.
    const fresh = new HotFeed(h.source, { log: () => {} })
    fresh.seed()
    expect(fresh.summary(fresh.market(BTC)!)).toMatchObject({ day_base_volume: '0', day_ntl_volume: '0' })
    // Fills at or below the saved height are already in it and are not counted twice.
    const stale = fillsOf(h.send(BOB, place(BTC, 'Ask', '65000', '0.1', { tif: 'Ioc' }))).map((f) => ({ ...f, height: saved.height }))
    expect(stale.length).toBe(1)
    expect(dayView(restarted(h, saved, [...stale, ...fills]))).toEqual(dayView(restarted(h, saved, fills)))
  })

  test('across UTC midnight: the new day counts only its fills; its closing mark is unknown, so unset', () => {
    const h = new FeedHarness()
    const day = Date.UTC(2026, 5, 1)
    h.block([{ by: ALICE, action: place(BTC, 'Bid', '65000', '2') }], { timestampMs: day - 5_000 })
    h.block([{ by: BOB, action: place(BTC, 'Ask', '65000', '0.4', { tif: 'Ioc' }) }], { timestampMs: day - 4_000 })
    const saved = h.feed.dayState()
    const fills = fillsOf(
      h.block([{ by: BOB, action: place(BTC, 'Ask', '65000', '0.1', { tif: 'Ioc' }) }], { timestampMs: day + 1_000 }).delta,
    )
    const resumed = restarted(h, saved, fills)
    const m = resumed.market(BTC)!
    expect(resumed.summary(m)).toMatchObject({ day_base_volume: '0.1', day_ntl_volume: '6500', prev_day_price: null })
    // The feed that saw the rollover knows the closing mark; everything else agrees.
    const live = h.feed.market(BTC)!
    expect(h.feed.summary(live).prev_day_price).not.toBeNull()
    expect({ ...resumed.summary(m), prev_day_price: 'x' }).toEqual({ ...h.feed.summary(live), prev_day_price: 'x', fills_in_block: 0 })

    // A chain whose tip is past midnight with no fill after the save rolls the day too.
    const quiet = new FeedHarness()
    quiet.block([{ by: ALICE, action: place(BTC, 'Bid', '65000', '2') }], { timestampMs: day - 5_000 })
    quiet.block([{ by: BOB, action: place(BTC, 'Ask', '65000', '0.4', { tif: 'Ioc' }) }], { timestampMs: day - 4_000 })
    const before = quiet.feed.dayState()
    quiet.block([], { timestampMs: day + 1_000 })
    const r = restarted(quiet, before, [])
    expect(r.summary(r.market(BTC)!)).toMatchObject({ day_base_volume: '0', day_ntl_volume: '0', prev_day_price: null })
  })
})
