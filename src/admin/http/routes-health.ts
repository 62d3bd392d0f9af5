// GET /api/health: liveness only (docs/admin.md#health); it does not ask the chain or the runners.
import { Elysia } from 'elysia'

/** GET /api/health: `{ok: true, version}`. */
export function healthRoutes(version: string) {
  return new Elysia().get('/api/health', () => ({ ok: true, version }))
}
