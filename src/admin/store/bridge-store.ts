// The bridge runners' bookkeeping in the admin database: which deposits were handled, which
// withdrawals were paid out and settled, and which accounts may have pending withdrawals. Money
// that moves (a credit, a payout, a settlement) is also an audit row (docs/admin.md#audit-log),
// written in the same transaction as the record, with the runner's service as the actor.
import { type AuditAction, appendAudit } from './audit.ts'
import type { AdminDb } from './db.ts'

/** What became of a deposit: credited by us, already on chain (DuplicateDeposit), or refused for good. */
export type DepositStatus = 'credited' | 'duplicate' | 'rejected'
/**
 * Where the withdraw runner is with a withdrawal (docs/admin.md#withdrawal-states):
 * payout_requested (the treasury is being or was asked; ask it before asking again), paid (the
 * treasury paid; settle), payout_failed (the treasury will not pay; refund), and the final ones:
 * settled and refunded (by this runner), dropped (left the chain before any payout), alert (left
 * the chain after a payout, or when a refund was due, without this runner's settlement: needs a person).
 */
export const WITHDRAWAL_STATUSES = ['payout_requested', 'paid', 'payout_failed', 'settled', 'refunded', 'dropped', 'alert'] as const
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number]

/** What the runner records about a withdrawal besides its state. */
export interface WithdrawalFacts {
  readonly withdrawal_id: number
  readonly account: string
  readonly destination: string
  readonly amount: string
}

/** A row of bridge_withdrawals. */
export interface WithdrawalRow extends WithdrawalFacts {
  readonly chain: string
  readonly status: WithdrawalStatus
  readonly idempotency_key: string | null
  readonly external_tx: string | null
  /** JSON array of tx hashes of settlements and refunds sent without a reply. */
  readonly sent_tx_hashes: string
  readonly tx_hash: string | null
  readonly height: number | null
  readonly reason: string | null
  readonly updated_at_ms: number
}

const ROW_COLUMNS =
  'chain, withdrawal_id, account, destination, amount, status, idempotency_key, external_tx, sent_tx_hashes, tx_hash, height, reason, updated_at_ms'
const SENT_TX_HASHES_MAX = 16
const CHAIN_META = 'bridge_withdraw_chain'

const AUDIT_OF: Record<WithdrawalStatus, AuditAction> = {
  payout_requested: 'withdrawal.payout_requested',
  paid: 'withdrawal.payout',
  payout_failed: 'withdrawal.payout_failed',
  settled: 'withdrawal.settle',
  refunded: 'withdrawal.refund',
  dropped: 'withdrawal.dropped',
  alert: 'withdrawal.alert',
}

const SCAN_HEIGHT_META = 'bridge_withdraw_scan_height'

/** The bridge runners' tables in the admin database. */
export class BridgeStore {
  constructor(
    private readonly db: AdminDb,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The ids among `ids` that were already handled. */
  handledDeposits(ids: readonly string[]): Set<string> {
    if (ids.length === 0) return new Set()
    return this.db.read((d) => {
      const q = d.query('SELECT 1 FROM bridge_deposits WHERE deposit_id = ?')
      return new Set(ids.filter((id) => q.get(id) !== null))
    })
  }

  /** Records what became of a deposit; a credit (by `signer`) is audited too. */
  recordDeposit(p: {
    depositId: string
    account: string
    amount: string
    status: DepositStatus
    txHash: string | null
    height: number | null
    reason: string | null
    signer?: string
  }): void {
    const now = this.clock()
    this.db.write((d) => {
      const added = d
        .query(`INSERT INTO bridge_deposits (deposit_id, account, amount, status, tx_hash, height, reason, updated_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(deposit_id) DO NOTHING`)
        .run(p.depositId, p.account, p.amount, p.status, p.txHash, p.height, p.reason, now).changes
      if (added > 0 && p.status === 'credited') {
        appendAudit(d, {
          atMs: now,
          actor: 'bridge_deposit',
          action: 'deposit.credit',
          target: p.depositId,
          detail: { account: p.account, amount: p.amount, tx_hash: p.txHash, height: p.height, signer: p.signer ?? null },
        })
      }
    })
  }

  /** The runner's row of a withdrawal of a chain (rows are per chain: ids restart with a new chain). */
  withdrawal(chain: string, id: number): WithdrawalRow | undefined {
    return (
      this.db.read(
        (d) =>
          d
            .query(`SELECT ${ROW_COLUMNS} FROM bridge_withdrawals WHERE chain = ? AND withdrawal_id = ?`)
            .get(chain, id) as WithdrawalRow | null,
      ) ?? undefined
    )
  }

  /** Rows of a chain whose withdrawal the runner has not finished with (payout asked, paid, or to refund), oldest first. */
  openWithdrawals(chain: string, limit: number): WithdrawalRow[] {
    return this.db.read((d) =>
      d
        .query(`SELECT ${ROW_COLUMNS} FROM bridge_withdrawals WHERE chain = ? AND status IN ('payout_requested', 'paid', 'payout_failed')
      ORDER BY withdrawal_id LIMIT ?`)
        .all(chain, limit),
    ) as WithdrawalRow[]
  }

  /** The withdraw runner's rows of every chain, the most recently changed first, optionally of one status (the console's list). */
  listWithdrawals(p: { status?: WithdrawalStatus; limit: number }): WithdrawalRow[] {
    return this.db.read((d) =>
      p.status === undefined
        ? d.query(`SELECT ${ROW_COLUMNS} FROM bridge_withdrawals ORDER BY updated_at_ms DESC, withdrawal_id DESC LIMIT ?`).all(p.limit)
        : d
            .query(`SELECT ${ROW_COLUMNS} FROM bridge_withdrawals WHERE status = ? ORDER BY updated_at_ms DESC, withdrawal_id DESC LIMIT ?`)
            .all(p.status, p.limit),
    ) as WithdrawalRow[]
  }

  /** Rows of a chain in `alert`, newest first. */
  alerts(chain: string, limit: number): WithdrawalRow[] {
    return this.db.read((d) =>
      d
        .query(`SELECT ${ROW_COLUMNS} FROM bridge_withdrawals WHERE chain = ? AND status = 'alert' ORDER BY updated_at_ms DESC LIMIT ?`)
        .all(chain, limit),
    ) as WithdrawalRow[]
  }

  /**
   * Records that a payout is about to be asked for (status payout_requested), before the treasury
   * is called: after a crash the row says to ask the treasury what became of the key before paying
   * again. False when the withdrawal already has a row.
   */
  requestPayout(chain: string, w: WithdrawalFacts, idempotencyKey: string, signer: string): boolean {
    const now = this.clock()
    return this.db.write((d) => {
      const added = d
        .query(`INSERT INTO bridge_withdrawals (chain, withdrawal_id, account, destination, amount, status, idempotency_key, created_at_ms, updated_at_ms)
        VALUES (?, ?, ?, ?, ?, 'payout_requested', ?, ?, ?) ON CONFLICT(chain, withdrawal_id) DO NOTHING`)
        .run(chain, w.withdrawal_id, w.account, w.destination, w.amount, idempotencyKey, now, now).changes
      if (added > 0) {
        appendAudit(d, {
          atMs: now,
          actor: 'bridge_withdraw',
          action: 'withdrawal.payout_requested',
          target: String(w.withdrawal_id),
          detail: { chain, account: w.account, destination: w.destination, amount: w.amount, idempotency_key: idempotencyKey, signer },
        })
      }
      return added > 0
    })
  }

  /**
   * Moves a withdrawal's row to `status` (creating it for a direct settlement, which has no payout
   * row), with its audit row. `fields` are the columns that change; null leaves one as it is.
   */
  transition(
    chain: string,
    w: WithdrawalFacts,
    status: WithdrawalStatus,
    fields: { externalTx?: string | null; txHash?: string | null; height?: number | null; reason?: string | null } = {},
  ): void {
    const now = this.clock()
    this.db.write((d) => {
      const before = d.query('SELECT status FROM bridge_withdrawals WHERE chain = ? AND withdrawal_id = ?').get(chain, w.withdrawal_id) as {
        status: WithdrawalStatus
      } | null
      d.query(`INSERT INTO bridge_withdrawals (chain, withdrawal_id, account, destination, amount, status, external_tx, tx_hash, height, reason, created_at_ms, updated_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(chain, withdrawal_id) DO UPDATE SET status = excluded.status,
        external_tx = COALESCE(excluded.external_tx, bridge_withdrawals.external_tx), tx_hash = COALESCE(excluded.tx_hash, bridge_withdrawals.tx_hash),
        height = COALESCE(excluded.height, bridge_withdrawals.height), reason = COALESCE(excluded.reason, bridge_withdrawals.reason), updated_at_ms = excluded.updated_at_ms`).run(
        chain,
        w.withdrawal_id,
        w.account,
        w.destination,
        w.amount,
        status,
        fields.externalTx ?? null,
        fields.txHash ?? null,
        fields.height ?? null,
        fields.reason ?? null,
        now,
        now,
      )
      appendAudit(d, {
        atMs: now,
        actor: 'bridge_withdraw',
        action: AUDIT_OF[status],
        target: String(w.withdrawal_id),
        detail: {
          chain,
          from: before?.status ?? null,
          account: w.account,
          destination: w.destination,
          amount: w.amount,
          external_tx: fields.externalTx ?? null,
          tx_hash: fields.txHash ?? null,
          height: fields.height ?? null,
          reason: fields.reason ?? null,
        },
      })
    })
  }

  /**
   * Remembers a settlement or refund sent for a withdrawal whose reply did not come (its tx hash,
   * known before sending), so that when the withdrawal has left the chain the runner can tell its
   * own settlement from someone else's (getTx). Keeps the last SENT_TX_HASHES_MAX.
   */
  noteSentTx(chain: string, withdrawalId: number, txHash: string): void {
    this.db.write((d) => {
      const row = d
        .query('SELECT sent_tx_hashes FROM bridge_withdrawals WHERE chain = ? AND withdrawal_id = ?')
        .get(chain, withdrawalId) as { sent_tx_hashes: string } | null
      if (row === null) return
      const hashes = [...(JSON.parse(row.sent_tx_hashes) as string[]), txHash].slice(-SENT_TX_HASHES_MAX)
      d.query('UPDATE bridge_withdrawals SET sent_tx_hashes = ? WHERE chain = ? AND withdrawal_id = ?').run(
        JSON.stringify(hashes),
        chain,
        withdrawalId,
      )
    })
  }

  /**
   * Ties the withdraw runner's bookkeeping to a chain (the digest of its block 1). The first chain a
   * database meets adopts what it holds (rows written before rows named their chain); another chain
   * (a reset, or another network) restarts the scan from block 1 and forgets the remembered
   * accounts, and the old chain's rows stay as they are, under their own chain. Audited.
   */
  bindChain(chain: string, network: string): 'same' | 'adopted' | 'reset' {
    const now = this.clock()
    return this.db.write((d) => {
      const stored = (d.query('SELECT value FROM meta WHERE key = ?').get(CHAIN_META) as { value: string } | null)?.value
      if (stored === chain) return 'same'
      const setMeta = d.query('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value')
      setMeta.run(CHAIN_META, chain)
      if (stored === undefined) {
        d.query("UPDATE bridge_withdrawals SET chain = ? WHERE chain = ''").run(chain)
        return 'adopted'
      }
      setMeta.run(SCAN_HEIGHT_META, '0')
      d.query('DELETE FROM bridge_withdraw_accounts').run()
      appendAudit(d, {
        atMs: now,
        actor: 'bridge_withdraw',
        action: 'withdrawal.chain_reset',
        target: null,
        detail: { from: stored, to: chain, network },
      })
      return 'reset'
    })
  }

  /** The block height up to which WithdrawRequest envelopes were scanned. */
  scanHeight(): number {
    return Number(this.db.meta(SCAN_HEIGHT_META) ?? '0')
  }

  /** Records new withdrawing accounts and the scanned height together. */
  addWithdrawAccounts(addresses: readonly string[], scannedTo: number): void {
    this.db.write((d) => {
      const q = d.query(
        'INSERT INTO bridge_withdraw_accounts (address, seen_height) VALUES (?, ?) ON CONFLICT(address) DO UPDATE SET seen_height = excluded.seen_height',
      )
      for (const a of addresses) q.run(a, scannedTo)
      d.query('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
        SCAN_HEIGHT_META,
        String(scannedTo),
      )
    })
  }

  /** Accounts that may have pending withdrawals, at most `limit`, in the order they were last seen. */
  withdrawAccounts(limit: number): string[] {
    return (
      this.db.read((d) => d.query('SELECT address FROM bridge_withdraw_accounts ORDER BY seen_height LIMIT ?').all(limit)) as {
        address: string
      }[]
    ).map((r) => r.address)
  }

  /** Forgets an account whose withdrawals are all done (a new request puts it back). */
  dropWithdrawAccount(address: string, ifSeenBefore: number): void {
    this.db.write((d) => d.query('DELETE FROM bridge_withdraw_accounts WHERE address = ? AND seen_height <= ?').run(address, ifSeenBefore))
  }
}
