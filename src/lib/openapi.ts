// OpenAPI 3.1 documents built from a route table whose parameters, bodies and responses are TypeBox
// schemas (JSON Schema, which OpenAPI 3.1 takes as is), and the self-contained page that renders one
// (no CDN: it embeds the document). The node (src/api/openapi.ts) and the admin service
// (src/admin/http/routes-openapi.ts) serve theirs.
import type { TObject, TSchema } from '@sinclair/typebox'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface ResponseDoc {
  readonly description: string
  /** The body's schema; absent for a reply without a body (204). */
  readonly schema?: TSchema
  /** Default application/json. */
  readonly contentType?: string
}

/** One operation: its path in Elysia's form (`/blocks/:id`), its schemas and replies by status. */
export interface RouteDoc {
  readonly method: HttpMethod
  readonly path: string
  readonly summary: string
  readonly description?: string
  readonly tags?: readonly string[]
  readonly params?: TObject
  readonly query?: TObject
  readonly headers?: TObject
  readonly body?: TSchema
  readonly bodyContentType?: string
  readonly responses: Readonly<Record<string, ResponseDoc>>
  /** Marks an operation that needs a credential (the admin service's session routes). */
  readonly security?: readonly Record<string, readonly string[]>[]
}

export interface OpenApiInfo {
  readonly title: string
  readonly version: string
  readonly description?: string
}

export type OpenApiDocument = {
  openapi: '3.1.0'
  info: OpenApiInfo
  paths: Record<string, Record<string, unknown>>
  components?: Record<string, unknown>
}

/** A TypeBox schema as plain JSON Schema (TypeBox's symbol keys dropped). */
export const jsonSchema = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema))

/** `/blocks/:id` as `/blocks/{id}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')

function parameters(where: 'path' | 'query' | 'header', schema: TObject | undefined) {
  if (schema === undefined) return []
  const required = new Set(schema.required ?? [])
  return Object.entries(schema.properties).map(([name, s]) => {
    const { description, ...rest } = jsonSchema(s)
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    }
  })
}

function operation(r: RouteDoc): Record<string, unknown> {
  const responses: Record<string, unknown> = {}
  for (const [status, res] of Object.entries(r.responses)) {
    responses[status] =
      res.schema === undefined
        ? { description: res.description }
        : { description: res.description, content: { [res.contentType ?? 'application/json']: { schema: jsonSchema(res.schema) } } }
  }
  const params = [...parameters('path', r.params), ...parameters('query', r.query), ...parameters('header', r.headers)]
  return {
    operationId: `${r.method.toLowerCase()}${openApiPath(r.path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: r.summary,
    ...(r.description === undefined ? {} : { description: r.description }),
    ...(r.tags === undefined ? {} : { tags: [...r.tags] }),
    ...(params.length === 0 ? {} : { parameters: params }),
    ...(r.body === undefined
      ? {}
      : { requestBody: { required: true, content: { [r.bodyContentType ?? 'application/json']: { schema: jsonSchema(r.body) } } } }),
    ...(r.security === undefined ? {} : { security: r.security.map((s) => ({ ...s })) }),
    responses,
  }
}

export function buildOpenApi(info: OpenApiInfo, routes: readonly RouteDoc[], components?: Record<string, unknown>): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const r of routes) {
    const p = openApiPath(r.path)
    paths[p] ??= {}
    paths[p][r.method.toLowerCase()] = operation(r)
  }
  return { openapi: '3.1.0', info, paths, ...(components === undefined ? {} : { components }) }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** A browsable page of the document: every operation with its parameters, body and replies. No scripts, no network. */
export function openApiHtml(doc: OpenApiDocument, jsonUrl: string): string {
  const ops: string[] = []
  for (const [path, byMethod] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(byMethod)) {
      const op = raw as {
        summary?: string
        description?: string
        parameters?: { name: string; in: string; required: boolean; description?: string; schema: unknown }[]
        requestBody?: { content: Record<string, { schema: unknown }> }
        responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>
      }
      const pre = (v: unknown) => `<pre>${escapeHtml(JSON.stringify(v, null, 2))}</pre>`
      const params = (op.parameters ?? [])
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : ''}</td><td>${escapeHtml(p.description ?? '')}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td></tr>`,
        )
        .join('')
      const body = op.requestBody
        ? Object.entries(op.requestBody.content)
            .map(([type, c]) => `<details><summary>request body (${escapeHtml(type)})</summary>${pre(c.schema)}</details>`)
            .join('')
        : ''
      const responses = Object.entries(op.responses)
        .map(([status, r]) => {
          const content = Object.entries(r.content ?? {})
            .map(([type, c]) => `<details><summary>${escapeHtml(type)} schema</summary>${pre(c.schema)}</details>`)
            .join('')
          return `<li><b>${escapeHtml(status)}</b> ${escapeHtml(r.description)}${content}</li>`
        })
        .join('')
      ops.push(
        `<section id="${escapeHtml(`${method}-${path}`)}"><h2><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h2>` +
          `<p>${escapeHtml(op.summary ?? '')}</p>${op.description ? `<p>${escapeHtml(op.description)}</p>` : ''}` +
          (params ? `<table><tr><th>name</th><th>in</th><th>required</th><th>description</th><th>schema</th></tr>${params}</table>` : '') +
          `${body}<ul>${responses}</ul></section>`,
      )
    }
  }
  const title = escapeHtml(`${doc.info.title} ${doc.info.version}`)
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><style>
body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}section{border-top:1px solid #ccc;padding:.5em 0}
h2{font-size:1.1em}.m{display:inline-block;min-width:4em;padding:0 .3em;color:#fff;background:#555}.get{background:#2a7}.post{background:#27a}
.put,.patch{background:#a72}.delete{background:#a22}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:30em}</style></head><body>
<h1>${title}</h1><p>${escapeHtml(doc.info.description ?? '')}</p><p>The OpenAPI 3.1 document: <a href="${escapeHtml(jsonUrl)}">${escapeHtml(jsonUrl)}</a></p>
${ops.join('\n')}</body></html>`
}
