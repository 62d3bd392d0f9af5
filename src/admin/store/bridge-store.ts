// The bridge runners' bookkeeping in the admin database: which deposits were handled, which
// withdrawals were paid out and settled, and which accounts may have pending withdrawals. Money
// that moves (a credit, a payout, a settlement) is also an audit row (docs/admin.md#audit-log),
// written in the same transaction as the record, with the runner's service as the actor.
import { appendAudit } from './audit.ts'
import type { AdminDb } from './db.ts'

/** What became of a deposit: credited by us, already on chain (DuplicateDeposit), or refused for good. */
export type DepositStatus = 'credited' | 'duplicate' | 'rejected'
/** A withdrawal paid out (not yet settled on chain) or settled. */
export type WithdrawalStatus = 'paid' | 'settled'

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
  recordDeposit(p: { depositId: string; account: string; amount: string; status: DepositStatus; txHash: string | null; height: number | null; reason: string | null; signer?: string }): void {
    const now = this.clock()
    this.db.write((d) => {
      const added = d.query(`INSERT INTO bridge_deposits (deposit_id, account, amount, status, tx_hash, height, reason, updated_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(deposit_id) DO NOTHING`)
        .run(p.depositId, p.account, p.amount, p.status, p.txHash, p.height, p.reason, now).changes
      if (added > 0 && p.status === 'credited') {
        appendAudit(d, { atMs: now, actor: 'bridge_deposit', action: 'deposit.credit', target: p.depositId,
          detail: { account: p.account, amount: p.amount, tx_hash: p.txHash, height: p.height, signer: p.signer ?? null } })
      }
    })
  }

  withdrawal(id: number): { status: WithdrawalStatus; external_tx: string | null } | undefined {
    return this.db.read((d) => d.query('SELECT status, external_tx FROM bridge_withdrawals WHERE withdrawal_id = ?').get(id) as { status: WithdrawalStatus; external_tx: string | null } | null) ?? undefined
  }

  /** Records a withdrawal paid out or settled, with its audit row (withdrawal.payout, withdrawal.settle). */
  recordWithdrawal(p: { id: number; account: string; destination: string; amount: string; status: WithdrawalStatus; externalTx: string | null; txHash: string | null; height: number | null }): void {
    const now = this.clock()
    this.db.write((d) => {
      d.query(`INSERT INTO bridge_withdrawals (withdrawal_id, account, destination, amount, status, external_tx, tx_hash, height, updated_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(withdrawal_id) DO UPDATE SET status = excluded.status,
        external_tx = COALESCE(excluded.external_tx, bridge_withdrawals.external_tx), tx_hash = excluded.tx_hash, height = excluded.height,
        updated_at_ms = excluded.updated_at_ms`)
        .run(p.id, p.account, p.destination, p.amount, p.status, p.externalTx, p.txHash, p.height, now)
      appendAudit(d, {
        atMs: now, actor: 'bridge_withdraw', action: p.status === 'paid' ? 'withdrawal.payout' : 'withdrawal.settle', target: String(p.id),
        detail: { account: p.account, destination: p.destination, amount: p.amount, external_tx: p.externalTx, tx_hash: p.txHash, height: p.height },
      })
    })
  }

  /** The block height up to which WithdrawRequest envelopes were scanned. */
  scanHeight(): number {
    return Number(this.db.meta(SCAN_HEIGHT_META) ?? '0')
  }

  /** Records new withdrawing accounts and the scanned height together. */
  addWithdrawAccounts(addresses: readonly string[], scannedTo: number): void {
    this.db.write((d) => {
      const q = d.query('INSERT INTO bridge_withdraw_accounts (address, seen_height) VALUES (?, ?) ON CONFLICT(address) DO UPDATE SET seen_height = excluded.seen_height')
      for (const a of addresses) q.run(a, scannedTo)
      d.query('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(SCAN_HEIGHT_META, String(scannedTo))
    })
  }

  /** Accounts that may have pending withdrawals, at most `limit`, in the order they were last seen. */
  withdrawAccounts(limit: number): string[] {
    return (this.db.read((d) => d.query('SELECT address FROM bridge_withdraw_accounts ORDER BY seen_height LIMIT ?').all(limit)) as { address: string }[]).map((r) => r.address)
  }

  /** Forgets an account whose withdrawals are all done (a new request puts it back). */
  dropWithdrawAccount(address: string, ifSeenBefore: number): void {
    this.db.write((d) => d.query('DELETE FROM bridge_withdraw_accounts WHERE address = ? AND seen_height <= ?').run(address, ifSeenBefore))
  }
}
