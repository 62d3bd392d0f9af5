// Trigger orders through applyBlock on the dev genesis (docs/orders.md#trigger-orders): placement
// and its rejections, firing on the mark (market sweeps and limit orders, with the Filled source
// fields), fire_failed, amend, cancel, expiry, OnFailure and MarketDelisted. Each table row is one
// action in a block of its own, ending in its events (or reject reason) and its block's hook
// events.
// BTC-USD: 1 price decimal, 4 size decimals, mark 65000 (650000 ticks); "0.1" is 1000 lots.
import { describe, expect, test } from 'bun:test'
import {
  ADMIN,
  ALICE,
  activateMarket,
  BOB,
  BTC,
  CAROL,
  createMarket,
  DAVE,
  ETH,
  ev,
  place,
  TestChain,
} from '../../../test/support/chain/test-chain.ts'
import {
  amendTrig,
  cancelTrig,
  cancelTrigByCloid,
  checkTriggerInvariants,
  hookEvents,
  markRows,
  runTriggerRows,
  type TriggerRow,
  trig,
} from '../../../test/support/chain/triggers.ts'
import { bytesToHex } from '../../lib/hex.ts'
import { DEV_ADDRESSES } from '../../node/dev-genesis.ts'
import { fullStateRoot } from '../state/state-root.ts'
import { TRIGGER_LIMITS } from './trigger-types.ts'
import { cancelMarketTriggers, protectiveLimit } from './triggers.ts'

/** Block time of height h in TestChain (genesis time + 1 s per block). */
const GENESIS_MS = 1_767_225_600_000
const timeOf = (height: number) => GENESIS_MS + height * 1_000

/** Runs rows, then checks the root and the trigger indexes. */
function run(chain: TestChain, rows: readonly TriggerRow[]) {
  const results = runTriggerRows(chain, rows)
  checkTriggerInvariants(chain.state)
  expect(bytesToHex(fullStateRoot(chain.state))).toBe(bytesToHex(results.at(-1)!.stateRoot))
  return results
}

describe('PlaceTriggerOrder', () => {
  test('placed with its details; every rejection in precedence order', () => {
    const chain = new TestChain()
    run(chain, [
      {
        by: ALICE,
        action: trig(BTC, 'Ask', '0.1', '64000', 'Below', { cloid: 'sl' }),
        expect: [
          ev('TriggerPlaced', {
            kind: 'Trigger',
            kind_label: 'placed',
            market_id: BTC,
            account: ALICE,
            trigger_id: 1,
            side: 'Ask',
            order_type: 'market',
            qty_lots: 1000,
            trigger_price_ticks: 640000,
            trigger_direction: 'Below',
            limit_price_ticks: undefined,
            tif: 'Ioc',
            reduce_only: false,
            client_order_id: 'sl',
            expires_at_ms: null,
            pair_id: undefined,
          }),
        ],
      },
      {
        by: ALICE,
        action: trig(BTC, 'Bid', '0.2', '66000', 'Above', {
          type: 'limit',
          limit: '66100',
          tif: 'PostOnly',
          reduceOnly: true,
          expiresAtMs: timeOf(100),
        }),
        expect: [
          ev('TriggerPlaced', {
            trigger_id: 2,
            order_type: 'limit',
            limit_price_ticks: 661000,
            tif: 'PostOnly',
            reduce_only: true,
            expires_at_ms: timeOf(100),
          }),
        ],
      },
      {
        by: ALICE,
        action: trig(BTC, 'Bid', '0.1', '66000', 'Above', { type: 'limit', limit: '66100' }),
        expect: [ev('TriggerPlaced', { trigger_id: 3, tif: 'Gtc' })],
      },
      // The same client id in another market is fine; in the same market it is a duplicate.
      {
        by: ALICE,
        action: trig(ETH, 'Ask', '1', '3000', 'Below', { cloid: 'sl' }),
        expect: [ev('TriggerPlaced', { trigger_id: 4, market_id: ETH })],
      },
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '63000', 'Below', { cloid: 'sl' }), expect: { reject: 'DuplicateClientOrderId' } },
      { by: ALICE, action: trig(77, 'Ask', '0.1', '63000', 'Below'), expect: { reject: 'MarketNotFound' } },
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '63000.55', 'Below'), expect: { reject: 'InvalidPrice' } },
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '0', 'Below'), expect: { reject: 'InvalidPrice' } },
      {
        by: ALICE,
        action: trig(BTC, 'Ask', '0.1', '63000', 'Below', { type: 'limit', limit: '62000.01' }),
        expect: { reject: 'InvalidPrice' },
      },
      { by: ALICE, action: trig(BTC, 'Ask', '0.00001', '63000', 'Below'), expect: { reject: 'InvalidQuantity' } },
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '63000', 'Below', { type: 'limit' }), expect: { reject: 'InvalidTriggerOrder' } },
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '63000', 'Below', { limit: '62000' }), expect: { reject: 'InvalidTriggerOrder' } },
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '63000', 'Below', { tif: 'Gtc' }), expect: { reject: 'InvalidTriggerOrder' } },
      {
        by: ALICE,
        action: trig(BTC, 'Ask', '0.1', '63000', 'Below', { expiresAtMs: timeOf(chain.state.height + 1) }),
        expect: { reject: 'InvalidTriggerOrder' },
      },
      // At the mark 65000: Above fires at mark >= trigger, Below at mark <= trigger.
      { by: ALICE, action: trig(BTC, 'Bid', '0.1', '65000', 'Above'), expect: { reject: 'TriggerWouldFireImmediately' } },
      { by: ALICE, action: trig(BTC, 'Bid', '0.1', '64000', 'Above'), expect: { reject: 'TriggerWouldFireImmediately' } },
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '65000', 'Below'), expect: { reject: 'TriggerWouldFireImmediately' } },
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '65000.1', 'Below'), expect: { reject: 'TriggerWouldFireImmediately' } },
      { by: ALICE, action: trig(BTC, 'Bid', '0.1', '65000.1', 'Above'), expect: [ev('TriggerPlaced', { trigger_id: 5 })] },
    ])
    expect(chain.state.triggers.nextTriggerId).toBe(6)
  })

  test('MarketNotTradable before activation, BelowMinOrderSize after', () => {
    const chain = new TestChain()
    chain.ok(ADMIN, createMarket({ symbol: 'MIN-USD', min_order_qty: '1' }))
    const id = [...chain.state.markets.keys()].at(-1)!
    run(chain, [
      { by: ALICE, action: trig(id, 'Bid', '2', '101', 'Above'), expect: { reject: 'MarketNotTradable' } },
      { by: ADMIN, action: activateMarket(id), expect: ['MarketLifecycleChanged'] },
      { by: ALICE, action: trig(id, 'Bid', '0.5', '101', 'Above'), expect: { reject: 'BelowMinOrderSize' } },
      { by: ALICE, action: trig(id, 'Bid', '1', '101', 'Above'), expect: ['TriggerPlaced'] },
    ])
  })

  test(`at most ${TRIGGER_LIMITS.triggersPerAccountMax} active triggers per account`, () => {
    const chain = new TestChain()
    const max = TRIGGER_LIMITS.triggersPerAccountMax
    chain.block(Array.from({ length: max }, (_, i) => ({ by: ALICE, action: trig(BTC, 'Ask', '0.1', String(60000 - i), 'Below') })))
    expect(chain.state.triggers.accounts.get(ALICE)!.triggers.size).toBe(max)
    run(chain, [
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '50000', 'Below'), expect: { reject: 'TooManyTriggers' } },
      { by: BOB, action: trig(BTC, 'Ask', '0.1', '50000', 'Below'), expect: ['TriggerPlaced'] },
      { by: ALICE, action: cancelTrig(BTC, 1), expect: [ev('TriggerCancelled', { trigger_id: 1, reason: 'ByOwner' })] },
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '50000', 'Below'), expect: ['TriggerPlaced'] },
    ])
  })
})

describe('firing on the mark', () => {
  test('an Above market trigger sweeps as an IOC bounded 10% beyond the mark; its fill names the trigger and its tx', () => {
    const chain = new TestChain()
    run(chain, [
      { by: ALICE, action: trig(BTC, 'Bid', '0.1', '65500', 'Above', { cloid: 'buy-stop' }), expect: ['TriggerPlaced'] },
      { by: BOB, action: place(BTC, 'Ask', '66000', '1'), expect: ['OrderAccepted', 'OrderResting'] },
    ])
    const txHash = chain.state.triggers.triggers.get(1)!.txHash
    // The mark moves to 65499.9: not yet.
    run(chain, markRows(BTC, '65499.9', '0.01', DAVE, CAROL))
    expect(chain.state.markets.get(BTC)!.markTicks).toBe(654999)
    // The mark moves to 65600: the trigger fires at the end of that block, after the mark update.
    run(
      chain,
      markRows(BTC, '65600', '0.01', DAVE, CAROL, [
        ev('TriggerActivated', {
          kind: 'Trigger',
          kind_label: 'activated',
          trigger_id: 1,
          account: ALICE,
          mark_price_ticks: 656000,
          order_price_ticks: 721600,
        }),
        ev('OrderAccepted', { account: ALICE, side: 'Bid', price_ticks: 721600, qty_lots: 1000, tif: 'Ioc', client_order_id: 'buy-stop' }),
        ev('Filled', {
          taker: ALICE,
          maker: BOB,
          price_ticks: 660000,
          qty_lots: 1000,
          taker_source_trigger_id: 1,
          taker_source_tx_hash: txHash,
          maker_source_trigger_id: null,
        }),
        ev('OrderDone', { account: ALICE, reason: 'Filled' }),
      ]),
    )
    expect(chain.state.triggers.triggers.size).toBe(0)
    expect(chain.state.accounts.get(ALICE)!.positions.get(BTC)!.sizeLots).toBe(1000)
  })

  test('a Below limit trigger rests; a later fill against it carries the maker source fields', () => {
    const chain = new TestChain()
    run(chain, [
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '64000', 'Below', { type: 'limit', limit: '64500' }), expect: ['TriggerPlaced'] },
    ])
    const txHash = chain.state.triggers.triggers.get(1)!.txHash
    run(
      chain,
      markRows(BTC, '64000', '0.01', DAVE, CAROL, [
        ev('TriggerActivated', { trigger_id: 1, mark_price_ticks: 640000, order_price_ticks: 645000 }),
        ev('OrderAccepted', { account: ALICE, side: 'Ask', price_ticks: 645000, tif: 'Gtc' }),
        ev('OrderResting', { account: ALICE, remaining_lots: 1000 }),
      ]),
    )
    const orderId = chain.state.accounts.get(ALICE)!.orders.values().next().value!.id
    run(chain, [
      {
        by: BOB,
        action: place(BTC, 'Bid', '64500', '0.1', { tif: 'Ioc' }),
        expect: [
          'OrderAccepted',
          ev('Filled', {
            maker: ALICE,
            maker_order_id: orderId,
            maker_source_trigger_id: 1,
            maker_source_tx_hash: txHash,
            taker_source_trigger_id: null,
          }),
          ev('OrderDone', { account: ALICE, reason: 'Filled' }),
          ev('OrderDone', { account: BOB }),
        ],
      },
    ])
  })

  test('a market trigger without liquidity is activated and its IOC expires', () => {
    const chain = new TestChain()
    run(chain, [{ by: ALICE, action: trig(BTC, 'Ask', '0.1', '64000', 'Below'), expect: ['TriggerPlaced'] }])
    run(
      chain,
      markRows(BTC, '63000', '0.01', DAVE, CAROL, [
        ev('TriggerActivated', { trigger_id: 1, order_price_ticks: 567000 }),
        'OrderAccepted',
        ev('OrderDone', { reason: 'IocExpired', remaining_lots: 1000 }),
      ]),
    )
  })

  test('a promoted order that is rejected is fire_failed with the reject reason', () => {
    const chain = new TestChain()
    run(chain, [
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '64000', 'Below', { reduceOnly: true }), expect: ['TriggerPlaced'] },
      ...markRows(BTC, '63000', '0.01', DAVE, CAROL, [
        ev('TriggerFireFailed', { kind: 'Trigger', kind_label: 'fire_failed', trigger_id: 1, reason: 'ReduceOnlyWouldOpenOrFlip' }),
      ]),
    ])
    expect(chain.state.triggers.triggers.size).toBe(0)
  })

  test('triggers fire in trigger id order; a mark on the far side of both directions fires nothing', () => {
    const chain = new TestChain()
    run(chain, [
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '63000', 'Below'), expect: ['TriggerPlaced'] },
      { by: BOB, action: trig(BTC, 'Ask', '0.1', '64000', 'Below'), expect: ['TriggerPlaced'] },
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '64500', 'Below'), expect: ['TriggerPlaced'] },
      { by: BOB, action: trig(BTC, 'Bid', '0.1', '66000', 'Above'), expect: ['TriggerPlaced'] },
      ...markRows(BTC, '65900', '0.01', DAVE, CAROL),
      ...markRows(BTC, '63500', '0.01', DAVE, CAROL, [
        ev('TriggerActivated', { trigger_id: 2 }),
        'OrderAccepted',
        'OrderDone',
        ev('TriggerActivated', { trigger_id: 3 }),
        'OrderAccepted',
        'OrderDone',
      ]),
    ])
    expect([...chain.state.triggers.triggers.keys()]).toEqual([1, 4])
  })

  test(`at most ${TRIGGER_LIMITS.triggersFiredPerBlockMax} fire per block; the rest fire in the next block without a new mark`, () => {
    const chain = new TestChain()
    const traders = [ALICE, BOB, ...DEV_ADDRESSES.slice(5, 10)]
    const count = TRIGGER_LIMITS.triggersFiredPerBlockMax + 5
    const perTrader = TRIGGER_LIMITS.triggersPerAccountMax
    chain.block(
      Array.from({ length: count }, (_, i) => ({
        by: traders[Math.floor(i / perTrader)]!,
        action: trig(BTC, 'Bid', '0.0001', '65500', 'Above'),
      })),
    )
    expect(chain.state.triggers.triggers.size).toBe(count)
    run(chain, markRows(BTC, '65600', '0.01', DAVE, CAROL).slice(0, 1))
    const fired = chain.block([{ by: CAROL, action: place(BTC, 'Bid', '65600', '0.01', { tif: 'Ioc' }) }])
    const activated = (r: typeof fired) => hookEvents(r).flatMap((e) => (e.sub_kind === 'TriggerActivated' ? [e.trigger_id] : []))
    expect(activated(fired)).toEqual(Array.from({ length: TRIGGER_LIMITS.triggersFiredPerBlockMax }, (_, i) => i + 1))
    const next = chain.block([])
    expect(activated(next)).toEqual([1001, 1002, 1003, 1004, 1005])
    expect(chain.state.triggers.triggers.size).toBe(0)
    expect(bytesToHex(next.stateRoot)).toBe(bytesToHex(fullStateRoot(chain.state)))
  })

  test('the protective limit rounds toward the mark and never below one tick', () => {
    expect(protectiveLimit(650000, 'Bid')).toBe(715000)
    expect(protectiveLimit(650000, 'Ask')).toBe(585000)
    expect(protectiveLimit(19, 'Bid')).toBe(20)
    expect(protectiveLimit(19, 'Ask')).toBe(18)
    expect(protectiveLimit(1, 'Ask')).toBe(1)
    expect(protectiveLimit(Number.MAX_SAFE_INTEGER, 'Bid')).toBe(Number.MAX_SAFE_INTEGER)
  })
})

describe('AmendTriggerOrder and CancelTriggerOrder', () => {
  test('amended details; rejections; cancel by client id and by id', () => {
    const chain = new TestChain()
    run(chain, [
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '64000', 'Below', { cloid: 'a' }), expect: ['TriggerPlaced'] },
      { by: ALICE, action: trig(BTC, 'Bid', '0.1', '66000', 'Above', { type: 'limit', limit: '66100' }), expect: ['TriggerPlaced'] },
      {
        by: ALICE,
        action: amendTrig(BTC, 1, { trigger_price: '63000', qty: '0.2' }),
        expect: [
          ev('TriggerAmended', {
            kind: 'Trigger',
            kind_label: 'amended',
            trigger_id: 1,
            trigger_price_ticks: 630000,
            qty_lots: 2000,
            trigger_direction: 'Below',
            client_order_id: 'a',
            tif: 'Ioc',
          }),
        ],
      },
      {
        by: ALICE,
        action: amendTrig(BTC, 2, { limit_price: '66200', tif: 'Ioc', expires_at_ms: timeOf(50) }),
        expect: [
          ev('TriggerAmended', {
            trigger_id: 2,
            limit_price_ticks: 662000,
            tif: 'Ioc',
            expires_at_ms: timeOf(50),
            trigger_price_ticks: 660000,
          }),
        ],
      },
      {
        by: ALICE,
        action: amendTrig(BTC, 2, { expires_at_ms: null }),
        expect: [ev('TriggerAmended', { trigger_id: 2, expires_at_ms: null })],
      },
      { by: ALICE, action: amendTrig(BTC, 1, {}), expect: { reject: 'InvalidTriggerOrder' } },
      { by: ALICE, action: amendTrig(BTC, 1, { limit_price: '60000' }), expect: { reject: 'InvalidTriggerOrder' } },
      { by: ALICE, action: amendTrig(BTC, 1, { tif: 'Gtc' }), expect: { reject: 'InvalidTriggerOrder' } },
      { by: ALICE, action: amendTrig(BTC, 1, { expires_at_ms: 5 }), expect: { reject: 'InvalidTriggerOrder' } },
      { by: ALICE, action: amendTrig(BTC, 1, { trigger_price: '65000' }), expect: { reject: 'TriggerWouldFireImmediately' } },
      { by: ALICE, action: amendTrig(BTC, 1, { trigger_price: '63000.05' }), expect: { reject: 'InvalidPrice' } },
      { by: ALICE, action: amendTrig(BTC, 1, { qty: '0.00001' }), expect: { reject: 'InvalidQuantity' } },
      { by: BOB, action: amendTrig(BTC, 1, { qty: '0.3' }), expect: { reject: 'TriggerNotFound' } },
      { by: ALICE, action: amendTrig(ETH, 1, { qty: '0.3' }), expect: { reject: 'TriggerNotFound' } },
      { by: ALICE, action: amendTrig(77, 1, { qty: '0.3' }), expect: { reject: 'MarketNotFound' } },
      { by: BOB, action: cancelTrig(BTC, 1), expect: { reject: 'TriggerNotFound' } },
      {
        by: ALICE,
        action: cancelTrigByCloid(BTC, 'a'),
        expect: [ev('TriggerCancelled', { kind_label: 'cancelled', trigger_id: 1, reason: 'ByOwner' })],
      },
      { by: ALICE, action: cancelTrig(BTC, 1), expect: { reject: 'TriggerNotFound' } },
      { by: ALICE, action: cancelTrigByCloid(BTC, 'a'), expect: { reject: 'TriggerNotFound' } },
      { by: ALICE, action: cancelTrig(BTC, 2), expect: [ev('TriggerCancelled', { trigger_id: 2, reason: 'ByOwner' })] },
    ])
    expect(chain.state.triggers.triggers.size).toBe(0)
    expect(chain.state.triggers.accounts.size).toBe(0)
  })

  test('an amended trigger price moves the trigger in its ladder', () => {
    const chain = new TestChain()
    run(chain, [
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '64000', 'Below'), expect: ['TriggerPlaced'] },
      { by: ALICE, action: amendTrig(BTC, 1, { trigger_price: '62000' }), expect: ['TriggerAmended'] },
      ...markRows(BTC, '63000', '0.01', DAVE, CAROL),
      { by: ALICE, action: amendTrig(BTC, 1, { trigger_price: '62500' }), expect: ['TriggerAmended'] },
      ...markRows(BTC, '62400', '0.01', DAVE, CAROL, [ev('TriggerActivated', { trigger_id: 1 }), 'OrderAccepted', 'OrderDone']),
    ])
  })
})

describe('expiry, OnFailure and MarketDelisted', () => {
  test('a trigger expires at the start of the first block at or after its expires_at_ms', () => {
    const chain = new TestChain()
    const expiresAt = timeOf(3)
    run(chain, [
      {
        by: ALICE,
        action: trig(BTC, 'Ask', '0.1', '64000', 'Below', { expiresAtMs: expiresAt }),
        expect: [ev('TriggerPlaced', { expires_at_ms: expiresAt })],
      },
      { by: BOB, action: place(BTC, 'Bid', '1', '1'), expect: ['OrderAccepted', 'OrderResting'] },
      {
        by: BOB,
        action: place(BTC, 'Bid', '1', '1'),
        expect: ['OrderAccepted', 'OrderResting'],
        block: [
          ev('TriggerExpired', { kind: 'Trigger', kind_label: 'expired', trigger_id: 1, reason: 'Expired', expires_at_ms: expiresAt }),
        ],
      },
    ])
    expect(chain.state.triggers.expiry.size).toBe(0)
  })

  test('a reduce-only trigger is cancelled OnFailure when a fill leaves its side nothing to reduce', () => {
    const chain = new TestChain()
    run(chain, [
      { by: BOB, action: place(BTC, 'Ask', '65000', '0.1'), expect: ['OrderAccepted', 'OrderResting'] },
      {
        by: ALICE,
        action: place(BTC, 'Bid', '65000', '0.1', { tif: 'Ioc' }),
        expect: ['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'],
      },
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '60000', 'Below', { reduceOnly: true }), expect: ['TriggerPlaced'] },
      // A reduce-only Bid trigger would close a short: ALICE is long, so it fails at her next fill.
      { by: ALICE, action: trig(BTC, 'Bid', '0.1', '70000', 'Above', { reduceOnly: true }), expect: ['TriggerPlaced'] },
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '61000', 'Below'), expect: ['TriggerPlaced'] },
      { by: CAROL, action: place(BTC, 'Bid', '65000', '0.05'), expect: ['OrderAccepted', 'OrderResting'] },
      // Half closed: the Ask stop still has something to reduce; the Bid one never had.
      {
        by: ALICE,
        action: place(BTC, 'Ask', '65000', '0.05', { tif: 'Ioc' }),
        expect: ['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'],
        block: [ev('TriggerCancelled', { trigger_id: 2, reason: 'OnFailure' })],
      },
      { by: CAROL, action: place(BTC, 'Bid', '65000', '0.05'), expect: ['OrderAccepted', 'OrderResting'] },
      {
        by: ALICE,
        action: place(BTC, 'Ask', '65000', '0.05', { tif: 'Ioc' }),
        expect: ['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'],
        block: [ev('TriggerCancelled', { kind_label: 'cancelled', trigger_id: 1, reason: 'OnFailure' })],
      },
    ])
    // The plain trigger stays.
    expect([...chain.state.triggers.triggers.keys()]).toEqual([3])
  })

  test("cancelMarketTriggers removes the market's triggers with reason MarketDelisted", () => {
    const chain = new TestChain()
    run(chain, [
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '64000', 'Below'), expect: ['TriggerPlaced'] },
      { by: BOB, action: trig(BTC, 'Bid', '0.1', '66000', 'Above'), expect: ['TriggerPlaced'] },
      { by: ALICE, action: trig(ETH, 'Ask', '1', '3000', 'Below'), expect: ['TriggerPlaced'] },
      { by: ALICE, action: trig(BTC, 'Bid', '0.1', '67000', 'Above'), expect: ['TriggerPlaced'] },
    ])
    const events: Parameters<typeof cancelMarketTriggers>[2] = []
    cancelMarketTriggers(chain.state, BTC, events)
    expect(events.map((e) => e.sub_kind === 'TriggerCancelled' && [e.trigger_id, e.reason])).toEqual([
      [1, 'MarketDelisted'],
      [2, 'MarketDelisted'],
      [4, 'MarketDelisted'],
    ])
    const result = chain.block([])
    expect(bytesToHex(result.stateRoot)).toBe(bytesToHex(fullStateRoot(chain.state)))
    checkTriggerInvariants(chain.state)
    expect([...chain.state.triggers.triggers.keys()]).toEqual([3])
  })

  test('triggers wait while their market is not tradable', () => {
    const chain = new TestChain()
    const halt = (halted: boolean) => ({ SetEmergencyHalt: { market_id: BTC, halted } })
    run(chain, [
      { by: ALICE, action: trig(BTC, 'Ask', '0.1', '64000', 'Below'), expect: ['TriggerPlaced'] },
      { by: DAVE, action: place(BTC, 'Ask', '63000', '0.01'), expect: ['OrderAccepted', 'OrderResting'] },
    ])
    // The mark crosses in a block that also halts the market: nothing fires.
    const crossed = chain.block([
      { by: CAROL, action: place(BTC, 'Bid', '63000', '0.01', { tif: 'Ioc' }) },
      { by: ADMIN, action: halt(true) },
    ])
    expect(chain.state.markets.get(BTC)!.markTicks).toBe(630000)
    expect(hookEvents(crossed)).toEqual([])
    run(chain, [
      {
        by: ADMIN,
        action: halt(false),
        expect: ['EmergencyHaltChanged'],
        block: [ev('TriggerActivated', { trigger_id: 1 }), 'OrderAccepted', 'OrderDone'],
      },
    ])
  })
})
