// The public, read-only views (no session; docs/admin.md#public-views): the enabled categories as a
// tree, the catalog of enabled categories (symbols listed on chain or not), and the legacy
// market_id → categories list derived from the catalog.
import { Elysia } from 'elysia'
import type { CatalogStore } from './catalog-store.ts'
import type { ClassificationStore } from './classifications.ts'
import { PublicCatalogQuery } from './schemas.ts'

/** GET /api/public/market-categories, /api/public/market-catalog, /api/public/market-classifications. */
export function categoryPublicRoutes(deps: { catalog: CatalogStore; classifications: ClassificationStore }) {
  const { catalog, classifications } = deps
  return new Elysia()
    .get('/api/public/market-categories', () => ({ categories: catalog.publicTree() }))
    .get('/api/public/market-catalog', ({ query }) => ({ markets: catalog.publicCatalog(query.symbol) }), { query: PublicCatalogQuery })
    .get('/api/public/market-classifications', async () => ({ classifications: await classifications.listPublic() }))
}
