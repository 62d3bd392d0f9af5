// JSON-RPC 2.0 framing shared by /query and /action: parse the raw body, shape replies.
import { RPC } from '../wire/rpc-errors.ts'
import { bodyTooLargeMessage, REQUEST_BODY_MAX_BYTES, readBodyCapped } from './request-body.ts'

export type JsonRpcId = string | number | null

export interface JsonRpcErrorBody {
  code: number
  message: string
  data?: unknown
}

export const rpcResult = (id: JsonRpcId, result: unknown) => ({ jsonrpc: '2.0' as const, id, result })
export const rpcFailure = (id: JsonRpcId, error: JsonRpcErrorBody) => ({ jsonrpc: '2.0' as const, id, error })

/** Parses a request body; a syntax error becomes the -32700 reply. */
export function parseBody(text: string): { ok: true; value: unknown } | { ok: false; reply: ReturnType<typeof rpcFailure> } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (err) {
    return {
      ok: false,
      reply: rpcFailure(null, { code: RPC.parseError, message: `parse error: ${(err as Error).message}`, data: { reason: 'PARSE_ERROR' } }),
    }
  }
}

/** Reads and parses a request body; too large is a -32600 reply (HTTP 200, like every JSON-RPC error). */
export async function readRequestBody(request: Request): Promise<ReturnType<typeof parseBody>> {
  const text = await readBodyCapped(request)
  if (text === undefined) return { ok: false, reply: bodyTooLargeReply() }
  return parseBody(text)
}

/** The -32600 reply to a body over REQUEST_BODY_MAX_BYTES (HTTP 200, like every JSON-RPC error). */
export const bodyTooLargeReply = () =>
  rpcFailure(null, {
    code: RPC.invalidRequest,
    message: bodyTooLargeMessage(),
    data: { reason: 'REQUEST_TOO_LARGE', max_bytes: REQUEST_BODY_MAX_BYTES },
  })

/** The id of a request object if it is a valid JSON-RPC id, else null. */
export function idOf(req: unknown): JsonRpcId {
  if (typeof req !== 'object' || req === null) return null
  const id = (req as { id?: unknown }).id
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null
}

/**
 * A notification (JSON-RPC 2.0: a request object without an `id` member): a well-formed request
 * the server runs, or not, but never answers. A malformed object is not one: it gets its error.
 */
export function isNotification(req: unknown): boolean {
  return typeof req === 'object' && req !== null && !Array.isArray(req) && !('id' in req) && envelopeError(req) === undefined
}

/** The reply to a request that gets none (a notification, a batch of notifications): HTTP 204, no body. */
export function noContent(): Response {
  return new Response(null, { status: 204 })
}

/** Checks the JSON-RPC 2.0 envelope of one request object; returns an error body or undefined. */
export function envelopeError(req: unknown): JsonRpcErrorBody | undefined {
  if (typeof req !== 'object' || req === null || Array.isArray(req))
    return { code: RPC.invalidRequest, message: 'a request must be a JSON object', data: { reason: 'INVALID_REQUEST' } }
  const r = req as Record<string, unknown>
  if (r.jsonrpc !== '2.0')
    return { code: RPC.invalidRequest, message: 'jsonrpc must be "2.0"', data: { reason: 'INVALID_REQUEST', field: 'jsonrpc' } }
  if (typeof r.method !== 'string')
    return { code: RPC.invalidRequest, message: 'method must be a string', data: { reason: 'INVALID_REQUEST', field: 'method' } }
  if (r.id !== undefined && r.id !== null && typeof r.id !== 'string' && typeof r.id !== 'number')
    return { code: RPC.invalidRequest, message: 'id must be a string, a number or null', data: { reason: 'INVALID_REQUEST', field: 'id' } }
  if (r.params !== undefined && (typeof r.params !== 'object' || r.params === null || Array.isArray(r.params))) {
    return {
      code: RPC.invalidParams,
      message: 'params must be an object of named parameters',
      data: { reason: 'INVALID_PARAMS', field: 'params' },
    }
  }
  return undefined
}

/** A JSON response with the right content type; JSON-RPC replies are HTTP 200 unless docs/rpc.md says otherwise. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
}
