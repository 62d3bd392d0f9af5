// The client address of an HTTP request for per-IP limits: the socket peer, or behind a trusted
// reverse proxy (--trusted-proxy) the address X-Forwarded-For names (lib/cidr.ts clientAddress).
import { type CidrRange, clientAddress } from '../lib/cidr.ts'

/** What Bun's server offers to read a request's socket peer. */
export interface PeerSource {
  requestIP(request: Request): { address: string } | null
}

/** The address per-IP counters count a request under ('unknown' when the server cannot tell). */
export function requestClientAddress(server: PeerSource | null | undefined, request: Request, trusted: readonly CidrRange[]): string {
  const peer = server?.requestIP(request)?.address
  if (peer === undefined) return 'unknown'
  return clientAddress(peer, request.headers.get('x-forwarded-for'), trusted)
}
