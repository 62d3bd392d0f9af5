// Test helpers of the funds and admin area: action builders as signed, the money in the exchange,
// and the area's invariants. Test-only: nothing in the node imports this module.

import { countAdmins } from '../../../src/chain/funds/funds-state.ts'
import type { ChainState, RoleName } from '../../../src/chain/index.ts'
import { DEV_ADDRESSES } from '../../../src/node/dev-genesis.ts'
import type { Action } from './test-chain.ts'

/** Dev account #8: Trader plus the bridge roles (dev genesis). */
export const BRIDGE: string = DEV_ADDRESSES[8]
/** Dev accounts #5 and #6, plain traders. */
export const ERIN: string = DEV_ADDRESSES[5]
export const FRANK: string = DEV_ADDRESSES[6]
/** An address no genesis knows. */
export const fresh = (i: number): string => `0x${'f0'.repeat(19)}${i.toString(16).padStart(2, '0')}`
/** A withdrawal destination on another chain. */
export const EXTERNAL = '0x00000000000000000000000000000000000e0e0e'

// User-signed kinds carry network, nonce and signature_chain_id; the chain does not read the
// nonce (admission checks it equals the envelope's), so builders leave it 0.
const signed = (fields: Record<string, unknown>) => ({ network: 'dev', ...fields, nonce: 0, signature_chain_id: '0x539' })

export const setInviter = (inviter: string): Action => ({ SetInviter: signed({ inviter }) })
export const withdraw = (amount: string, destination = EXTERNAL): Action => ({ WithdrawRequest: signed({ destination, amount }) })
export const cancelWithdraw = (withdrawalId: number): Action => ({ CancelWithdrawRequest: signed({ withdrawal_id: withdrawalId }) })
export const transfer = (destination: string, amount: string): Action => ({ TransferFunds: signed({ destination, amount }) })
export const revokeAgent = (agent: string): Action => ({ RevokeAgent: signed({ agent }) })

export const deposit = (account: string, amount: string, depositId: string, sourceChain?: string): Action => ({
  CreditDeposit: { account, amount, deposit_id: depositId, ...(sourceChain === undefined ? {} : { source_chain: sourceChain }) },
})
export const claim = (withdrawalId: number): Action => ({ ClaimWithdrawal: { withdrawal_id: withdrawalId } })
export const settle = (withdrawalId: number, externalTx?: string): Action => ({
  SettleWithdrawal: { withdrawal_id: withdrawalId, ...(externalTx === undefined ? {} : { external_tx: externalTx }) },
})
export const refund = (withdrawalId: number, reason?: string): Action => ({
  RefundWithdrawal: { withdrawal_id: withdrawalId, ...(reason === undefined ? {} : { reason }) },
})

export const setRebateRatio = (ratioBps: number): Action => ({ SetGlobalRebateRatio: { ratio_bps: ratioBps } })
export const setSettlementPaused = (paused: boolean): Action => ({ SetSettlementPaused: { paused } })
export const grantRole = (account: string, role: RoleName): Action => ({ GrantRole: { account, role } })
export const revokeRole = (account: string, role: RoleName): Action => ({ RevokeRole: { account, role } })
export const setInsuranceFund = (address: string): Action => ({ SetInsuranceFund: { address } })
export const amendExchangeConfig = (maxTxPerBlock: number): Action => ({ AmendExchangeConfig: { max_tx_per_block: maxTxPerBlock } })
export const setFrozen = (account: string, frozen: boolean): Action => ({ SetAccountFrozen: { account, frozen } })
export const forceCancel = (account: string, marketId?: number): Action => ({
  ForceCancelAccountOrders: { account, ...(marketId === undefined ? {} : { market_id: marketId }) },
})

/**
 * The money in the exchange: balances net of position cost bases (what trades conserve) plus the
 * pending withdrawals (debited from balances, not yet paid out). Only deposits raise it and only
 * settled withdrawals lower it.
 */
export function moneyInExchange(state: ChainState): bigint {
  let sum = 0n
  for (const a of state.accounts.values()) {
    sum += a.balance
    for (const p of a.positions.values()) sum -= p.costBasis
  }
  for (const w of state.funds.withdrawals.values()) sum += w.amount
  return sum
}

/** Checks the derived indexes and counters of the area against the state they derive from. */
export function checkFundsInvariants(state: ChainState): void {
  function fail(what: string): never {
    throw new Error(`funds invariant broken at height ${state.height}: ${what}`)
  }
  const f = state.funds
  if (f.adminCount !== countAdmins(state)) fail(`adminCount ${f.adminCount} != ${countAdmins(state)} Admin accounts`)
  if (f.adminCount < 1) fail('no Admin left')
  let indexed = 0
  for (const [account, ids] of f.withdrawalsByAccount) {
    if (ids.length === 0) fail(`${account} keeps an empty withdrawal index`)
    for (let i = 0; i < ids.length; i++) {
      const w = f.withdrawals.get(ids[i]!)
      if (w === undefined || w.account !== account) fail(`withdrawal ${ids[i]} indexed under ${account} is not its pending withdrawal`)
      if (i > 0 && ids[i]! <= ids[i - 1]!) fail(`${account}'s withdrawal ids are not ascending`)
      if (w.amount <= 0n) fail(`withdrawal ${w.id} amount ${w.amount}`)
      indexed++
    }
  }
  if (indexed !== f.withdrawals.size) fail(`${indexed} withdrawals indexed, ${f.withdrawals.size} pending`)
  let agents = 0
  for (const [master, set] of state.agentsByMaster) {
    for (const agent of set) {
      if (state.agents.get(agent)?.master !== master) fail(`agent ${agent} indexed under ${master}`)
      agents++
    }
  }
  if (agents !== state.agents.size) fail(`${agents} agents indexed, ${state.agents.size} registered`)
  const invited = new Map<string, number>()
  for (const r of f.referrals.values()) if (r.inviter !== null) invited.set(r.inviter, (invited.get(r.inviter) ?? 0) + 1)
  for (const [address, r] of f.referrals) {
    if (r.invitees !== (invited.get(address) ?? 0)) fail(`${address} counts ${r.invitees} invitees, ${invited.get(address) ?? 0} name it`)
    if (r.inviter !== null && !state.accounts.has(r.inviter)) fail(`${address}'s inviter ${r.inviter} is not an account`)
  }
  for (const address of f.frozen) if (!state.accounts.has(address)) fail(`frozen ${address} is not an account`)
}
