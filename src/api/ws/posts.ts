// Actions posted over the WebSocket (docs/websocket.md#posting-actions): a frame
// `{op: "post", id, action}` is admitted exactly as the body `{jsonrpc, id, method: "action",
// params: action}` of POST /api/v1/action (admission/action-admission.ts: the per-IP limit on the
// connection's client address, the stateless part, the state checks and the per-signer limit), and
// answered once its block commits with `{seq, op: "post", id, result}` or `{seq, op: "post", id,
// error}`: the /action reply's result or error. Replies go out as they come, so not in the order
// of the posts; the client's id correlates them. A connection that closes first loses only the
// reply: the action goes on into its block. A frame written as clients write it (starting
// `{"op":"post"`) is handed to admission as it came, and an admission thread reads it
// (admission/post-intake.ts); only the refusals of the connection's and the client address's
// limits read it here.

import type { LogLine } from '../../lib/log.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import type { ActionAdmission, AdmissionOutcome } from '../admission/action-admission.ts'
import { postIdProblem, readPostFrame } from '../admission/post-intake.ts'
import type { WsConnection } from './connection.ts'
import { postReplyFrames } from './frames.ts'
import type { WsLimits } from './limits.ts'

export { POST_FRAME_PREFIX, POST_ID_LENGTH_MAX, postIdProblem } from '../admission/post-intake.ts'

/** The reply to a post that failed inside the node (a bug): the API's internal error. Shared: never changed. */
const INTERNAL_ERROR_REPLY = { error: { code: RPC.internalError, message: 'internal error', data: { reason: 'INTERNAL' } } } as const

type PostReply = { readonly result: unknown } | { readonly error: unknown }

/** A post's reply from its admission's outcome: the /action reply's result or error. */
function replyOf(outcome: AdmissionOutcome): PostReply {
  if (outcome.kind === 'no-content') return INTERNAL_ERROR_REPLY
  return outcome.body.error === undefined ? { result: outcome.body.result } : { error: outcome.body.error }
}

export class WsPosts {
  /** Posts answered with a reply frame, and those whose connection closed first (tests, logs). */
  answered = 0
  orphaned = 0

  constructor(
    private readonly admission: ActionAdmission,
    private readonly limits: WsLimits,
    private readonly log: LogLine = () => {},
  ) {}

  /**
   * A client text frame that starts with POST_FRAME_PREFIX, handed as it came to admission, where an
   * admission thread reads it (post-intake.ts). False, with nothing done, when it must be parsed here
   * and go through post() instead: the connection's posts are at their limit or its client address
   * at the per-IP limit (the refusal carries the post's id), or this node forwards actions to its
   * leader (the leader takes the /action text). notPost: the frame turned out not to be a post (a
   * repeated op key), for the hub to handle as it handles any frame.
   */
  postText(conn: WsConnection, text: string, notPost: () => void): boolean {
    if (conn.postsInFlight >= this.limits.postsInFlightMax || !this.admission.admitsHere || !this.admission.ipTake(conn.clientAddress))
      return false
    conn.postsInFlight++
    this.admission.admitPostWith(
      text,
      (admission) => {
        conn.postsInFlight--
        if (admission.kind === 'post') this.reply(conn, admission.id, replyOf(admission.outcome))
        else if (admission.kind === 'frame-error') conn.deliver((seq) => JSON.stringify({ seq, op: 'error', message: admission.message }))
        else notPost()
      },
      (err: unknown) => {
        conn.postsInFlight--
        this.log(`ws post: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, 'error')
        const frame = readPostFrame(text)
        if (frame.kind === 'post') this.reply(conn, frame.id, INTERNAL_ERROR_REPLY)
        else conn.deliver((seq) => JSON.stringify({ seq, op: 'error', message: 'internal error' }))
      },
    )
    return true
  }

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
    const answer = (reply: PostReply) => {
      conn.postsInFlight--
      this.reply(conn, postId, reply)
    }
    // Called inside the block's commit for an admitted post (ChainNode.submitWith), so the reply
    // joins the block's batch of reply frames on this connection (runtime.ts).
    this.admission.admitWith(
      text,
      (outcome: AdmissionOutcome) => answer(replyOf(outcome)),
      (err: unknown) => {
        this.log(`ws post ${String(postId).slice(0, 64)}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, 'error')
        answer(INTERNAL_ERROR_REPLY)
      },
    )
  }

  private reply(conn: WsConnection, id: string | number, reply: PostReply): void {
    if (conn.closed) {
      this.orphaned++
      return
    }
    this.answered++
    for (const text of postReplyFrames(id, reply, this.limits.frameBytesMax)) conn.deliverRest(text)
  }
}
