// OCO pairs and brackets through applyBlock (docs/orders.md#oco-pairs-and-brackets: oco_placed /
// oco_resolved): one table per way a pair resolves (OrderResolved, TriggerFired, ManualCancel,
// PairCancelled, TriggerExpired), the placement rejections, and brackets armed by their parent's
// fill.
// BTC-USD: mark 65000; ALICE starts every scenario long 1 BTC bought from BOB at 65000.
import { describe, expect, test } from 'bun:test'
import { ALICE, BOB, BTC, CAROL, cancel, DAVE, ev, place, TestChain } from '../../../test/support/chain/test-chain.ts'
import {
  cancelOco,
  cancelOcoByClientId,
  cancelTrig,
  checkTriggerInvariants,
  markRows,
  oco,
  runTriggerRows,
  type TriggerRow,
  trig,
} from '../../../test/support/chain/triggers.ts'
import { bytesToHex } from '../../lib/hex.ts'
import { fullStateRoot } from '../state/state-root.ts'
import { TRIGGER_LIMITS } from './trigger-types.ts'
import { cancelMarketTriggers } from './triggers.ts'

const GENESIS_MS = 1_767_225_600_000
const timeOf = (height: number) => GENESIS_MS + height * 1_000

function run(chain: TestChain, rows: readonly TriggerRow[]) {
  const results = runTriggerRows(chain, rows)
  checkTriggerInvariants(chain.state)
  expect(bytesToHex(fullStateRoot(chain.state))).toBe(bytesToHex(results.at(-1)!.stateRoot))
  return results
}

/** A chain where ALICE is long 1 BTC (orders 1 and 2 are used). */
function aliceLong(): TestChain {
  const chain = new TestChain()
  chain.ok(BOB, place(BTC, 'Ask', '65000', '1'))
  chain.ok(ALICE, place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' }))
  expect(chain.state.accounts.get(ALICE)!.positions.get(BTC)!.sizeLots).toBe(10000)
  return chain
}

/** ALICE's take-profit at 70000 and stop-loss below 60000 on her long: pair 1, limit leg order 3, stop leg trigger 1. */
const takeProfitStopLoss: TriggerRow = {
  by: ALICE,
  action: oco(BTC, 'Ask', '1', '70000', '60000', 'Below', 11, { reduceOnly: true }),
  expect: [
    ev('OcoPlaced', {
      kind: 'Oco',
      kind_label: 'oco_placed',
      pair_id: 1,
      client_pair_id: 11,
      parent_order_id: undefined,
      side: 'Ask',
      qty_lots: 10000,
      limit_price_ticks: 700000,
      stop_trigger_price_ticks: 600000,
      stop_trigger_direction: 'Below',
      stop_order_type: 'market',
      reduce_only: true,
      limit_order_id: 3,
      stop_trigger_id: 1,
    }),
    ev('TriggerPlaced', { trigger_id: 1, pair_id: 1, side: 'Ask', qty_lots: 10000, trigger_price_ticks: 600000, reduce_only: true }),
    ev('OrderAccepted', { order_id: 3, side: 'Ask', price_ticks: 700000 }),
    ev('OrderResting', { order_id: 3 }),
  ],
}

describe('OCO pair resolution', () => {
  test('the limit leg fully fills: the stop leg is cancelled OcoSibling, OrderResolved', () => {
    const chain = aliceLong()
    run(chain, [
      takeProfitStopLoss,
      // A partial fill keeps the pair open.
      { by: CAROL, action: place(BTC, 'Bid', '70000', '0.4', { tif: 'Ioc' }), expect: ['OrderAccepted', 'Filled', 'OrderDone'] },
      {
        by: CAROL,
        action: place(BTC, 'Bid', '70000', '0.6', { tif: 'Ioc' }),
        expect: ['OrderAccepted', 'Filled', ev('OrderDone', { order_id: 3, reason: 'Filled' }), 'OrderDone'],
        block: [
          ev('TriggerCancelled', { trigger_id: 1, reason: 'OcoSibling', pair_id: 1 }),
          ev('OcoResolved', { kind: 'Oco', kind_label: 'oco_resolved', pair_id: 1, client_pair_id: 11, reason: 'OrderResolved' }),
        ],
      },
    ])
    expect(chain.state.triggers.pairs.size).toBe(0)
    expect(chain.state.triggers.triggers.size).toBe(0)
  })

  test('a limit leg that fills when placed resolves the pair in the same block', () => {
    const chain = aliceLong()
    run(chain, [
      { by: CAROL, action: place(BTC, 'Bid', '70000', '1'), expect: ['OrderAccepted', 'OrderResting'] },
      {
        by: ALICE,
        action: oco(BTC, 'Ask', '1', '70000', '60000', 'Below', 1, { reduceOnly: true }),
        expect: [
          'OcoPlaced',
          'TriggerPlaced',
          'OrderAccepted',
          'Filled',
          'OrderDone',
          ev('OrderDone', { account: ALICE, reason: 'Filled' }),
        ],
        block: [ev('TriggerCancelled', { reason: 'OcoSibling' }), ev('OcoResolved', { reason: 'OrderResolved' })],
      },
    ])
  })

  test('the stop leg fires: the limit leg is cancelled, TriggerFired, and the stop sweeps', () => {
    const chain = aliceLong()
    run(chain, [takeProfitStopLoss, { by: BOB, action: place(BTC, 'Bid', '58000', '1'), expect: ['OrderAccepted', 'OrderResting'] }])
    const pairTx = chain.state.triggers.pairs.get(1)!.txHash
    run(
      chain,
      markRows(BTC, '59000', '0.01', DAVE, CAROL, [
        ev('TriggerActivated', { trigger_id: 1, pair_id: 1, mark_price_ticks: 590000 }),
        ev('OrderDone', { order_id: 3, account: ALICE, reason: 'Cancelled' }),
        ev('OcoResolved', { pair_id: 1, reason: 'TriggerFired' }),
        ev('OrderAccepted', { account: ALICE, side: 'Ask', reduce_only: true, tif: 'Ioc' }),
        ev('Filled', {
          taker: ALICE,
          maker: BOB,
          price_ticks: 580000,
          qty_lots: 10000,
          taker_source_trigger_id: 1,
          taker_source_tx_hash: pairTx,
        }),
        ev('OrderDone', { account: BOB, reason: 'Filled' }),
        ev('OrderDone', { account: ALICE, reason: 'Filled' }),
      ]),
    )
    expect(chain.state.accounts.get(ALICE)!.positions.has(BTC)).toBe(false)
    expect(chain.state.accounts.get(ALICE)!.orders.size).toBe(0)
  })

  test('CancelOcoPair cancels both legs: the stop ByOwner, ManualCancel', () => {
    const chain = aliceLong()
    run(chain, [
      takeProfitStopLoss,
      { by: BOB, action: cancelOco(BTC, 1), expect: { reject: 'OcoPairNotFound' } },
      { by: ALICE, action: cancelOco(BTC, 2), expect: { reject: 'OcoPairNotFound' } },
      { by: ALICE, action: cancelOcoByClientId(BTC, 12), expect: { reject: 'OcoPairNotFound' } },
      { by: ALICE, action: { CancelOcoPair: { market_id: BTC } }, expect: { reject: 'OcoPairNotFound' } },
      { by: ALICE, action: cancelOco(2, 1), expect: { reject: 'OcoPairNotFound' } },
      { by: ALICE, action: cancelOco(77, 1), expect: { reject: 'MarketNotFound' } },
      {
        by: ALICE,
        action: cancelOcoByClientId(BTC, 11),
        expect: [
          ev('TriggerCancelled', { trigger_id: 1, reason: 'ByOwner' }),
          ev('OrderDone', { order_id: 3, reason: 'Cancelled' }),
          ev('OcoResolved', { pair_id: 1, reason: 'ManualCancel' }),
        ],
      },
      // The client pair id is free again.
      {
        by: ALICE,
        action: oco(BTC, 'Ask', '1', '70000', '60000', 'Below', 11, { reduceOnly: true }),
        expect: ['OcoPlaced', 'TriggerPlaced', 'OrderAccepted', 'OrderResting'],
      },
    ])
  })

  test('the owner cancels the limit leg: the stop leg goes OcoSibling, PairCancelled', () => {
    const chain = aliceLong()
    run(chain, [
      takeProfitStopLoss,
      {
        by: ALICE,
        action: cancel(BTC, 3),
        expect: [ev('OrderDone', { order_id: 3, reason: 'Cancelled' })],
        block: [
          ev('TriggerCancelled', { trigger_id: 1, reason: 'OcoSibling' }),
          ev('OcoResolved', { pair_id: 1, reason: 'PairCancelled' }),
        ],
      },
    ])
  })

  test('the owner cancels the stop leg: the limit leg is cancelled, PairCancelled', () => {
    const chain = aliceLong()
    run(chain, [
      takeProfitStopLoss,
      {
        by: ALICE,
        action: cancelTrig(BTC, 1),
        expect: [
          ev('TriggerCancelled', { trigger_id: 1, reason: 'ByOwner' }),
          ev('OrderDone', { order_id: 3, reason: 'Cancelled' }),
          ev('OcoResolved', { pair_id: 1, reason: 'PairCancelled' }),
        ],
      },
    ])
  })

  test('the stop leg expires: the limit leg is cancelled, TriggerExpired', () => {
    const chain = aliceLong()
    const expiresAt = timeOf(chain.state.height + 2)
    run(chain, [
      {
        by: ALICE,
        action: oco(BTC, 'Ask', '1', '70000', '60000', 'Below', 5, { reduceOnly: true, stopExpiresAtMs: expiresAt }),
        expect: [
          ev('OcoPlaced', { stop_expires_at_ms: expiresAt }),
          ev('TriggerPlaced', { expires_at_ms: expiresAt }),
          'OrderAccepted',
          'OrderResting',
        ],
      },
      {
        by: CAROL,
        action: place(BTC, 'Bid', '1', '1'),
        expect: ['OrderAccepted', 'OrderResting'],
        block: [
          ev('TriggerExpired', { trigger_id: 1, pair_id: 1 }),
          ev('OrderDone', { order_id: 3, reason: 'Cancelled' }),
          ev('OcoResolved', { pair_id: 1, reason: 'TriggerExpired' }),
        ],
      },
    ])
  })

  test('a flat position clamps away the reduce-only limit leg: the pair goes PairCancelled, the other pair stays', () => {
    const chain = aliceLong()
    run(chain, [
      {
        by: ALICE,
        action: oco(BTC, 'Ask', '1', '70000', '60000', 'Below', 1, { reduceOnly: false }),
        expect: ['OcoPlaced', 'TriggerPlaced', 'OrderAccepted', 'OrderResting'],
      },
      {
        by: ALICE,
        action: oco(BTC, 'Ask', '1', '71000', '61000', 'Below', 2, { reduceOnly: true }),
        expect: ['OcoPlaced', 'TriggerPlaced', 'OrderAccepted', 'OrderResting'],
      },
      { by: CAROL, action: place(BTC, 'Bid', '65000', '1'), expect: ['OrderAccepted', 'OrderResting'] },
      // The order area clamps the reduce-only limit leg (order 4) away as the position goes flat.
      {
        by: ALICE,
        action: place(BTC, 'Ask', '65000', '1', { tif: 'Ioc' }),
        expect: [
          ev('OrderAccepted', { order_id: 6 }),
          'Filled',
          ev('OrderDone', { order_id: 5 }),
          ev('OrderDone', { order_id: 4, reason: 'ReduceOnlyClamped' }),
          ev('OrderDone', { order_id: 6, reason: 'Filled' }),
        ],
        block: [
          ev('TriggerCancelled', { trigger_id: 2, reason: 'OcoSibling' }),
          ev('OcoResolved', { pair_id: 2, reason: 'PairCancelled' }),
        ],
      },
    ])
    expect([...chain.state.triggers.pairs.keys()]).toEqual([1])
  })

  test('cancelMarketTriggers: stop legs MarketDelisted, limit legs cancelled, pairs PairCancelled', () => {
    const chain = aliceLong()
    run(chain, [takeProfitStopLoss, { by: ALICE, action: trig(BTC, 'Ask', '0.5', '59000', 'Below'), expect: ['TriggerPlaced'] }])
    const events: Parameters<typeof cancelMarketTriggers>[2] = []
    cancelMarketTriggers(chain.state, BTC, events)
    expect(events.map((e) => [e.sub_kind, 'reason' in e ? e.reason : null])).toEqual([
      ['TriggerCancelled', 'MarketDelisted'],
      ['OrderDone', 'Cancelled'],
      ['OcoResolved', 'PairCancelled'],
      ['TriggerCancelled', 'MarketDelisted'],
    ])
    const result = chain.block([])
    expect(bytesToHex(result.stateRoot)).toBe(bytesToHex(fullStateRoot(chain.state)))
    checkTriggerInvariants(chain.state)
    expect(chain.state.triggers.triggers.size + chain.state.triggers.pairs.size).toBe(0)
  })
})

describe('PlaceOcoPair rejections', () => {
  test('in precedence order; the limit leg is the last check', () => {
    const chain = aliceLong()
    run(chain, [
      takeProfitStopLoss,
      { by: ALICE, action: oco(77, 'Ask', '1', '70000', '60000', 'Below', 2), expect: { reject: 'MarketNotFound' } },
      { by: ALICE, action: oco(BTC, 'Ask', '1', '70000.01', '60000', 'Below', 2), expect: { reject: 'InvalidPrice' } },
      { by: ALICE, action: oco(BTC, 'Ask', '1', '70000', '60000.01', 'Below', 2), expect: { reject: 'InvalidPrice' } },
      {
        by: ALICE,
        action: oco(BTC, 'Ask', '1', '70000', '60000', 'Below', 2, { stopType: 'limit', stopLimit: '1.01' }),
        expect: { reject: 'InvalidPrice' },
      },
      { by: ALICE, action: oco(BTC, 'Ask', '0.00001', '70000', '60000', 'Below', 2), expect: { reject: 'InvalidQuantity' } },
      {
        by: ALICE,
        action: oco(BTC, 'Ask', '1', '70000', '60000', 'Below', 2, { stopType: 'limit' }),
        expect: { reject: 'InvalidTriggerOrder' },
      },
      {
        by: ALICE,
        action: oco(BTC, 'Ask', '1', '70000', '60000', 'Below', 2, { stopLimit: '59000' }),
        expect: { reject: 'InvalidTriggerOrder' },
      },
      {
        by: ALICE,
        action: oco(BTC, 'Ask', '1', '70000', '60000', 'Below', 2, { stopExpiresAtMs: 1 }),
        expect: { reject: 'InvalidTriggerOrder' },
      },
      { by: ALICE, action: oco(BTC, 'Ask', '1', '70000', '60000', 'Below', 11), expect: { reject: 'DuplicateClientPairId' } },
      { by: ALICE, action: oco(BTC, 'Ask', '1', '70000', '66000', 'Below', 2), expect: { reject: 'TriggerWouldFireImmediately' } },
      // placeOrder's own refusals of the limit leg: a reduce-only Bid cannot reduce a long.
      {
        by: ALICE,
        action: oco(BTC, 'Bid', '1', '60000', '70000', 'Above', 2, { reduceOnly: true }),
        expect: { reject: 'ReduceOnlyWouldOpenOrFlip' },
      },
      {
        by: ALICE,
        action: oco(BTC, 'Ask', '1', '70000', '60000', 'Below', 2, { stopType: 'limit', stopLimit: '59000' }),
        expect: [
          'OcoPlaced',
          ev('TriggerPlaced', { order_type: 'limit', limit_price_ticks: 590000, tif: 'Gtc' }),
          'OrderAccepted',
          'OrderResting',
        ],
      },
    ])
    expect(chain.state.triggers.nextPairId).toBe(3)
  })

  test(`at most ${TRIGGER_LIMITS.ocoPairsPerAccountMax} open pairs per account`, () => {
    const chain = new TestChain()
    const max = TRIGGER_LIMITS.ocoPairsPerAccountMax
    chain.block(Array.from({ length: max }, (_, i) => ({ by: ALICE, action: oco(BTC, 'Bid', '0.0001', '60000', '70000', 'Above', i) })))
    expect(chain.state.triggers.accounts.get(ALICE)!.pairs.size).toBe(max)
    run(chain, [{ by: ALICE, action: oco(BTC, 'Bid', '0.0001', '60000', '70000', 'Above', max), expect: { reject: 'TooManyOcoPairs' } }])
  })
})

describe('brackets', () => {
  test('the legs are placed when the parent fully fills', () => {
    const chain = new TestChain()
    run(chain, [
      { by: ALICE, action: place(BTC, 'Bid', '64000', '0.5'), expect: [ev('OrderAccepted', { order_id: 1 }), 'OrderResting'] },
      {
        by: ALICE,
        action: oco(BTC, 'Ask', '0.5', '70000', '60000', 'Below', 1, { reduceOnly: true, parent: 1 }),
        expect: [ev('OcoPlaced', { pair_id: 1, parent_order_id: 1, limit_order_id: null, stop_trigger_id: null })],
      },
      { by: BOB, action: place(BTC, 'Ask', '64000', '0.2', { tif: 'Ioc' }), expect: ['OrderAccepted', 'Filled', 'OrderDone'] },
      {
        by: BOB,
        action: place(BTC, 'Ask', '64000', '0.3', { tif: 'Ioc' }),
        expect: ['OrderAccepted', 'Filled', ev('OrderDone', { order_id: 1, reason: 'Filled' }), 'OrderDone'],
        block: [
          ev('TriggerPlaced', { trigger_id: 1, pair_id: 1, side: 'Ask', qty_lots: 5000, trigger_price_ticks: 600000, reduce_only: true }),
          ev('OrderAccepted', { order_id: 4, account: ALICE, side: 'Ask', price_ticks: 700000, reduce_only: true }),
          ev('OrderResting', { order_id: 4 }),
        ],
      },
    ])
    const pair = chain.state.triggers.pairs.get(1)!
    expect({ limit: pair.limitOrderId, stop: pair.stopTriggerId }).toEqual({ limit: 4, stop: 1 })
    run(chain, [
      {
        by: ALICE,
        action: cancelOco(BTC, 1),
        expect: [
          ev('TriggerCancelled', { reason: 'ByOwner' }),
          ev('OrderDone', { order_id: 4 }),
          ev('OcoResolved', { reason: 'ManualCancel' }),
        ],
      },
    ])
  })

  test('a cancelled parent cancels its bracket; a waiting bracket can be cancelled', () => {
    const chain = new TestChain()
    run(chain, [
      { by: ALICE, action: place(BTC, 'Bid', '64000', '0.5'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: ALICE, action: place(BTC, 'Bid', '63000', '0.5'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: ALICE, action: oco(BTC, 'Ask', '0.5', '70000', '60000', 'Below', 1, { reduceOnly: true, parent: 1 }), expect: ['OcoPlaced'] },
      { by: ALICE, action: oco(BTC, 'Ask', '0.5', '70000', '60000', 'Below', 2, { reduceOnly: true, parent: 2 }), expect: ['OcoPlaced'] },
      {
        by: ALICE,
        action: cancel(BTC, 1),
        expect: ['OrderDone'],
        block: [ev('OcoResolved', { pair_id: 1, reason: 'PairCancelled', failure: undefined })],
      },
      { by: ALICE, action: cancelOco(BTC, 2), expect: [ev('OcoResolved', { pair_id: 2, reason: 'ManualCancel' })] },
      // The parent is free again, and stays resting.
      { by: ALICE, action: oco(BTC, 'Ask', '0.5', '70000', '60000', 'Below', 3, { parent: 2 }), expect: ['OcoPlaced'] },
    ])
    expect(chain.state.accounts.get(ALICE)!.orders.has(2)).toBe(true)
  })

  test('parent rejections: not an open order in the market, same side, already bound', () => {
    const chain = new TestChain()
    run(chain, [
      { by: ALICE, action: place(BTC, 'Bid', '64000', '0.5'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: BOB, action: place(BTC, 'Bid', '64000', '0.5'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: ALICE, action: oco(BTC, 'Ask', '0.5', '70000', '60000', 'Below', 1, { parent: 2 }), expect: { reject: 'OrderNotFound' } },
      { by: ALICE, action: oco(BTC, 'Ask', '0.5', '70000', '60000', 'Below', 1, { parent: 99 }), expect: { reject: 'OrderNotFound' } },
      { by: ALICE, action: oco(2, 'Ask', '0.5', '3700', '3000', 'Below', 1, { parent: 1 }), expect: { reject: 'OrderNotFound' } },
      { by: ALICE, action: oco(BTC, 'Bid', '0.5', '60000', '70000', 'Above', 1, { parent: 1 }), expect: { reject: 'InvalidOcoPair' } },
      { by: ALICE, action: oco(BTC, 'Ask', '0.5', '70000', '60000', 'Below', 1, { parent: 1 }), expect: ['OcoPlaced'] },
      { by: ALICE, action: oco(BTC, 'Ask', '0.5', '70000', '60000', 'Below', 2, { parent: 1 }), expect: { reject: 'InvalidOcoPair' } },
    ])
  })

  test('a leg refused when the parent fills closes the bracket PairCancelled with the reason', () => {
    const chain = new TestChain()
    // ALICE is short 0.5; her parent Bid closes it, so the reduce-only Ask legs have nothing to reduce.
    chain.ok(BOB, place(BTC, 'Bid', '65000', '0.5'))
    chain.ok(ALICE, place(BTC, 'Ask', '65000', '0.5', { tif: 'Ioc' }))
    run(chain, [
      { by: ALICE, action: place(BTC, 'Bid', '64000', '0.5'), expect: [ev('OrderAccepted', { order_id: 3 }), 'OrderResting'] },
      { by: ALICE, action: oco(BTC, 'Ask', '0.5', '70000', '60000', 'Below', 1, { reduceOnly: true, parent: 3 }), expect: ['OcoPlaced'] },
      {
        by: BOB,
        action: place(BTC, 'Ask', '64000', '0.5', { tif: 'Ioc' }),
        expect: ['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'],
        block: [ev('OcoResolved', { pair_id: 1, reason: 'PairCancelled', failure: 'ReduceOnlyWouldOpenOrFlip' })],
      },
    ])
  })
})
