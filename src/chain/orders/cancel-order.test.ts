// CancelOrder scenarios through applyBlock: by order id, by client order id, and every way of
// naming an order that is not open.
import { describe, expect, test } from 'bun:test'
import {
  ALICE,
  agentAddress,
  BOB,
  BTC,
  cancel,
  cancelByCloid,
  ETH,
  ev,
  place,
  registerAgent,
  runRows,
  TestChain,
} from '../../../test/support/chain/test-chain.ts'
import { reservedMarginOf } from '../margin/reserved-margin.ts'

describe('CancelOrder', () => {
  test('by order id and by client order id, releasing margin', () => {
    const chain = new TestChain()
    runRows(chain, [
      { by: ALICE, action: place(BTC, 'Bid', '60000', '1'), expect: [ev('OrderAccepted', { order_id: 1 }), 'OrderResting'] },
      {
        by: ALICE,
        action: place(BTC, 'Bid', '60000', '2', { cloid: 'mm-7' }),
        expect: [ev('OrderAccepted', { order_id: 2 }), 'OrderResting'],
      },
      {
        by: ALICE,
        action: cancel(BTC, 1),
        expect: [ev('OrderDone', { order_id: 1, account: ALICE, reason: 'Cancelled', remaining_lots: 10000, filled_lots: 0 })],
      },
      {
        by: ALICE,
        action: cancelByCloid(BTC, 'mm-7'),
        expect: [ev('OrderDone', { order_id: 2, reason: 'Cancelled', remaining_lots: 20000, client_order_id: 'mm-7' })],
      },
    ])
    const alice = chain.state.accounts.get(ALICE)!
    expect([alice.orders.size, alice.ordersByClientId.size, reservedMarginOf(alice)]).toEqual([0, 0, 0n])
    expect(chain.state.books.get(BTC)!.size).toBe(0)
  })

  test('a partly filled order reports what it filled', () => {
    const chain = new TestChain()
    runRows(chain, [
      { by: ALICE, action: place(BTC, 'Bid', '60000', '1'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: BOB, action: place(BTC, 'Ask', '60000', '0.25', { tif: 'Ioc' }), expect: ['OrderAccepted', 'Filled', 'OrderDone'] },
      { by: ALICE, action: cancel(BTC, 1), expect: [ev('OrderDone', { reason: 'Cancelled', remaining_lots: 7500, filled_lots: 2500 })] },
    ])
    // The position stays; only the order's margin is released.
    expect(reservedMarginOf(chain.state.accounts.get(ALICE)!)).toBe(0n)
    expect(chain.state.accounts.get(ALICE)!.positions.get(BTC)!.sizeLots).toBe(2500)
  })

  test('orders that are not open', () => {
    const chain = new TestChain()
    runRows(chain, [
      { by: ALICE, action: place(BTC, 'Bid', '60000', '1', { cloid: 'a' }), expect: ['OrderAccepted', 'OrderResting'] },
      { by: BOB, action: place(ETH, 'Ask', '3000', '1'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: ALICE, action: cancel(BTC, 99), expect: { reject: 'OrderNotFound' } },
      { by: ALICE, action: cancelByCloid(BTC, 'b'), expect: { reject: 'OrderNotFound' } },
      // Another account's order, and an own order named in the wrong market.
      { by: ALICE, action: cancel(ETH, 2), expect: { reject: 'OrderNotFound' } },
      { by: BOB, action: cancel(BTC, 1), expect: { reject: 'OrderNotFound' } },
      { by: ALICE, action: cancel(ETH, 1), expect: { reject: 'OrderNotFound' } },
      { by: ALICE, action: cancelByCloid(ETH, 'a'), expect: { reject: 'OrderNotFound' } },
      { by: ALICE, action: cancel(99, 1), expect: { reject: 'MarketNotFound' } },
      { by: ALICE, action: cancel(BTC, 1), expect: ['OrderDone'] },
      // Cancelled already; a filled order is gone the same way.
      { by: ALICE, action: cancel(BTC, 1), expect: { reject: 'OrderNotFound' } },
      { by: ALICE, action: cancelByCloid(BTC, 'a'), expect: { reject: 'OrderNotFound' } },
      { by: ALICE, action: place(ETH, 'Bid', '3000', '1', { tif: 'Ioc' }), expect: ['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'] },
      { by: BOB, action: cancel(ETH, 2), expect: { reject: 'OrderNotFound' } },
    ])
  })

  test("an agent with the Trader role cancels its master's orders", () => {
    const chain = new TestChain()
    const agent = agentAddress(1)
    runRows(chain, [
      { by: ALICE, action: registerAgent(agent, 'Trader'), expect: [ev('AgentRegistered', { account: ALICE, agent, role: 'Trader' })] },
      { by: ALICE, action: place(BTC, 'Bid', '60000', '1'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: agent, action: cancel(BTC, 1), expect: [ev('OrderDone', { account: ALICE, reason: 'Cancelled' })] },
    ])
  })
})
