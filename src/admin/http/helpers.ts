// Small helpers shared by the admin route modules.
import { type CidrRange, clientAddress } from '../../lib/cidr.ts'
import { HttpError } from './errors.ts'

/**
 * A JSON response with a status. Every reply of the service is `Cache-Control: no-store`: tokens,
 * challenges, key lists and audit rows have no business in a shared or browser cache.
 */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  })
}

/** The socket side of a request, as Bun's server offers it. */
export type PeerSource = { requestIP(request: Request): { address: string } | null } | null

/** The client address of a request, for per-IP limits, logs and audit rows. */
export type ClientIpOf = (server: PeerSource, request: Request) => string

/**
 * The client address of a request (docs/admin.md#behind-a-proxy): the socket peer, unless the peer
 * is in a `--trusted-proxy` range; then the rightmost X-Forwarded-For entry that is not itself a
 * trusted proxy (lib/cidr.ts clientAddress). Without trusted ranges X-Forwarded-For is ignored, so
 * a client cannot pick the address its limits are counted under.
 */
export function clientIpResolver(trusted: readonly CidrRange[]): ClientIpOf {
  return (server, request) => {
    const peer = server?.requestIP(request)?.address
    if (peer === undefined) return 'unknown'
    return clientAddress(peer, trusted.length === 0 ? null : request.headers.get('x-forwarded-for'), trusted)
  }
}

/** The peer address of a request, X-Forwarded-For ignored. */
export const clientIp: ClientIpOf = clientIpResolver([])

/** A 429 for an exhausted rate limit. */
export function rateLimited(what: string, retryAfterSecs: number): HttpError {
  return new HttpError(429, 'RATE_LIMITED', `too many ${what}; retry in ${retryAfterSecs} s`, { retry_after_secs: retryAfterSecs })
}

/** A uuid as the key store makes them (crypto.randomUUID), any case. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
/** A 0x-prefixed 20-byte address, any case. */
export const ADDRESS_PATTERN = '^0x[0-9a-fA-F]{40}$'
