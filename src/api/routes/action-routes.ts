// POST /api/v1/action: one signed action per request (docs/protocol.md#envelope); replies after its
// block commits. The admission itself is admission/action-admission.ts, shared with the
// WebSocket's post frames (docs/websocket.md#posting-actions).
import type { CidrRange } from '../../lib/cidr.ts'
import { type ActionAdmission, actionReplyJson } from '../admission/action-admission.ts'
import { FORWARDED_HEADER } from '../admission/action-forward.ts'
import { requestClientAddress } from '../client-address.ts'
import { jsonResponse, noContent } from '../jsonrpc.ts'
import { readBodyCapped } from '../request-body.ts'
import { jsonReply, type RouteTable, serveRoutes } from './rest-route.ts'
import { ActionReplySchema, ActionRequest, RpcFailure } from './rpc-replies.ts'

export const ACTION_ROUTES = {
  action: {
    method: 'POST',
    path: '/api/v1/action',
    summary: 'Submit one signed action; replies after its block commits (docs/protocol.md#envelope)',
    tags: ['json-rpc'],
    body: ActionRequest,
    responses: {
      '200': jsonReply('the outcome, or a JSON-RPC error', ActionReplySchema),
      '204': { description: 'a notification (no id)' },
      '413': jsonReply('the body is too large', RpcFailure),
      '429': jsonReply('rate limited', RpcFailure),
      '503': jsonReply('recovering or halted', RpcFailure),
    },
  },
} as const satisfies RouteTable

/**
 * The per-IP limit (docs/limits.md#action-rate-limits) runs before the body is read, on the socket
 * peer, or behind a proxy in trustedProxies the address X-Forwarded-For names; the stateless part
 * (inline or on the admission threads), the per-signer limit and every check that reads state after
 * it (ActionAdmission.admit).
 */
export function actionRoutes(admission: ActionAdmission, trustedProxies: readonly CidrRange[] = []) {
  return serveRoutes(ACTION_ROUTES, {
    action: async ({ request, server }) => {
      const limited = admission.ipRefusal(requestClientAddress(server, request, trustedProxies))
      if (limited !== undefined) return jsonResponse(limited)
      const text = await readBodyCapped(request)
      if (text === undefined) return jsonResponse(admission.tooLarge())
      const outcome = await admission.admit(text, request.headers.has(FORWARDED_HEADER))
      if (outcome.kind === 'no-content') return noContent()
      return new Response(actionReplyJson(outcome.body), { status: outcome.status, headers: { 'content-type': 'application/json' } })
    },
  })
}
