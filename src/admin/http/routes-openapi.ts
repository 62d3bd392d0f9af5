// GET /api/openapi.json: the admin service's OpenAPI 3.1 document (docs/admin.md), generated from the
// routes the app serves: their body, query and params schemas are the TypeBox schemas the routes
// validate with (Elysia `t.*`); reply schemas come from the table below, error replies are
// {error, reason} (src/admin/http/app.ts).
import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import { buildOpenApi, type HttpMethod, type OpenApiDocument, type ResponseDoc, type RouteDoc } from '../../lib/openapi.ts'
import { CATALOG_RESPONSES } from '../catalog/openapi-docs.ts'
import { HEDGE_RESPONSES } from '../hedge/schemas.ts'
import { SERVICE_NAMES } from '../store/bindings.ts'
import { UUID_PATTERN } from './helpers.ts'
import { WITHDRAWAL_RESPONSES } from './routes-withdrawals.ts'

export const ADMIN_OPENAPI_PATH = '/api/openapi.json'

export const AdminErrorBody = Type.Object(
  { error: Type.String({ description: 'what went wrong' }), reason: Type.String({ description: 'a stable code' }) },
  { additionalProperties: true, description: 'an error (docs/admin.md)' },
)

const Obj = (description: string) => Type.Object({}, { additionalProperties: true, description })

const Strict = (props: Parameters<typeof Type.Object>[0], description?: string) =>
  Type.Object(props, description === undefined ? { additionalProperties: false } : { additionalProperties: false, description })
const Nullable = (s: TSchema) => Type.Union([s, Type.Null()])
const Address = Type.String({ pattern: '^0x[0-9a-f]{40}$', description: 'a lower-case 0x address' })
const Ok = Strict({ ok: Type.Literal(true) }, 'done')

/** A stored key as the key routes return it (src/admin/store/key-store.ts KeyEntry); never the key itself. */
const KeyEntrySchema = Strict(
  {
    id: Type.String({ pattern: UUID_PATTERN, description: 'the key id' }),
    label: Type.String({ minLength: 1, description: 'its name' }),
    address: Address,
    created_at: Type.String({ description: 'upload time, ISO 8601' }),
    used_by: Type.Array(Type.String(), { description: 'the services bound to it' }),
  },
  'a stored key',
)

/** A runner's status (src/admin/runners/polling-runner.ts RunnerStatus). */
const RunnerStatusSchema = Strict(
  {
    state: Type.Union(['stopped', 'disabled', 'unavailable', 'waiting', 'refused', 'running'].map((s) => Type.Literal(s))),
    running: Type.Boolean(),
    address: Nullable(Address),
    started_at_ms: Nullable(Type.Integer({ minimum: 0 })),
    last_success_ms: Nullable(Type.Integer({ minimum: 0 })),
    last_error: Nullable(Type.String()),
    last_error_ms: Nullable(Type.Integer({ minimum: 0 })),
    cycles: Type.Integer({ minimum: 0 }),
    detail: Type.Object({}, { additionalProperties: true, description: "the component's own figures" }),
  },
  "a runner's status",
)

const ServiceEntrySchema = Strict(
  {
    key_id: Nullable(Type.String({ pattern: UUID_PATTERN })),
    address: Nullable(Address),
    enabled: Type.Boolean(),
    status: RunnerStatusSchema,
  },
  'a binding and its runner',
)

const ServiceConfigSchema = Strict(
  { services: Strict(Object.fromEntries(SERVICE_NAMES.map((s) => [s, ServiceEntrySchema]))) },
  'every service with its binding and runner status',
)

const SessionSchema = Strict(
  { address: Address, expires_at_secs: Type.Integer({ minimum: 0, description: 'session expiry, Unix seconds' }) },
  'the session',
)

/** An audit row (src/admin/store/audit.ts AuditEntry). */
const AuditEntrySchema = Strict(
  {
    id: Type.Integer({ minimum: 1 }),
    at_ms: Type.Integer({ minimum: 0 }),
    actor: Type.String({ description: 'the address, or the component, that acted' }),
    action: Type.String({ minLength: 1, description: 'login, key.upload, service.bind, …' }),
    target: Nullable(Type.String()),
    detail: Type.Object({}, { additionalProperties: true, description: 'what the action carried' }),
    prev_hash: Nullable(Type.String({ pattern: '^[0-9a-f]{64}$' })),
    hash: Nullable(Type.String({ pattern: '^[0-9a-f]{64}$' })),
  },
  'an audit row',
)

/** Reply schemas and summaries by `METHOD path`; a route missing here is documented with a generic object reply. */
export const ADMIN_RESPONSES: Readonly<Record<string, { summary: string; ok: TSchema; status?: string; bearer?: boolean }>> = {
  'GET /api/health': {
    summary: 'Liveness (docs/admin.md#health)',
    ok: Type.Object({ ok: Type.Literal(true), version: Type.String() }, { additionalProperties: false }),
  },
  'GET /metrics': { summary: 'Prometheus metrics', ok: Type.String() },
  'GET /api/auth/challenge': {
    summary: 'A login challenge to sign',
    ok: Strict(
      { challenge: Type.String({ pattern: '^[0-9a-f]{32}$' }), timestamp_ms: Type.Integer({ minimum: 0 }) },
      'the challenge (docs/admin.md)',
    ),
  },
  'POST /api/auth/login': {
    summary: 'Log in with a signed challenge',
    ok: Strict({ token: Type.String({ minLength: 1 }), expires_at_secs: Type.Integer({ minimum: 0 }) }, 'the session token'),
  },
  'GET /api/auth/me': { summary: 'The session', ok: SessionSchema, bearer: true },
  'POST /api/auth/logout': { summary: 'End the session', ok: Ok, bearer: true },
  'POST /api/auth/logout-all': {
    summary: 'End every session of the address',
    ok: Strict({ ok: Type.Literal(true), revoked: Type.Integer({ minimum: 0 }) }),
    bearer: true,
  },
  'GET /api/keys/encryption-key': {
    summary: "The service's public key to encrypt key uploads with",
    ok: Type.Object({ public_key: Type.String(), algorithm: Type.Literal('ecies-secp256k1') }, { additionalProperties: false }),
  },
  'GET /api/keys': { summary: 'The stored keys', ok: Strict({ keys: Type.Array(KeyEntrySchema) }), bearer: true },
  'POST /api/keys': { summary: 'Upload an encrypted key', ok: KeyEntrySchema, status: '201', bearer: true },
  'PATCH /api/keys/:id': { summary: 'Change a key', ok: KeyEntrySchema, bearer: true },
  'DELETE /api/keys/:id': { summary: 'Delete a key', ok: Ok, bearer: true },
  'GET /api/service-config': { summary: 'The runners and their bindings', ok: ServiceConfigSchema, bearer: true },
  'PUT /api/service-config': {
    summary: 'Bind a key to a runner and switch it',
    ok: Strict({ ok: Type.Literal(true), status: RunnerStatusSchema }),
    bearer: true,
  },
  'GET /api/audit': {
    summary: 'The audit log, newest first',
    ok: Type.Object(
      { entries: Type.Array(AuditEntrySchema), next_before_id: Type.Union([Type.Integer(), Type.Null()]) },
      { additionalProperties: false },
    ),
    bearer: true,
  },
  ...CATALOG_RESPONSES,
  ...HEDGE_RESPONSES,
  ...WITHDRAWAL_RESPONSES,
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
