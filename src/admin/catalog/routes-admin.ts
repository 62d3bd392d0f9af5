// The Bearer routes of categories and the catalog (docs/admin.md#category-routes): category CRUD,
// the admin catalog view, adding and removing symbols of a category.
import { Elysia } from 'elysia'
import type { Logger } from '../../lib/log.ts'
import type { AuthGuard } from '../http/auth-guard.ts'
import type { CatalogStore } from './catalog-store.ts'
import type { CategoryStore } from './category-store.ts'
import type { Source } from './model.ts'
import { categoryNotFound } from './refusal.ts'
import { CatalogQuery, CategoryCreateBody, CategoryUpdateBody, MarketsChangeBody } from './schemas.ts'
import { sessionFirst, sessionThenJson } from './session-body.ts'

/** What the category and catalog routes need. */
export interface CategoryRouteDeps {
  readonly guard: AuthGuard
  readonly categories: CategoryStore
  readonly catalog: CatalogStore
  readonly log: Logger
}

const ID = /^[1-9][0-9]{0,15}$/

/** A category id of a path, or 404 (anything but a positive integer names no category). */
function categoryIdOf(param: string): number {
  const id = ID.test(param) ? Number(param) : Number.NaN
  if (!Number.isSafeInteger(id)) throw categoryNotFound(param)
  return id
}

/** GET, POST /api/market-categories; PUT, DELETE /api/market-categories/{id}; POST …/{id}/markets; GET /api/market-catalog. */
export function categoryAdminRoutes(deps: CategoryRouteDeps) {
  const { guard, categories, catalog, log } = deps
  const transform = sessionThenJson(guard)
  return new Elysia()
    .get('/api/market-categories', async ({ headers }) => {
      await guard.admin(headers.authorization)
      return { categories: categories.list() }
    })
    .post(
      '/api/market-categories',
      async ({ headers, body, set }) => {
        const session = await guard.admin(headers.authorization)
        const created = categories.create(body, session.address)
        log.info(`category ${created.id} ${created.code} created by ${session.address}`)
        set.status = 201
        return created
      },
      { parse: 'arrayBuffer', body: CategoryCreateBody, transform },
    )
    .put(
      '/api/market-categories/:id',
      async ({ headers, params, body }) => {
        const session = await guard.admin(headers.authorization)
        const updated = categories.update(categoryIdOf(params.id), body, session.address)
        log.info(`category ${updated.id} ${updated.code} changed by ${session.address}`)
        return updated
      },
      { parse: 'arrayBuffer', body: CategoryUpdateBody, transform },
    )
    .delete('/api/market-categories/:id', async ({ headers, params }) => {
      const session = await guard.admin(headers.authorization)
      const id = categoryIdOf(params.id)
      const { markets_deleted } = categories.delete(id, session.address)
      log.info(`category ${id} deleted with ${markets_deleted} catalog entries by ${session.address}`)
      return { ok: true, markets_deleted }
    })
    .post(
      '/api/market-categories/:id/markets',
      async ({ headers, params, body }) => {
        const session = await guard.admin(headers.authorization)
        const change = catalog.changeMarkets(categoryIdOf(params.id), { add: body.add ?? [], remove: body.remove ?? [] }, session.address)
        log.info(
          `category ${change.category}: ${change.added.length} added, ${change.moved.length} moved in, ${change.removed.length} removed by ${session.address}`,
        )
        return change
      },
      { parse: 'arrayBuffer', body: MarketsChangeBody, transform },
    )
    .get(
      '/api/market-catalog',
      async ({ headers, query }) => {
        await guard.admin(headers.authorization)
        return {
          markets: catalog.list({
            ...(query.source === undefined ? {} : { source: query.source as Source }),
            ...(query.category === undefined ? {} : { category: query.category }),
            ...(query.symbol === undefined ? {} : { symbol: query.symbol }),
          }),
        }
      },
      { query: CatalogQuery, transform: sessionFirst(guard) },
    )
}
