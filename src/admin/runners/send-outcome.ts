// Sending one action from a runner and describing what became of it in one line.
import type { PerpdClient } from '../../client/perpd-client.ts'
import { type ActionReply, RpcCallError } from '../../client/rpc-client.ts'
import { errorMessage } from '../../lib/log.ts'

/** What became of one action: in a block (accepted or kept-reject) or refused before one. */
export type SendOutcome =
  | { readonly kind: 'accepted'; readonly reply: Extract<ActionReply, { status: 'accepted' }> }
  | {
      readonly kind: 'kept-reject'
      readonly reply: Extract<ActionReply, { status: 'kept-reject' }>
      readonly reason: string
      readonly message: string
    }
  | { readonly kind: 'refused'; readonly reason: string; readonly message: string }

/**
 * Sends an action and classifies the result. A refusal at admission (which consumed no nonce) is
 * an outcome, not an exception, so a runner can go on with its other items; a transport failure
 * (the node is down) still throws, because then every other item would fail the same way.
 * onSigned receives the tx hash before sending (for a reply that never comes).
 */
export async function sendAction(
  client: PerpdClient,
  action: Record<string, unknown>,
  options: { onSigned?: (txHash: string) => void } = {},
): Promise<SendOutcome> {
  try {
    const reply = await client.send(action, options)
    if (reply.status === 'accepted') return { kind: 'accepted', reply }
    return { kind: 'kept-reject', reply, reason: reply.reason.code, message: reply.reason.message }
  } catch (err) {
    if (err instanceof RpcCallError) return { kind: 'refused', reason: err.reason ?? String(err.error.code), message: errorMessage(err) }
    throw err
  }
}
