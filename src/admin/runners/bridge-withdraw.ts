// The bridge_withdraw runner (docs/admin.md#bridge-withdraw-runner): for each pending withdrawal it
// claims it on chain (ClaimWithdrawal: from then on its owner cannot cancel it), records that it
// asks for the payout (payout_requested) before calling the treasury, pays it out once through the
// treasury's idempotent interface (docs/admin.md#treasury-interface), then settles it
// (SettleWithdrawal), or refunds it (RefundWithdrawal) when the treasury says it will not pay. A
// payout whose answer was lost is asked about, never blindly repeated; a settlement whose reply
// was lost is resolved from the chain. Nothing moves while the chain's settlement_paused is set.
//
// The node lists pending withdrawals per address (getWithdrawals), so the runner learns which
// accounts requested one by reading the blocks' WithdrawRequest envelopes (getBlock). Its scan
// height, remembered accounts and withdrawal rows belong to one chain, named by the digest of its
// block 1: pointed at another chain (a reset), it scans again from block 1.
import { claimWithdrawal, refundWithdrawal, settleWithdrawal } from '../../client/actions.ts'
import type { RpcErrorBody } from '../../client/rpc-client.ts'
import type { BridgeStore, WithdrawalRow } from '../store/bridge-store.ts'
import { type Component, type ComponentContext, ComponentRefused, type ComponentSpec, type CycleReport } from './component.ts'
import { type SendOutcome, sendAction } from './send-outcome.ts'
import { type ChainIdentity, type PendingWithdrawal, payoutRequest, type TreasuryAnswer, type WithdrawalPayout } from './withdraw-payout.ts'

/** Blocks one cycle scans at most (in batches of READ_BATCH_MAX reads). */
export const BLOCKS_SCANNED_PER_CYCLE_MAX = 2_000
/** Accounts whose pending withdrawals one cycle reads at most. */
export const ACCOUNTS_PER_CYCLE_MAX = 200
/** Withdrawals one cycle works on at most (claims, payouts, settlements, refunds). */
export const SETTLEMENTS_PER_CYCLE_MAX = 64
/** Reads per JSON-RPC batch (the node's batch limit). */
const READ_BATCH_MAX = 20
/** Alerts the status lists. */
const ALERTS_SHOWN = 10
/** The network on which withdrawals may be settled without a payout endpoint. */
const DEV_NETWORK = 'dev'

interface BlockEnvelope {
  readonly signer: string
  readonly action_kind: string
}

/** A pending withdrawal as getWithdrawals lists it. */
interface ListedWithdrawal {
  readonly withdrawal_id: number
  readonly destination: string
  readonly amount: string
  /** pending: nobody claimed it (its owner may still cancel it); processing: a BridgeWithdraw key claimed it. */
  readonly status?: 'pending' | 'processing'
  /** The BridgeWithdraw account that claimed it; null while pending. */
  readonly claimed_by?: string | null
}

/** A withdrawal the chain lists, with its account. */
type OnChain = PendingWithdrawal & { readonly status: 'pending' | 'processing'; readonly claimedBy: string | null }

/** What handling one withdrawal came to: nothing to report, a problem line, or the chain is paused. */
type Step = undefined | string | 'paused'

/** The bridge_withdraw runner's ComponentSpec (role BridgeWithdraw). */
export function bridgeWithdrawSpec(options: {
  store: BridgeStore
  payout: WithdrawalPayout | undefined
  settleWithoutPayout: boolean
  intervalMs: number
}): ComponentSpec {
  return {
    service: 'bridge_withdraw',
    role: 'BridgeWithdraw',
    actions: ['ClaimWithdrawal', 'SettleWithdrawal', 'RefundWithdrawal'],
    intervalMs: options.intervalMs,
    async check(ctx) {
      if (options.payout !== undefined || options.settleWithoutPayout) return
      const network = (await ctx.client.rpc.query<{ network: string }>('getExchangeConfig')).data.network
      if (network !== DEV_NETWORK) {
        throw new ComponentRefused(
          `no --withdraw-payout-url: on network ${network} withdrawals would be settled without being paid out; ` +
            'give --withdraw-payout-url URL (the treasury, docs/admin.md#treasury-interface), or --settle-without-payout to settle without paying, and restart',
        )
      }
    },
    create: (ctx) => new BridgeWithdrawComponent(ctx, options.store, options.payout),
  }
}

/** Finds, claims, pays out and settles pending withdrawals; see the file comment. */
export class BridgeWithdrawComponent implements Component {
  private paused = false
  private chain: ChainIdentity | undefined
  private claimed = 0
  private paid = 0
  private settled = 0
  private refunded = 0
  private pendingSeen = 0
  /** Withdrawals claimed by another key whose line was logged (once each). */
  private readonly othersLogged = new Set<number>()

  constructor(
    private readonly ctx: ComponentContext,
    private readonly store: BridgeStore,
    private readonly payout: WithdrawalPayout | undefined,
  ) {}

  async cycle(signal: AbortSignal): Promise<CycleReport> {
    const rpc = this.ctx.client.rpc
    const [info, config, firstBlocks] = (await this.reads([
      { method: 'getChainInfo' },
      { method: 'getExchangeConfig' },
      { method: 'getBlocks', params: { before_height: 2, limit: 1 } },
    ])) as [
      { network: string; genesis_digest: string; height: number },
      { settlement_paused: boolean },
      { height: number; digest: string; parent: string }[],
    ]
    this.paused = config.settlement_paused === true
    const first = firstBlocks[0]
    // Before block 1 there is neither a chain identity nor a withdrawal.
    if (first === undefined || first.height !== 1) return { problems: [] }
    if (first.parent !== info.genesis_digest)
      throw new Error(`block 1's parent ${first.parent} is not the genesis digest ${info.genesis_digest}`)
    const chain: ChainIdentity = { network: info.network, chain: first.digest }
    if (this.store.bindChain(chain.chain, chain.network) === 'reset') {
      this.ctx.log.warn(
        `the node serves another chain (block 1 ${chain.chain}) than the one this database followed: scanning from block 1 again; the other chain's withdrawal rows are kept`,
      )
    }
    this.chain = chain
    const scannedTo = await this.scan(info.height, signal)
    // Paused is the chain's deliberate gate, not a failure: nothing is claimed, paid out or settled.
    if (this.paused) return { problems: [] }

    const listed = new Map<number, OnChain>()
    const readAccounts = new Set<string>()
    const readAccount = async (account: string): Promise<number> => {
      readAccounts.add(account)
      const rows = (await rpc.query<ListedWithdrawal[]>('getWithdrawals', { address: account })).data
      for (const r of rows)
        listed.set(r.withdrawal_id, {
          withdrawal_id: r.withdrawal_id,
          account,
          destination: r.destination,
          amount: r.amount,
          status: r.status ?? 'pending',
          claimedBy: r.claimed_by ?? null,
        })
      return rows.length
    }
    for (const account of this.store.withdrawAccounts(ACCOUNTS_PER_CYCLE_MAX)) {
      if (signal.aborted) break
      if ((await readAccount(account)) === 0) this.store.dropWithdrawAccount(account, scannedTo)
    }
    this.pendingSeen = listed.size

    const problems: string[] = []
    let worked = 0
    const done = new Set<number>()
    const work = async (step: () => Promise<Step>): Promise<boolean> => {
      worked++
      const outcome = await step()
      if (outcome === 'paused') return false
      if (outcome !== undefined) problems.push(outcome)
      return true
    }
    // First the withdrawals this runner is in the middle of (a payout asked for, paid, or to refund).
    for (const row of this.store.openWithdrawals(chain.chain, SETTLEMENTS_PER_CYCLE_MAX)) {
      if (signal.aborted || worked >= SETTLEMENTS_PER_CYCLE_MAX) break
      if (!readAccounts.has(row.account)) await readAccount(row.account)
      done.add(row.withdrawal_id)
      const onChain = listed.get(row.withdrawal_id)
      if (!(await work(() => (onChain === undefined ? this.resolveGone(chain, row, signal) : this.advance(chain, onChain, row, signal)))))
        return { problems }
    }
    for (const w of listed.values()) {
      if (signal.aborted || worked >= SETTLEMENTS_PER_CYCLE_MAX) break
      if (done.has(w.withdrawal_id)) continue
      if (!(await work(() => this.advance(chain, w, this.store.withdrawal(chain.chain, w.withdrawal_id), signal)))) return { problems }
    }
    return { problems }
  }

  detail(): Record<string, unknown> {
    const chain = this.chain
    const alerts =
      chain === undefined
        ? []
        : this.store.alerts(chain.chain, ALERTS_SHOWN).map((r) => ({
            withdrawal_id: r.withdrawal_id,
            account: r.account,
            destination: r.destination,
            amount: r.amount,
            external_tx: r.external_tx,
            reason: r.reason,
            at_ms: r.updated_at_ms,
          }))
    return {
      settlement_paused: this.paused,
      payout: this.payout?.name ?? 'none (settles directly)',
      network: chain?.network ?? null,
      chain: chain?.chain ?? null,
      pending_last_cycle: this.pendingSeen,
      claimed: this.claimed,
      paid: this.paid,
      settled: this.settled,
      refunded: this.refunded,
      scan_height: this.store.scanHeight(),
      alerts,
    }
  }

  /** Runs a batch of reads; their results' data, in order, or throws the first error. */
  private async reads(calls: { method: string; params?: Record<string, unknown> }[]): Promise<unknown[]> {
    const replies = await this.ctx.client.rpc.batch(calls)
    return replies.map((r, i) => {
      if (!('result' in r)) throw new Error(`${calls[i]!.method}: ${(r.error as RpcErrorBody).message}`)
      return r.result.data
    })
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

  /** Takes a withdrawal the chain lists one step further: claim, payout, settlement or refund. */
  private async advance(chain: ChainIdentity, w: OnChain, row: WithdrawalRow | undefined, signal: AbortSignal): Promise<Step> {
    const id = w.withdrawal_id
    // A row this runner finished with while the node still lists the withdrawal: a read behind the tip.
    if (row !== undefined && !['payout_requested', 'paid', 'payout_failed'].includes(row.status)) return undefined
    if (w.status === 'pending') {
      // Claimed before anything is paid: from here on the owner's CancelWithdrawRequest is refused.
      const claim = await sendAction(this.ctx.client, claimWithdrawal({ withdrawal_id: id }))
      if (claim.kind === 'kept-reject' && claim.reason === 'WithdrawalNotFound') {
        this.ctx.log.info(`withdrawal ${id}: gone before the claim (cancelled by its owner); nothing paid`)
        return row === undefined ? undefined : this.resolveGone(chain, row, signal)
      }
      if (claim.kind === 'kept-reject' && claim.reason === 'SettlementPaused') {
        this.paused = true
        return 'paused'
      }
      if (claim.kind !== 'accepted') return this.failed(id, 'claim', claim)
      this.claimed++
      this.ctx.log.info(`withdrawal ${id}: claimed at height ${claim.reply.height}`)
    } else if (this.payout !== undefined && row === undefined && w.claimedBy !== null && w.claimedBy !== this.ctx.client.address) {
      // Claimed by a key this runner does not sign with, and no payout of ours under way: another
      // bridge is paying it, and paying it here too could pay it twice.
      const line = `withdrawal ${id}: claimed by ${w.claimedBy}, not by this runner; left to it (RefundWithdrawal it if nobody pays it)`
      if (!this.othersLogged.has(id)) this.ctx.log.warn(line)
      this.othersLogged.add(id)
      return line
    }
    if (this.payout === undefined) {
      // A payout asked for under an earlier configuration: only its treasury can say whether it happened.
      if (row !== undefined && row.status !== 'paid')
        return this.problem(
          `withdrawal ${id}: its payout (${row.status}) was asked of a treasury; restart with --withdraw-payout-url to finish it`,
        )
      return row === undefined ? this.settle(chain, w, null, false, signal) : this.settle(chain, w, row.external_tx, true, signal)
    }
    let answer: TreasuryAnswer
    if (row === undefined) {
      const request = payoutRequest(chain, w)
      // Durable before the treasury is called: after a crash or a timeout the runner asks before paying again.
      this.store.requestPayout(chain.chain, w, request.idempotency_key, this.ctx.client.address)
      answer = await this.payout.pay(request, this.ctx.client.signer, signal)
    } else if (row.status === 'payout_requested') {
      answer = await this.payout.status(row.idempotency_key ?? payoutRequest(chain, w).idempotency_key, signal)
      // The treasury never saw the request (it was lost on the way, or never sent): ask for it, under the same key.
      if (answer.status === 'unknown') answer = await this.payout.pay(payoutRequest(chain, w), this.ctx.client.signer, signal)
    } else if (row.status === 'paid') {
      return this.settle(chain, w, row.external_tx, true, signal)
    } else {
      return this.refund(chain, w, row.reason ?? 'the treasury did not pay', signal)
    }
    switch (answer.status) {
      case 'paid':
        this.paid++
        this.store.transition(chain.chain, w, 'paid', { externalTx: answer.externalTx })
        this.ctx.log.info(
          `withdrawal ${id}: paid out ${w.amount} to ${w.destination}${answer.externalTx === null ? '' : ` (${answer.externalTx})`}`,
        )
        return this.settle(chain, w, answer.externalTx, true, signal)
      case 'failed':
        this.store.transition(chain.chain, w, 'payout_failed', { reason: answer.reason })
        this.ctx.log.warn(`withdrawal ${id}: the treasury will not pay (${answer.reason}); refunding`)
        return this.refund(chain, w, answer.reason, signal)
      case 'pending':
        this.ctx.log.debug(`withdrawal ${id}: the treasury is still paying; asking again next cycle`)
        return undefined
      default:
        return this.problem(
          `withdrawal ${id}: no answer from the treasury (${answer.status === 'no_answer' ? answer.message : answer.status}); asking it what became of the payout next cycle`,
        )
    }
  }

  /** Sends SettleWithdrawal; `tracked`: the withdrawal has a row, which remembers a settlement sent without a reply. */
  private async settle(chain: ChainIdentity, w: OnChain, externalTx: string | null, tracked: boolean, signal: AbortSignal): Promise<Step> {
    const outcome = await this.sendTracked(
      chain,
      w.withdrawal_id,
      tracked,
      settleWithdrawal({ withdrawal_id: w.withdrawal_id, external_tx: externalTx ?? undefined }),
    )
    if (outcome.kind === 'accepted') {
      this.settled++
      this.store.transition(chain.chain, w, 'settled', { externalTx, txHash: outcome.reply.tx_hash, height: outcome.reply.height })
      this.ctx.log.info(`withdrawal ${w.withdrawal_id}: settled ${w.amount} to ${w.destination} at height ${outcome.reply.height}`)
      return undefined
    }
    if (outcome.kind === 'kept-reject' && outcome.reason === 'SettlementPaused') {
      this.paused = true
      return 'paused'
    }
    if (outcome.kind === 'kept-reject' && outcome.reason === 'WithdrawalNotFound' && tracked) {
      const row = this.store.withdrawal(chain.chain, w.withdrawal_id)
      if (row !== undefined) return this.resolveGone(chain, row, signal)
    }
    return this.failed(w.withdrawal_id, 'settlement', outcome)
  }

  /** Sends RefundWithdrawal after the treasury said it will not pay. */
  private async refund(chain: ChainIdentity, w: OnChain, reason: string, signal: AbortSignal): Promise<Step> {
    const outcome = await this.sendTracked(
      chain,
      w.withdrawal_id,
      true,
      refundWithdrawal({ withdrawal_id: w.withdrawal_id, reason: reason.slice(0, 128) }),
    )
    if (outcome.kind === 'accepted') {
      this.refunded++
      this.store.transition(chain.chain, w, 'refunded', { txHash: outcome.reply.tx_hash, height: outcome.reply.height })
      this.ctx.log.info(`withdrawal ${w.withdrawal_id}: refunded ${w.amount} to ${w.account} at height ${outcome.reply.height}`)
      return undefined
    }
    if (outcome.kind === 'kept-reject' && outcome.reason === 'WithdrawalNotFound') {
      const row = this.store.withdrawal(chain.chain, w.withdrawal_id)
      if (row !== undefined) return this.resolveGone(chain, row, signal)
    }
    return this.failed(w.withdrawal_id, 'refund', outcome)
  }

  /** Sends an action; when no reply comes (the node went away mid-send), remembers its tx hash on the row first. */
  private async sendTracked(chain: ChainIdentity, id: number, tracked: boolean, action: Record<string, unknown>): Promise<SendOutcome> {
    let txHash: string | undefined
    try {
      return await sendAction(this.ctx.client, action, { onSigned: (h) => (txHash = h) })
    } catch (err) {
      if (tracked && txHash !== undefined) this.store.noteSentTx(chain.chain, id, txHash)
      throw err
    }
  }

  /**
   * A withdrawal this runner is in the middle of is no longer pending on chain. If one of its own
   * settlements or refunds sent without a reply made it, that is recorded; otherwise someone else
   * settled or refunded it: after a payout (or with one maybe under way) that is an alert in the
   * status and the audit log, before any payout the row is dropped.
   */
  private async resolveGone(chain: ChainIdentity, row: WithdrawalRow, signal: AbortSignal): Promise<Step> {
    const id = row.withdrawal_id
    for (const hash of JSON.parse(row.sent_tx_hashes) as string[]) {
      const tx = (
        await this.ctx.client.rpc.query<{ status: string; action_kind: string; height: number } | null>('getTx', { tx_hash: hash })
      ).data
      if (tx === null || tx.status !== 'accepted') continue
      if (tx.action_kind === 'SettleWithdrawal') {
        this.settled++
        this.store.transition(chain.chain, row, 'settled', { txHash: hash, height: tx.height })
        this.ctx.log.info(`withdrawal ${id}: the settlement sent without a reply made it at height ${tx.height}`)
        return undefined
      }
      if (tx.action_kind === 'RefundWithdrawal') {
        this.refunded++
        this.store.transition(chain.chain, row, 'refunded', { txHash: hash, height: tx.height })
        this.ctx.log.info(`withdrawal ${id}: the refund sent without a reply made it at height ${tx.height}`)
        return undefined
      }
    }
    let paid: string
    if (row.status === 'payout_requested') {
      if (this.payout === undefined || row.idempotency_key === null)
        return this.problem(
          `withdrawal ${id}: left the chain while its payout was asked for; restart with --withdraw-payout-url to ask the treasury what became of it`,
        )
      const answer = await this.payout.status(row.idempotency_key, signal)
      if (answer.status === 'no_answer')
        return this.problem(
          `withdrawal ${id}: left the chain while its payout was asked for, and the treasury does not answer (${answer.message}); asking again next cycle`,
        )
      if (answer.status === 'unknown' || answer.status === 'failed') {
        this.store.transition(chain.chain, row, 'dropped', { reason: 'left the chain before any payout' })
        this.ctx.log.warn(`withdrawal ${id}: left the chain before any payout (treasury: ${answer.status}); nothing was paid`)
        return undefined
      }
      paid =
        answer.status === 'paid'
          ? `paid out${answer.externalTx === null ? '' : ` (${answer.externalTx})`}`
          : 'its payout still under way at the treasury'
    } else {
      paid = row.status === 'paid' ? `paid out${row.external_tx === null ? '' : ` (${row.external_tx})`}` : 'not paid out, its refund due'
    }
    const reason = `${paid}, but it left the chain without this runner's settlement or refund (settled or refunded by another BridgeWithdraw key?): check the account and the treasury`
    this.store.transition(chain.chain, row, 'alert', { reason })
    return this.problem(`ALERT withdrawal ${id} of ${row.account} (${row.amount}): ${reason}`, 'error')
  }

  private failed(id: number, what: string, outcome: SendOutcome): string {
    if (outcome.kind === 'accepted') return this.problem(`withdrawal ${id}: ${what} accepted unexpectedly`)
    return this.problem(`withdrawal ${id}: ${what} ${outcome.kind} ${outcome.reason} (${outcome.message}); retrying next cycle`)
  }

  private problem(line: string, level: 'warn' | 'error' = 'warn'): string {
    this.ctx.log[level](line)
    return line
  }
}
