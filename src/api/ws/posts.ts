// Actions posted over the WebSocket (docs/websocket.md#posting-actions): a frame
// `{op: "post", id, action}` is admitted exactly as the body `{jsonrpc, id, method: "action",
// params: action}` of POST /api/v1/action (admission/action-admission.ts: the per-IP limit on the
// connection's client address, the stateless part, the state checks and the per-signer limit), and
// answered once its block commits with `{seq, op: "post", id, result}` or `{seq, op: "post", id,
// error}`: the /action reply's result or error. Replies go out as they come, so not in the order
// of the posts; the client's id correlates them. A connection that closes first loses only the
// reply: the action goes on into its block.

import type { LogLine } from '../../lib/log.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import type { ActionAdmission, AdmissionOutcome } from '../admission/action-admission.ts'
import type { WsConnection } from './connection.ts'
import { postReplyFrames } from './frames.ts'
import type { WsLimits } from './limits.ts'
import { shownJson } from './topics.ts'

/** Longest string id of a post frame, characters. */
export const POST_ID_LENGTH_MAX = 128

/** Why id is not a post id, or undefined when it is one (a string of at most 128 characters or a finite number). */
export function postIdProblem(id: unknown): string | undefined {
  if (typeof id === 'number') return Number.isFinite(id) ? undefined : 'post: id must be a finite number or a string'
  if (typeof id === 'string')
    return id.length <= POST_ID_LENGTH_MAX ? undefined : `post: id is ${id.length} characters long, at most ${POST_ID_LENGTH_MAX}`
  if (id === undefined) return 'post: id is missing (a string of at most 128 characters or a number); the action was not admitted'
  return `post: id must be a string of at most ${POST_ID_LENGTH_MAX} characters or a number, not ${shownJson(id)}; the action was not admitted`
}

/** The reply to a post that failed inside the node (a bug): the API's internal error. Shared: never changed. */
const INTERNAL_ERROR_REPLY = { error: { code: RPC.internalError, message: 'internal error', data: { reason: 'INTERNAL' } } } as const

export class WsPosts {
  /** Posts answered with a reply frame, and those whose connection closed first (tests, logs). */
  answered = 0
  orphaned = 0

  constructor(
    private readonly admission: ActionAdmission,
    private readonly limits: WsLimits,
    private readonly log: LogLine = () => {},
  ) {}

  /** A parsed client frame with op "post". */
  post(conn: WsConnection, frame: Readonly<Record<string, unknown>>): void {
    const id = frame.id
    const problem = postIdProblem(id)
    if (problem !== undefined) {
      conn.deliver((seq) => JSON.stringify({ seq, op: 'error', message: problem }))
      return
    }
    const postId = id as string | number
    if (conn.postsInFlight >= this.limits.postsInFlightMax) {
      this.reply(conn, postId, {
        error: {
          code: RPC.limited,
          message: `${conn.postsInFlight} posts on this connection await their block (at most ${this.limits.postsInFlightMax}); wait for replies and send it again`,
          data: { reason: 'TOO_MANY_IN_FLIGHT', limit: this.limits.postsInFlightMax },
        },
      })
      return
    }
    const limited = this.admission.ipRefusal(conn.clientAddress, postId)
    if (limited !== undefined) {
      this.reply(conn, postId, { error: limited.error })
      return
    }
    // The /action body this frame stands for; its params are re-encoded from the parsed frame, which
    // keeps key order and values (JSON numbers, strings), so they hash and sign as sent.
    const action = frame.action
    const text = `{"jsonrpc":"2.0","id":${JSON.stringify(postId)},"method":"action"${action === undefined ? '' : `,"params":${JSON.stringify(action)}`}}`
    conn.postsInFlight++
    const answer = (reply: { readonly result: unknown } | { readonly error: unknown }) => {
      conn.postsInFlight--
      this.reply(conn, postId, reply)
    }
    // Called inside the block's commit for an admitted post (ChainNode.submitWith), so the reply
    // joins the block's batch of reply frames on this connection (runtime.ts).
    this.admission.admitWith(
      text,
      (outcome: AdmissionOutcome) =>
        answer(
          outcome.kind === 'no-content'
            ? INTERNAL_ERROR_REPLY
            : outcome.body.error === undefined
              ? { result: outcome.body.result }
              : { error: outcome.body.error },
        ),
      (err: unknown) => {
        this.log(`ws post ${String(postId).slice(0, 64)}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, 'error')
        answer(INTERNAL_ERROR_REPLY)
      },
    )
  }

  private reply(conn: WsConnection, id: string | number, reply: { readonly result: unknown } | { readonly error: unknown }): void {
    if (conn.closed) {
      this.orphaned++
      return
    }
    this.answered++
    for (const text of postReplyFrames(id, reply, this.limits.frameBytesMax)) conn.deliverRest(text)
  }
}
