// Composition of the admin service's HTTP interface: one Elysia instance per concern, and the one
// place where failures become statuses and JSON bodies `{error, reason}`.
import { type AnyElysia, Elysia } from 'elysia'
import type { Logger } from '../../lib/log.ts'
import { HttpError, unavailableAsHttp } from './errors.ts'
import { json, type PeerSource } from './helpers.ts'

/** Largest request body accepted, bytes (a key upload is well under 2 KiB). */
export const ADMIN_REQUEST_BODY_MAX_BYTES = 64 * 1024

interface ValidationLike {
  customError?: unknown
  all?: { path?: string; summary?: string; message?: string }[]
}

/** A one-line description of a body or query validation failure. */
function validationMessage(error: unknown): string {
  const v = error as ValidationLike
  const first = v.all?.[0]
  const field = first?.path ? first.path.replace(/^\//, '').replace(/\//g, '.') : 'body'
  if (typeof v.customError === 'string') return `${field}: ${v.customError}`
  return `${field}: ${first?.summary ?? first?.message ?? 'invalid'}`
}

/** Hooks of the app beyond its routes. */
export interface AdminAppHooks {
  /** A 403 of a session's route (the Admin role is gone): audited by the service. */
  readonly onDenied?: (err: HttpError, request: Request, server: PeerSource) => void
  /**
   * Pages Bun serves itself, by path: HTML imports (the web console), which Bun bundles and serves
   * with their files. They sit beside the routes, outside their hooks and the OpenAPI document.
   */
  readonly pages?: Readonly<Record<string, Bun.HTMLBundle>>
}

/** The app of all given route modules, with the shared error mapping. */
export function createAdminApp(log: Logger, routes: readonly AnyElysia[], hooks: AdminAppHooks = {}) {
  const app = new Elysia({ serve: { maxRequestBodySize: ADMIN_REQUEST_BODY_MAX_BYTES, routes: { ...hooks.pages } } })
    // Every reply, the ones routes build from plain objects included (json() covers the rest).
    .onRequest(({ set }) => {
      set.headers['cache-control'] = 'no-store'
    })
    .onError(({ code, error, request, server }) => {
      if (error instanceof HttpError) {
        if (error.status === 403 && error.actor !== undefined && hooks.onDenied !== undefined) {
          try {
            hooks.onDenied(error, request, server as PeerSource)
          } catch (err) {
            log.warn(`could not audit a refusal of ${error.actor}: ${(err as Error).message}`)
          }
        }
        const retryAfter = error.detail.retry_after_secs
        const headers: Record<string, string> =
          error.status === 429 || retryAfter !== undefined ? { 'retry-after': String(retryAfter ?? 60) } : {}
        return json(error.body(), error.status, headers)
      }
      const unavailable = unavailableAsHttp(error)
      if (unavailable !== undefined) {
        log.warn(unavailable.message)
        return json(unavailable.body(), 503)
      }
      switch (code) {
        case 'PARSE':
          return json({ error: 'the request body is not valid JSON', reason: 'INVALID_JSON' }, 400)
        case 'VALIDATION':
          return json({ error: `invalid request: ${validationMessage(error)}`, reason: 'INVALID_REQUEST' }, 400)
        case 'NOT_FOUND':
          return json({ error: 'no such route', reason: 'NOT_FOUND' }, 404)
        default:
          log.error(`unexpected error: ${(error as Error)?.stack ?? String(error)}`)
          return json({ error: 'internal error', reason: 'INTERNAL' }, 500)
      }
    })
  for (const r of routes) app.use(r)
  return app
}
