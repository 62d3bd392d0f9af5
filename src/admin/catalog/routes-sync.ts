// The Bearer routes of the external sync and the cleanup (docs/admin.md#sync-and-cleanup):
// POST /api/market-categories/sync/preview (reads only), …/sync/import {codes} and …/cleanup.
import { Elysia } from 'elysia'
import { errorMessage, type Logger } from '../../lib/log.ts'
import type { AuthGuard } from '../http/auth-guard.ts'
import { HttpError } from '../http/errors.ts'
import { appendAudit } from '../store/audit.ts'
import type { AdminDb } from '../store/db.ts'
import type { VenueCategory } from '../venues/venue.ts'
import { cleanupCategories } from './cleanup.ts'
import { SyncImportBody } from './schemas.ts'
import { sessionFirst, sessionThenJson } from './session-body.ts'
import { externalSet, importSync, previewSync } from './sync.ts'

/** How long a sync waits for the venue's categories. */
export const VENUE_CATEGORIES_TIMEOUT_MS = 15_000

/** Where a sync reads the external categories: the venue the service was started with (--venue). */
export interface CategorySource {
  readonly name: string
  categories(signal?: AbortSignal): Promise<readonly VenueCategory[]>
}

/** What the sync and cleanup routes need. */
export interface SyncRouteDeps {
  readonly guard: AuthGuard
  readonly db: AdminDb
  readonly venue: CategorySource
  readonly log: Logger
  readonly clock: () => number
}

/** Symbols listed in an audit row at most (the reply has them all). */
const AUDIT_SYMBOLS_MAX = 200

/** POST /api/market-categories/sync/preview, /sync/import, /cleanup. */
export function categorySyncRoutes(deps: SyncRouteDeps) {
  const { guard, db, venue, log, clock } = deps
  const external = async () => {
    let listed: readonly VenueCategory[]
    try {
      listed = await venue.categories(AbortSignal.timeout(VENUE_CATEGORIES_TIMEOUT_MS))
    } catch (err) {
      throw new HttpError(503, 'VENUE_UNAVAILABLE', `${venue.name} did not list its categories: ${errorMessage(err)}`)
    }
    return { venueName: venue.name, set: externalSet(listed) }
  }
  return new Elysia()
    .post(
      '/api/market-categories/sync/preview',
      async ({ headers }) => {
        await guard.admin(headers.authorization)
        const { venueName, set } = await external()
        return { venue: venueName, ...db.read((d) => previewSync(d, set)) }
      },
      { parse: 'arrayBuffer', transform: sessionFirst(guard) },
    )
    .post(
      '/api/market-categories/sync/import',
      async ({ headers, body }) => {
        const session = await guard.admin(headers.authorization)
        const { venueName, set } = await external()
        const now = clock()
        const report = db.write((tx) => {
          const r = importSync(
            tx,
            set,
            body.codes.map((c) => c.toLowerCase()),
            now,
            session.address,
          )
          appendAudit(tx, {
            atMs: now,
            actor: session.address,
            action: 'catalog.sync',
            target: null,
            detail: {
              venue: venueName,
              codes: body.codes,
              imported: r.imported.map((i) => ({
                code: i.code,
                action: i.action,
                markets_synced: i.markets_synced,
                markets_removed: i.markets_removed,
              })),
              kept: r.kept.length,
              skipped: r.skipped,
              not_offered: r.not_offered,
            },
          })
          return r
        })
        log.info(
          `sync from ${venueName} by ${session.address}: ${report.imported.length} categories, ${report.markets_synced} markets synced, ${report.markets_removed} removed, ${report.kept.length} kept`,
        )
        return { venue: venueName, ...report }
      },
      { parse: 'arrayBuffer', body: SyncImportBody, transform: sessionThenJson(guard) },
    )
    .post(
      '/api/market-categories/cleanup',
      async ({ headers }) => {
        const session = await guard.admin(headers.authorization)
        const now = clock()
        const report = db.write((tx) => {
          const r = cleanupCategories(tx, now, session.address)
          appendAudit(tx, {
            atMs: now,
            actor: session.address,
            action: 'catalog.cleanup',
            target: null,
            detail: { ...r, cleaned: r.cleaned.slice(0, AUDIT_SYMBOLS_MAX), cleaned_count: r.cleaned.length },
          })
          return r
        })
        log.info(
          `cleanup by ${session.address}: ${report.moved.length} moved, ${report.deleted.length} deleted (${report.cleaned.length} catalog entries), ${report.recreated.length} recreated`,
        )
        return report
      },
      { parse: 'arrayBuffer', transform: sessionFirst(guard) },
    )
}
