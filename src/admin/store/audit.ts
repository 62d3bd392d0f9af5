// The append-only audit log (docs/admin.md#audit-log): who did what, written inside the same
// transaction as the change it records (callers pass the transaction's handle), so a change
// without its audit row cannot exist. The rows form a hash chain (docs/admin.md#audit-chain): each
// carries the hash of the row before it (`prev_hash`) and its own `hash` over that and its
// canonical content, so altering, deleting or reordering a row breaks the chain from that row on,
// which `perpd-admin audit verify` reports.
import type { Database } from 'bun:sqlite'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '../../lib/hex.ts'

/** What an audit row records. */
export type AuditAction =
  | 'login'
  | 'login.failed'
  | 'logout'
  | 'logout.all'
  | 'access.denied'
  | 'key.upload'
  | 'key.rename'
  | 'key.delete'
  | 'kek.rotate'
  | 'service.bind'
  | 'service.unbind'
  | 'deposit.credit'
  | 'withdrawal.payout'
  | 'withdrawal.settle'
  | 'withdrawal.payout_requested'
  | 'withdrawal.payout_failed'
  | 'withdrawal.refund'
  | 'withdrawal.dropped'
  | 'withdrawal.alert'
  | 'withdrawal.chain_reset'
  | 'category.create'
  | 'category.update'
  | 'category.delete'
  | 'catalog.markets'
  | 'catalog.sync'
  | 'catalog.cleanup'
  | 'classification.set'
  | 'classification.delete'
  | 'hedge.account.create'
  | 'hedge.account.update'
  | 'hedge.account.delete'
  | 'hedge.policy.upsert'
  | 'hedge.policy.delete'
  | 'hedge.config.update'
  | 'hedge.reconcile'

/** One audit row as the API returns it. */
export interface AuditEntry {
  readonly id: number
  readonly at_ms: number
  readonly actor: string
  readonly action: AuditAction
  readonly target: string | null
  readonly detail: Record<string, unknown>
  readonly prev_hash: string | null
  readonly hash: string | null
}

/** Rows one page of GET /api/audit returns at most. */
export const AUDIT_PAGE_MAX = 500

/** The prev_hash of the first row. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64)

const UTF8 = new TextEncoder()

/** A row's content as stored: `detail` is the stored JSON text itself, so the hash never depends on re-serializing it. */
interface StoredRow {
  readonly id: number
  readonly at_ms: number
  readonly actor: string
  readonly action: string
  readonly target: string | null
  readonly detail: string
}

/**
 * The hash of a row: sha256 over the domain tag, the previous row's hash and the row's canonical
 * content (the JSON array [id, at_ms, actor, action, target, detail]), as 64 lowercase hex digits.
 */
export function auditRowHash(prevHash: string, row: StoredRow): string {
  const content = JSON.stringify([row.id, row.at_ms, row.actor, row.action, row.target, row.detail])
  return bytesToHex(sha256(UTF8.encode(`perpd-admin/audit/v1\n${prevHash}\n${content}`))).slice(2)
}

/** Appends a row; `tx` must be the handle of the write transaction that makes the change. */
export function appendAudit(
  tx: Database,
  row: { atMs: number; actor: string; action: AuditAction; target: string | null; detail?: Record<string, unknown> },
): void {
  const last = tx.query('SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1').get() as { id: number; hash: string | null } | null
  // The next AUTOINCREMENT id, chosen here because it is part of the hashed content. sqlite_sequence
  // remembers the highest id ever used, so rows cut off the end leave a gap verify reports.
  const seq = (tx.query("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'").get() as { seq: number } | null)?.seq ?? 0
  const stored: StoredRow = {
    id: Math.max(seq, last?.id ?? 0) + 1,
    at_ms: row.atMs,
    actor: row.actor,
    action: row.action,
    target: row.target,
    detail: JSON.stringify(row.detail ?? {}),
  }
  const prevHash = last?.hash ?? AUDIT_GENESIS_HASH
  tx.query('INSERT INTO audit_log (id, at_ms, actor, action, target, detail, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
    stored.id,
    stored.at_ms,
    stored.actor,
    stored.action,
    stored.target,
    stored.detail,
    prevHash,
    auditRowHash(prevHash, stored),
  )
}

/** What listAudit reads through: AdminDb (named structurally, as db.ts imports this module for its migration). */
export interface AuditReader {
  read<T>(fn: (db: Database) => T): T
}

/** Newest first; `beforeId` continues a page (keyset paging). */
export function listAudit(db: AuditReader, page: { limit: number; beforeId?: number | undefined }): AuditEntry[] {
  const limit = Math.min(Math.max(page.limit, 1), AUDIT_PAGE_MAX)
  const rows = db.read((d) =>
    d
      .query('SELECT id, at_ms, actor, action, target, detail, prev_hash, hash FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT ?')
      .all(page.beforeId ?? Number.MAX_SAFE_INTEGER, limit),
  ) as (StoredRow & { action: AuditAction; prev_hash: string | null; hash: string | null })[]
  return rows.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }))
}

/**
 * Fills prev_hash and hash of rows written before the chain existed (the migration that adds it),
 * in id order. The caller lifts the append-only trigger around it, in one transaction.
 */
export function chainExistingAuditRows(db: Database): void {
  const rows = db.query('SELECT id, at_ms, actor, action, target, detail FROM audit_log ORDER BY id').all() as StoredRow[]
  const update = db.query('UPDATE audit_log SET prev_hash = ?, hash = ? WHERE id = ?')
  let prev = AUDIT_GENESIS_HASH
  for (const r of rows) {
    const hash = auditRowHash(prev, r)
    update.run(prev, hash, r.id)
    prev = hash
  }
}

/** What {@link verifyAuditChain} found. */
export type AuditVerdict =
  | { readonly ok: true; readonly rows: number; readonly head: string }
  | { readonly ok: false; readonly rows: number; readonly brokenId: number; readonly problem: string }

/**
 * Recomputes the chain from the first row: every row's prev_hash must be the hash of the row
 * before it (the genesis hash for the first), its id the next one, and its hash must match its
 * content. Stops at the first row where that fails and names it.
 */
export function verifyAuditChain(db: Database): AuditVerdict {
  const rows = db
    .query('SELECT id, at_ms, actor, action, target, detail, prev_hash, hash FROM audit_log ORDER BY id')
    .iterate() as IterableIterator<StoredRow & { prev_hash: string | null; hash: string | null }>
  let prev = AUDIT_GENESIS_HASH
  let prevId: number | undefined
  let n = 0
  for (const r of rows) {
    const broken = (problem: string): AuditVerdict => ({ ok: false, rows: n, brokenId: r.id, problem })
    if (prevId !== undefined && r.id !== prevId + 1) return broken(`its id follows ${prevId}: rows ${prevId + 1}..${r.id - 1} are missing`)
    if (r.prev_hash !== prev) {
      return broken(
        prevId === undefined
          ? `it is the first row but its prev_hash is ${r.prev_hash ?? 'empty'}, not the genesis hash: rows before it are missing`
          : `its prev_hash ${r.prev_hash ?? '(empty)'} is not the hash of row ${prevId} (${prev}): a row before it was changed, removed or inserted`,
      )
    }
    const hash = auditRowHash(prev, r)
    if (r.hash !== hash)
      return broken(`its content does not match its hash (stored ${r.hash ?? '(empty)'}, computed ${hash}): the row was changed`)
    prev = hash
    prevId = r.id
    n++
  }
  return { ok: true, rows: n, head: prev }
}
