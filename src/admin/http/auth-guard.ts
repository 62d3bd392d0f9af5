// Bearer authentication of the admin routes (docs/admin.md#sessions) and the on-chain Admin
// re-check.
import type { RpcClient } from '../../client/rpc-client.ts'
import { isChainAdmin } from '../auth/chain-roles.ts'
import type { Session, SessionStore } from '../auth/sessions.ts'
import { HttpError } from './errors.ts'

/**
 * How long a confirmed Admin role is trusted on routes other than /api/auth/me (which always asks
 * the chain). Re-asking on every request would make key management depend on the node for each
 * click; never asking would let a revoked admin act for up to 24 hours.
 */
export const ROLE_RECHECK_MS = 30_000

/** The token of an Authorization header: `Bearer <token>`, or a bare token (accepted, discouraged). */
export function bearerToken(header: string | undefined | null): string | undefined {
  if (header === undefined || header === null) return undefined
  const text = header.trim()
  const m = /^Bearer\s+(\S+)$/i.exec(text)
  if (m !== null) return m[1]
  // "Bearer" alone is a header without its token, not a bare token named Bearer.
  return /^\S+$/.test(text) && !/^Bearer$/i.test(text) ? text : undefined
}

/** Resolves a request's session and re-checks its Admin role on chain. */
export class AuthGuard {
  constructor(
    private readonly sessions: SessionStore,
    private readonly rpc: RpcClient,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The session of a request's token; HttpError 401 without a live one. */
  session(authorization: string | undefined | null): Session {
    const token = bearerToken(authorization)
    if (token === undefined)
      throw new HttpError(
        401,
        'UNAUTHENTICATED',
        'send Authorization: Bearer <token> (log in with /api/auth/challenge and /api/auth/login)',
      )
    const session = this.sessions.get(token)
    if (session === undefined) throw new HttpError(401, 'UNAUTHENTICATED', 'the token is unknown or expired; log in again')
    return session
  }

  /**
   * The session of a request whose address still holds Admin on chain: 401 without a session,
   * 403 when the role is gone, 503 (ChainUnavailableError) when the chain cannot say. `fresh`
   * forces the chain query; otherwise a confirmation younger than ROLE_RECHECK_MS is reused.
   */
  async admin(authorization: string | undefined | null, fresh = false): Promise<Session> {
    const session = this.session(authorization)
    const now = this.clock()
    if (fresh || now - session.roleCheckedAtMs >= ROLE_RECHECK_MS) {
      if (!(await isChainAdmin(this.rpc, session.address))) {
        // Forget the earlier confirmation so no other route trusts it for the rest of its window.
        session.roleCheckedAtMs = Number.NEGATIVE_INFINITY
        const denied = new HttpError(403, 'NOT_ADMIN', `${session.address} no longer holds the Admin role on chain`)
        denied.actor = session.address
        throw denied
      }
      session.roleCheckedAtMs = now
    }
    return session
  }
}
