// POST /api/v1/action: one signed action per request (docs/protocol.md#envelope); replies after its
// block commits. The admission itself is admission/action-admission.ts, shared with the
// WebSocket's post frames (docs/websocket.md#posting-actions).
import { Elysia } from 'elysia'
import type { CidrRange } from '../../lib/cidr.ts'
import type { ActionAdmission } from '../admission/action-admission.ts'
import { requestClientAddress } from '../client-address.ts'
import { jsonResponse, noContent } from '../jsonrpc.ts'
import { readBodyCapped } from '../request-body.ts'

/**
 * The per-IP limit (docs/limits.md#action-rate-limits) runs before the body is read, on the socket
 * peer, or behind a proxy in trustedProxies the address X-Forwarded-For names; the stateless part
 * (inline or on the admission threads), the per-signer limit and every check that reads state after
 * it (ActionAdmission.admit).
 */
export function actionRoutes(admission: ActionAdmission, trustedProxies: readonly CidrRange[] = []) {
  return new Elysia().post(
    '/api/v1/action',
    async ({ request, server }) => {
      const limited = admission.ipRefusal(requestClientAddress(server, request, trustedProxies))
      if (limited !== undefined) return jsonResponse(limited)
      const text = await readBodyCapped(request)
      if (text === undefined) return jsonResponse(admission.tooLarge())
      const outcome = await admission.admit(text)
      return outcome.kind === 'no-content' ? noContent() : jsonResponse(outcome.body, outcome.status)
    },
    { parse: 'none' },
  )
}
