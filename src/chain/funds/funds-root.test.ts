// A seeded random workload of trading mixed with every funds, agent and admin action: after every
// block the incremental root equals the full recomputation, the invariants (the engine's and the
// area's) hold, money changes by exactly deposits minus settlements, and a replay agrees.
import { describe, expect, test } from 'bun:test'
import {
  BRIDGE,
  cancelWithdraw,
  checkFundsInvariants,
  claim,
  deposit,
  ERIN,
  forceCancel,
  fresh,
  grantRole,
  moneyInExchange,
  refund,
  revokeAgent,
  revokeRole,
  setFrozen,
  setInviter,
  setRebateRatio,
  setSettlementPaused,
  settle,
  transfer,
  withdraw,
} from '../../../test/support/chain/funds.ts'
import {
  type Action,
  ADMIN,
  ALICE,
  agentAddress,
  BOB,
  BTC,
  CAROL,
  cancel,
  DAVE,
  ETH,
  genesisState,
  place,
  Rng,
  registerAgent,
  TestChain,
  type Tx,
} from '../../../test/support/chain/test-chain.ts'
import { expectReached, runWorkload } from '../../../test/support/chain/workload.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import type { ChainState } from '../core/types.ts'

const BLOCKS = 150
const USERS = [ALICE, BOB, CAROL, DAVE, ERIN, fresh(1), fresh(2), fresh(3)]

class FundsWorkload {
  private readonly rng: Rng
  private depositSeq = 0
  private agentSeq = 0

  constructor(seed: number) {
    this.rng = new Rng(seed)
  }

  block(state: ChainState): Tx[] {
    const count = this.rng.range(5, 25)
    const txs: Tx[] = []
    for (let i = 0; i < count; i++) txs.push(this.tx(state))
    return txs
  }

  private amount(maxUsd: number): string {
    return formatDecimal(BigInt(this.rng.range(0, maxUsd * 1_000_000)), 6)
  }

  private tx(state: ChainState): Tx {
    const rng = this.rng
    const user = rng.pick(USERS)
    const pending = [...state.funds.withdrawals.keys()]
    const r = rng.int(100)
    if (r < 10) {
      // Mostly fresh deposit ids, now and then a repeat.
      const id = rng.chance(10) && this.depositSeq > 0 ? `dep-${rng.int(this.depositSeq)}` : `dep-${this.depositSeq++}`
      return { by: BRIDGE, action: deposit(user, this.amount(50_000), id, rng.chance(50) ? 'arbitrum' : undefined) }
    }
    if (r < 20) return { by: user, action: withdraw(this.amount(rng.chance(10) ? 5_000_000 : 20_000)) }
    if (r < 25 && pending.length > 0) return { by: user, action: cancelWithdraw(rng.pick(pending)) }
    if (r < 29 && pending.length > 0) return { by: BRIDGE, action: claim(rng.pick(pending)) }
    if (r < 32 && pending.length > 0) return { by: BRIDGE, action: settle(rng.pick(pending), rng.chance(50) ? '0xbeef' : undefined) }
    if (r < 36) return { by: BRIDGE, action: refund(pending.length > 0 ? rng.pick(pending) : 9_999) }
    if (r < 44) return { by: user, action: transfer(rng.pick([...USERS, fresh(4)]), this.amount(10_000)) }
    if (r < 48) return { by: user, action: setInviter(rng.pick([...USERS, fresh(9)])) }
    if (r < 50) return { by: ADMIN, action: setRebateRatio(rng.pick([0, 1000, 5000, 10_000])) }
    if (r < 52) return { by: ADMIN, action: setSettlementPaused(!rng.chance(70)) }
    if (r < 55) return { by: ADMIN, action: setFrozen(user, !rng.chance(60)) }
    if (r < 57) return { by: ADMIN, action: forceCancel(user, rng.chance(50) ? BTC : undefined) }
    if (r < 59) return { by: ADMIN, action: rng.chance(50) ? grantRole(user, 'Quoter') : revokeRole(user, 'Quoter') }
    if (r < 60) return { by: ADMIN, action: rng.chance(50) ? grantRole(ALICE, 'Admin') : revokeRole(rng.pick([ADMIN, ALICE]), 'Admin') }
    if (r < 63) {
      const agent = agentAddress(this.agentSeq++ % 6)
      return { by: user, action: rng.chance(50) ? registerAgent(agent, 'Trader') : revokeAgent(agent) }
    }
    if (r < 70) {
      const orders = [...(state.accounts.get(user)?.orders.values() ?? [])]
      if (orders.length > 0) return { by: user, action: cancel(orders[0]!.marketId, orders[0]!.id) }
    }
    return { by: user, action: this.order() }
  }

  private order(): Action {
    const rng = this.rng
    const side = rng.chance(50) ? 'Bid' : 'Ask'
    const sign = side === 'Bid' ? -1 : 1
    if (rng.chance(50)) {
      const price = 65_000 + sign * rng.int(20) - sign * rng.int(3) * 10
      return place(BTC, side, String(price), formatDecimal(BigInt(rng.range(1, 5_000)), 4), {
        tif: rng.pick(['Gtc', 'Gtc', 'Ioc'] as const),
        reduceOnly: rng.chance(15),
      })
    }
    const price = 350_000 + sign * rng.int(50)
    return place(ETH, side, formatDecimal(BigInt(price), 2), formatDecimal(BigInt(rng.range(1, 3_000)), 3), {
      tif: rng.pick(['Gtc', 'Ioc'] as const),
    })
  }
}

describe('funds, agents and admin in the state root', () => {
  test(`${BLOCKS} random blocks: incremental root = full root, invariants, conservation, replay`, () => {
    const workload = new FundsWorkload(7_331)
    const start = moneyInExchange(genesisState())
    let net = 0n
    const seen = runWorkload({
      genesis: () => new TestChain(),
      blocks: BLOCKS,
      nextBlock: (chain) => ({ envelopes: workload.block(chain.state).map((tx) => chain.envelope(tx)) }),
      afterBlock: (chain, result, height) => {
        checkFundsInvariants(chain.state)
        for (const e of result.events) {
          if (e.sub_kind === 'DepositCredited') net += e.amount
          if (e.sub_kind === 'WithdrawalSettled') net -= e.amount
        }
        expect({ height, money: moneyInExchange(chain.state) }).toEqual({ height, money: start + net })
      },
      eventKey: (e) => (e.sub_kind === 'Rejected' ? e.reason : e.sub_kind),
    })
    expectReached(seen, [
      'DepositCredited',
      'DuplicateDeposit',
      'WithdrawalRequested',
      'WithdrawalClaimed',
      'WithdrawalProcessing',
      'WithdrawalCancelled',
      'WithdrawalSettled',
      'WithdrawalRefunded',
      'SettlementPaused',
      'WithdrawalNotFound',
      'InsufficientFunds',
      'FundsTransferred',
      'InviterSet',
      'InviterAlreadySet',
      'InvalidInviter',
      'RebatePaid',
      'AccountFrozen',
      'AccountFrozenChanged',
      'AccountOrdersForceCancelled',
      'RoleGranted',
      'RoleRevoked',
      'AgentRevoked',
      'AgentNotFound',
      'GlobalRebateRatioChanged',
      'Filled',
    ])
  }, 30_000) // about 1.5 s alone; generous for a loaded machine
})
