// Funds scenarios as tables: bridge deposits and withdrawals, transfers, referral and rebates, and
// conservation of money (it changes by exactly the deposits minus the settled withdrawals).
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  BRIDGE,
  cancelWithdraw,
  checkFundsInvariants,
  claim,
  deposit,
  EXTERNAL,
  fresh,
  moneyInExchange,
  refund,
  setInviter,
  setRebateRatio,
  setSettlementPaused,
  settle,
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
  checkInvariants,
  DAVE,
  DEV_BALANCE,
  ev,
  place,
  registerAgent,
  runRows,
  TestChain,
} from '../../../test/support/chain/test-chain.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import { bytesToHex } from '../../lib/hex.ts'
import { ACTION_KIND_BY_NAME } from '../../wire/actions.ts'
import { ROLES } from '../core/types.ts'
import { valueAccount } from '../margin/margin.ts'
import { fullStateRoot } from '../state/state-root.ts'
import { collectFee } from './fees.ts'
import { movableCash } from './funds-ledger.ts'

const USD = 1_000_000n
/** A SCALE_6 amount as the decimal string a payload carries. */
const usd = (v: bigint) => formatDecimal(v, 6)

describe('bridge deposits', () => {
  test('credit once per deposit_id, opening a Trader account; only the BridgeDeposit role may', () => {
    const chain = new TestChain()
    const agent = agentAddress(1)
    runRows(chain, [
      {
        by: BRIDGE,
        action: deposit(fresh(1), '5000.25', '0xabc:0', 'arbitrum'),
        expect: [
          ev('DepositCredited', {
            account: fresh(1),
            amount: 5000_250_000n,
            deposit_id: '0xabc:0',
            source_chain: 'arbitrum',
            signer: BRIDGE,
          }),
          ev('BalanceChanged', { account: fresh(1), reason: 'Deposit', amount: 5000_250_000n, balance_after: 5000_250_000n }),
        ],
      },
      { by: BRIDGE, action: deposit(fresh(1), '1', '0xabc:0'), expect: { reject: 'DuplicateDeposit' } },
      { by: BRIDGE, action: deposit(ALICE, '0', '0xabc:1'), expect: { reject: 'InvalidAmount' } },
      {
        by: BRIDGE,
        action: deposit(ALICE, '10', '0xabc:2'),
        expect: [ev('DepositCredited', { source_chain: null }), ev('BalanceChanged', { balance_after: DEV_BALANCE + 10n * USD })],
      },
      { by: ALICE, action: registerAgent(agent, 'Trader'), expect: ['AgentRegistered'] },
      { by: BRIDGE, action: deposit(agent, '10', '0xabc:3'), expect: { reject: 'AddressIsAgent' } },
      { by: ADMIN, action: deposit(ALICE, '10', '0xabc:4'), expect: { reject: 'Unauthorized' } },
      { by: ALICE, action: deposit(ALICE, '10', '0xabc:5'), expect: { reject: 'Unauthorized' } },
      // The new account trades with its deposit.
      { by: fresh(1), action: place(BTC, 'Bid', '60000', '0.1'), expect: ['OrderAccepted', 'OrderResting'] },
    ])
    expect(chain.state.accounts.get(fresh(1))!.roleMask).toBe(ROLES.Trader)
    // A rejected deposit id stays free: 0xabc:1 was refused for its amount, so it may come again.
    runRows(chain, [{ by: BRIDGE, action: deposit(ALICE, '1', '0xabc:1'), expect: ['DepositCredited', 'BalanceChanged'] }])
    checkInvariants(chain.state)
    checkFundsInvariants(chain.state)
  })
})

describe('withdrawals', () => {
  test('request, cancel, settle, refund, and the settlement gate', () => {
    const chain = new TestChain()
    const afterFirst = DEV_BALANCE - 1_250_500_000n
    runRows(chain, [
      {
        by: ALICE,
        action: withdraw('1250.5'),
        expect: [
          ev('WithdrawalRequested', { account: ALICE, withdrawal_id: 1, destination: EXTERNAL, amount: 1_250_500_000n }),
          ev('BalanceChanged', { account: ALICE, reason: 'WithdrawRequested', amount: -1_250_500_000n, balance_after: afterFirst }),
        ],
      },
      { by: ALICE, action: withdraw('0'), expect: { reject: 'InvalidAmount' } },
      { by: ALICE, action: withdraw('999999'), expect: { reject: 'InsufficientFunds' } },
      { by: BOB, action: cancelWithdraw(1), expect: { reject: 'WithdrawalNotFound' } },
      {
        by: ALICE,
        action: cancelWithdraw(1),
        expect: [
          ev('WithdrawalCancelled', { withdrawal_id: 1, amount: 1_250_500_000n }),
          ev('BalanceChanged', { reason: 'WithdrawCancelled', amount: 1_250_500_000n, balance_after: DEV_BALANCE }),
        ],
      },
      { by: ALICE, action: cancelWithdraw(1), expect: { reject: 'WithdrawalNotFound' } },
      { by: ALICE, action: withdraw('100'), expect: [ev('WithdrawalRequested', { withdrawal_id: 2 }), 'BalanceChanged'] },
      { by: ALICE, action: settle(2), expect: { reject: 'Unauthorized' } },
      {
        by: BRIDGE,
        action: settle(2, '0xfeed'),
        expect: [
          ev('WithdrawalSettled', {
            account: ALICE,
            withdrawal_id: 2,
            amount: 100n * USD,
            destination: EXTERNAL,
            external_tx: '0xfeed',
            signer: BRIDGE,
          }),
        ],
      },
      { by: BRIDGE, action: settle(2), expect: { reject: 'WithdrawalNotFound' } },
      { by: ALICE, action: cancelWithdraw(2), expect: { reject: 'WithdrawalNotFound' } },
      { by: ALICE, action: withdraw('200'), expect: [ev('WithdrawalRequested', { withdrawal_id: 3 }), 'BalanceChanged'] },
      { by: BRIDGE, action: setSettlementPaused(true), expect: { reject: 'Unauthorized' } },
      {
        by: ADMIN,
        action: setSettlementPaused(true),
        expect: [ev('SettlementPausedChanged', { old_paused: false, new_paused: true, signer: ADMIN })],
      },
      { by: BRIDGE, action: settle(3), expect: { reject: 'SettlementPaused' } },
      {
        by: BRIDGE,
        action: refund(3, 'paused too long'),
        expect: [
          ev('WithdrawalRefunded', { withdrawal_id: 3, amount: 200n * USD, reason: 'paused too long', signer: BRIDGE }),
          ev('BalanceChanged', { account: ALICE, reason: 'WithdrawRefunded', amount: 200n * USD, balance_after: DEV_BALANCE - 100n * USD }),
        ],
      },
      { by: BRIDGE, action: refund(3), expect: { reject: 'WithdrawalNotFound' } },
      { by: ALICE, action: withdraw('1'), expect: [ev('WithdrawalRequested', { withdrawal_id: 4 }), 'BalanceChanged'] },
      { by: ADMIN, action: setSettlementPaused(false), expect: [ev('SettlementPausedChanged', { old_paused: true, new_paused: false })] },
      { by: BRIDGE, action: settle(4), expect: ['WithdrawalSettled'] },
    ])
    expect(chain.balance(ALICE)).toBe(DEV_BALANCE - 101n * USD)
    expect(chain.state.funds.withdrawals.size).toBe(0)
    checkFundsInvariants(chain.state)
  })

  test('a claimed withdrawal is processing: its owner cannot cancel it, only the bridge settles or refunds it', () => {
    const chain = new TestChain()
    runRows(chain, [
      { by: ALICE, action: withdraw('100'), expect: [ev('WithdrawalRequested', { withdrawal_id: 1 }), 'BalanceChanged'] },
      { by: ALICE, action: withdraw('200'), expect: [ev('WithdrawalRequested', { withdrawal_id: 2 }), 'BalanceChanged'] },
      { by: ALICE, action: withdraw('300'), expect: [ev('WithdrawalRequested', { withdrawal_id: 3 }), 'BalanceChanged'] },
      // Only the BridgeWithdraw role claims (the owner and the Admin may not).
      { by: ALICE, action: claim(1), expect: { reject: 'Unauthorized' } },
      { by: ADMIN, action: claim(1), expect: { reject: 'Unauthorized' } },
      { by: BRIDGE, action: claim(9), expect: { reject: 'WithdrawalNotFound' } },
      {
        by: BRIDGE,
        action: claim(1),
        expect: [ev('WithdrawalClaimed', { account: ALICE, withdrawal_id: 1, destination: EXTERNAL, amount: 100n * USD, signer: BRIDGE })],
      },
      { by: BRIDGE, action: claim(1), expect: { reject: 'WithdrawalProcessing' } },
      // The owner's cancel is refused (a kept-reject: the nonce is used, nothing moves).
      { by: ALICE, action: cancelWithdraw(1), expect: { reject: 'WithdrawalProcessing' } },
      { by: BOB, action: cancelWithdraw(1), expect: { reject: 'WithdrawalNotFound' } },
      {
        by: BRIDGE,
        action: settle(1, '0xpaid'),
        expect: [ev('WithdrawalSettled', { withdrawal_id: 1, amount: 100n * USD, external_tx: '0xpaid' })],
      },
      { by: BRIDGE, action: claim(2), expect: ['WithdrawalClaimed'] },
      { by: ALICE, action: cancelWithdraw(2), expect: { reject: 'WithdrawalProcessing' } },
      {
        by: BRIDGE,
        action: refund(2, 'destination refused'),
        expect: [
          ev('WithdrawalRefunded', { withdrawal_id: 2, amount: 200n * USD }),
          ev('BalanceChanged', { reason: 'WithdrawRefunded', amount: 200n * USD }),
        ],
      },
      // While settlement is paused nothing is claimed; an unclaimed withdrawal stays cancellable.
      { by: ADMIN, action: setSettlementPaused(true), expect: ['SettlementPausedChanged'] },
      { by: BRIDGE, action: claim(3), expect: { reject: 'SettlementPaused' } },
      { by: ADMIN, action: setSettlementPaused(false), expect: ['SettlementPausedChanged'] },
    ])
    // The claim is state: it is in the withdrawal's leaf (the root moves) and in the record.
    const before = chain.state.funds.withdrawals.get(3)!
    expect(before.claimedBy).toBeUndefined()
    const rootBefore = bytesToHex(fullStateRoot(chain.state))
    chain.ok(BRIDGE, claim(3))
    const claimed = chain.state.funds.withdrawals.get(3)!
    expect({ by: claimed.claimedBy, height: claimed.claimedHeight }).toEqual({ by: BRIDGE, height: chain.state.height })
    expect(bytesToHex(fullStateRoot(chain.state))).not.toBe(rootBefore)
    // Settling and refunding still take an unclaimed withdrawal (bridges that do not claim).
    runRows(chain, [
      { by: ALICE, action: withdraw('1'), expect: [ev('WithdrawalRequested', { withdrawal_id: 4 }), 'BalanceChanged'] },
      { by: BRIDGE, action: settle(4), expect: ['WithdrawalSettled'] },
      { by: ALICE, action: withdraw('2'), expect: [ev('WithdrawalRequested', { withdrawal_id: 5 }), 'BalanceChanged'] },
      { by: BRIDGE, action: refund(5), expect: ['WithdrawalRefunded', 'BalanceChanged'] },
      { by: BRIDGE, action: settle(3), expect: ['WithdrawalSettled'] },
    ])
    expect(chain.balance(ALICE)).toBe(DEV_BALANCE - 401n * USD)
    expect(chain.state.funds.withdrawals.size).toBe(0)
    checkFundsInvariants(chain.state)
  })

  test('a pending withdrawal no longer counts as cash; at most pendingWithdrawalsPerAccountMax wait', () => {
    const chain = new TestChain()
    for (let i = 0; i < 16; i++) chain.ok(BOB, withdraw('1000'))
    expect(chain.send(BOB, withdraw('1')).reason).toBe('TooManyPendingWithdrawals')
    const account = chain.state.accounts.get(BOB)!
    expect(valueAccount(chain.state, account).crossCashAvailable).toBe(DEV_BALANCE - 16_000n * USD)
    chain.ok(BOB, cancelWithdraw(5))
    chain.ok(BOB, withdraw('1'))
    expect(chain.state.funds.withdrawalsByAccount.get(BOB)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17])
    checkFundsInvariants(chain.state)
  })

  test('withdrawals are limited by cross cash (margin of orders and positions) and by unrealized losses', () => {
    const chain = new TestChain()
    // A resting bid of 10 BTC at 65,000 at 20x holds 32,500 of margin.
    chain.ok(ALICE, place(BTC, 'Bid', '65000', '10'))
    const alice = chain.state.accounts.get(ALICE)!
    const cash = valueAccount(chain.state, alice).crossCashAvailable
    expect(cash).toBe(DEV_BALANCE - 32_500n * USD)
    expect(movableCash(chain.state, alice)).toBe(cash)
    expect(chain.send(ALICE, withdraw(usd(cash + 1n))).reason).toBe('InsufficientFunds')
    chain.ok(ALICE, withdraw(usd(cash)))
    expect(valueAccount(chain.state, alice).crossCashAvailable).toBe(0n)

    // BOB sells 10 BTC to ALICE at 65,000 ... after a deposit so ALICE can hold it.
    chain.ok(BRIDGE, deposit(ALICE, '100000', 'top-up'))
    chain.ok(BOB, place(BTC, 'Ask', '65000', '10', { tif: 'Ioc' }))
    // ... and a print at 60,000 inside a 59,999 / 60,001 book moves the mark: ALICE is 50,000 under water.
    chain.ok(CAROL, place(BTC, 'Ask', '60001', '0.0001'))
    chain.ok(DAVE, place(BTC, 'Bid', '59999', '0.0001'))
    chain.ok(CAROL, place(BTC, 'Ask', '60000', '0.0001'))
    chain.ok(DAVE, place(BTC, 'Bid', '60000', '0.0001', { tif: 'Ioc' }))
    expect(chain.state.markets.get(BTC)!.markTicks).toBe(600_000)
    const v = valueAccount(chain.state, alice)
    expect(v.crossTradingAvailable).toBe(v.crossCashAvailable - 50_000n * USD)
    expect(movableCash(chain.state, alice)).toBe(v.crossTradingAvailable)
    const movable = movableCash(chain.state, alice)
    expect(chain.send(ALICE, transfer(BOB, usd(movable + 1n))).reason).toBe('InsufficientFunds')
    chain.ok(ALICE, transfer(BOB, usd(movable)))
    expect(movableCash(chain.state, alice)).toBe(0n)
    checkInvariants(chain.state)
  })
})

describe('transfers', () => {
  test('move cross cash, opening a Trader account; refused to self, to agents, beyond cash', () => {
    const chain = new TestChain()
    const agent = agentAddress(2)
    runRows(chain, [
      {
        by: ALICE,
        action: transfer(fresh(2), '250.000001'),
        expect: [
          ev('FundsTransferred', { account: ALICE, destination: fresh(2), amount: 250_000_001n }),
          ev('BalanceChanged', { account: ALICE, reason: 'TransferOut', amount: -250_000_001n, balance_after: DEV_BALANCE - 250_000_001n }),
          ev('BalanceChanged', { account: fresh(2), reason: 'TransferIn', amount: 250_000_001n, balance_after: 250_000_001n }),
        ],
      },
      { by: fresh(2), action: transfer(ALICE, '0.000001'), expect: ['FundsTransferred', 'BalanceChanged', 'BalanceChanged'] },
      { by: ALICE, action: transfer(ALICE, '1'), expect: { reject: 'InvalidDestination' } },
      { by: ALICE, action: transfer(BOB, '0'), expect: { reject: 'InvalidAmount' } },
      { by: ALICE, action: transfer(BOB, '1000000'), expect: { reject: 'InsufficientFunds' } },
      { by: BOB, action: registerAgent(agent, 'Trader'), expect: ['AgentRegistered'] },
      { by: ALICE, action: transfer(agent, '1'), expect: { reject: 'AddressIsAgent' } },
      // An agent cannot move its master's money: the kind is user-signed by the master.
      { by: agent, action: transfer(ALICE, '1'), expect: { reject: 'Unauthorized' } },
    ])
    expect(chain.balance(fresh(2))).toBe(250n * USD)
    expect(chain.balance(ALICE)).toBe(DEV_BALANCE - 250n * USD)
    expect(chain.state.accounts.get(fresh(2))!.roleMask).toBe(ROLES.Trader)
  })
})

describe('referral', () => {
  test('SetInviter once; not self, not unknown, not an agent, no cycles', () => {
    const chain = new TestChain()
    const agent = agentAddress(3)
    runRows(chain, [
      { by: ALICE, action: setInviter(ALICE), expect: { reject: 'InvalidInviter' } },
      { by: ALICE, action: setInviter(fresh(9)), expect: { reject: 'InvalidInviter' } },
      { by: ALICE, action: setInviter(BOB), expect: [ev('InviterSet', { account: ALICE, inviter: BOB })] },
      { by: ALICE, action: setInviter(CAROL), expect: { reject: 'InviterAlreadySet' } },
      { by: BOB, action: setInviter(ALICE), expect: { reject: 'InvalidInviter' } }, // ALICE -> BOB -> ALICE
      { by: CAROL, action: setInviter(ALICE), expect: ['InviterSet'] }, // CAROL -> ALICE -> BOB
      { by: BOB, action: setInviter(CAROL), expect: { reject: 'InvalidInviter' } }, // BOB -> CAROL -> ALICE -> BOB
      { by: DAVE, action: registerAgent(agent, 'Trader'), expect: ['AgentRegistered'] },
      { by: BOB, action: setInviter(agent), expect: { reject: 'InvalidInviter' } },
      { by: agent, action: setInviter(BOB), expect: { reject: 'Unauthorized' } },
      { by: BOB, action: setInviter(DAVE), expect: ['InviterSet'] },
    ])
    const r = chain.state.funds.referrals
    expect(r.get(BOB)).toMatchObject({ inviter: DAVE, invitees: 1 })
    expect(r.get(ALICE)).toMatchObject({ inviter: BOB, invitees: 1 })
    expect(r.get(DAVE)).toMatchObject({ inviter: null, invitees: 1 })
    checkFundsInvariants(chain.state)
  })

  test('a fee of an invited account pays global_rebate_ratio_bps of it, half to each, exactly', () => {
    const chain = new TestChain()
    chain.ok(ALICE, setInviter(BOB))
    chain.ok(CAROL, place(BTC, 'Ask', '65000', '1'))
    // Taker fee 65,000 x 5 bps = 32.5; pool 10% = 3.25; 1.625 each. CAROL's maker fee 13 has no inviter.
    const half = 1_625_000n
    const out = chain.send(ALICE, place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' }))
    expect(out.status).toBe('accepted')
    const rebate = out.events.filter((e) => e.sub_kind === 'RebatePaid' || e.sub_kind === 'BalanceChanged')
    expect(rebate).toEqual([
      {
        kind: 'Core',
        sub_kind: 'RebatePaid',
        market_id: BTC,
        account: ALICE,
        inviter: BOB,
        fee: 32_500_000n,
        rebate_to_inviter: half,
        rebate_to_invitee: half,
      },
      {
        kind: 'Core',
        sub_kind: 'BalanceChanged',
        market_id: BTC,
        account: BOB,
        reason: 'RebateToInviter',
        amount: half,
        balance_after: DEV_BALANCE + half,
      },
      {
        kind: 'Core',
        sub_kind: 'BalanceChanged',
        market_id: BTC,
        account: ALICE,
        reason: 'RebateToInvitee',
        amount: half,
        balance_after: DEV_BALANCE - 32_500_000n + half,
      },
    ])
    expect(chain.balance(ALICE)).toBe(DEV_BALANCE - 32_500_000n + half)
    expect(chain.balance(BOB)).toBe(DEV_BALANCE + half)
    expect(chain.balance(CAROL)).toBe(DEV_BALANCE - 13_000_000n)
    expect(chain.balance(ADMIN)).toBe(DEV_BALANCE + 13_000_000n + 32_500_000n - 2n * half)
    expect(chain.state.funds.referrals.get(BOB)!.rebatesAsInviter).toBe(half)
    expect(chain.state.funds.referrals.get(ALICE)!.rebatesAsInvitee).toBe(half)

    // A maker with an inviter gets its rebate too: CAROL's 13 gives 0.65 each.
    chain.ok(CAROL, setInviter(DAVE))
    chain.ok(CAROL, place(BTC, 'Ask', '65000', '1'))
    const second = chain.send(BOB, place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' }))
    expect(second.events.filter((e) => e.sub_kind === 'RebatePaid')).toEqual([
      {
        kind: 'Core',
        sub_kind: 'RebatePaid',
        market_id: BTC,
        account: CAROL,
        inviter: DAVE,
        fee: 13_000_000n,
        rebate_to_inviter: 650_000n,
        rebate_to_invitee: 650_000n,
      },
    ])

    // Ratio 0 pays nothing; 100% pays the whole fee out and the recipient gets nothing of it.
    runRows(chain, [
      {
        by: ADMIN,
        action: setRebateRatio(0),
        expect: [ev('GlobalRebateRatioChanged', { old_ratio_bps: 1000, new_ratio_bps: 0, signer: ADMIN, account: ADMIN })],
      },
      { by: BOB, action: setRebateRatio(5), expect: { reject: 'Unauthorized' } },
    ])
    chain.ok(CAROL, place(BTC, 'Ask', '65000', '1'))
    expect(chain.send(ALICE, place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' })).events.some((e) => e.sub_kind === 'RebatePaid')).toBe(false)
    chain.ok(ADMIN, setRebateRatio(10_000))
    chain.ok(CAROL, place(BTC, 'Ask', '65000', '1'))
    const adminBefore = chain.balance(ADMIN)
    chain.ok(ALICE, place(BTC, 'Bid', '65000', '1', { tif: 'Ioc' }))
    expect(chain.balance(ADMIN)).toBe(adminBefore)
    checkInvariants(chain.state)
    checkFundsInvariants(chain.state)
  })

  test('each half rounds down; the odd micro-unit goes to the fee recipient', () => {
    const chain = new TestChain()
    chain.ok(ALICE, setInviter(BOB))
    const { state } = chain
    const market = state.markets.get(BTC)!
    const alice = state.accounts.get(ALICE)!
    const rows: [fee: bigint, ratioBps: number, each: bigint][] = [
      [33n, 1000, 1n], // pool 3 -> 1 each, 31 to the recipient
      [19n, 1000, 0n], // pool 1 -> nothing
      [1n, 10_000, 0n], // pool 1 -> nothing
      [7n, 10_000, 3n], // pool 7 -> 3 each, 1 to the recipient
    ]
    rows.forEach(([fee, ratio, each], i) => {
      state.params.globalRebateRatioBps = ratio
      const before = [chain.balance(ALICE), chain.balance(BOB), chain.balance(ADMIN)]
      const events: import('../core/events.ts').ChainEvent[] = []
      alice.balance -= fee // collectFee distributes a fee already debited
      collectFee(state, market, alice, fee, events)
      const delta = [chain.balance(ALICE) - before[0]!, chain.balance(BOB) - before[1]!, chain.balance(ADMIN) - before[2]!]
      expect({ row: i, delta }).toEqual({ row: i, delta: [each - fee, each, fee - 2n * each] })
      expect({ row: i, events: events.length }).toEqual({ row: i, events: each === 0n ? 0 : 3 })
    })
  })
})

describe('conservation', () => {
  test('money in the exchange changes by exactly deposits minus settled withdrawals', () => {
    const chain = new TestChain()
    const start = moneyInExchange(chain.state)
    let deposits = 0n
    let settled = 0n
    const steps: [by: string, action: Record<string, unknown>, deposited: bigint, settledAmount: bigint][] = [
      [BRIDGE, deposit(fresh(4), '777.777777', 'c-1'), 777_777_777n, 0n],
      [ALICE, setInviter(BOB), 0n, 0n],
      [CAROL, place(BTC, 'Ask', '65000', '2'), 0n, 0n],
      [ALICE, place(BTC, 'Bid', '65000', '1.5', { tif: 'Ioc' }), 0n, 0n],
      [ALICE, withdraw('1000'), 0n, 0n],
      [fresh(4), withdraw('700'), 0n, 0n],
      [fresh(4), transfer(DAVE, '77.777777'), 0n, 0n],
      [BRIDGE, settle(1), 0n, 1000n * USD],
      [BRIDGE, refund(2), 0n, 0n],
      [BOB, withdraw('5'), 0n, 0n],
      [BOB, cancelWithdraw(3), 0n, 0n],
      [BRIDGE, deposit(BOB, '0.000001', 'c-2'), 1n, 0n],
      [BOB, place(BTC, 'Ask', '64000', '0.5', { tif: 'Ioc' }), 0n, 0n],
    ]
    steps.forEach(([by, action, dep, out], i) => {
      const r = chain.send(by, action)
      expect({ step: i, status: r.status, reason: r.reason }).toEqual({ step: i, status: 'accepted', reason: null })
      deposits += dep
      settled += out
      expect({ step: i, money: moneyInExchange(chain.state) }).toEqual({ step: i, money: start + deposits - settled })
    })
    checkInvariants(chain.state)
    checkFundsInvariants(chain.state)
  })
})

describe('registry', () => {
  test('WithdrawRequest is typed as the vectors fix it; every user-signed kind of the area starts with network and ends with nonce', () => {
    const vectors = JSON.parse(readFileSync(join(import.meta.dir, '..', '..', '..', 'test', 'fixtures', 'vectors.json'), 'utf8')) as
      | { vectors?: unknown[] }
      | unknown[]
    const list = (Array.isArray(vectors) ? vectors : (vectors.vectors ?? [])) as { name: string; types?: unknown }[]
    const v = list.find((x) => x.name === 'withdraw_request')!
    expect(ACTION_KIND_BY_NAME.get('WithdrawRequest')!.typedFields).toEqual(v.types as never)
    for (const name of ['SetInviter', 'WithdrawRequest', 'CancelWithdrawRequest', 'TransferFunds', 'RevokeAgent']) {
      const kind = ACTION_KIND_BY_NAME.get(name)!
      expect({ name, auth: kind.auth, role: kind.role, masterOnly: kind.masterOnly }).toEqual({
        name,
        auth: 'user_signed_master',
        role: null,
        masterOnly: true,
      })
      const fields = kind.typedFields!.map((f) => f.name)
      expect({ name, first: fields[0], last: fields.at(-1) }).toEqual({ name, first: 'network', last: 'nonce' })
      // The payload is exactly the typed fields plus signature_chain_id.
      expect(Object.keys(kind.schema.properties as object).sort()).toEqual([...fields, 'signature_chain_id'].sort())
    }
  })
})
