// Probes (docs/operations.md#health): GET /api/v1/health (ready: 200 only when ok) and
// /api/v1/health/live (200 unless halted), both with the same body; and the gate every other route
// passes first: while the node recovers or is halted they answer 503 with Retry-After.
import type { ChainNode } from '../../node/chain-node.ts'
import { HealthBodySchema } from '../../wire/results/rest.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import { idOf, jsonResponse, readRequestBody, rpcFailure } from '../jsonrpc.ts'
import { jsonReply, type RouteTable, serveRoutes } from './rest-route.ts'

export const HEALTH_PATH = '/api/v1/health'
export const LIVE_PATH = '/api/v1/health/live'
/** Prometheus scrapes (src/api/metrics.ts) answer in every state, recovering and halted included. */
const METRICS_PATH = '/metrics'
/** The JSON-RPC endpoints: while gated they answer a JSON-RPC error object per request. */
const RPC_PATHS: ReadonlySet<string> = new Set(['/api/v1/query', '/api/v1/action'])

export const HEALTH_ROUTES = {
  ready: {
    method: 'GET',
    path: HEALTH_PATH,
    summary: 'Readiness probe: 200 only when the node is ok',
    tags: ['health'],
    responses: { '200': jsonReply('ready', HealthBodySchema), '503': jsonReply('not ready: same body', HealthBodySchema) },
  },
  live: {
    method: 'GET',
    path: LIVE_PATH,
    summary: 'Liveness probe: 200 unless halted',
    tags: ['health'],
    responses: { '200': jsonReply('alive', HealthBodySchema), '503': jsonReply('halted: same body', HealthBodySchema) },
  },
} as const satisfies RouteTable

export function healthRoutes(node: ChainNode) {
  const probe = (which: 'ready' | 'live') => () =>
    jsonResponse(node.health.body(node.state.height), node.health.httpStatus(which), { 'cache-control': 'no-store' })
  return serveRoutes(HEALTH_ROUTES, { ready: probe('ready'), live: probe('live') })
}

/**
 * The answer of any route but the probes while the node cannot serve it (recovering, halted), or
 * undefined when it serves. The WebSocket upgrade is refused the same way (HTTP 503, no upgrade).
 * JSON-RPC endpoints answer -32000 with data {reason: RECOVERING | HALTED, retry_after_ms}, one
 * error object per request of a batch.
 */
export async function gateResponse(node: ChainNode, request: Request): Promise<Response | undefined> {
  const gate = node.health.gate()
  if (gate === undefined) return undefined
  const path = new URL(request.url).pathname.replace(/\/+$/, '')
  if (path === HEALTH_PATH || path === LIVE_PATH || path === METRICS_PATH) return undefined
  const headers = { 'retry-after': String(Math.ceil(gate.retryAfterMs / 1000)), 'cache-control': 'no-store' }
  if (request.method === 'POST' && RPC_PATHS.has(path)) {
    const error = { code: RPC.limited, message: gate.message, data: { reason: gate.reason, retry_after_ms: gate.retryAfterMs } }
    const parsed = await readRequestBody(request).catch(() => undefined)
    const value = parsed?.ok === true ? parsed.value : undefined
    const body =
      Array.isArray(value) && value.length > 0 ? value.map((item) => rpcFailure(idOf(item), error)) : rpcFailure(idOf(value), error)
    return jsonResponse(body, 503, headers)
  }
  return jsonResponse(
    { error: gate.reason.toLowerCase(), reason: gate.reason, retry_after_ms: gate.retryAfterMs, message: gate.message },
    503,
    headers,
  )
}
