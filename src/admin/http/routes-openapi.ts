// GET /api/openapi.json: the admin service's OpenAPI 3.1 document (docs/admin.md), generated from the
// routes the app serves: their body, query and params schemas are the TypeBox schemas the routes
// validate with (Elysia `t.*`); reply schemas come from the table below, error replies are
// {error, reason} (src/admin/http/app.ts).
import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import { buildOpenApi, type HttpMethod, type OpenApiDocument, type ResponseDoc, type RouteDoc } from '../../lib/openapi.ts'

export const ADMIN_OPENAPI_PATH = '/api/openapi.json'

export const AdminErrorBody = Type.Object(
  { error: Type.String({ description: 'what went wrong' }), reason: Type.String({ description: 'a stable code' }) },
  { additionalProperties: true, description: 'an error (docs/admin.md)' },
)

const Obj = (description: string) => Type.Object({}, { additionalProperties: true, description })

/** Reply schemas and summaries by `METHOD path`; a route missing here is documented with a generic object reply. */
export const ADMIN_RESPONSES: Readonly<Record<string, { summary: string; ok: TSchema; status?: string; bearer?: boolean }>> = {
  'GET /api/health': {
    summary: 'Liveness (docs/admin.md#health)',
    ok: Type.Object({ ok: Type.Literal(true), version: Type.String() }, { additionalProperties: false }),
  },
  'GET /metrics': { summary: 'Prometheus metrics', ok: Type.String() },
  'GET /api/auth/challenge': {
    summary: 'A login challenge to sign',
    ok: Type.Object({}, { additionalProperties: true, description: 'the challenge (docs/admin.md)' }),
  },
  'POST /api/auth/login': { summary: 'Log in with a signed challenge', ok: Obj('the session') },
  'GET /api/auth/me': { summary: 'The session', ok: Obj('the session'), bearer: true },
  'POST /api/auth/logout': { summary: 'End the session', ok: Obj('done'), bearer: true },
  'POST /api/auth/logout-all': { summary: 'End every session of the address', ok: Obj('done'), bearer: true },
  'GET /api/keys/encryption-key': {
    summary: "The service's public key to encrypt key uploads with",
    ok: Type.Object({ public_key: Type.String(), algorithm: Type.Literal('ecies-secp256k1') }, { additionalProperties: false }),
  },
  'GET /api/keys': { summary: 'The stored keys', ok: Obj('the keys'), bearer: true },
  'POST /api/keys': { summary: 'Upload an encrypted key', ok: Obj('the stored key'), bearer: true },
  'PATCH /api/keys/:id': { summary: 'Change a key', ok: Obj('the key'), bearer: true },
  'DELETE /api/keys/:id': { summary: 'Delete a key', ok: Obj('done'), bearer: true },
  'GET /api/service-config': { summary: 'The runners and their bindings', ok: Obj('the configuration'), bearer: true },
  'PUT /api/service-config': { summary: 'Bind a key to a runner and switch it', ok: Obj('the configuration'), bearer: true },
  'GET /api/audit': {
    summary: 'The audit log, newest first',
    ok: Type.Object(
      { entries: Type.Array(Obj('an audit row')), next_before_id: Type.Union([Type.Integer(), Type.Null()]) },
      { additionalProperties: false },
    ),
    bearer: true,
  },
  [`GET ${ADMIN_OPENAPI_PATH}`]: {
    summary: 'This OpenAPI 3.1 document',
    ok: Type.Object({ openapi: Type.Literal('3.1.0') }, { additionalProperties: true }),
  },
}

interface ServedRoute {
  readonly method: string
  readonly path: string
  readonly hooks?: { body?: unknown; query?: unknown; params?: unknown }
}

const asObject = (s: unknown): TObject | undefined =>
  typeof s === 'object' && s !== null && (s as { type?: unknown }).type === 'object' ? (s as TObject) : undefined

/** The route table of the served routes: their own request schemas, the replies above. */
export function adminRouteDocs(routes: readonly ServedRoute[]): RouteDoc[] {
  return routes.map((r) => {
    const key = `${r.method} ${r.path}`
    const known = ADMIN_RESPONSES[key]
    const ok: ResponseDoc =
      r.path === '/metrics'
        ? { description: 'the Prometheus text format', contentType: 'text/plain', schema: Type.String() }
        : { description: 'success', schema: known?.ok ?? Obj('the reply') }
    const errors: Record<string, ResponseDoc> = {
      '400': { description: 'invalid request', schema: AdminErrorBody },
      ...(known?.bearer ? { '401': { description: 'no valid session', schema: AdminErrorBody } } : {}),
      ...(known?.bearer ? { '403': { description: 'not an Admin', schema: AdminErrorBody } } : {}),
      '503': { description: 'unavailable', schema: AdminErrorBody },
    }
    const body = r.hooks?.body as TSchema | undefined
    return {
      method: r.method as HttpMethod,
      path: r.path,
      summary: known?.summary ?? key,
      params: asObject(r.hooks?.params) ?? paramsOf(r.path),
      query: asObject(r.hooks?.query),
      ...(body === undefined ? {} : { body }),
      ...(known?.bearer ? { security: [{ bearer: [] }] } : {}),
      responses: { [known?.status ?? '200']: ok, ...errors },
    }
  })
}

function paramsOf(path: string): TObject | undefined {
  const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!)
  return names.length === 0 ? undefined : Type.Object(Object.fromEntries(names.map((n) => [n, Type.String()])))
}

export function adminOpenApi(routes: readonly ServedRoute[], version: string): OpenApiDocument {
  return buildOpenApi(
    { title: 'perpd-admin', version, description: 'The HTTP API of the perpd admin service (docs/admin.md).' },
    adminRouteDocs(routes),
    {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'a session token from POST /api/auth/login' } },
    },
  )
}

/** GET /api/openapi.json over the app's routes, read when asked (the app is composed after this module). */
export function openApiRoutes(routes: () => readonly ServedRoute[], version: string) {
  let doc: OpenApiDocument | undefined
  return new Elysia().get(ADMIN_OPENAPI_PATH, () => {
    doc ??= adminOpenApi(routes(), version)
    return doc
  })
}
