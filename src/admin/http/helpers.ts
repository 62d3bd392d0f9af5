// Small helpers shared by the admin route modules.
import { HttpError } from './errors.ts'

/** A JSON response with a status. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
}

/** The peer address of a request, for per-IP limits and logs. */
export function clientIp(server: { requestIP(request: Request): { address: string } | null } | null, request: Request): string {
  return server?.requestIP(request)?.address ?? 'unknown'
}

/** A 429 for an exhausted rate limit. */
export function rateLimited(what: string, retryAfterSecs: number): HttpError {
  return new HttpError(429, 'RATE_LIMITED', `too many ${what}; retry in ${retryAfterSecs} s`, { retry_after_secs: retryAfterSecs })
}

/** A uuid as the key store makes them (crypto.randomUUID), any case. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
/** A 0x-prefixed 20-byte address, any case. */
export const ADDRESS_PATTERN = '^0x[0-9a-fA-F]{40}$'
