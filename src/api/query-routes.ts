// POST /api/v1/query: JSON-RPC 2.0 reads, batches of up to 20 (spec §4.6, §7.2, §8).
import { Elysia } from 'elysia'
import type { ChainNode } from '../node/chain-node.ts'
import { RPC } from '../wire/rpc-errors.ts'
import { envelopeError, idOf, jsonResponse, parseBody, rpcFailure, rpcResult } from './jsonrpc.ts'
import { ALL_METHODS } from './methods/index.ts'
import { compileMethods, MethodError, type CompiledMethod, type QueryContext } from './methods/registry.ts'

/** Items one batch may hold; more refuses the whole batch with -32600. */
export const QUERY_BATCH_MAX = 20

export const queryMethodTable: ReadonlyMap<string, CompiledMethod> = compileMethods(ALL_METHODS)

/** Runs one request object and returns its reply object. Never throws for bad input. */
export function runQuery(ctx: QueryContext, req: unknown) {
  const id = idOf(req)
  const bad = envelopeError(req)
  if (bad !== undefined) return rpcFailure(id, bad)
  const r = req as { method: string; params?: Record<string, unknown> }
  const m = queryMethodTable.get(r.method)
  if (m === undefined) return rpcFailure(id, { code: RPC.methodNotFound, message: `method not found: ${r.method.slice(0, 64)}`, data: { reason: 'METHOD_NOT_FOUND' } })
  const params = r.params ?? {}
  const v = m.validator.validate(params, 'params')
  if (!v.ok) return rpcFailure(id, { code: RPC.invalidParams, message: `${v.field}: ${v.message}`, data: { reason: 'INVALID_PARAMS', field: v.field } })
  try {
    const out = m.handler(ctx, params)
    const chainHeight = ctx.node.state.height
    const height = out.height ?? chainHeight
    return rpcResult(id, { height, chain_height: chainHeight, stale: height < chainHeight, data: out.data, ...(out.page ? { page: out.page } : {}) })
  } catch (err) {
    if (err instanceof MethodError) return rpcFailure(id, { code: err.code, message: err.message, ...(err.data ? { data: err.data } : {}) })
    console.error(`query ${r.method} failed:`, err)
    return rpcFailure(id, { code: RPC.internalError, message: 'internal error' })
  }
}

export function queryRoutes(node: ChainNode) {
  const ctx: QueryContext = { node }
  return new Elysia().post('/api/v1/query', ({ body }) => {
    const parsed = parseBody(body as string)
    if (!parsed.ok) return jsonResponse(parsed.reply)
    const req = parsed.value
    if (!Array.isArray(req)) return jsonResponse(runQuery(ctx, req))
    if (req.length === 0) return jsonResponse(rpcFailure(null, { code: RPC.invalidRequest, message: 'empty batch', data: { reason: 'INVALID_REQUEST' } }))
    if (req.length > QUERY_BATCH_MAX) {
      return jsonResponse(rpcFailure(null, { code: RPC.invalidRequest, message: `batch of ${req.length} exceeds ${QUERY_BATCH_MAX} items; the whole batch is refused`, data: { reason: 'BATCH_TOO_LARGE', max: QUERY_BATCH_MAX } }))
    }
    return jsonResponse(req.map((item) => runQuery(ctx, item)))
  }, { parse: 'text' })
}
