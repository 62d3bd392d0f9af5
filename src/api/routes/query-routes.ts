// POST /api/v1/query: JSON-RPC 2.0 reads, batches of up to 20 (spec §4.6, §7.2, §8).
import { Elysia } from 'elysia'
import type { ChainNode } from '../../node/chain-node.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import { envelopeError, idOf, jsonResponse, readRequestBody, rpcFailure, rpcResult } from '../jsonrpc.ts'
import { ALL_METHODS } from '../methods/index.ts'
import { BLOCK_CACHE_ENTRIES_MAX, BlockCache } from '../block-cache.ts'
import { openRpcDocument } from '../methods/openrpc.ts'
import { compileMethods, MethodError, type CompiledMethod, type QueryContext } from '../methods/registry.ts'
import { createLogger, errorMessage } from '../../lib/log.ts'

/** Items one batch may hold; more refuses the whole batch with -32600. */
export const QUERY_BATCH_MAX = 20

export const queryMethodTable: ReadonlyMap<string, CompiledMethod> = compileMethods(ALL_METHODS)

/** A query times out after this long, queueing included (spec §4.6, §8); `--query-timeout-ms` changes it. */
export const QUERY_TIMEOUT_MS = 10_000

/** Runs one request object and returns its reply object. Never throws for bad input. */
export async function runQuery(ctx: QueryContext, req: unknown, deadlineMs: number, timeoutMs = QUERY_TIMEOUT_MS, table = queryMethodTable) {
  const id = idOf(req)
  const bad = envelopeError(req)
  if (bad !== undefined) return rpcFailure(id, bad)
  const r = req as { method: string; params?: Record<string, unknown> }
  if (r.method === 'rpc.discover') return rpcResult(id, openRpcDocument(table))
  const m = table.get(r.method)
  if (m === undefined) return rpcFailure(id, { code: RPC.methodNotFound, message: `method not found: ${r.method.slice(0, 64)}`, data: { reason: 'METHOD_NOT_FOUND' } })
  const params = r.params ?? {}
  const v = m.validator.validate(params, 'params')
  if (!v.ok) return rpcFailure(id, { code: RPC.invalidParams, message: `${v.field}: ${v.message}`, data: { reason: 'INVALID_PARAMS', field: v.field } })
  const chainHeightNow = ctx.node.state.height
  const cacheKey = m.cachePerBlock === true ? `${m.name}\u0000${JSON.stringify(params)}` : undefined
  if (cacheKey !== undefined) {
    const hit = blockCache.get(cacheKey, chainHeightNow)
    if (hit !== undefined) return rpcResult(id, hit)
  }
  try {
    const pending = m.handler(ctx, params)
    const out = pending instanceof Promise ? await withDeadline(pending, deadlineMs) : pending
    if (out === TIMED_OUT) return rpcFailure(id, { code: RPC.limited, message: `${r.method} timed out after ${timeoutMs} ms`, data: { reason: 'TIMEOUT' } })
    const chainHeight = ctx.node.state.height
    const height = out.height ?? chainHeight
    const result = { height, chain_height: chainHeight, stale: height < chainHeight, data: out.data, ...(out.page ? { page: out.page } : {}) }
    if (cacheKey !== undefined && chainHeight === chainHeightNow) blockCache.set(cacheKey, chainHeight, result)
    return rpcResult(id, result)
  } catch (err) {
    if (err instanceof MethodError) {
      if (err.httpStatus !== undefined) throw err
      return rpcFailure(id, { code: err.code, message: err.message, ...(err.data ? { data: err.data } : {}) })
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
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => { timer = setTimeout(() => resolve(TIMED_OUT), left) })
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer))
}

export function queryRoutes(node: ChainNode, timeoutMs = QUERY_TIMEOUT_MS) {
  const ctx: QueryContext = { node }
  return new Elysia().post('/api/v1/query', async ({ request }) => {
    const deadline = Date.now() + timeoutMs
    const parsed = await readRequestBody(request)
    if (!parsed.ok) return jsonResponse(parsed.reply)
    const req = parsed.value
    try {
      if (!Array.isArray(req)) return jsonResponse(await runQuery(ctx, req, deadline, timeoutMs))
      if (req.length === 0) return jsonResponse(rpcFailure(null, { code: RPC.invalidRequest, message: 'empty batch', data: { reason: 'INVALID_REQUEST' } }))
      if (req.length > QUERY_BATCH_MAX) {
        return jsonResponse(rpcFailure(null, { code: RPC.invalidRequest, message: `batch of ${req.length} exceeds ${QUERY_BATCH_MAX} items; the whole batch is refused`, data: { reason: 'BATCH_TOO_LARGE', max: QUERY_BATCH_MAX } }))
      }
      return jsonResponse(await Promise.all(req.map((item) => runQuery(ctx, item, deadline, timeoutMs))))
    } catch (err) {
      // A method that answers with an HTTP status (spec §7.1: offset above 1000 is HTTP 400).
      if (err instanceof MethodError && err.httpStatus !== undefined) {
        return jsonResponse(rpcFailure(idOf(req), { code: err.code, message: err.message, ...(err.data ? { data: err.data } : {}) }), err.httpStatus)
      }
      throw err
    }
  }, { parse: 'none' })
}
