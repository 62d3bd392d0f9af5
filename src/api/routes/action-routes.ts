// POST /api/v1/action: one signed action per request (docs/protocol.md#envelope); replies after its
// block commits.
import { Elysia } from 'elysia'
import type { ChainNode } from '../../node/chain-node.ts'
import type { CidrRange } from '../../lib/cidr.ts'
import { RateLimiter } from '../../lib/rate-limit.ts'
import { requestClientAddress } from '../client-address.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import { actionIntake, type ActionIntake } from '../admission/action-intake.ts'
import { AdmissionUnavailable, type AdmissionPool } from '../admission/admission-pool.ts'
import { readBodyCapped } from '../request-body.ts'
import { bodyTooLargeReply, jsonResponse, noContent, rpcFailure, rpcResult } from '../jsonrpc.ts'

/**
 * ipRatePerSec: /action requests per second per client IP (default 50,
 * docs/limits.md#action-rate-limits); 0 disables. The client IP is the socket peer, or behind a
 * proxy in trustedProxies the address X-Forwarded-For names.
 *
 * pool: the admission threads that run the stateless part of each request (action-intake.ts);
 * without it, it runs here on the block thread. The per-IP limit runs here before it, the per-signer
 * limit and every check that reads state after it (ChainNode.submitPrepared).
 */
export function actionRoutes(node: ChainNode, ipRatePerSec = 0, trustedProxies: readonly CidrRange[] = [], pool?: AdmissionPool) {
  const ipLimiter = new RateLimiter(ipRatePerSec, 1_000)
  return new Elysia().post('/api/v1/action', async ({ request, server }) => {
    const ip = requestClientAddress(server, request, trustedProxies)
    if (!ipLimiter.allow(ip)) {
      return jsonResponse(rpcFailure(null, { code: RPC.limited, message: `${ip} is over ${ipRatePerSec} /action requests per second; retry shortly`, data: { reason: 'RATE_LIMITED', limit_per_sec: ipRatePerSec } }))
    }
    const text = await readBodyCapped(request)
    if (text === undefined) return jsonResponse(bodyTooLargeReply())
    let intake: ActionIntake
    if (pool === undefined) {
      intake = actionIntake(text, node.state.params.network)
    } else {
      try {
        intake = await pool.intake(text)
      } catch (err) {
        if (!(err instanceof AdmissionUnavailable)) throw err
        // Not admitted, no nonce consumed (docs/errors.md#json-rpc-codes): the client sends it again.
        return jsonResponse(rpcFailure(null, { code: RPC.internalError, message: err.message, data: { reason: 'ADMISSION_UNAVAILABLE' } }), 503)
      }
    }
    if (intake.kind === 'reply') return jsonResponse(intake.body)
    if (intake.kind === 'no-content') return noContent()
    // A notification (no id) is run like any action, and answered with no reply object (HTTP 204).
    const result = await node.submitPrepared(intake.prepared)
    if (intake.quiet) return noContent()
    if (result.status === 'refused') return jsonResponse(rpcFailure(intake.id, result.error))
    return jsonResponse(rpcResult(intake.id, result))
  }, { parse: 'none' })
}
