// The append-only audit log: who did what, written inside the same transaction as the change it
// records (callers pass the transaction's handle), so a change without its audit row cannot exist.
import type { Database } from 'bun:sqlite'
import type { AdminDb } from './db.ts'

/** What an audit row records. */
export type AuditAction = 'login' | 'key.upload' | 'key.delete' | 'service.bind' | 'service.unbind'

/** One audit row as the API returns it. */
export interface AuditEntry {
  readonly id: number
  readonly at_ms: number
  readonly actor: string
  readonly action: AuditAction
  readonly target: string | null
  readonly detail: Record<string, unknown>
}

/** Rows one page of GET /api/audit returns at most. */
export const AUDIT_PAGE_MAX = 500

/** Appends a row; `tx` must be the handle of the write transaction that makes the change. */
export function appendAudit(tx: Database, row: { atMs: number; actor: string; action: AuditAction; target: string | null; detail?: Record<string, unknown> }): void {
  tx.query('INSERT INTO audit_log (at_ms, actor, action, target, detail) VALUES (?, ?, ?, ?, ?)')
    .run(row.atMs, row.actor, row.action, row.target, JSON.stringify(row.detail ?? {}))
}

/** Newest first; `beforeId` continues a page (keyset paging). */
export function listAudit(db: AdminDb, page: { limit: number; beforeId?: number | undefined }): AuditEntry[] {
  const limit = Math.min(Math.max(page.limit, 1), AUDIT_PAGE_MAX)
  const rows = db.read((d) =>
    d.query('SELECT id, at_ms, actor, action, target, detail FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT ?')
      .all(page.beforeId ?? Number.MAX_SAFE_INTEGER, limit)) as { id: number; at_ms: number; actor: string; action: AuditAction; target: string | null; detail: string }[]
  return rows.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }))
}
