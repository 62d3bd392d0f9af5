// The stateless part of a WebSocket post frame `{op: "post", id, action}` (docs/websocket.md#posting-actions),
// from the frame's text: the frame's parse and id, then the /action request `{jsonrpc: "2.0", id,
// method: "action", params: action}` it stands for through action-intake.ts's checks. The block
// thread hands the frame's text as it came to an admission thread (admission-pool.ts), so it neither
// parses the frame nor writes the request's text: both were 4% of its time at capacity over the
// WebSocket (scripts/bench/actions.ts --mode capacity --transport ws, CPU profile). Pure, like
// action-intake.ts: an admission thread imports it.
import { type ActionIntake, requestIntake } from './action-intake.ts'

/** Longest string id of a post frame, characters. */
export const POST_ID_LENGTH_MAX = 128

/** A value in a message, cut to a readable length. */
function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value)
  return json.length <= POST_ID_LENGTH_MAX ? json : `${json.slice(0, POST_ID_LENGTH_MAX)}…`
}

/** Why id is not a post id, or undefined when it is one (a string of at most 128 characters or a finite number). */
export function postIdProblem(id: unknown): string | undefined {
  if (typeof id === 'number') return Number.isFinite(id) ? undefined : 'post: id must be a finite number or a string'
  if (typeof id === 'string')
    return id.length <= POST_ID_LENGTH_MAX ? undefined : `post: id is ${id.length} characters long, at most ${POST_ID_LENGTH_MAX}`
  if (id === undefined) return 'post: id is missing (a string of at most 128 characters or a number); the action was not admitted'
  return `post: id must be a string of at most ${POST_ID_LENGTH_MAX} characters or a number, not ${shown(id)}; the action was not admitted`
}

/**
 * The beginning of a post frame as clients write it (JSON.stringify of `{op: "post", …}`): only a
 * text frame that starts so is handed to an admission thread whole; any other is parsed on the block
 * thread (ws/hub.ts), as every frame was before.
 */
export const POST_FRAME_PREFIX = '{"op":"post"'

/** A post frame's text read as far as its id. */
export type PostFrame =
  /** Not a post frame after all (a repeated op key: the last one counts), for the block thread's own parse. */
  | { readonly kind: 'not-post' }
  /** Not JSON, or no usable id: answered with an error frame, as the hub answers a bad frame. */
  | { readonly kind: 'frame-error'; readonly message: string }
  | { readonly kind: 'post'; readonly id: string | number; readonly action: unknown }

/** What the stateless part makes of a post frame's text: the request it stands for through action-intake.ts, with the id its reply carries. */
export type PostIntake =
  | Exclude<PostFrame, { kind: 'post' }>
  | { readonly kind: 'post'; readonly id: string | number; readonly intake: ActionIntake }

/** Reads a post frame's text as far as its id (also on the block thread, when no admission thread read it). */
export function readPostFrame(text: string): PostFrame {
  let frame: unknown
  try {
    frame = JSON.parse(text)
  } catch {
    return { kind: 'frame-error', message: 'invalid JSON' }
  }
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return { kind: 'not-post' }
  const { op, id, action } = frame as { op?: unknown; id?: unknown; action?: unknown }
  if (op !== 'post') return { kind: 'not-post' }
  const problem = postIdProblem(id)
  return problem === undefined ? { kind: 'post', id: id as string | number, action } : { kind: 'frame-error', message: problem }
}

/** The stateless part of a post frame's text on the chain of `network`. */
export function postIntake(text: string, network: string): PostIntake {
  const frame = readPostFrame(text)
  if (frame.kind !== 'post') return frame
  const { id, action } = frame
  // The request object itself, never its text: the action's key order and values are the frame's,
  // so it hashes and signs as sent.
  const request = action === undefined ? { jsonrpc: '2.0', id, method: 'action' } : { jsonrpc: '2.0', id, method: 'action', params: action }
  return { kind: 'post', id, intake: requestIntake(request, network) }
}
