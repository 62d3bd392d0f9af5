// End to end on a real node: bridge deposits and withdrawals (settled, refunded, cancelled, gated),
// transfers, a referral rebate paid on a trade with exact amounts, agent revocation and the admin
// actions. The user-signed kinds are signed by the project's client.
import { describe, expect, test } from 'bun:test'
import {
  cancelWithdrawRequest,
  claimWithdrawal,
  creditDeposit,
  forceCancelAccountOrders,
  grantRole,
  placeOrder,
  refundWithdrawal,
  registerAgent,
  revokeAgent,
  revokeRole,
  setAccountFrozen,
  setGlobalRebateRatio,
  setInviter,
  setSettlementPaused,
  settleWithdrawal,
  transferFunds,
  withdrawRequest,
} from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { bodyAs, RpcCallError } from '../../src/client/rpc-client.ts'
import { parseDecimal } from '../../src/lib/decimal.ts'
import { acceptedEvents, getAccount, keptRejectReason, startDevNodeForFile } from '../support/dev-node.ts'

const BTC = 1
const NEWCOMER = '0x00000000000000000000000000000000000c0ffe'
const PAYOUT = '0x00000000000000000000000000000000000e0e0e'

const { node, rpc, client } = await startDevNodeForFile({ blockTimeMs: 40 })
const admin = client(0)
const alice = client(1)
const bob = client(5)
const carol = client(6)
const dave = client(4)
const bridge = client(8)

interface AccountData {
  balance: string
  roles: string[]
  frozen: boolean
  agents: { address: string }[]
}
const account = (address: string) => getAccount<AccountData>(rpc, address)
const withdrawals = async (address: string) =>
  (await rpc.query<{ withdrawal_id: number; destination: string; amount: string }[]>('getWithdrawals', { address })).data

/** A SCALE_6 decimal string as an exact integer. */
function units(s: string): bigint {
  const r = parseDecimal(s, 6)
  if (!r.ok) throw new Error(r.message)
  return r.value
}

describe('bridge', () => {
  test('a deposit opens a Trader account once per deposit_id', async () => {
    const events = acceptedEvents(
      await bridge.send(creditDeposit({ account: NEWCOMER, amount: '5000.5', deposit_id: '0xd1:0', source_chain: 'arbitrum' })),
    )
    expect(events.map((e) => [e.kind, e.sub_kind])).toEqual([
      ['Bridge', 'DepositCredited'],
      ['Core', 'BalanceChanged'],
    ])
    expect(events[0]!.body).toMatchObject({ account: NEWCOMER, amount: '5000.5', deposit_id: '0xd1:0', source_chain: 'arbitrum' })
    expect(events[1]!.body).toMatchObject({ reason: 'Deposit', amount: '5000.5', balance_after: '5000.5' })
    expect(await account(NEWCOMER)).toMatchObject({ balance: '5000.5', roles: ['Trader'] })
    expect(keptRejectReason(await bridge.send(creditDeposit({ account: NEWCOMER, amount: '1', deposit_id: '0xd1:0' })))).toBe(
      'DuplicateDeposit',
    )
    // Without the BridgeDeposit role the signer is refused at admission.
    await expect(alice.send(creditDeposit({ account: NEWCOMER, amount: '1', deposit_id: '0xd1:1' }))).rejects.toBeInstanceOf(RpcCallError)
  })

  test('withdraw request, settle; another refunded; another cancelled; settlement paused', async () => {
    const request = async (amount: string) => {
      const events = acceptedEvents(await alice.send((nonce, network) => withdrawRequest({ network, destination: PAYOUT, amount, nonce })))
      expect(events.map((e) => e.sub_kind)).toEqual(['WithdrawalRequested', 'BalanceChanged'])
      return bodyAs(events[0]!, 'WithdrawalRequested').withdrawal_id
    }
    const first = await request('1250.5')
    expect(await withdrawals(alice.address)).toEqual([
      expect.objectContaining({ withdrawal_id: first, destination: PAYOUT, amount: '1250.5' }),
    ])
    expect((await account(alice.address)).balance).toBe('998749.5')
    const settled = acceptedEvents(await bridge.send(settleWithdrawal({ withdrawal_id: first, external_tx: '0xfeed' })))
    expect(settled[0]).toMatchObject({
      kind: 'Bridge',
      sub_kind: 'WithdrawalSettled',
      body: { withdrawal_id: first, amount: '1250.5', external_tx: '0xfeed' },
    })
    expect(await withdrawals(alice.address)).toEqual([])

    const second = await request('100')
    acceptedEvents(await bridge.send(refundWithdrawal({ withdrawal_id: second, reason: 'bounced' })))
    const third = await request('0.000001')
    const cancelled = acceptedEvents(await alice.send((nonce, network) => cancelWithdrawRequest({ network, withdrawal_id: third, nonce })))
    expect(cancelled.map((e) => e.sub_kind)).toEqual(['WithdrawalCancelled', 'BalanceChanged'])
    expect((await account(alice.address)).balance).toBe('998749.5')

    acceptedEvents(await admin.send(setSettlementPaused({ paused: true })))
    expect((await rpc.query<{ settlement_paused: boolean }>('getExchangeConfig')).data.settlement_paused).toBe(true)
    const fourth = await request('10')
    expect(keptRejectReason(await bridge.send(settleWithdrawal({ withdrawal_id: fourth })))).toBe('SettlementPaused')
    acceptedEvents(await admin.send(setSettlementPaused({ paused: false })))
    acceptedEvents(await bridge.send(settleWithdrawal({ withdrawal_id: fourth })))
    expect((await account(alice.address)).balance).toBe('998739.5')
    expect(
      keptRejectReason(await alice.send((nonce, network) => withdrawRequest({ network, destination: PAYOUT, amount: '5000000', nonce }))),
    ).toBe('InsufficientFunds')
  })

  test("a claimed withdrawal is processing: the owner's cancel is a kept-reject WithdrawalProcessing, the bridge settles it", async () => {
    const requested = acceptedEvents(
      await alice.send((nonce, network) => withdrawRequest({ network, destination: PAYOUT, amount: '7', nonce })),
    )
    const id = bodyAs(requested[0]!, 'WithdrawalRequested').withdrawal_id
    const balance = (await account(alice.address)).balance
    expect(await withdrawals(alice.address)).toEqual([
      expect.objectContaining({ withdrawal_id: id, status: 'pending', claimed_by: null, claimed_height: null }),
    ])
    // The owner may not claim; the bridge does.
    await expect(alice.send(claimWithdrawal({ withdrawal_id: id }))).rejects.toBeInstanceOf(RpcCallError)
    const claimed = acceptedEvents(await bridge.send(claimWithdrawal({ withdrawal_id: id })))
    expect(claimed).toEqual([
      expect.objectContaining({
        kind: 'Bridge',
        sub_kind: 'WithdrawalClaimed',
        body: expect.objectContaining({ withdrawal_id: id, amount: '7', destination: PAYOUT, signer: bridge.address }),
      }),
    ])
    const listed = (await withdrawals(alice.address)).find((w) => w.withdrawal_id === id) as unknown as {
      status: string
      claimed_by: string
      claimed_height: number
    }
    expect(listed).toMatchObject({ status: 'processing', claimed_by: bridge.address })
    const pendingAll = (await rpc.query<{ withdrawal_id: number; status: string }[]>('getPendingWithdrawals', {})).data
    expect(pendingAll.find((w) => w.withdrawal_id === id)).toMatchObject({ status: 'processing', claimed_by: bridge.address })
    // The owner's cancel is kept as a reject (its nonce used), and nothing moves.
    expect(keptRejectReason(await alice.send((nonce, network) => cancelWithdrawRequest({ network, withdrawal_id: id, nonce })))).toBe(
      'WithdrawalProcessing',
    )
    expect(keptRejectReason(await bridge.send(claimWithdrawal({ withdrawal_id: id })))).toBe('WithdrawalProcessing')
    expect((await account(alice.address)).balance).toBe(balance)
    acceptedEvents(await bridge.send(settleWithdrawal({ withdrawal_id: id, external_tx: '0xclaimed' })))
    expect((await withdrawals(alice.address)).some((w) => w.withdrawal_id === id)).toBe(false)
    expect((await account(alice.address)).balance).toBe(balance)
  })

  test('an amount with more than 6 decimals is refused at admission and names the field', async () => {
    const err = await alice
      .send((nonce, network) => withdrawRequest({ network, destination: PAYOUT, amount: '1.0000001', nonce }))
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RpcCallError)
    expect((err as RpcCallError).error).toMatchObject({ code: -32602, data: { field: 'params.action.WithdrawRequest.amount' } })
  })
})

describe('transfers', () => {
  test('moves cash to a new address, which can then trade', async () => {
    const newcomer = new PerpdClient({ url: node.url, privateKey: `0x${'44'.repeat(32)}` })
    const to = newcomer.address
    const events = acceptedEvents(
      await alice.send((nonce, network) => transferFunds({ network, destination: to, amount: '100.25', nonce })),
    )
    expect(events.map((e) => e.sub_kind)).toEqual(['FundsTransferred', 'BalanceChanged', 'BalanceChanged'])
    expect(events[1]!.body).toMatchObject({ reason: 'TransferOut', amount: '-100.25' })
    expect(await account(to)).toMatchObject({ balance: '100.25', roles: ['Trader'] })
    const placed = acceptedEvents(
      await newcomer.send(placeOrder({ market_id: BTC, side: 'Bid', price: '50000', qty: '0.01', tif: 'Gtc', reduce_only: false })),
    )
    expect(placed[0]).toMatchObject({ sub_kind: 'OrderAccepted', account: to })
    expect(
      keptRejectReason(await alice.send((nonce, network) => transferFunds({ network, destination: alice.address, amount: '1', nonce }))),
    ).toBe('InvalidDestination')
  })
})

describe('referral', () => {
  test('a rebate is paid on a trade with exact amounts', async () => {
    const set = acceptedEvents(await bob.send((nonce, network) => setInviter({ network, inviter: carol.address, nonce })))
    expect(set[0]).toMatchObject({ sub_kind: 'InviterSet', account: bob.address, body: { inviter: carol.address } })
    acceptedEvents(await dave.send(placeOrder({ market_id: BTC, side: 'Ask', price: '65000', qty: '1', tif: 'Gtc', reduce_only: false })))
    const adminBefore = (await account(admin.address)).balance
    const events = acceptedEvents(
      await bob.send(placeOrder({ market_id: BTC, side: 'Bid', price: '65000', qty: '1', tif: 'Ioc', reduce_only: false })),
    )
    // Taker fee 65,000 x 5 bps = 32.5; global_rebate_ratio_bps 1000 -> 3.25, half each.
    const paid = events.find((e) => e.sub_kind === 'RebatePaid')!
    expect(paid).toMatchObject({
      kind: 'Core',
      account: bob.address,
      market_id: BTC,
      body: { inviter: carol.address, fee: '32.5', rebate_to_inviter: '1.625', rebate_to_invitee: '1.625' },
    })
    const changes = events.filter((e) => e.sub_kind === 'BalanceChanged').map((e) => [e.account, e.body.reason, e.body.amount])
    expect(changes).toEqual([
      [carol.address, 'RebateToInviter', '1.625'],
      [bob.address, 'RebateToInvitee', '1.625'],
    ])
    expect((await account(bob.address)).balance).toBe('999969.125')
    expect((await account(carol.address)).balance).toBe('1000001.625')
    // The fee recipient got the maker's 13 and the taker's 32.5 - 3.25.
    expect(units((await account(admin.address)).balance) - units(adminBefore)).toBe(42_250_000n)
    const referral = async (address: string) => (await rpc.query<Record<string, unknown>>('getReferral', { address })).data
    expect(await referral(carol.address)).toMatchObject({ inviter: null, invitees: 1, rebates_earned: '1.625', rebates_received: '0' })
    expect(await referral(bob.address)).toMatchObject({
      inviter: carol.address,
      invitees: 0,
      rebates_earned: '0',
      rebates_received: '1.625',
      global_rebate_ratio_bps: 1000,
    })
    expect(keptRejectReason(await bob.send((nonce, network) => setInviter({ network, inviter: dave.address, nonce })))).toBe(
      'InviterAlreadySet',
    )
    const ratio = acceptedEvents(await admin.send(setGlobalRebateRatio({ ratio_bps: 2000 })))
    expect(ratio[0]).toMatchObject({
      kind: 'Ops',
      sub_kind: 'GlobalRebateRatioChanged',
      body: { old_ratio_bps: 1000, new_ratio_bps: 2000, signer: admin.address },
    })
  })
})

describe('agents and admin', () => {
  test('a revoked agent can no longer sign for its master', async () => {
    const agent = new PerpdClient({ url: node.url, privateKey: `0x${'43'.repeat(32)}` })
    acceptedEvents(
      await dave.send((nonce, network) => registerAgent({ network, agent: agent.address, role: 'Trader', name: 'temp', nonce })),
    )
    const revoked = acceptedEvents(await dave.send((nonce, network) => revokeAgent({ network, agent: agent.address, nonce })))
    expect(revoked[0]).toMatchObject({ sub_kind: 'AgentRevoked', body: { agent: agent.address } })
    expect((await account(dave.address)).agents).toEqual([])
    const err = await agent
      .send(placeOrder({ market_id: BTC, side: 'Bid', price: '60000', qty: '0.01', tif: 'Gtc', reduce_only: false }))
      .catch((e: unknown) => e)
    expect((err as RpcCallError).reason).toBe('UNKNOWN_SIGNER')
    expect(keptRejectReason(await dave.send((nonce, network) => revokeAgent({ network, agent: agent.address, nonce })))).toBe(
      'AgentNotFound',
    )
  })

  test('freeze, force-cancel, roles and the last Admin', async () => {
    acceptedEvents(
      await carol.send(placeOrder({ market_id: BTC, side: 'Bid', price: '60000', qty: '0.1', tif: 'Gtc', reduce_only: false })),
    )
    acceptedEvents(await admin.send(setAccountFrozen({ account: carol.address, frozen: true })))
    expect((await account(carol.address)).frozen).toBe(true)
    expect(
      keptRejectReason(
        await carol.send(placeOrder({ market_id: BTC, side: 'Bid', price: '60000', qty: '0.1', tif: 'Gtc', reduce_only: false })),
      ),
    ).toBe('AccountFrozen')
    expect(
      keptRejectReason(await carol.send((nonce, network) => transferFunds({ network, destination: dave.address, amount: '1', nonce }))),
    ).toBe('AccountFrozen')
    const cancelled = acceptedEvents(await admin.send(forceCancelAccountOrders({ account: carol.address, market_id: BTC })))
    expect(cancelled.map((e) => [e.sub_kind, 'reason' in e.body ? e.body.reason : null])).toEqual([
      ['OrderDone', 'ForceCancelled'],
      ['AccountOrdersForceCancelled', null],
    ])
    acceptedEvents(await admin.send(setAccountFrozen({ account: carol.address, frozen: false })))

    expect(keptRejectReason(await admin.send(revokeRole({ account: admin.address, role: 'Admin' })))).toBe('LastAdmin')
    const granted = acceptedEvents(await admin.send(grantRole({ account: NEWCOMER, role: 'Quoter' })))
    expect(granted[0]).toMatchObject({
      kind: 'Ops',
      sub_kind: 'RoleGranted',
      account: NEWCOMER,
      body: { role: 'Quoter', signer: admin.address },
    })
    expect((await account(NEWCOMER)).roles).toEqual(['Trader', 'Quoter'])
    const meta = (
      await rpc.query<{ actions: { name: string; auth: string; role: string | null; master_only: boolean }[] }>('getActionsMeta')
    ).data.actions
    const byName = new Map(meta.map((a) => [a.name, a]))
    expect(byName.get('WithdrawRequest')).toMatchObject({ auth: 'user_signed_master', role: null, master_only: true })
    expect(byName.get('CreditDeposit')).toMatchObject({ auth: 'master', role: 'BridgeDeposit', master_only: true })
    expect(byName.get('SettleWithdrawal')).toMatchObject({ auth: 'master', role: 'BridgeWithdraw' })
    expect(byName.get('ForceCancelAccountOrders')).toMatchObject({ auth: 'master', role: 'Admin', master_only: true })
  })
})
