// Hedge accounts (docs/admin.md#hedge-accounts): external venue wallets whose private keys are
// sealed under the KEK exactly like the operator keys (AES-256-GCM, the row id as associated data;
// a KEK rotation re-seals them, store/kek-rotation.ts). The key is never returned; only
// openPrivateKey() produces it, for the hedger and the reconciliation.
import type { Database } from 'bun:sqlite'
import { addressOfPrivateKey } from '../../wire/signing.ts'
import { type Kek, seal } from '../crypto/kek.ts'
import { appendAudit } from '../store/audit.ts'
import type { AdminDb } from '../store/db.ts'
import { openSealedKey, rowHoldingAddress, sealForNewRow } from '../store/key-store.ts'
import type { HedgeAccount } from './schemas.ts'

/** Accounts a listing returns at most. */
export const HEDGE_ACCOUNTS_MAX = 1_000

interface AccountRow {
  id: string
  name: string
  address: string
  enabled: number
  margin_account_value: string | null
  margin_withdrawable: string | null
  margin_updated_at_ms: number | null
  created_at_ms: number
  updated_at_ms: number
  updated_by: string
}

const COLUMNS =
  'id, name, address, enabled, margin_account_value, margin_withdrawable, margin_updated_at_ms, created_at_ms, updated_at_ms, updated_by'

/** Outcome of create: the account, or the id of the account that already has the address. */
export type AccountCreateOutcome = { ok: true; account: HedgeAccount } | { ok: false; existingId: string }

/** Outcome of update. */
export type AccountUpdateOutcome = 'ok' | 'missing' | { duplicateOf: string }

export class HedgeAccountStore {
  constructor(
    private readonly db: AdminDb,
    private readonly kek: Kek,
    private readonly clock: () => number = Date.now,
  ) {}

  list(): HedgeAccount[] {
    return this.db.read((d) =>
      (d.query(`SELECT ${COLUMNS} FROM hedge_accounts ORDER BY created_at_ms, id LIMIT ?`).all(HEDGE_ACCOUNTS_MAX) as AccountRow[]).map(
        accountOf,
      ),
    )
  }

  get(id: string): HedgeAccount | undefined {
    return this.db.read((d) => {
      const row = d.query(`SELECT ${COLUMNS} FROM hedge_accounts WHERE id = ?`).get(id) as AccountRow | null
      return row === null ? undefined : accountOf(row)
    })
  }

  /**
   * Seals and stores a venue key with its audit row and the default policies (`seed` runs inside
   * the same transaction: an account and its seeded policies exist together or not at all).
   */
  create(p: {
    name: string
    privateKey: Uint8Array
    actor: string
    seed?: (tx: Database, accountId: string, now: number) => void
  }): AccountCreateOutcome {
    const { id, address, sealed } = sealForNewRow(this.kek, p.privateKey)
    const now = this.clock()
    return this.db.write((tx) => {
      const existingId = rowHoldingAddress(tx, this.kek, 'hedge_accounts', address)
      if (existingId !== undefined) return { ok: false as const, existingId }
      tx.query(
        `INSERT INTO hedge_accounts (id, name, address, enabled, kek_id, nonce, sealed, created_at_ms, updated_at_ms, updated_by)
         VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)`,
      ).run(id, p.name, address, this.kek.id, sealed.nonce, sealed.sealed, now, now, p.actor)
      appendAudit(tx, { atMs: now, actor: p.actor, action: 'hedge.account.create', target: id, detail: { name: p.name, address } })
      p.seed?.(tx, id, now)
      const row = tx.query(`SELECT ${COLUMNS} FROM hedge_accounts WHERE id = ?`).get(id) as AccountRow
      return { ok: true as const, account: accountOf(row) }
    })
  }

  /** Changes the name, the key (a new address: the margin is cleared) or enabled, with its audit row. */
  update(id: string, p: { name?: string; privateKey?: Uint8Array; enabled?: boolean; actor: string }): AccountUpdateOutcome {
    const address = p.privateKey === undefined ? undefined : addressOfPrivateKey(p.privateKey)
    const sealed = p.privateKey === undefined ? undefined : seal(this.kek, id, p.privateKey)
    const now = this.clock()
    return this.db.write((tx) => {
      const row = tx.query(`SELECT ${COLUMNS} FROM hedge_accounts WHERE id = ?`).get(id) as AccountRow | null
      if (row === null) return 'missing' as const
      const detail: Record<string, unknown> = {}
      if (p.name !== undefined && p.name !== row.name) {
        tx.query('UPDATE hedge_accounts SET name = ? WHERE id = ?').run(p.name, id)
        detail.name = { from: row.name, to: p.name }
      }
      if (p.enabled !== undefined && p.enabled !== (row.enabled === 1)) {
        tx.query('UPDATE hedge_accounts SET enabled = ? WHERE id = ?').run(p.enabled ? 1 : 0, id)
        detail.enabled = p.enabled
      }
      if (address !== undefined && sealed !== undefined) {
        const other = rowHoldingAddress(tx, this.kek, 'hedge_accounts', address, id)
        if (other !== undefined) return { duplicateOf: other }
        tx.query(
          `UPDATE hedge_accounts SET address = ?, kek_id = ?, nonce = ?, sealed = ?,
             margin_account_value = NULL, margin_withdrawable = NULL, margin_updated_at_ms = NULL WHERE id = ?`,
        ).run(address, this.kek.id, sealed.nonce, sealed.sealed, id)
        detail.key = { from: row.address, to: address }
      }
      tx.query('UPDATE hedge_accounts SET updated_at_ms = ?, updated_by = ? WHERE id = ?').run(now, p.actor, id)
      appendAudit(tx, { atMs: now, actor: p.actor, action: 'hedge.account.update', target: id, detail })
      return 'ok' as const
    })
  }

  /** Deletes an account (its order records stay, naming its id) with its audit row; false when missing. */
  delete(id: string, actor: string): boolean {
    return this.db.write((tx) => {
      const row = tx.query('SELECT address, name FROM hedge_accounts WHERE id = ?').get(id) as { address: string; name: string } | null
      if (row === null) return false
      tx.query('DELETE FROM hedge_accounts WHERE id = ?').run(id)
      tx.query('UPDATE hedge_policies SET account_id = NULL WHERE account_id = ?').run(id)
      appendAudit(tx, {
        atMs: this.clock(),
        actor,
        action: 'hedge.account.delete',
        target: id,
        detail: { name: row.name, address: row.address },
      })
      return true
    })
  }

  /** Records the margin the hedger read from the venue. */
  setMargin(id: string, margin: { account_value: string; withdrawable: string }, atMs: number): void {
    this.db.write((tx) =>
      tx
        .query('UPDATE hedge_accounts SET margin_account_value = ?, margin_withdrawable = ?, margin_updated_at_ms = ? WHERE id = ?')
        .run(margin.account_value, margin.withdrawable, atMs, id),
    )
  }

  /**
   * The enabled accounts in rotation order: the one whose latest order record is oldest first (an
   * account never used before all others), ties by creation. The hedger takes the first and the
   * record it writes moves that account to the end, across restarts too.
   */
  rotation(): HedgeAccount[] {
    return this.db.read((d) =>
      (
        d
          .query(
            `SELECT ${COLUMNS.split(', ')
              .map((c) => `a.${c}`)
              .join(', ')}, (SELECT MAX(o.id) FROM hedge_orders o WHERE o.account_id = a.id) AS last_order
             FROM hedge_accounts a WHERE a.enabled = 1
             ORDER BY last_order IS NOT NULL, last_order, a.created_at_ms, a.id`,
          )
          .all() as AccountRow[]
      ).map(accountOf),
    )
  }

  /** The account's private key as 32 bytes the caller zeroes; undefined when it does not exist. */
  openPrivateKey(id: string): Uint8Array | undefined {
    return openSealedKey(this.db, this.kek, 'hedge_accounts', id)
  }
}

function accountOf(r: AccountRow): HedgeAccount {
  return {
    id: r.id,
    name: r.name,
    address: r.address,
    enabled: r.enabled === 1,
    created_at_ms: r.created_at_ms,
    updated_at_ms: r.updated_at_ms,
    updated_by: r.updated_by,
    margin:
      r.margin_account_value === null || r.margin_withdrawable === null || r.margin_updated_at_ms === null
        ? null
        : { account_value: r.margin_account_value, withdrawable: r.margin_withdrawable, updated_at_ms: r.margin_updated_at_ms },
  }
}
