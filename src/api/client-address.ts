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
  if (trusted.length === 0) return canonicalPeer(peer)
  return clientAddress(peer, request.headers.get('x-forwarded-for'), trusted)
}

/**
 * The canonical form of a socket peer's address, remembered: every /action asks for it, and
 * parsing and formatting the address each time was a few percent of the block thread's time under
 * load (scripts/bench/actions.ts). Bounded: emptied when it holds CANONICAL_PEERS_MAX addresses.
 */
const canonicalPeers = new Map<string, string>()
const CANONICAL_PEERS_MAX = 4_096

function canonicalPeer(peer: string): string {
  let canonical = canonicalPeers.get(peer)
  if (canonical === undefined) {
    if (canonicalPeers.size >= CANONICAL_PEERS_MAX) canonicalPeers.clear()
    canonical = clientAddress(peer, null, [])
    canonicalPeers.set(peer, canonical)
  }
  return canonical
}
