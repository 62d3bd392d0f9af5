// The bridge_withdraw runner: settles pending withdrawals with SettleWithdrawal, unless the chain's
// settlement_paused is set. The node lists pending withdrawals per address (getWithdrawals), so the
// runner learns which accounts requested one by reading the blocks' WithdrawRequest envelopes
// (getBlock), remembering its scan height and those accounts in the admin database.
import { settleWithdrawal } from '../../client/actions.ts'
import type { BridgeStore } from '../store/bridge-store.ts'
import type { Component, ComponentContext, ComponentSpec, CycleReport } from './component.ts'
import { sendAction } from './send-outcome.ts'
import type { PendingWithdrawal, WithdrawalPayout } from './withdraw-payout.ts'

/** Blocks one cycle scans at most (in batches of READ_BATCH_MAX reads). */
export const BLOCKS_SCANNED_PER_CYCLE_MAX = 2_000
/** Accounts whose pending withdrawals one cycle reads at most. */
export const ACCOUNTS_PER_CYCLE_MAX = 200
/** Settlements one cycle sends at most. */
export const SETTLEMENTS_PER_CYCLE_MAX = 64
/** Reads per JSON-RPC batch (the node's batch limit). */
const READ_BATCH_MAX = 20

interface BlockEnvelope {
  readonly signer: string
  readonly action_kind: string
}

interface WithdrawalRow {
  readonly withdrawal_id: number
  readonly destination: string
  readonly amount: string
}

/** The bridge_withdraw runner's ComponentSpec (role BridgeWithdraw, action SettleWithdrawal). */
export function bridgeWithdrawSpec(options: { store: BridgeStore; payout: WithdrawalPayout | undefined; intervalMs: number }): ComponentSpec {
  return {
    service: 'bridge_withdraw', role: 'BridgeWithdraw', actions: ['SettleWithdrawal'], intervalMs: options.intervalMs,
    create: (ctx) => new BridgeWithdrawComponent(ctx, options.store, options.payout),
  }
}

/** Finds, pays out and settles pending withdrawals; see the file comment. */
export class BridgeWithdrawComponent implements Component {
  private paused = false
  private settled = 0
  private paid = 0
  private pendingSeen = 0

  constructor(
    private readonly ctx: ComponentContext,
    private readonly store: BridgeStore,
    private readonly payout: WithdrawalPayout | undefined,
  ) {}

  async cycle(signal: AbortSignal): Promise<CycleReport> {
    const rpc = this.ctx.client.rpc
    const config = await rpc.query<{ settlement_paused: boolean }>('getExchangeConfig')
    const scannedTo = await this.scan(config.chain_height, signal)
    this.paused = config.data.settlement_paused === true
    // Paused is the chain's deliberate gate, not a failure: nothing is paid out or settled.
    if (this.paused) return { problems: [] }
    const problems: string[] = []
    let sent = 0
    this.pendingSeen = 0
    for (const account of this.store.withdrawAccounts(ACCOUNTS_PER_CYCLE_MAX)) {
      if (signal.aborted || sent >= SETTLEMENTS_PER_CYCLE_MAX) break
      const rows = (await rpc.query<WithdrawalRow[]>('getWithdrawals', { address: account })).data
      if (rows.length === 0) {
        this.store.dropWithdrawAccount(account, scannedTo)
        continue
      }
      this.pendingSeen += rows.length
      for (const row of rows) {
        if (signal.aborted || sent >= SETTLEMENTS_PER_CYCLE_MAX) break
        sent++
        const outcome = await this.settle({ withdrawal_id: row.withdrawal_id, account, destination: row.destination, amount: row.amount }, signal)
        if (outcome === 'paused') return { problems }
        if (outcome !== undefined) problems.push(outcome)
      }
    }
    return { problems }
  }

  detail(): Record<string, unknown> {
    return { settlement_paused: this.paused, payout: this.payout?.name ?? 'none (settles directly)', pending_last_cycle: this.pendingSeen, paid: this.paid, settled: this.settled, scan_height: this.store.scanHeight() }
  }

  /** Reads the blocks after the scan height up to the tip (bounded) and records withdrawing accounts. */
  private async scan(tip: number, signal: AbortSignal): Promise<number> {
    const from = this.store.scanHeight() + 1
    const to = Math.min(tip, from + BLOCKS_SCANNED_PER_CYCLE_MAX - 1)
    const accounts = new Set<string>()
    for (let start = from; start <= to && !signal.aborted; start += READ_BATCH_MAX) {
      const heights = Array.from({ length: Math.min(READ_BATCH_MAX, to - start + 1) }, (_, i) => start + i)
      const replies = await this.ctx.client.rpc.batch(heights.map((height) => ({ method: 'getBlock', params: { height } })))
      for (const [i, r] of replies.entries()) {
        if (!('result' in r)) throw new Error(`getBlock ${heights[i]}: ${r.error.message}`)
        for (const e of (r.result.data as { envelopes: BlockEnvelope[] }).envelopes) {
          if (e.action_kind === 'WithdrawRequest') accounts.add(e.signer.toLowerCase())
        }
      }
      this.store.addWithdrawAccounts([...accounts], start + heights.length - 1)
      accounts.clear()
    }
    return this.store.scanHeight()
  }

  /** Pays out (once) and settles one withdrawal; a problem line, 'paused', or undefined when done. */
  private async settle(w: PendingWithdrawal, signal: AbortSignal): Promise<string | 'paused' | undefined> {
    const record = this.store.withdrawal(w.withdrawal_id)
    let externalTx = record?.external_tx ?? null
    if (this.payout !== undefined && record?.status !== 'paid') {
      const paid = await this.payout.pay(w, signal)
      if (!paid.ok) {
        const line = `withdrawal ${w.withdrawal_id}: payout failed: ${paid.message}; retrying next cycle`
        this.ctx.log.warn(line)
        return line
      }
      externalTx = paid.externalTx
      this.paid++
      // Recorded before the settlement is sent: from here on a retry settles without paying again.
      this.store.recordWithdrawal({ id: w.withdrawal_id, account: w.account, destination: w.destination, amount: w.amount, status: 'paid', externalTx, txHash: null, height: null })
    }
    const outcome = await sendAction(this.ctx.client, settleWithdrawal({ withdrawalId: w.withdrawal_id, ...(externalTx === null ? {} : { externalTx }) }))
    if (outcome.kind === 'accepted') {
      this.settled++
      this.store.recordWithdrawal({ id: w.withdrawal_id, account: w.account, destination: w.destination, amount: w.amount, status: 'settled', externalTx, txHash: outcome.reply.tx_hash, height: outcome.reply.height })
      this.ctx.log.info(`withdrawal ${w.withdrawal_id}: settled ${w.amount} to ${w.destination} at height ${outcome.reply.height}`)
      return undefined
    }
    if (outcome.kind === 'kept-reject' && outcome.reason === 'SettlementPaused') {
      this.paused = true
      return 'paused'
    }
    const line = `withdrawal ${w.withdrawal_id}: ${outcome.kind} ${outcome.reason} (${outcome.message}); retrying next cycle`
    this.ctx.log.warn(line)
    return line
  }
}
