// The bridge_deposit runner: credits each deposit its source lists with CreditDeposit, once. The
// admin database remembers what was handled, and the chain refuses a second credit of a
// deposit_id (DuplicateDeposit), so neither a restart nor a second instance credits twice.
import { creditDeposit } from '../../client/actions.ts'
import type { BridgeStore } from '../store/bridge-store.ts'
import { type Component, type ComponentContext, type ComponentSpec, type CycleReport, handleEach } from './component.ts'
import type { Deposit, DepositSource } from './deposit-source.ts'
import { sendAction } from './send-outcome.ts'

/** Credits one cycle sends at most. */
export const DEPOSITS_PER_CYCLE_MAX = 64

/** Kept-reject reasons that will not change on a retry: the deposit is recorded as rejected. */
const FINAL_REJECTS = new Set(['InvalidAmount', 'AddressIsAgent'])

/** The bridge_deposit runner's ComponentSpec (role BridgeDeposit, action CreditDeposit). */
export function bridgeDepositSpec(options: { source: DepositSource | undefined; store: BridgeStore; intervalMs: number }): ComponentSpec {
  return {
    service: 'bridge_deposit',
    role: 'BridgeDeposit',
    actions: ['CreditDeposit'],
    intervalMs: options.intervalMs,
    create(ctx) {
      if (options.source === undefined) throw new Error('no deposit source is configured; start perpd-admin with --deposit-source FILE|URL')
      return new BridgeDepositComponent(ctx, options.source, options.store)
    },
  }
}

/** Credits the deposits of one source, recording each outcome. */
export class BridgeDepositComponent implements Component {
  private credited = 0
  private duplicates = 0
  private rejected = 0
  private lastPending = 0

  constructor(
    private readonly ctx: ComponentContext,
    private readonly source: DepositSource,
    private readonly store: BridgeStore,
  ) {}

  async cycle(signal: AbortSignal): Promise<CycleReport> {
    const listed = await this.source.deposits(signal)
    const handled = this.store.handledDeposits(listed.map((d) => d.deposit_id))
    const pending = listed.filter((d) => !handled.has(d.deposit_id))
    this.lastPending = pending.length
    return handleEach(pending, DEPOSITS_PER_CYCLE_MAX, signal, (d) => this.credit(d))
  }

  detail(): Record<string, unknown> {
    return {
      source: this.source.name,
      pending_last_cycle: this.lastPending,
      credited: this.credited,
      duplicates: this.duplicates,
      rejected: this.rejected,
    }
  }

  private async credit(d: Deposit): Promise<string | undefined> {
    const action = creditDeposit({ account: d.account, amount: d.amount, deposit_id: d.deposit_id, source_chain: d.source_chain })
    const outcome = await sendAction(this.ctx.client, action)
    const base = { depositId: d.deposit_id, account: d.account.toLowerCase(), amount: d.amount, signer: this.ctx.client.address }
    if (outcome.kind === 'accepted') {
      this.credited++
      this.store.recordDeposit({ ...base, status: 'credited', txHash: outcome.reply.tx_hash, height: outcome.reply.height, reason: null })
      this.ctx.log.info(`deposit ${d.deposit_id}: credited ${d.amount} to ${d.account} at height ${outcome.reply.height}`)
      return undefined
    }
    if (outcome.kind === 'kept-reject' && outcome.reason === 'DuplicateDeposit') {
      this.duplicates++
      this.store.recordDeposit({
        ...base,
        status: 'duplicate',
        txHash: outcome.reply.tx_hash,
        height: outcome.reply.height,
        reason: outcome.reason,
      })
      return undefined
    }
    const final =
      (outcome.kind === 'kept-reject' && FINAL_REJECTS.has(outcome.reason)) ||
      (outcome.kind === 'refused' && outcome.reason === 'INVALID_PARAMS')
    const line = `deposit ${d.deposit_id}: ${outcome.kind} ${outcome.reason} (${outcome.message})${final ? '; recorded as rejected' : '; retrying next cycle'}`
    this.ctx.log.warn(line)
    if (final) {
      this.rejected++
      this.store.recordDeposit({
        ...base,
        status: 'rejected',
        txHash: outcome.kind === 'kept-reject' ? outcome.reply.tx_hash : null,
        height: outcome.kind === 'kept-reject' ? outcome.reply.height : null,
        reason: outcome.reason,
      })
    }
    return line
  }
}
