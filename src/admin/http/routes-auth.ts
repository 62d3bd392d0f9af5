// Wallet login (docs/admin.md#login; the signed bytes: docs/protocol.md#admin-login-signature): a
// one-time challenge, a personal_sign over its 28 bytes, the on-chain Admin check, and an
// in-process session; logout and logout-all end sessions (docs/admin.md#sessions).
import { Type } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import type { RpcClient } from '../../client/rpc-client.ts'
import { normalizeAddress } from '../../lib/hex.ts'
import type { Logger } from '../../lib/log.ts'
import type { RateLimiter } from '../../lib/rate-limit.ts'
import { adminLoginMessage, recoverPersonalSign } from '../../wire/signing.ts'
import { isChainAdmin } from '../auth/chain-roles.ts'
import { CHALLENGES_MAX, type ChallengeBook } from '../auth/challenges.ts'
import type { SessionStore } from '../auth/sessions.ts'
import { appendAudit } from '../store/audit.ts'
import type { AdminDb } from '../store/db.ts'
import { type AuthGuard, bearerToken } from './auth-guard.ts'
import { HttpError } from './errors.ts'
import { ADDRESS_PATTERN, type ClientIpOf, rateLimited } from './helpers.ts'
import { readJsonBody } from './json-body.ts'

/** POST /api/auth/login body. */
export const LoginBody = Type.Object({
  address: Type.String({ pattern: ADDRESS_PATTERN, description: 'the wallet address, any case' }),
  timestamp_ms: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'timestamp_ms of the challenge, unchanged' }),
  // Only a length bound here: a malformed signature is a wrong signature (401), not a bad request.
  signature: Type.String({ maxLength: 200, description: '0x-hex r ‖ s ‖ v (65 bytes) of personal_sign over the 28 login bytes' }),
})

/** The login limits (token buckets): attempts per client IP, and failures per client IP and claimed address. */
export interface LoginLimiters {
  readonly challengePerIp: RateLimiter
  readonly loginPerIp: RateLimiter
  /** Counts failed attempts only, keyed by client IP and claimed address (see the login handler). */
  readonly loginFailuresPerIpAndAddress: RateLimiter
  /** Failed logins written to the audit log, all clients together (one key); past it they are only logged. */
  readonly failureAuditRows: RateLimiter
}

/** What the login routes need. */
export interface AuthRouteDeps {
  readonly challenges: ChallengeBook
  readonly sessions: SessionStore
  readonly guard: AuthGuard
  readonly rpc: RpcClient
  readonly db: AdminDb
  readonly limits: LoginLimiters
  readonly log: Logger
  readonly clock: () => number
  /** The client address of a request (the peer, or X-Forwarded-For behind a trusted proxy). */
  readonly clientIp: ClientIpOf
}

const unauthorized = (reason: string, message: string) => new HttpError(401, reason, message)

/** GET /api/auth/challenge, POST /api/auth/login, GET /api/auth/me, POST /api/auth/logout, POST /api/auth/logout-all. */
export function authRoutes(deps: AuthRouteDeps) {
  const { challenges, sessions, guard, rpc, db, limits, log, clock, clientIp } = deps
  let failureAuditsDropped = 0
  /** A failed login's audit row; bounded (failures cost an attacker nothing), never failing the request. */
  const auditFailure = (address: string, ip: string, reason: string) => {
    if (!limits.failureAuditRows.allow('all')) {
      if (failureAuditsDropped++ === 0) log.warn('too many failed logins to audit each; the rest of this minute are only logged')
      return
    }
    if (failureAuditsDropped > 0) {
      log.warn(`${failureAuditsDropped} failed logins were not audited (the audit limit was reached)`)
      failureAuditsDropped = 0
    }
    try {
      db.write((tx) => appendAudit(tx, { atMs: clock(), actor: address, action: 'login.failed', target: null, detail: { ip, reason } }))
    } catch (err) {
      log.warn(`could not audit a failed login of ${address}: ${(err as Error).message}`)
    }
  }
  /** A logout's audit row. The sessions are gone whatever happens here, so a database that cannot write only costs the row (logged). */
  const auditSessionEnd = (address: string, action: 'logout' | 'logout.all', detail: Record<string, unknown>) => {
    try {
      db.write((tx) => appendAudit(tx, { atMs: clock(), actor: address, action, target: null, detail }))
    } catch (err) {
      log.warn(`could not audit the ${action} of ${address}: ${(err as Error).message}`)
    }
  }
  return (
    new Elysia()
      .get('/api/auth/challenge', ({ request, server }) => {
        const ip = clientIp(server, request)
        const limit = limits.challengePerIp.take(ip)
        if (!limit.ok) throw rateLimited('challenges from this IP', limit.retryAfterSecs)
        const challenge = challenges.issue()
        if (challenge === undefined) {
          const retry = Math.max(1, Math.ceil(challenges.msUntilRoom() / 1000))
          throw new HttpError(
            503,
            'TOO_MANY_CHALLENGES',
            `${CHALLENGES_MAX} login challenges are live, the most the service keeps; retry in ${retry} s`,
            { retry_after_secs: retry },
          )
        }
        return challenge
      })
      .post(
        '/api/auth/login',
        async ({ body, request, server }) => {
          const ip = clientIp(server, request)
          const address = normalizeAddress(body.address)!
          // Only failures count, so an admin who logs in often is never locked out by it; and they
          // count per client IP and address, so nobody can lock the admin out by failing logins that
          // merely claim the admin's address from elsewhere (each IP stays bounded by loginPerIp).
          const failureKey = `${ip}|${address}`
          const failures = limits.loginFailuresPerIpAndAddress.peek(failureKey)
          if (!failures.ok) throw rateLimited(`failed login attempts for ${address} from this IP`, failures.retryAfterSecs)
          const fail = (err: HttpError, why: string) => {
            limits.loginFailuresPerIpAndAddress.take(failureKey)
            log.warn(`login ${address} from ${ip}: ${why}`)
            auditFailure(address, ip, err.reason)
            return err
          }

          const challenge = challenges.find(body.timestamp_ms)
          if (challenge === undefined) {
            throw fail(
              unauthorized(
                'CHALLENGE_MISSING',
                'no live challenge has this timestamp_ms: it was never issued, expired (5 minutes) or was already used; get a new one',
              ),
              `no live challenge with timestamp_ms ${body.timestamp_ms}`,
            )
          }
          const signer = recoverPersonalSign(adminLoginMessage(challenge, body.timestamp_ms), body.signature)
          if (signer !== address) {
            throw fail(
              unauthorized(
                'SIGNATURE_MISMATCH',
                'the signature over the challenge bytes (docs/protocol.md#admin-login-signature) does not recover to address',
              ),
              'signature does not recover to the address',
            )
          }
          if (!(await isChainAdmin(rpc, address))) {
            throw fail(new HttpError(403, 'NOT_ADMIN', `${address} does not hold the Admin role on chain`), 'not an Admin on chain')
          }
          // Another request may have spent the challenge while the chain was asked: one-time means
          // exactly one session per challenge.
          if (challenges.find(body.timestamp_ms) !== challenge)
            throw unauthorized('CHALLENGE_MISSING', 'the challenge was used meanwhile; get a new one')
          // The audit row first: if it cannot be written the login fails (503) and nothing is issued.
          db.write((tx) => appendAudit(tx, { atMs: clock(), actor: address, action: 'login', target: null, detail: { ip } }))
          challenges.consume(body.timestamp_ms)
          const { token, session } = sessions.create(address)
          log.info(`login ${address} from ${ip}`)
          return { token, expires_at_secs: Math.floor(session.expiresAtMs / 1000) }
        },
        {
          parse: 'arrayBuffer',
          body: LoginBody,
          // Counted before the body is parsed and validated, so malformed attempts use up the IP's
          // budget too.
          transform(ctx) {
            const limit = limits.loginPerIp.take(clientIp(ctx.server, ctx.request))
            if (!limit.ok) throw rateLimited('login attempts from this IP', limit.retryAfterSecs)
            readJsonBody(ctx)
          },
        },
      )
      .get('/api/auth/me', async ({ headers }) => {
        const session = await guard.admin(headers.authorization, true)
        return { address: session.address, expires_at_secs: Math.floor(session.expiresAtMs / 1000) }
      })
      // Logout needs a live session and nothing else: neither the chain nor the Admin role, so a
      // token can always be given up (also by an address that lost the role, or while the node is down).
      .post('/api/auth/logout', ({ headers, request, server }) => {
        const session = guard.session(headers.authorization)
        sessions.revoke(bearerToken(headers.authorization)!)
        const ip = clientIp(server, request)
        auditSessionEnd(session.address, 'logout', { ip })
        log.info(`logout ${session.address} from ${ip}`)
        return { ok: true }
      })
      .post('/api/auth/logout-all', ({ headers, request, server }) => {
        const session = guard.session(headers.authorization)
        const revoked = sessions.revokeAddress(session.address)
        const ip = clientIp(server, request)
        auditSessionEnd(session.address, 'logout.all', { ip, revoked })
        log.info(`logout-all ${session.address} from ${ip}: ${revoked} sessions ended`)
        return { ok: true, revoked }
      })
  )
}
