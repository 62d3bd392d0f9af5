// The node's OpenAPI 3.1 document (GET /api/v1/openapi.json) and its page (GET /api/v1/docs), built
// from the route declarations the routes are served and checked with: each module's route table
// (routes/rest-route.ts) carries the TypeBox schemas of its path and query parameters, bodies and
// replies; nothing is declared here but the two routes of the document itself.
// test/e2e/openapi.test.ts checks that every served route is in NODE_ROUTES and that real replies
// match their documented schemas.
import { Type } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import { buildOpenApi, type OpenApiDocument, openApiHtml, type RouteDoc } from '../lib/openapi.ts'
import { METRICS_ROUTE } from './metrics.ts'
import { ACTION_ROUTES } from './routes/action-routes.ts'
import { ALIAS_ROUTES } from './routes/alias-routes.ts'
import { CANDLE_ROUTES } from './routes/candle-routes.ts'
import { FEED_ROUTES } from './routes/feed-routes.ts'
import { HEALTH_ROUTES } from './routes/health-routes.ts'
import { HISTORY_ROUTES } from './routes/history-routes.ts'
import { QUERY_ROUTES } from './routes/query-routes.ts'
import { REPLICATION_ROUTES } from './routes/replication-routes.ts'
import { jsonReply } from './routes/rest-route.ts'
import { WS_ROUTE } from './ws/routes.ts'

export const OPENAPI_PATH = '/api/v1/openapi.json'
export const DOCS_PATH = '/api/v1/docs'

const DOCUMENT_ROUTES: readonly RouteDoc[] = [
  {
    method: 'GET',
    path: OPENAPI_PATH,
    summary: 'This OpenAPI 3.1 document',
    tags: ['docs'],
    responses: { '200': jsonReply('the document', Type.Object({ openapi: Type.Literal('3.1.0') }, { additionalProperties: true })) },
  },
  {
    method: 'GET',
    path: DOCS_PATH,
    summary: 'A page that renders this document',
    tags: ['docs'],
    responses: { '200': { description: 'HTML', contentType: 'text/html', schema: Type.String() } },
  },
]

/** Every route the node serves, in the document's order. */
export const NODE_ROUTES: readonly RouteDoc[] = [
  ...Object.values(HEALTH_ROUTES),
  METRICS_ROUTE,
  ...Object.values(QUERY_ROUTES),
  ...Object.values(ACTION_ROUTES),
  ...Object.values(ALIAS_ROUTES),
  ...Object.values(FEED_ROUTES),
  ...Object.values(HISTORY_ROUTES),
  ...Object.values(CANDLE_ROUTES),
  ...Object.values(REPLICATION_ROUTES),
  WS_ROUTE,
  ...DOCUMENT_ROUTES,
]

let cached: OpenApiDocument | undefined
export function nodeOpenApi(version = '0.1.0'): OpenApiDocument {
  cached ??= buildOpenApi(
    { title: 'perpd node', version, description: 'The REST and JSON-RPC HTTP API of a perpd node. WebSocket frames: docs/websocket.md.' },
    NODE_ROUTES,
  )
  return cached
}

/** GET /api/v1/openapi.json and GET /api/v1/docs. */
export function openApiRoutes() {
  return new Elysia()
    .get(OPENAPI_PATH, () => Response.json(nodeOpenApi()))
    .get(
      DOCS_PATH,
      () => new Response(openApiHtml(nodeOpenApi(), OPENAPI_PATH), { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    )
}
