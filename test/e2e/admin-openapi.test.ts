// The admin service's OpenAPI 3.1 document (GET /api/openapi.json, src/admin/http/routes-openapi.ts)
// on a real service: every route documented with the request schemas it validates with, and real
// replies checked against the documented reply schemas.
import { expect, test } from 'bun:test'
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Hex } from 'viem'
import { ADMIN_RESPONSES, AdminErrorBody } from '../../src/admin/http/routes-openapi.ts'
import { jsonSchema } from '../../src/lib/openapi.ts'
import { api, loginToken, startAdminWithNodeForFile } from '../support/admin-process.ts'
import { DEV_KEYS } from '../support/node-process.ts'

const { admin } = await startAdminWithNodeForFile()
const A = admin.url

interface Operation {
  summary: string
  parameters?: { name: string; in: string }[]
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>
}
const doc = (await (await fetch(`${A}/api/openapi.json`)).json()) as { openapi: string; paths: Record<string, Record<string, Operation>> }

/** Checks a reply against the documented schema (the JSON of the TypeBox schema the test checks with). */
function check(method: string, path: string, status: number, schema: TSchema, value: unknown) {
  const documented =
    doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()]?.responses[String(status)]?.content?.['application/json']?.schema
  expect(documented).toEqual(jsonSchema(schema))
  const errors = [...Value.Errors(schema, value)].map((e) => `${e.path || '/'}: ${e.message}`)
  if (errors.length > 0) throw new Error(`${method} ${path} ${status}: ${errors.join('; ')}`)
}

test('the document is OpenAPI 3.1 and lists every route with its request schemas', () => {
  expect(doc.openapi).toBe('3.1.0')
  const ops = Object.entries(doc.paths).flatMap(([p, m]) => Object.keys(m).map((method) => `${method.toUpperCase()} ${p}`))
  for (const key of Object.keys(ADMIN_RESPONSES)) expect(ops).toContain(key.replace(/:(\w+)/g, '{$1}'))
  for (const [, byMethod] of Object.entries(doc.paths))
    for (const op of Object.values(byMethod)) {
      expect(typeof op.summary).toBe('string')
      expect(Object.keys(op.responses).length).toBeGreaterThan(0)
    }
  // The login body is the schema the route validates with.
  const login = doc.paths['/api/auth/login']!.post!.requestBody!.content['application/json']!.schema
  expect(Object.keys(login.properties as object)).toEqual(expect.arrayContaining(['address', 'timestamp_ms', 'signature']))
  expect(doc.paths['/api/audit']!.get!.parameters!.map((p) => p.name)).toContain('limit')
  expect(doc.paths['/api/keys/{id}']!.delete!.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path' })])
})

test('real replies match the documented schemas', async () => {
  for (const path of ['/api/health', '/api/keys/encryption-key', '/api/auth/challenge']) {
    const r = await api(A, path)
    expect(r.status).toBe(200)
    check('GET', path, 200, ADMIN_RESPONSES[`GET ${path}`]!.ok, r.body)
  }
  const token = await loginToken(A, DEV_KEYS[0] as Hex)
  const audit = await api(A, '/api/audit?limit=5', { token })
  expect(audit.status).toBe(200)
  check('GET', '/api/audit', 200, ADMIN_RESPONSES['GET /api/audit']!.ok, audit.body)
  for (const path of ['/api/auth/me', '/api/keys', '/api/service-config']) {
    const r = await api(A, path, { token })
    expect(r.status).toBe(200)
    check('GET', path, 200, ADMIN_RESPONSES[`GET ${path}`]!.ok, r.body)
  }
  const denied = await api(A, '/api/audit')
  expect(denied.status).toBe(401)
  check('GET', '/api/audit', 401, AdminErrorBody, denied.body)
  const invalid = await api(A, '/api/auth/login', { method: 'POST', body: { address: 'nope' } })
  expect(invalid.status).toBe(400)
  check('POST', '/api/auth/login', 400, AdminErrorBody, invalid.body)
})
