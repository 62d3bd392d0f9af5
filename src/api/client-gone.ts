// A client that closes its connection while its request body is still arriving makes the body
// read reject with an AbortError. That is the client leaving, not a server fault: the node's app
// answers it without logging a 500 (nobody reads the answer). The admin service reads bodies
// through Elysia's parser, which turns the same failure into its 400 PARSE error.

/** Whether error is the body read failing because the client of request went away. */
export function isClientGone(error: unknown, request: Request): boolean {
  return request.signal.aborted && error instanceof Error && error.name === 'AbortError'
}

/** What the app answers a request whose client went away (never read; keeps the log quiet). */
export const clientGoneResponse = (): Response => new Response(null, { status: 400 })
