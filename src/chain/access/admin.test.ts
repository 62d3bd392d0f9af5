// Admin and agent scenarios as tables: roles and the last Admin, exchange parameters, the insurance
// fund, freezing, forced cancels, and RevokeAgent with the per-master agent index.
import { describe, expect, test } from 'bun:test'
import {
  amendExchangeConfig,
  BRIDGE,
  checkFundsInvariants,
  deposit,
  forceCancel,
  fresh,
  grantRole,
  revokeAgent,
  revokeRole,
  setFrozen,
  setInsuranceFund,
  setRebateRatio,
  setSettlementPaused,
  transfer,
  withdraw,
} from '../../../test/support/chain/funds.ts'
import {
  ADMIN,
  ALICE,
  agentAddress,
  BOB,
  BTC,
  CAROL,
  cancel,
  checkInvariants,
  ETH,
  ev,
  place,
  registerAgent,
  runRows,
  TestChain,
} from '../../../test/support/chain/test-chain.ts'
import { LIMITS, ROLES } from '../core/types.ts'
import { reservedMarginOf } from '../margin/reserved-margin.ts'
import { agentsOf } from './register-agent.ts'

describe('roles', () => {
  test('grant and revoke; the last Admin keeps its role; agents lose what their master loses', () => {
    const chain = new TestChain()
    const agent = agentAddress(1)
    runRows(chain, [
      { by: ALICE, action: grantRole(BOB, 'Admin'), expect: { reject: 'Unauthorized' } },
      {
        by: ADMIN,
        action: grantRole(ALICE, 'Admin'),
        expect: [ev('RoleGranted', { kind: 'Ops', account: ALICE, signer: ADMIN, role: 'Admin', role_mask: ROLES.Admin | ROLES.Trader })],
      },
      { by: ADMIN, action: grantRole(ALICE, 'Admin'), expect: { reject: 'RoleAlreadyGranted' } },
      { by: ADMIN, action: grantRole(fresh(3), 'Quoter'), expect: [ev('RoleGranted', { account: fresh(3), role_mask: ROLES.Quoter })] },
      { by: BOB, action: registerAgent(agent, 'Trader'), expect: ['AgentRegistered'] },
      { by: ADMIN, action: grantRole(agent, 'Quoter'), expect: { reject: 'AddressIsAgent' } },
      { by: ADMIN, action: revokeRole(fresh(4), 'Trader'), expect: { reject: 'AccountNotFound' } },
      { by: ADMIN, action: revokeRole(fresh(3), 'Trader'), expect: { reject: 'RoleNotGranted' } },
      // An agent trades while its master holds the role, and not after.
      { by: agent, action: place(BTC, 'Bid', '60000', '0.01'), expect: ['OrderAccepted', 'OrderResting'] },
      {
        by: ADMIN,
        action: revokeRole(BOB, 'Trader'),
        expect: [ev('RoleRevoked', { account: BOB, signer: ADMIN, role: 'Trader', role_mask: 0 })],
      },
      { by: agent, action: place(BTC, 'Bid', '60000', '0.01'), expect: { reject: 'Unauthorized' } },
      { by: BOB, action: place(BTC, 'Bid', '60000', '0.01'), expect: { reject: 'Unauthorized' } },
      // Two Admins: one may step down; then the other is the last.
      { by: ADMIN, action: revokeRole(ADMIN, 'Admin'), expect: [ev('RoleRevoked', { account: ADMIN, role: 'Admin' })] },
      { by: ADMIN, action: setRebateRatio(1), expect: { reject: 'Unauthorized' } },
      { by: ALICE, action: revokeRole(ALICE, 'Admin'), expect: { reject: 'LastAdmin' } },
      { by: ALICE, action: grantRole(BOB, 'Trader'), expect: ['RoleGranted'] },
    ])
    expect(chain.state.funds.adminCount).toBe(1)
    checkInvariants(chain.state)
    checkFundsInvariants(chain.state)
  })
})

describe('exchange parameters', () => {
  test('rebate ratio, settlement gate, insurance fund and max_tx_per_block, each an Ops event with its signer', () => {
    const chain = new TestChain()
    const agent = agentAddress(2)
    const oldFund = chain.state.params.insuranceFund
    runRows(chain, [
      {
        by: ADMIN,
        action: setRebateRatio(2500),
        expect: [ev('GlobalRebateRatioChanged', { kind: 'Ops', old_ratio_bps: 1000, new_ratio_bps: 2500, signer: ADMIN })],
      },
      { by: ADMIN, action: setSettlementPaused(true), expect: [ev('SettlementPausedChanged', { old_paused: false, new_paused: true })] },
      { by: ADMIN, action: setSettlementPaused(true), expect: [ev('SettlementPausedChanged', { old_paused: true, new_paused: true })] },
      {
        by: ADMIN,
        action: setInsuranceFund(fresh(5)),
        expect: [ev('InsuranceFundChanged', { old_address: oldFund, new_address: fresh(5), signer: ADMIN })],
      },
      { by: ALICE, action: registerAgent(agent, 'Trader'), expect: ['AgentRegistered'] },
      { by: ADMIN, action: setInsuranceFund(agent), expect: { reject: 'AddressIsAgent' } },
      {
        by: ADMIN,
        action: amendExchangeConfig(5),
        expect: [ev('ExchangeConfigAmended', { old_max_tx_per_block: chain.state.params.maxTxPerBlock, new_max_tx_per_block: 5 })],
      },
      { by: BRIDGE, action: amendExchangeConfig(6), expect: { reject: 'Unauthorized' } },
    ])
    expect(chain.state.params).toMatchObject({
      globalRebateRatioBps: 2500,
      settlementPaused: true,
      insuranceFund: fresh(5),
      maxTxPerBlock: 5,
    })
    // The new limit binds the next block: five envelopes fit.
    const r = chain.block([0, 1, 2, 3, 4].map((i) => ({ by: CAROL, action: place(BTC, 'Bid', String(50000 + i), '0.01') })))
    expect(r.envelopes.map((e) => e.status)).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'accepted'])
  })
})

describe('frozen accounts', () => {
  test('may cancel and reduce, may receive, may not open, withdraw or transfer', () => {
    const chain = new TestChain()
    // BOB is long 0.1 BTC and has a resting bid before the freeze.
    chain.ok(CAROL, place(BTC, 'Ask', '65000', '0.1'))
    chain.ok(BOB, place(BTC, 'Bid', '65000', '0.1', { tif: 'Ioc' }))
    const bid = chain.placeOk(BOB, place(BTC, 'Bid', '60000', '0.1'))
    runRows(chain, [
      { by: ADMIN, action: setFrozen(fresh(6), true), expect: { reject: 'AccountNotFound' } },
      { by: ADMIN, action: setFrozen(BOB, true), expect: [ev('AccountFrozenChanged', { account: BOB, frozen: true, signer: ADMIN })] },
      { by: BOB, action: place(BTC, 'Bid', '60000', '0.1'), expect: { reject: 'AccountFrozen' } },
      { by: BOB, action: withdraw('1'), expect: { reject: 'AccountFrozen' } },
      { by: BOB, action: transfer(ALICE, '1'), expect: { reject: 'AccountFrozen' } },
      { by: BOB, action: cancel(BTC, bid), expect: [ev('OrderDone', { reason: 'Cancelled' })] },
      { by: CAROL, action: place(BTC, 'Bid', '64000', '0.1'), expect: ['OrderAccepted', 'OrderResting'] },
      {
        by: BOB,
        action: place(BTC, 'Ask', '64000', '0.1', { tif: 'Ioc', reduceOnly: true }),
        expect: ['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'],
      },
      { by: BRIDGE, action: deposit(BOB, '10', 'frozen-ok'), expect: ['DepositCredited', 'BalanceChanged'] },
      { by: ALICE, action: transfer(BOB, '10'), expect: ['FundsTransferred', 'BalanceChanged', 'BalanceChanged'] },
      { by: ADMIN, action: setFrozen(BOB, false), expect: [ev('AccountFrozenChanged', { frozen: false })] },
      { by: BOB, action: withdraw('1'), expect: ['WithdrawalRequested', 'BalanceChanged'] },
      { by: BOB, action: place(BTC, 'Bid', '60000', '0.1'), expect: ['OrderAccepted', 'OrderResting'] },
    ])
    expect(chain.state.funds.frozen.size).toBe(0)
    checkInvariants(chain.state)
  })
})

describe('forced cancels', () => {
  test("cancel an account's resting orders in one market, then everywhere", () => {
    const chain = new TestChain()
    const b1 = chain.placeOk(ALICE, place(BTC, 'Bid', '60000', '0.1'))
    const b2 = chain.placeOk(ALICE, place(BTC, 'Ask', '70000', '0.1'))
    const e1 = chain.placeOk(ALICE, place(ETH, 'Bid', '3000', '1'))
    chain.placeOk(BOB, place(BTC, 'Bid', '60000', '0.1'))
    runRows(chain, [
      { by: ALICE, action: forceCancel(BOB), expect: { reject: 'Unauthorized' } },
      { by: ADMIN, action: forceCancel(fresh(7)), expect: { reject: 'AccountNotFound' } },
      { by: ADMIN, action: forceCancel(ALICE, 99), expect: { reject: 'MarketNotFound' } },
      {
        by: ADMIN,
        action: forceCancel(ALICE, BTC),
        expect: [
          ev('OrderDone', { order_id: b1, reason: 'ForceCancelled', market_id: BTC }),
          ev('OrderDone', { order_id: b2, reason: 'ForceCancelled' }),
          ev('AccountOrdersForceCancelled', { kind: 'Ops', account: ALICE, market_id: BTC, cancelled: 2, signer: ADMIN }),
        ],
      },
      {
        by: ADMIN,
        action: forceCancel(ALICE),
        expect: [
          ev('OrderDone', { order_id: e1, reason: 'ForceCancelled', market_id: ETH }),
          ev('AccountOrdersForceCancelled', { market_id: null, cancelled: 1 }),
        ],
      },
      { by: ADMIN, action: forceCancel(ALICE), expect: [ev('AccountOrdersForceCancelled', { cancelled: 0 })] },
    ])
    expect(chain.state.accounts.get(ALICE)!.orders.size).toBe(0)
    expect(reservedMarginOf(chain.state.accounts.get(ALICE)!)).toBe(0n)
    expect(chain.state.accounts.get(BOB)!.orders.size).toBe(1)
    checkInvariants(chain.state)
  })
})

describe('RevokeAgent', () => {
  test('a master removes its own agent, which can then no longer act; the per-master index follows', () => {
    const chain = new TestChain()
    const a0 = agentAddress(10)
    const a1 = agentAddress(11)
    runRows(chain, [
      { by: ALICE, action: registerAgent(a0, 'Trader', 'first'), expect: ['AgentRegistered'] },
      { by: ALICE, action: registerAgent(a1, 'Trader', 'second'), expect: ['AgentRegistered'] },
      { by: a0, action: place(BTC, 'Bid', '60000', '0.01'), expect: [ev('OrderAccepted', { account: ALICE }), 'OrderResting'] },
      { by: BOB, action: revokeAgent(a0), expect: { reject: 'AgentNotFound' } },
      { by: a1, action: revokeAgent(a0), expect: { reject: 'Unauthorized' } },
      { by: ALICE, action: revokeAgent(a0), expect: [ev('AgentRevoked', { account: ALICE, agent: a0, role: 'Trader' })] },
      { by: a0, action: place(BTC, 'Bid', '60000', '0.01'), expect: { reject: 'Unauthorized' } },
      { by: ALICE, action: revokeAgent(a0), expect: { reject: 'AgentNotFound' } },
      { by: ALICE, action: revokeAgent(fresh(8)), expect: { reject: 'AgentNotFound' } },
      // Registered again, it comes last in the master's list.
      { by: ALICE, action: registerAgent(a0, 'Trader', 'again'), expect: ['AgentRegistered'] },
    ])
    expect(agentsOf(chain.state, ALICE).map((a) => [a.agent, a.name])).toEqual([
      [a1, 'second'],
      [a0, 'again'],
    ])
    expect(agentsOf(chain.state, BOB)).toEqual([])
    checkFundsInvariants(chain.state)
  })

  test('a revoked agent frees a place under agentsPerMasterMax', () => {
    const chain = new TestChain()
    for (let i = 0; i < LIMITS.agentsPerMasterMax; i++) chain.ok(CAROL, registerAgent(agentAddress(100 + i), 'Trader'))
    expect(chain.send(CAROL, registerAgent(agentAddress(200), 'Trader')).reason).toBe('AgentLimitReached')
    chain.ok(CAROL, revokeAgent(agentAddress(105)))
    chain.ok(CAROL, registerAgent(agentAddress(200), 'Trader'))
    expect(agentsOf(chain.state, CAROL)).toHaveLength(LIMITS.agentsPerMasterMax)
    checkFundsInvariants(chain.state)
  })
})
