// The console's calls to the admin API (same origin, JSON), and the words it shows for a failure.

/** A non-2xx reply: its status and the service's `{error, reason}` body (docs/admin.md#errors). */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly status: number,
    readonly reason: string,
    readonly serviceMessage: string,
    readonly body: Record<string, unknown>,
  ) {
    super(`${status} ${reason}: ${serviceMessage}`)
  }
}

/** How long one call may take before the console gives up on it. */
const CALL_TIMEOUT_MS = 30_000

/** Calls `METHOD path` with an optional JSON body and session token; the parsed reply, or ApiError. */
export async function apiCall<T>(method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = {}
  if (opts.body !== undefined) headers['content-type'] = 'application/json'
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`
  let res: Response
  try {
    res = await fetch(path, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      cache: 'no-store',
    })
  } catch (err) {
    throw new ApiError(0, 'UNREACHABLE', `the admin service did not answer (${(err as Error).message})`, {})
  }
  const text = await res.text()
  let parsed: unknown
  try {
    parsed = text === '' ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  if (!res.ok) {
    const body = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {}
    const reason = typeof body.reason === 'string' ? body.reason : `HTTP_${res.status}`
    const message = typeof body.error === 'string' ? body.error : text.slice(0, 200) || res.statusText
    throw new ApiError(res.status, reason, message, body)
  }
  return parsed as T
}

/**
 * One sentence for a failure, saying what happened and what to do, followed by the service's own
 * reason code and message. The statuses a person meets at login and on every screen (401, 403,
 * 429, 503) get their own words.
 */
export function describeError(err: unknown): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err)
  const said = `(${err.status} ${err.reason}: ${err.serviceMessage})`
  switch (err.status) {
    case 0:
      return `The admin service cannot be reached; check that it is running. ${said}`
    case 401:
      if (err.reason === 'SIGNATURE_MISMATCH')
        return `The signature does not match the address; sign with the wallet's own account. ${said}`
      if (err.reason === 'CHALLENGE_MISSING') return `The login challenge expired or was already used; log in again. ${said}`
      return `Your session has ended (expired, logged out or the service restarted); log in again. ${said}`
    case 403:
      return `This address does not hold the Admin role on chain, so the service refuses it. ${said}`
    case 404:
      return `The service does not offer this (404). ${said}`
    case 409:
      return `Refused because of the current state. ${said}`
    case 429: {
      const retry = typeof err.body.retry_after_secs === 'number' ? err.body.retry_after_secs : undefined
      return `Too many attempts: wait${retry === undefined ? ' a minute' : ` ${retry} s`} and try again. ${said}`
    }
    case 503:
      return err.reason === 'CHAIN_UNAVAILABLE'
        ? `The service cannot reach the chain node to check the Admin role; try again shortly. ${said}`
        : `The service is unavailable for the moment; try again shortly. ${said}`
    default:
      return `The request failed. ${said}`
  }
}
