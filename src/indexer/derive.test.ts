// The derive stage over blocks of the real state machine, stored as the node stores them: fills and
// orders exactly as docs/history-api.md#fills-and-orders shows them, and the flows, positions,
// referral, rebate and account event tables from the funds and margin events.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import {
  BRIDGE,
  cancelWithdraw,
  claim,
  deposit,
  EXTERNAL,
  refund,
  setInviter,
  settle,
  transfer,
  withdraw,
} from '../../test/support/chain/funds.ts'
import { LIQ, liquidate, marginChain, moveMark, updateLeverage, updateMarginMode } from '../../test/support/chain/margin.ts'
import { batchModify } from '../../test/support/chain/orders.ts'
import { ADMIN, ALICE, BOB, BTC, CAROL, cancel, cancelByCloid, place, Rng } from '../../test/support/chain/test-chain.ts'
import { trig } from '../../test/support/chain/triggers.ts'
import { DERIVED_TABLES, IndexedChain, indexAll, tableRows, withIndexedCopy } from '../../test/support/history.ts'
import type { Pipeline } from './pipeline.ts'
import { READ_OPS } from './read/ops.ts'
import { symbolLookup } from './symbols.ts'

const PAGE = { offset: 0, limit: 200, cursor: undefined, includeTotal: true }
const symbolOf = symbolLookup([{ market_id: BTC, symbol: 'BTC-USD', lifecycle: 'Active', routing: 'native' }])

let ic: IndexedChain
let p: Pipeline
let bidId = 0
let withdrawalId = 0
const heights = { open: 0, fill1: 0, fill2: 0, rebate: 0 }

beforeAll(() => {
  ic = new IndexedChain()
  const r1 = ic.send(ALICE, place(BTC, 'Bid', '65000', '0.5', { cloid: 'a-1' }))
  bidId = (r1.events.find((e) => e.sub_kind === 'OrderAccepted') as { order_id: number }).order_id
  heights.open = ic.tip
  ic.send(BOB, place(BTC, 'Ask', '64000', '0.2', { tif: 'Ioc' }))
  heights.fill1 = ic.tip
  ic.send(ALICE, place(BTC, 'Ask', '66000', '0.1'))
  ic.send(BOB, place(BTC, 'Bid', '66000', '0.1', { tif: 'Ioc' }))
  heights.fill2 = ic.tip
  ic.send(ALICE, cancel(BTC, bidId))
  ic.send(BRIDGE, deposit(ALICE, '1000', '0xdep:1', 'arbitrum'))
  const w = ic.send(ALICE, withdraw('250'))
  withdrawalId = (w.events.find((e) => e.sub_kind === 'WithdrawalRequested') as { withdrawal_id: number }).withdrawal_id
  ic.send(BRIDGE, settle(withdrawalId, '0xfeed'))
  ic.send(ALICE, transfer(BOB, '10'))
  ic.send(BOB, setInviter(ALICE))
  ic.send(ALICE, place(BTC, 'Ask', '65500', '0.01'))
  ic.send(BOB, place(BTC, 'Bid', '65500', '0.01', { tif: 'Ioc' }))
  heights.rebate = ic.tip
  p = ic.pipeline()
  indexAll(p, ic.tip)
})

afterAll(() => {
  p?.close()
  ic?.close()
})

describe('derive over real chain blocks', () => {
  test('every stage reaches the tip', () => {
    expect(p.watermarks).toEqual({ ingest: ic.tip, derive: ic.tip, candle: ic.tip, stats: ic.tip })
  })

  test('one block per batch gives the tables of one batch: orders closed in the batch that placed them or in a later one', () => {
    // The cancelled bid rests for four blocks: one batch closes it where it was placed, block by block it closes later.
    withIndexedCopy(ic.dir, ic.tip, 1, (one) => {
      for (const table of DERIVED_TABLES) expect({ table, rows: tableRows(one, table) }).toEqual({ table, rows: tableRows(p, table) })
      expect(tableRows(one, 'order_events').length).toBeGreaterThan(10)
    })
  })

  test('fills: a taker and a maker row per fill with the exact FillRecord fields', () => {
    const ctx = { db: p.db, symbolOf }
    const bob = READ_OPS.fills(ctx, { filter: { account: BOB }, page: PAGE })
    expect(bob.page.total).toBe(3)
    const [rebateFill, closeFill, openFill] = bob.data as Record<string, unknown>[]
    expect(openFill).toEqual({
      height: heights.fill1,
      seq: 1,
      is_taker: true,
      timestamp_ms: expect.any(Number),
      market_id: BTC,
      order_id: bidId + 1,
      account: BOB,
      counterparty: ALICE,
      price: '65000',
      qty: '0.2',
      notional: '13000',
      fee: '6.5',
      symbol: 'BTC-USD',
      realized_pnl: '0',
      realized_pnl_pct: '0',
      position_action: 'open_short',
    })
    expect(closeFill).toMatchObject({
      height: heights.fill2,
      is_taker: true,
      price: '66000',
      qty: '0.1',
      notional: '6600',
      fee: '3.3',
      realized_pnl: '-100',
      realized_pnl_pct: '-1.5384',
      position_action: 'close_short',
    })
    expect(rebateFill).toMatchObject({ height: heights.rebate, position_action: 'close_short' })
    for (const removed of ['aggressor_side', 'position_old_size', 'position_new_size', 'is_close'])
      expect(openFill).not.toHaveProperty(removed)
    const alice = READ_OPS.fills(ctx, { filter: { account: ALICE }, page: PAGE }).data as Record<string, unknown>[]
    expect(alice.map((f) => [f.is_taker, f.qty, f.fee, f.realized_pnl, f.realized_pnl_pct, f.position_action])).toEqual([
      [false, '0.01', '0.131', '5', '0.7692', 'close_long'],
      [false, '0.1', '1.32', '100', '1.5384', 'close_long'],
      [false, '0.2', '2.6', '0', '0', 'open_long'],
    ])
  })

  test('orders: lifecycle rows of closed orders, newest first; open orders only with include_open', () => {
    const ctx = { db: p.db, symbolOf }
    const closed = READ_OPS.orders(ctx, { filter: { owner: ALICE, includeOpen: false }, page: PAGE }).data as Record<string, unknown>[]
    const bid = closed.filter((r) => r.order_id === bidId)
    expect(bid).toEqual([
      {
        height: heights.fill2 + 1,
        seq: 0,
        timestamp_ms: expect.any(Number),
        order_id: bidId,
        owner: ALICE,
        market_id: BTC,
        event_type: 'Done',
        side: null,
        price: null,
        qty: null,
        remaining: '0.3',
        reason: 'Cancelled',
        symbol: 'BTC-USD',
        client_order_id: 'a-1',
      },
      {
        height: heights.open,
        seq: 1,
        timestamp_ms: expect.any(Number),
        order_id: bidId,
        owner: ALICE,
        market_id: BTC,
        event_type: 'Resting',
        side: null,
        price: null,
        qty: null,
        remaining: null,
        reason: null,
        symbol: 'BTC-USD',
        client_order_id: 'a-1',
      },
      {
        height: heights.open,
        seq: 0,
        timestamp_ms: expect.any(Number),
        order_id: bidId,
        owner: ALICE,
        market_id: BTC,
        event_type: 'Accepted',
        side: 'Bid',
        price: '65000',
        qty: '0.5',
        remaining: null,
        reason: null,
        symbol: 'BTC-USD',
        client_order_id: 'a-1',
      },
    ])
    const all = READ_OPS.orders(ctx, { filter: { owner: ALICE, includeOpen: true }, page: PAGE }).data as Record<string, unknown>[]
    expect(all.length).toBeGreaterThanOrEqual(closed.length)
    const bobRows = READ_OPS.orders(ctx, { filter: { owner: BOB, includeOpen: false }, page: PAGE }).data as Record<string, unknown>[]
    // An IOC that fills completely: Accepted then Done(Filled), no Resting.
    const ioc = bobRows.filter((r) => r.order_id === bidId + 1).map((r) => [r.event_type, r.reason])
    expect(ioc).toEqual([
      ['Done', 'Filled'],
      ['Accepted', null],
    ])
  })

  test('fund flows, bridge flows, referral and rebate events come from the funds events', () => {
    const ctx = { db: p.db, symbolOf }
    const flows = READ_OPS.fundFlows(ctx, { account: ALICE, page: PAGE }).data as Record<string, unknown>[]
    expect(flows.map((f) => f.flow_type)).toEqual(expect.arrayContaining(['Deposit', 'WithdrawRequested', 'TransferOut']))
    expect(flows.find((f) => f.flow_type === 'Deposit')).toMatchObject({ amount: '1000', account: ALICE })
    expect(flows.find((f) => f.flow_type === 'TransferOut')).toMatchObject({ amount: '-10' })
    expect(
      (READ_OPS.fundFlows(ctx, { account: BOB, page: PAGE }).data as Record<string, unknown>[]).find((f) => f.flow_type === 'TransferIn'),
    ).toMatchObject({ amount: '10' })
    const bridge = READ_OPS.bridgeFlows(ctx, { account: ALICE, page: PAGE }).data as Record<string, unknown>[]
    expect(bridge.map((b) => [b.direction, b.status, b.amount])).toEqual([
      ['withdraw', 'settled', '250'],
      ['withdraw', 'requested', '250'],
      ['deposit', 'credited', '1000'],
    ])
    expect(bridge[0]).toMatchObject({ reference: String(withdrawalId), external_tx: '0xfeed', counterparty: EXTERNAL })
    expect(bridge[2]).toMatchObject({ reference: '0xdep:1', counterparty: 'arbitrum' })
    // Each names the transaction that moved the money (every block here holds one).
    for (const f of [...flows, ...bridge]) expect(f.tx_hash).toBe(ic.store.envelopesOf(f.height as number)[0]!.txHash)
    const referrals = READ_OPS.referralEvents(ctx, { account: ALICE, page: PAGE }).data as Record<string, unknown>[]
    expect(referrals).toEqual([expect.objectContaining({ role: 'inviter', inviter: ALICE, invitee: BOB, event_type: 'InviterSet' })])
    const rebates = READ_OPS.rebateEvents(ctx, { account: ALICE, page: PAGE }).data as Record<string, unknown>[]
    expect(rebates).toEqual([
      expect.objectContaining({ role: 'inviter', inviter: ALICE, invitee: BOB, market_id: BTC, height: heights.rebate }),
    ])
    expect(Number(rebates[0]!.amount)).toBeGreaterThan(0)
  })

  test('account events list the non-trading events touching the account, both sides of a transfer', () => {
    const ctx = { db: p.db, symbolOf }
    const bobEvents = (READ_OPS.accountEvents(ctx, { account: BOB, page: PAGE }).data as { sub_kind: string }[]).map((e) => e.sub_kind)
    expect(bobEvents).toEqual(expect.arrayContaining(['FundsTransferred', 'InviterSet']))
    expect(bobEvents).not.toContain('Filled')
  })

  test('positions: a row per (account, market, block) with the sizes around the block', () => {
    const ctx = { db: p.db, symbolOf }
    const rows = READ_OPS.positions(ctx, { account: BOB, page: PAGE }).data as Record<string, unknown>[]
    expect(rows.map((r) => [r.height, r.size_before, r.size_after, r.realized_pnl, r.position_action])).toEqual([
      [heights.rebate, '-0.1', '-0.09', expect.any(String), 'close_short'],
      [heights.fill2, '-0.2', '-0.1', '-100', 'close_short'],
      [heights.fill1, '0', '-0.2', '0', 'open_short'],
    ])
  })

  test('candles and stats count every fill once', () => {
    const ctx = { db: p.db, symbolOf }
    const candles = READ_OPS.candles(ctx, { marketId: BTC, interval: '1d', fromMs: 0, toMs: Number.MAX_SAFE_INTEGER, limit: 10 })
    expect(candles).toEqual([expect.objectContaining({ o: '65000', h: '66000', l: '65000', c: '65500', v: '0.31', n: 3 })])
    const stats = READ_OPS.accountStats(ctx, { account: BOB })
    expect(stats).toMatchObject({ fills: 3, taker_fills: 3, maker_fills: 0, volume: '20255', fees: '10.1275', losing_closes: 2 })
  })
})

describe('bridge flows of every withdrawal outcome', () => {
  test('requested, claimed and refunded with the reason; requested and cancelled; each row references its withdrawal', () => {
    const bc = new IndexedChain()
    try {
      bc.send(BRIDGE, deposit(ALICE, '1000', '0xdep:9'))
      const idOf = (r: { events: readonly { sub_kind: string }[] }) =>
        (r.events.find((e) => e.sub_kind === 'WithdrawalRequested') as unknown as { withdrawal_id: number }).withdrawal_id
      const refunded = idOf(bc.send(ALICE, withdraw('100')))
      bc.send(BRIDGE, claim(refunded))
      bc.send(BRIDGE, refund(refunded, 'payout rejected'))
      const cancelled = idOf(bc.send(ALICE, withdraw('50', BOB)))
      bc.send(ALICE, cancelWithdraw(cancelled))
      const bp = bc.pipeline()
      indexAll(bp, bc.tip)
      const rows = READ_OPS.bridgeFlows({ db: bp.db, symbolOf }, { account: ALICE, page: PAGE }).data as Record<string, unknown>[]
      const shown = rows.map((r) => [r.direction, r.status, r.amount, r.reference, r.counterparty, r.external_tx, r.reason])
      expect(shown).toEqual([
        ['withdraw', 'cancelled', '50', String(cancelled), null, null, null],
        ['withdraw', 'requested', '50', String(cancelled), BOB.toLowerCase(), null, null],
        ['withdraw', 'refunded', '100', String(refunded), null, null, 'payout rejected'],
        ['withdraw', 'claimed', '100', String(refunded), EXTERNAL, null, null],
        ['withdraw', 'requested', '100', String(refunded), EXTERNAL, null, null],
        ['deposit', 'credited', '1000', '0xdep:9', null, null, null],
      ])
      bp.close()
    } finally {
      bc.close()
    }
  })
})

describe('positions through a liquidation', () => {
  test('the trader closes to zero with cause liquidation, the insurance fund takes the position over', () => {
    const lc = new IndexedChain(marginChain())
    try {
      lc.chain.ok(ALICE, updateMarginMode(BTC, 'Isolated'))
      lc.chain.ok(ALICE, updateLeverage(BTC, 10))
      lc.chain.ok(BOB, place(BTC, 'Ask', '60000', '1'))
      lc.chain.ok(ALICE, place(BTC, 'Bid', '60000', '1', { tif: 'Ioc' }))
      moveMark(lc.chain, BTC, '54545.4', '0.0001')
      lc.chain.ok(LIQ, liquidate(ALICE, BTC))
      const height = lc.chain.state.height
      const lp = lc.pipeline()
      indexAll(lp, height)
      const ctx = { db: lp.db, symbolOf }
      const alice = READ_OPS.positions(ctx, { account: ALICE, page: PAGE }).data as Record<string, unknown>[]
      expect(alice[0]).toMatchObject({
        height,
        size_before: '1',
        size_after: '0',
        cause: 'liquidation',
        position_action: 'close_long',
        fills: 0,
      })
      const fund = READ_OPS.positions(ctx, { account: ADMIN, page: PAGE }).data as Record<string, unknown>[]
      expect(fund[0]).toMatchObject({
        height,
        size_before: '0',
        size_after: '1',
        cause: 'liquidation_takeover',
        position_action: 'open_long',
      })
      const events = (READ_OPS.accountEvents(ctx, { account: LIQ, page: PAGE }).data as { sub_kind: string }[]).map((e) => e.sub_kind)
      expect(events).toContain('PositionLiquidated')
      lp.close()
    } finally {
      lc.close()
    }
  })
})

describe('orders promoted from triggers', () => {
  test('their rows carry the trigger id, whether the trigger fired in the batch that closes the order or in an earlier one', () => {
    // Indexed in one batch, the order's trigger is what the batch itself set; block by block, what the archive holds.
    const tc = new IndexedChain()
    try {
      // A limit trigger fires when the mark falls to 64,000 and its order rests, to be cancelled two blocks later.
      tc.send(ALICE, trig(BTC, 'Ask', '0.1', '64000', 'Below', { type: 'limit', limit: '64500', cloid: 'stop-ask' }))
      moveMark(tc.chain, BTC, '64000', '0.01')
      // moveMark's block, then the block that cancels its helper orders.
      const promoted = tc.store
        .eventsBetween(tc.tip - 1, tc.tip)
        .find((e) => e.subKind === 'OrderAccepted' && e.account === ALICE.toLowerCase())
      expect(promoted).toBeDefined()
      tc.send(BOB, place(BTC, 'Ask', '64600', '1'))
      tc.send(ALICE, cancel(BTC, (JSON.parse(promoted!.bodyJson) as { order_id: number }).order_id))
      const all = tc.pipeline()
      indexAll(all, tc.tip)
      // The same tables from a second index built block by block.
      withIndexedCopy(tc.dir, tc.tip, 1, (one) => {
        for (const table of DERIVED_TABLES) expect({ table, rows: tableRows(one, table) }).toEqual({ table, rows: tableRows(all, table) })
      })
      const rows = all.db
        .query<{ client_order_id: string; event_type: string; trigger_id: number | null }, []>(
          "SELECT client_order_id, event_type, trigger_id FROM order_events WHERE client_order_id = 'stop-ask' ORDER BY height, seq",
        )
        .all()
      expect(rows).toEqual([
        { client_order_id: 'stop-ask', event_type: 'Accepted', trigger_id: 1 },
        { client_order_id: 'stop-ask', event_type: 'Resting', trigger_id: 1 },
        { client_order_id: 'stop-ask', event_type: 'Done', trigger_id: 1 },
      ])
      expect(all.db.query('SELECT trigger_id, status FROM orders WHERE client_order_id = ?').all('stop-ask')).toEqual([
        { trigger_id: 1, status: 'closed' },
      ])
      all.close()
    } finally {
      tc.close()
    }
  })
})

describe('the order archive of a batch (tables/orders.ts OrderArchiveBatch)', () => {
  test('orders placed, amended, filled and closed in one batch or across batches: the same tables however the blocks are batched', () => {
    // A seeded mix on one market: resting orders, IOC takers that fill them, amends (a re-accept
    // and a resize), cancels by id and by client id. Indexed three ways: the whole chain as one
    // batch (every order new to its batch), a block a batch, and three blocks a batch.
    const ic = new IndexedChain()
    const rng = new Rng(2026_11_27)
    const traders = [ALICE, BOB, CAROL]
    const resting: { by: string; id: number; cloid: string }[] = []
    try {
      for (let block = 0; block < 60; block++) {
        const by = traders[rng.int(traders.length)]!
        const roll = rng.int(100)
        if (roll < 40 || resting.length === 0) {
          const bid = rng.chance(50)
          const cloid = `o-${block}`
          const r = ic.send(
            by,
            place(BTC, bid ? 'Bid' : 'Ask', String(bid ? 64_000 + rng.int(900) : 65_100 + rng.int(900)), '0.01', { cloid }),
          )
          const accepted = r.events.find((e) => e.sub_kind === 'OrderAccepted') as { order_id: number } | undefined
          if (accepted !== undefined) resting.push({ by, id: accepted.order_id, cloid })
        } else if (roll < 60) {
          // A taker through the book: fills makers, maybe several, the rest expires (IOC).
          const bid = rng.chance(50)
          ic.send(
            by,
            place(BTC, bid ? 'Bid' : 'Ask', bid ? '66000' : '63000', String(0.005 + rng.int(4) * 0.01), {
              tif: 'Ioc',
              cloid: `t-${block}`,
            }),
          )
        } else if (roll < 75) {
          const o = resting[rng.int(resting.length)]!
          ic.send(o.by, batchModify({ market_id: BTC, order_id: o.id, qty: '0.02' }))
        } else if (roll < 88) {
          const o = resting.splice(rng.int(resting.length), 1)[0]!
          ic.send(o.by, cancel(BTC, o.id))
        } else {
          const o = resting.splice(rng.int(resting.length), 1)[0]!
          ic.send(o.by, cancelByCloid(BTC, o.cloid))
        }
      }
      const tables = (blocksPerStep: number) =>
        withIndexedCopy(ic.dir, ic.tip, blocksPerStep, (p) => Object.fromEntries(DERIVED_TABLES.map((t) => [t, tableRows(p, t)])))
      const whole = tables(ic.tip)
      expect((whole.orders as unknown[]).length).toBeGreaterThan(20)
      expect((whole.fills as unknown[]).length).toBeGreaterThan(10)
      expect((whole.orders as { status: string }[]).some((o) => o.status === 'open')).toBe(true)
      expect(tables(1)).toEqual(whole)
      expect(tables(3)).toEqual(whole)
    } finally {
      ic.close()
    }
  })
})
