// POST /api/v1/query: JSON-RPC 2.0 reads, batches of up to 20 (docs/rpc.md#requests-and-replies). Every item of
// a batch answers on its own; notifications (no `id`) get no reply, and a batch of only
// notifications is HTTP 204 without a body.
import { Type } from '@sinclair/typebox'
import { createLogger, errorMessage } from '../../lib/log.ts'
import type { ChainNode } from '../../node/chain-node.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import { BLOCK_CACHE_ENTRIES_MAX, BlockCache } from '../block-cache.ts'
import { envelopeError, idOf, isNotification, jsonResponse, noContent, readRequestBody, rpcFailure, rpcResult } from '../jsonrpc.ts'
import { ALL_METHODS } from '../methods/index.ts'
import { openRpcDocument } from '../methods/openrpc.ts'
import { type CompiledMethod, compileMethods, MethodError, type QueryContext } from '../methods/registry.ts'
import { jsonReply, type RouteTable, serveRoutes } from './rest-route.ts'
import { QueryReplySchema, QueryRequest, RpcFailure } from './rpc-replies.ts'

/** Items one batch may hold; more refuses the whole batch with -32600. */
export const QUERY_BATCH_MAX = 20

export const queryMethodTable: ReadonlyMap<string, CompiledMethod> = compileMethods(ALL_METHODS)

/** A query times out after this long, queueing included (docs/limits.md#queries); `--query-timeout-ms` changes it. */
export const QUERY_TIMEOUT_MS = 10_000

type Reply = ReturnType<typeof rpcResult> | ReturnType<typeof rpcFailure>

/**
 * One request's reply and, for an error that a single request answers with an HTTP status (offset
 * above 1000 is HTTP 400, docs/rpc.md#errors-and-limits), that status. In a batch the status is dropped:
 * the item carries its error and the batch is HTTP 200.
 */
export interface QueryReply {
  readonly reply: Reply
  readonly httpStatus?: number
}

/** Runs one request object and returns its reply object. Never throws for bad input. */
export async function runQuery(
  ctx: QueryContext,
  req: unknown,
  deadlineMs: number,
  timeoutMs = QUERY_TIMEOUT_MS,
  table = queryMethodTable,
): Promise<Reply> {
  return (await runQueryItem(ctx, req, deadlineMs, timeoutMs, table)).reply
}

/** runQuery with the HTTP status a single request would carry. */
export async function runQueryItem(
  ctx: QueryContext,
  req: unknown,
  deadlineMs: number,
  timeoutMs = QUERY_TIMEOUT_MS,
  table = queryMethodTable,
): Promise<QueryReply> {
  const reply = await runQueryInner(ctx, req, deadlineMs, timeoutMs, table)
  return reply instanceof HttpStatusReply ? { reply: reply.reply, httpStatus: reply.status } : { reply }
}

/** An error reply that a single request answers with an HTTP status other than 200. */
class HttpStatusReply {
  constructor(
    readonly reply: Reply,
    readonly status: number,
  ) {}
}

async function runQueryInner(
  ctx: QueryContext,
  req: unknown,
  deadlineMs: number,
  timeoutMs: number,
  table: ReadonlyMap<string, CompiledMethod>,
): Promise<Reply | HttpStatusReply> {
  const id = idOf(req)
  const bad = envelopeError(req)
  if (bad !== undefined) return rpcFailure(id, bad)
  const r = req as { method: string; params?: Record<string, unknown> }
  if (r.method === 'rpc.discover') return rpcResult(id, openRpcDocument(table))
  const m = table.get(r.method)
  if (m === undefined)
    return rpcFailure(id, {
      code: RPC.methodNotFound,
      message: `method not found: ${r.method.slice(0, 64)}`,
      data: { reason: 'METHOD_NOT_FOUND' },
    })
  const params = r.params ?? {}
  const v = m.validator.validate(params, 'params')
  if (!v.ok)
    return rpcFailure(id, {
      code: RPC.invalidParams,
      message: `${v.field}: ${v.message}`,
      data: { reason: 'INVALID_PARAMS', field: v.field },
    })
  const chainHeightNow = ctx.node.tipHeight
  const cacheKey = m.cachePerBlock === true ? `${m.name}\u0000${JSON.stringify(params)}` : undefined
  if (cacheKey !== undefined) {
    const hit = blockCache.get(cacheKey, chainHeightNow)
    if (hit !== undefined) return rpcResult(id, hit)
  }
  try {
    const pending = m.handler(ctx, params)
    const out = pending instanceof Promise ? await withDeadline(pending, deadlineMs) : pending
    if (out === TIMED_OUT)
      return rpcFailure(id, { code: RPC.limited, message: `${r.method} timed out after ${timeoutMs} ms`, data: { reason: 'TIMEOUT' } })
    const chainHeight = ctx.node.tipHeight
    const height = out.height ?? chainHeight
    const result = {
      height,
      chain_height: chainHeight,
      stale: height < chainHeight,
      data: out.data,
      ...(out.page ? { page: out.page } : {}),
    }
    if (cacheKey !== undefined && chainHeight === chainHeightNow) blockCache.set(cacheKey, chainHeight, result)
    return rpcResult(id, result)
  } catch (err) {
    if (err instanceof MethodError) {
      const reply = rpcFailure(id, { code: err.code, message: err.message, ...(err.data ? { data: err.data } : {}) })
      return err.httpStatus === undefined ? reply : new HttpStatusReply(reply, err.httpStatus)
    }
    log.error(`query ${r.method} failed: ${errorMessage(err)}`, { error: err })
    return rpcFailure(id, { code: RPC.internalError, message: 'internal error' })
  }
}

const TIMED_OUT = Symbol('timed out')
const log = createLogger('api')

/** Results of cachePerBlock methods at one height; hot reads (books, accounts) between blocks. */
const blockCache = new BlockCache(BLOCK_CACHE_ENTRIES_MAX)

function withDeadline<T>(p: Promise<T>, deadlineMs: number): Promise<T | typeof TIMED_OUT> {
  const left = deadlineMs - Date.now()
  if (left <= 0) {
    // Nobody awaits it any more; a late failure must not surface as an unhandled rejection.
    p.catch(() => undefined)
    return Promise.resolve(TIMED_OUT)
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), left)
  })
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer))
}

export const QUERY_ROUTES = {
  query: {
    method: 'POST',
    path: '/api/v1/query',
    summary: `JSON-RPC 2.0 reads; batches of up to ${QUERY_BATCH_MAX} (docs/rpc.md)`,
    description: 'The methods, their params and result schemas: rpc.discover (OpenRPC) and docs/rpc.md. Notifications only: 204.',
    tags: ['json-rpc'],
    body: Type.Union([QueryRequest, Type.Array(QueryRequest, { minItems: 1, maxItems: QUERY_BATCH_MAX })]),
    responses: {
      '200': jsonReply('one reply, or one per request of a batch', QueryReplySchema),
      '204': { description: 'only notifications' },
      '400': jsonReply('a single request answered with an HTTP status (offset above 1000)', RpcFailure),
      '503': jsonReply('recovering or halted: -32000 per request', Type.Union([RpcFailure, Type.Array(RpcFailure)])),
    },
  },
} as const satisfies RouteTable

export function queryRoutes(node: ChainNode, timeoutMs = QUERY_TIMEOUT_MS) {
  const ctx: QueryContext = { node }
  return serveRoutes(QUERY_ROUTES, {
    query: async ({ request }) => {
      const deadline = Date.now() + timeoutMs
      const parsed = await readRequestBody(request)
      if (!parsed.ok) return jsonResponse(parsed.reply)
      const req = parsed.value
      if (!Array.isArray(req)) {
        // A read nobody waits for has nothing to do: a notification is not run.
        if (isNotification(req)) return noContent()
        const one = await runQueryItem(ctx, req, deadline, timeoutMs)
        return jsonResponse(one.reply, one.httpStatus ?? 200)
      }
      if (req.length === 0)
        return jsonResponse(rpcFailure(null, { code: RPC.invalidRequest, message: 'empty batch', data: { reason: 'INVALID_REQUEST' } }))
      if (req.length > QUERY_BATCH_MAX) {
        return jsonResponse(
          rpcFailure(null, {
            code: RPC.invalidRequest,
            message: `batch of ${req.length} exceeds ${QUERY_BATCH_MAX} items; the whole batch is refused`,
            data: { reason: 'BATCH_TOO_LARGE', max: QUERY_BATCH_MAX },
          }),
        )
      }
      // Each item answers on its own, in request order; an item's HTTP status stays with a single request.
      const replies = await Promise.all(
        req.filter((item) => !isNotification(item)).map((item) => runQueryItem(ctx, item, deadline, timeoutMs)),
      )
      if (replies.length === 0) return noContent()
      return jsonResponse(replies.map((r) => r.reply))
    },
  })
}
