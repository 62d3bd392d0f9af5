// The category and catalog routes in the admin's OpenAPI document (http/routes-openapi.ts): summary,
// reply schema and status of each, by `METHOD path`.
import type { TSchema } from '@sinclair/typebox'
import * as S from './schemas.ts'

/** Reply documentation of the routes of this folder, in the form of ADMIN_RESPONSES. */
export const CATALOG_RESPONSES: Readonly<Record<string, { summary: string; ok: TSchema; status?: string; bearer?: boolean }>> = {
  'GET /api/public/market-categories': { summary: 'The enabled market categories as a two-level tree', ok: S.PublicTreeReply },
  'GET /api/public/market-catalog': { summary: 'The symbol catalog of the enabled categories', ok: S.PublicCatalogReply },
  'GET /api/public/market-classifications': {
    summary: 'Legacy: market_id to category codes, derived from the catalog',
    ok: S.PublicClassificationsReply,
  },
  'GET /api/market-categories': { summary: 'Every category with its market count', ok: S.CategoryListReply, bearer: true },
  'POST /api/market-categories': { summary: 'Create a category', ok: S.CategoryReply, status: '201', bearer: true },
  'PUT /api/market-categories/:id': { summary: 'Change a category', ok: S.CategoryReply, bearer: true },
  'DELETE /api/market-categories/:id': { summary: 'Delete a category and its catalog entries', ok: S.CategoryDeleteReply, bearer: true },
  'POST /api/market-categories/:id/markets': { summary: 'Add or remove symbols of a category', ok: S.MarketsChangeReply, bearer: true },
  'GET /api/market-catalog': { summary: 'The symbol catalog with sources', ok: S.CatalogReply, bearer: true },
  'POST /api/market-categories/sync/preview': {
    summary: "What an import of the venue's categories would do; writes nothing",
    ok: S.SyncPreviewReply,
    bearer: true,
  },
  'POST /api/market-categories/sync/import': { summary: "Import the venue's categories by code", ok: S.SyncReportReply, bearer: true },
  'POST /api/market-categories/cleanup': { summary: 'Put the category tree back in its canonical shape', ok: S.CleanupReply, bearer: true },
  'GET /api/market-classifications': {
    summary: 'Legacy: every market with its categories and source',
    ok: S.ClassificationsReply,
    bearer: true,
  },
  'PUT /api/market-classifications': { summary: 'Legacy: set the categories of several markets', ok: S.ClassificationsReply, bearer: true },
  'DELETE /api/market-classifications': {
    summary: 'Legacy: remove the classifications of several markets',
    ok: S.ClassificationsDeleteReply,
    bearer: true,
  },
  'GET /api/market-classifications/:marketId': { summary: "Legacy: one market's categories", ok: S.ClassificationReply, bearer: true },
  'PUT /api/market-classifications/:marketId': { summary: "Legacy: set one market's categories", ok: S.ClassificationReply, bearer: true },
  'DELETE /api/market-classifications/:marketId': {
    summary: "Legacy: remove one market's classification",
    ok: S.ClassificationDeleteReply,
    bearer: true,
  },
}
