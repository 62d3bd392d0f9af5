// A REST route of the node is declared once, as a RouteDoc (src/lib/openapi.ts): method, path,
// summary and the TypeBox schemas of its path parameters, query string and replies. serveRoutes
// registers a table of such declarations with their handlers; each handler receives its params
// and query already checked against the route's own schemas and typed by them (readInput), and
// src/api/openapi.ts builds the OpenAPI document from the same tables, so what is documented is
// what is checked.
//
// The check is readInput rather than Elysia's own validation because a bad parameter must keep the
// replies docs/errors.md#http-statuses lists: a missing required parameter is 500 `missing required
// parameter: <name>`, a malformed one is 400 with the message its schema names (the `invalid`
// option, a function, so it stays out of the JSON Schema of the document). A parameter is checked
// when the handler first reads it, so a request with two problems gets the answer of the first one
// the handler needs (an unknown market's 404 before a later parameter's 400), as when each handler
// parsed its own parameters.
import type { Static, TObject, TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { type AnyElysia, Elysia } from 'elysia'
import { ReadError } from '../../indexer/paging.ts'
import type { ResponseDoc, RouteDoc } from '../../lib/openapi.ts'
import { ErrorBody, GateBody } from '../../wire/results/rest.ts'
import type { PeerSource } from '../client-address.ts'
import { jsonResponse } from '../jsonrpc.ts'

/**
 * The 400 message of a value that fails its schema, from the parameter's name (`req.coin` inside a
 * body) and the value as sent; undefined drops the value instead, so the route's default applies.
 * Without it the message is `<name>: <the first schema error>`.
 */
export type InvalidMessage = (name: string, sent: string) => string | undefined

/**
 * Where the values come from. A query string carries text: an `integer` schema takes a string of
 * digits, a `boolean` is on for `true` or `1`, and an empty value is absent. A path parameter is
 * text too, never absent. A JSON body carries its own types; null is absent there, and so is ''
 * where a string is declared (an empty string names nothing).
 */
export type InputSource = 'query' | 'params' | 'json'

function fromText(schema: TSchema, text: string): unknown {
  if (schema.type === 'integer') return /^\d+$/.test(text) ? Number(text) : text
  if (schema.type === 'boolean') return text === 'true' || text === '1'
  return text
}

/** Absent: not sent, or empty (in a JSON body: null, or '' where a string is declared). */
function isAbsent(value: unknown, schema: TSchema, source: InputSource): boolean {
  if (value === undefined) return true
  if (source === 'query') return value === ''
  if (source === 'json') return value === null || (value === '' && schema.type === 'string')
  return false
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** One declared value of `raw`: checked and converted, undefined when absent (or dropped). */
function readValue(name: string, schema: TSchema, isRequired: boolean, sent: unknown, source: InputSource): unknown {
  if (isAbsent(sent, schema, source)) {
    if (isRequired) throw new ReadError(500, `missing required parameter: ${name}`)
    return undefined
  }
  if (source === 'json' && schema.type === 'object' && isObject(sent)) return readInput(schema as TObject, sent, source, `${name}.`)
  const value = source === 'json' ? sent : fromText(schema, String(sent))
  if (Value.Check(schema, value)) return value
  const invalid = (schema as { invalid?: InvalidMessage }).invalid
  if (invalid === undefined) throw new ReadError(400, `${name}: ${Value.Errors(schema, value).First()?.message ?? 'invalid'}`)
  const message = invalid(name, typeof sent === 'string' ? sent : JSON.stringify(sent))
  if (message !== undefined) throw new ReadError(400, message)
  return undefined
}

/**
 * The values of `raw` that `schema` declares, typed by it. Each is checked and converted when first
 * read: ReadError 500 for a missing required one, 400 for a malformed one; undeclared names are not
 * there. A nested object of a JSON body reads the same way, its names prefixed (`req.coin`).
 */
export function readInput<T extends TObject>(
  schema: T,
  raw: Readonly<Record<string, unknown>>,
  source: InputSource,
  prefix = '',
): Static<T> {
  const required = new Set(schema.required ?? [])
  const view = {}
  for (const [key, propertySchema] of Object.entries(schema.properties)) {
    let read: { value: unknown } | undefined
    Object.defineProperty(view, key, {
      enumerable: true,
      get: () => {
        read ??= { value: readValue(`${prefix}${key}`, propertySchema, required.has(key), raw[key], source) }
        return read.value
      },
    })
  }
  return view as Static<T>
}

/** Route declarations by a name the handlers are given under. */
export type RouteTable = Readonly<Record<string, RouteDoc>>

/** What a handler receives: its path parameters and query read by its route's schemas. */
export interface RouteInput<R> {
  readonly params: R extends { readonly params: infer P extends TObject } ? Static<P> : Record<string, never>
  readonly query: R extends { readonly query: infer Q extends TObject } ? Static<Q> : Record<string, never>
  readonly request: Request
  readonly server: PeerSource | null
}

export type RouteHandlers<T extends RouteTable> = {
  readonly [K in keyof T]: (input: RouteInput<T[K]>) => Response | Promise<Response>
}

/** Runs a route body; a ReadError becomes its status with {error}. */
async function answer(run: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof ReadError) return jsonResponse({ error: err.message }, err.status)
    throw err
  }
}

/**
 * The routes of `table`, each answered by its handler with its params and query read through the
 * route's schemas (readInput). Bodies are the handlers' to read (they cap their size first): Elysia does not parse them.
 */
export function serveRoutes<T extends RouteTable>(table: T, handlers: RouteHandlers<T>): AnyElysia {
  const app = new Elysia()
  for (const [key, route] of Object.entries(table)) {
    const handle = handlers[key] as (input: RouteInput<RouteDoc>) => Response | Promise<Response>
    app.route(
      route.method,
      route.path,
      // Elysia parses the query only for a handler whose source names it.
      ({ params, query, request, server }) =>
        answer(() =>
          handle({
            params: (route.params === undefined ? {} : readInput(route.params, params, 'params')) as never,
            query: (route.query === undefined ? {} : readInput(route.query, query, 'query')) as never,
            request,
            server,
          }),
        ),
      { parse: 'none' },
    )
  }
  return app
}

/** A documented reply with a JSON body. */
export const jsonReply = (description: string, schema: TSchema): ResponseDoc => ({ description, schema })

/** A documented error reply {error}. */
export const errorReply = (description: string): ResponseDoc => ({ description, schema: ErrorBody })

/** The 503 of every route but the probes while the node recovers or is halted (health-routes.ts, the gate). */
export const GATE_REPLY: ResponseDoc = { description: 'recovering or halted (docs/operations.md#health)', schema: GateBody }
