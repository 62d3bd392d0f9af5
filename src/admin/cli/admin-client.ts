// A client of the admin service's HTTP API, used by the command-line client.
import { parseJsonOrUndefined } from '../../lib/json.ts'
import type { KeyEntry } from '../../wire/admin-replies.ts'

/** A non-2xx answer of the admin service. */
export class AdminApiError extends Error {
  override readonly name = 'AdminApiError'
  constructor(
    readonly status: number,
    readonly body: { error?: string; reason?: string } | undefined,
    path: string,
  ) {
    super(`${path}: HTTP ${status}${body?.reason ? ` ${body.reason}` : ''}${body?.error ? `: ${body.error}` : ''}`)
  }
}

/** The admin API over HTTP, optionally with a session token. */
export class AdminClient {
  constructor(
    readonly baseUrl: string,
    private readonly token?: string,
  ) {}

  /** Whether requests carry a session token. */
  get hasToken(): boolean {
    return this.token !== undefined
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`
    const res = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    })
    const parsed = parseJsonOrUndefined(await res.text())
    if (!res.ok) throw new AdminApiError(res.status, parsed as { error?: string; reason?: string } | undefined, path)
    return parsed as T
  }

  challenge() {
    return this.call<{ challenge: string; timestamp_ms: number }>('GET', '/api/auth/challenge')
  }

  login(body: { address: string; timestamp_ms: number; signature: string }) {
    return this.call<{ token: string; expires_at_secs: number }>('POST', '/api/auth/login', body)
  }

  logout() {
    return this.call<{ ok: true }>('POST', '/api/auth/logout')
  }

  logoutAll() {
    return this.call<{ ok: true; revoked: number }>('POST', '/api/auth/logout-all')
  }

  me() {
    return this.call<{ address: string; expires_at_secs: number }>('GET', '/api/auth/me')
  }

  encryptionKey() {
    return this.call<{ public_key: string; algorithm: string }>('GET', '/api/keys/encryption-key')
  }

  listKeys() {
    return this.call<{ keys: KeyEntry[] }>('GET', '/api/keys')
  }

  uploadKey(body: { label: string; address: string; ephemeral_public_key: string; iv: string; ciphertext: string; public_key: string }) {
    return this.call<KeyEntry>('POST', '/api/keys', body)
  }

  renameKey(id: string, label: string) {
    return this.call<KeyEntry>('PATCH', `/api/keys/${encodeURIComponent(id)}`, { label })
  }

  deleteKey(id: string) {
    return this.call<{ ok: true }>('DELETE', `/api/keys/${encodeURIComponent(id)}`)
  }

  serviceConfig() {
    return this.call<{
      services: Record<
        string,
        {
          key_id: string | null
          address: string | null
          enabled: boolean
          status: { state: string; last_error: string | null; last_success_ms: number | null }
        }
      >
    }>('GET', '/api/service-config')
  }

  bind(body: { service: string; key_id: string | null; enabled: boolean }) {
    return this.call<{ ok: true; status: { state: string; last_error: string | null } }>('PUT', '/api/service-config', body)
  }
}
