// /action on a node that does not lead a replicated chain (docs/replication.md#actions-on-a-follower):
// the request's JSON-RPC text goes unchanged to the leader's /api/v1/action, and the leader's reply
// (status and body) is this node's. A forwarded request carries FORWARDED_HEADER, and a node that
// is not the leader either refuses it instead of forwarding it again, so a stale view of who leads
// never makes a loop.
import { RPC } from '../../wire/rpc-errors.ts'
import { idOf, type JsonRpcErrorBody, type JsonRpcId, rpcFailure, type rpcResult } from '../jsonrpc.ts'

/** The header of an /action forwarded by a follower. */
export const FORWARDED_HEADER = 'x-perpd-forwarded'

/** How long a follower waits for the leader's reply (the action's block included). */
const FORWARD_TIMEOUT_MS = 30_000

/**
 * Where /action goes: undefined when this node admits it, the leader's URL when it forwards, null
 * while no leader is known.
 */
export type ActionForwarding = () => string | null | undefined

/** What a forwarded action came to: the leader's reply object and HTTP status, or none (a notification, HTTP 204). */
export type ForwardedOutcome =
  | {
      readonly kind: 'reply'
      readonly body: ReturnType<typeof rpcResult> | ReturnType<typeof rpcFailure>
      readonly status: number
    }
  | { readonly kind: 'no-content' }

/** The id of the JSON-RPC request in text, for a refusal this node writes itself. */
function requestId(text: string): JsonRpcId {
  try {
    return idOf(JSON.parse(text))
  } catch {
    return null
  }
}

function refusal(text: string, error: JsonRpcErrorBody): ForwardedOutcome {
  return { kind: 'reply', body: rpcFailure(requestId(text), error), status: 503 }
}

/** The refusal of an action while no leader is known, or of one forwarded to a node that does not lead. */
export function noLeaderRefusal(text: string, forwarded: boolean): ForwardedOutcome {
  return refusal(text, {
    code: RPC.limited,
    message: forwarded
      ? 'this node does not lead the chain (the leader changed); send the action again'
      : 'no node leads the chain at the moment (a standby is taking over); send the action again shortly',
    data: { reason: 'NO_LEADER', retry_after_ms: 1_000 },
  })
}

/** Sends the /action text to the leader at leaderUrl and answers with its reply. */
export async function forwardAction(leaderUrl: string, text: string): Promise<ForwardedOutcome> {
  let res: Response
  try {
    res = await fetch(`${leaderUrl}/api/v1/action`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [FORWARDED_HEADER]: '1' },
      body: text,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    })
  } catch (err) {
    return refusal(text, {
      code: RPC.limited,
      message: `the leader at ${leaderUrl} did not answer (${(err as Error).message}); the action may have reached it: look its tx_hash up, or send it again (a nonce used twice is refused)`,
      data: { reason: 'LEADER_UNAVAILABLE', retry_after_ms: 1_000 },
    })
  }
  if (res.status === 204) return { kind: 'no-content' }
  const body = await res.text()
  try {
    return { kind: 'reply', body: JSON.parse(body) as ReturnType<typeof rpcResult> | ReturnType<typeof rpcFailure>, status: res.status }
  } catch {
    return refusal(text, {
      code: RPC.internalError,
      message: `the leader at ${leaderUrl} answered HTTP ${res.status} without a JSON-RPC reply`,
      data: { reason: 'LEADER_UNAVAILABLE' },
    })
  }
}
