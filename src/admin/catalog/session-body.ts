// The transform step of the catalog routes that read a body: no session is 401 before the body is
// looked at, then the body's bytes become a JSON object (http/json-body.ts), then the route's
// schema checks it.
import type { AuthGuard } from '../http/auth-guard.ts'
import { readJsonObjectBody } from '../http/json-body.ts'

/** A transform hook: the session first, then the JSON object of the body. */
export function sessionThenJson(guard: AuthGuard) {
  return (ctx: { headers: Record<string, string | undefined>; body: unknown }): void => {
    guard.session(ctx.headers.authorization)
    readJsonObjectBody(ctx)
  }
}

/** A transform hook of a route without a body: the session first, so a bad query of a stranger is 401. */
export function sessionFirst(guard: AuthGuard) {
  return (ctx: { headers: Record<string, string | undefined> }): void => {
    guard.session(ctx.headers.authorization)
  }
}
