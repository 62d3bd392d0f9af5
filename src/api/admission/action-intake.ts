// The stateless part of POST /api/v1/action (docs/protocol.md#envelope): from the body's text to a
// JSON-RPC reply of its own (a parse error, a batch, a malformed request object, another method),
// or to the prepared action (node/admission-prepare.ts) the block thread admits. Pure, and the one
// code for both paths: routes/action-routes.ts runs it inline (--admission-threads 0) or sends the body to
// an admission thread that runs it (admission-pool.ts, admission-worker.ts). A WebSocket post frame
// goes through the same checks (post-intake.ts).
import { type PreparedAction, prepareAdmission } from '../../node/admission-prepare.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import { envelopeError, idOf, isNotification, type JsonRpcId, parseBody, rpcFailure } from '../jsonrpc.ts'

/** What the stateless part makes of a /action body; plain data (structured-clone friendly). */
export type ActionIntake =
  /** Answered already: the JSON-RPC reply (HTTP 200). */
  | { readonly kind: 'reply'; readonly body: unknown }
  /** A notification that is not an action: no reply object (HTTP 204). */
  | { readonly kind: 'no-content' }
  /** An action to admit; a notification (quiet) is run like any action and answered with HTTP 204. */
  | { readonly kind: 'action'; readonly id: JsonRpcId; readonly quiet: boolean; readonly prepared: PreparedAction }

/** The stateless part of /action for a body's text, on the chain of `network`. */
export function actionIntake(text: string, network: string): ActionIntake {
  const parsed = parseBody(text)
  if (!parsed.ok) return { kind: 'reply', body: parsed.reply }
  return requestIntake(parsed.value, network)
}

/** actionIntake of a parsed body (the request a WebSocket post frame stands for: post-intake.ts). */
export function requestIntake(req: unknown, network: string): ActionIntake {
  if (Array.isArray(req)) {
    return {
      kind: 'reply',
      body: rpcFailure(null, {
        code: RPC.invalidRequest,
        message: 'batch requests are refused on /action: send one signed action per request',
        data: { reason: 'INVALID_REQUEST' },
      }),
    }
  }
  const id = idOf(req)
  const bad = envelopeError(req)
  if (bad !== undefined) return { kind: 'reply', body: rpcFailure(id, bad) }
  const r = req as { method: string; params?: unknown }
  const quiet = isNotification(req)
  if (r.method !== 'action') {
    return quiet
      ? { kind: 'no-content' }
      : {
          kind: 'reply',
          body: rpcFailure(id, {
            code: RPC.methodNotFound,
            message: `method not found: ${r.method.slice(0, 64)}; /action takes method "action"`,
            data: { reason: 'METHOD_NOT_FOUND' },
          }),
        }
  }
  return { kind: 'action', id, quiet, prepared: prepareAdmission(r.params, network) }
}
