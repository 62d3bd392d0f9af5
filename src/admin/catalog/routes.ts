// Every route of market categories and the catalog (docs/admin.md#market-categories-and-catalog),
// mounted by the service as one module.
import { Elysia } from 'elysia'
import type { RpcClient } from '../../client/rpc-client.ts'
import type { Logger } from '../../lib/log.ts'
import type { AuthGuard } from '../http/auth-guard.ts'
import type { AdminDb } from '../store/db.ts'
import { CatalogStore } from './catalog-store.ts'
import { CategoryStore } from './category-store.ts'
import { ChainMarkets } from './chain-markets.ts'
import { ClassificationStore } from './classifications.ts'
import { categoryAdminRoutes } from './routes-admin.ts'
import { classificationRoutes } from './routes-classifications.ts'
import { categoryPublicRoutes } from './routes-public.ts'
import { type CategorySource, categorySyncRoutes } from './routes-sync.ts'

/** What the catalog routes need from the service. */
export interface CatalogDeps {
  readonly guard: AuthGuard
  readonly db: AdminDb
  readonly rpc: RpcClient
  /** The venue a sync reads categories from (--venue). */
  readonly venue: CategorySource
  readonly log: Logger
  readonly clock: () => number
}

/** The public views, category CRUD, the catalog, the sync and cleanup, the legacy classifications. */
export function catalogRoutes(deps: CatalogDeps) {
  const { guard, db, rpc, venue, log, clock } = deps
  const categories = new CategoryStore(db, clock)
  const catalog = new CatalogStore(db, clock)
  const classifications = new ClassificationStore(db, new ChainMarkets(rpc, clock), clock)
  return new Elysia()
    .use(categoryPublicRoutes({ catalog, classifications }))
    .use(categoryAdminRoutes({ guard, categories, catalog, log }))
    .use(categorySyncRoutes({ guard, db, venue, log, clock }))
    .use(classificationRoutes({ guard, classifications, log }))
}
