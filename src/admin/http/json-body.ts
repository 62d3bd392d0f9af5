// JSON request bodies of the admin routes. Routes read the body as bytes (`parse: 'arrayBuffer'`)
// and turn it into JSON in their transform step, which runs before validation and after the checks
// that must come first (a session, the login rate limit): so a request without a session is 401
// whatever its body, and a body that is not UTF-8 is invalid JSON (RFC 8259, section 8.1) instead
// of being read with replacement characters and stored that way.
import { HttpError } from './errors.ts'

// fatal: bytes that are not UTF-8 are an error; a leading BOM is skipped (RFC 8259 allows that).
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true })

const invalidJson = (why: string) => new HttpError(400, 'INVALID_JSON', `the request body is not valid JSON: ${why}`)

/** The JSON value of a body read as bytes; HttpError 400 INVALID_JSON when it is not JSON text. */
export function parseJsonBytes(raw: unknown): unknown {
  if (!(raw instanceof ArrayBuffer)) throw invalidJson('there is no body')
  let text: string
  try {
    text = STRICT_UTF8.decode(raw)
  } catch {
    throw invalidJson('it is not UTF-8')
  }
  try {
    return JSON.parse(text)
  } catch (err) {
    throw invalidJson((err as Error).message.slice(0, 200))
  }
}

/** Replaces a transform context's raw body with its JSON value (see {@link parseJsonBytes}). */
export function readJsonBody(ctx: { body: unknown }): void {
  ctx.body = parseJsonBytes(ctx.body)
}

/**
 * {@link readJsonBody} for a route whose body is a JSON object: anything else (`true`, `1`, `"x"`,
 * `null`, `[]`) is 400 INVALID_REQUEST, since Elysia's validator lets such a value through an object
 * schema whose fields are all optional.
 */
export function readJsonObjectBody(ctx: { body: unknown }): void {
  const value = parseJsonBytes(ctx.body)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'INVALID_REQUEST', 'invalid request: body: must be a JSON object')
  }
  ctx.body = value
}
