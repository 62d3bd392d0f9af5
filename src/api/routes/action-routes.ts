// POST /api/v1/action: one signed action per request (docs/protocol.md#envelope); replies after its
// block commits.
import { Elysia } from 'elysia'
import type { ChainNode } from '../../node/chain-node.ts'
import type { CidrRange } from '../../lib/cidr.ts'
import { RateLimiter } from '../../lib/rate-limit.ts'
import { requestClientAddress } from '../client-address.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import { envelopeError, idOf, isNotification, jsonResponse, noContent, readRequestBody, rpcFailure, rpcResult } from '../jsonrpc.ts'

/**
 * ipRatePerSec: /action requests per second per client IP (default 50,
 * docs/limits.md#action-rate-limits); 0 disables. The client IP is the socket peer, or behind a
 * proxy in trustedProxies the address X-Forwarded-For names.
 */
export function actionRoutes(node: ChainNode, ipRatePerSec = 0, trustedProxies: readonly CidrRange[] = []) {
  const ipLimiter = new RateLimiter(ipRatePerSec, 1_000)
  return new Elysia().post('/api/v1/action', async ({ request, server }) => {
    const ip = requestClientAddress(server, request, trustedProxies)
    if (!ipLimiter.allow(ip)) {
      return jsonResponse(rpcFailure(null, { code: RPC.limited, message: `${ip} is over ${ipRatePerSec} /action requests per second; retry shortly`, data: { reason: 'RATE_LIMITED', limit_per_sec: ipRatePerSec } }))
    }
    const parsed = await readRequestBody(request)
    if (!parsed.ok) return jsonResponse(parsed.reply)
    const req = parsed.value
    if (Array.isArray(req)) {
      return jsonResponse(rpcFailure(null, { code: RPC.invalidRequest, message: 'batch requests are refused on /action: send one signed action per request', data: { reason: 'INVALID_REQUEST' } }))
    }
    const id = idOf(req)
    const bad = envelopeError(req)
    if (bad !== undefined) return jsonResponse(rpcFailure(id, bad))
    const r = req as { method: string; params?: unknown }
    // A notification (no id) is run like any action, and answered with no reply object (HTTP 204).
    const quiet = isNotification(req)
    if (r.method !== 'action') return quiet ? noContent() : jsonResponse(rpcFailure(id, { code: RPC.methodNotFound, message: `method not found: ${r.method.slice(0, 64)}; /action takes method "action"`, data: { reason: 'METHOD_NOT_FOUND' } }))
    const result = await node.submit(r.params)
    if (quiet) return noContent()
    if (result.status === 'refused') return jsonResponse(rpcFailure(id, result.error))
    return jsonResponse(rpcResult(id, result))
  }, { parse: 'none' })
}
