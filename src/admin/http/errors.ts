// Failures the admin service turns into HTTP statuses. Each carries a stable `reason` code so a
// client can branch without parsing the message; the message says what to do next.
import { ChainUnavailableError } from '../auth/chain-roles.ts'
import { DatabaseUnavailableError } from '../store/db.ts'

/** A request that ends with a non-2xx status; the app's error handler renders it as JSON. */
export class HttpError extends Error {
  override readonly name = 'HttpError'
  /** For a 403: the session address that was refused, so the refusal is audited (docs/admin.md#audit-log). */
  actor: string | undefined
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message)
  }

  /** The JSON body of the reply: `{error, reason, ...detail}`. */
  body(): Record<string, unknown> {
    return { error: this.message, reason: this.reason, ...this.detail }
  }
}

/** The HttpError that stands for an infrastructure failure, or undefined for anything else. */
export function unavailableAsHttp(err: unknown): HttpError | undefined {
  if (err instanceof DatabaseUnavailableError)
    return new HttpError(503, 'DATABASE_UNAVAILABLE', `admin database unavailable: ${err.message}`)
  if (err instanceof ChainUnavailableError) return new HttpError(503, 'CHAIN_UNAVAILABLE', `chain RPC unavailable: ${err.message}`)
  return undefined
}
