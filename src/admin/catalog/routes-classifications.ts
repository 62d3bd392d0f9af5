// The legacy classification routes (Bearer; docs/admin.md#legacy-classifications): market_id →
// category codes, read from and written to the catalog through the chain symbol of each market.
import { Elysia } from 'elysia'
import type { Logger } from '../../lib/log.ts'
import type { AuthGuard } from '../http/auth-guard.ts'
import { HttpError } from '../http/errors.ts'
import type { ClassificationStore } from './classifications.ts'
import { ClassificationBody, ClassificationsBody, ClassificationsDeleteBody } from './schemas.ts'
import { sessionThenJson } from './session-body.ts'

const MARKET_ID = /^(0|[1-9][0-9]{0,9})$/

/** A market id of a path, or 404 (anything but an integer 0..2^32-1 names no market). */
function marketIdOf(param: string): number {
  const id = MARKET_ID.test(param) ? Number(param) : Number.NaN
  if (!(id <= 2 ** 32 - 1)) throw new HttpError(404, 'MARKET_NOT_FOUND', `no market with id ${param.slice(0, 32)}`)
  return id
}

/** GET, PUT, DELETE /api/market-classifications and /api/market-classifications/{marketId}. */
export function classificationRoutes(deps: { guard: AuthGuard; classifications: ClassificationStore; log: Logger }) {
  const { guard, classifications, log } = deps
  const transform = sessionThenJson(guard)
  return new Elysia()
    .get('/api/market-classifications', async ({ headers }) => {
      await guard.admin(headers.authorization)
      return { classifications: await classifications.listAdmin() }
    })
    .put(
      '/api/market-classifications',
      async ({ headers, body }) => {
        const session = await guard.admin(headers.authorization)
        const after = await classifications.set(body.classifications, session.address)
        log.info(`${after.length} market classifications set by ${session.address}`)
        return { classifications: after }
      },
      { parse: 'arrayBuffer', body: ClassificationsBody, transform },
    )
    .delete(
      '/api/market-classifications',
      async ({ headers, body }) => {
        const session = await guard.admin(headers.authorization)
        const out = await classifications.remove(body.market_ids, session.address)
        log.info(`${out.removed.length} market classifications removed by ${session.address}`)
        return out
      },
      { parse: 'arrayBuffer', body: ClassificationsDeleteBody, transform },
    )
    .get('/api/market-classifications/:marketId', async ({ headers, params }) => {
      await guard.admin(headers.authorization)
      return classifications.one(marketIdOf(params.marketId))
    })
    .put(
      '/api/market-classifications/:marketId',
      async ({ headers, params, body }) => {
        const session = await guard.admin(headers.authorization)
        const [after] = await classifications.set(
          [{ market_id: marketIdOf(params.marketId), categories: body.categories }],
          session.address,
        )
        log.info(`market ${after!.market_id} classified ${JSON.stringify(after!.categories)} by ${session.address}`)
        return after
      },
      { parse: 'arrayBuffer', body: ClassificationBody, transform },
    )
    .delete('/api/market-classifications/:marketId', async ({ headers, params }) => {
      const session = await guard.admin(headers.authorization)
      const id = marketIdOf(params.marketId)
      const out = await classifications.remove([id], session.address)
      if (out.removed.length === 0) throw new HttpError(404, 'CLASSIFICATION_NOT_FOUND', `market ${id} has no catalog entry`)
      log.info(`market ${id} classification removed by ${session.address}`)
      return { ok: true }
    })
}
