// GET /api/audit: the audit log, newest first, in keyset pages (?limit=50&before_id=N).
import { Type } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import { AUDIT_PAGE_MAX, listAudit } from '../store/audit.ts'
import type { AdminDb } from '../store/db.ts'
import type { AuthGuard } from './auth-guard.ts'

// Query strings arrive as text; digits only, converted below.
const Digits = (description: string) => Type.String({ pattern: '^[1-9][0-9]{0,15}$', description })

/** GET /api/audit query parameters. */
export const AuditQuery = Type.Object({
  limit: Type.Optional(Digits(`rows per page, 1..${AUDIT_PAGE_MAX}, default 50`)),
  before_id: Type.Optional(Digits("continue below this id (the last page's next_before_id)")),
})

/** GET /api/audit (Bearer). */
export function auditRoutes(deps: { guard: AuthGuard; db: AdminDb }) {
  return new Elysia().get(
    '/api/audit',
    async ({ headers, query }) => {
      await deps.guard.admin(headers.authorization)
      const limit = Math.min(Number(query.limit ?? 50), AUDIT_PAGE_MAX)
      const entries = listAudit(deps.db, { limit, beforeId: query.before_id === undefined ? undefined : Number(query.before_id) })
      return { entries, next_before_id: entries.length === limit ? entries[entries.length - 1]!.id : null }
    },
    { query: AuditQuery },
  )
}
