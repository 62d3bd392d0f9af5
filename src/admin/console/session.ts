// The console's session: the token, address and expiry of a login, kept in sessionStorage (this tab
// only, gone when it closes), never in localStorage or a cookie.

/** A logged-in session. */
export interface ConsoleSession {
  readonly token: string
  readonly address: string
  readonly expiresAtSecs: number
}

const STORAGE_KEY = 'perpd-admin.session'

/** The stored session, unless it is missing, malformed or expired. */
export function loadSession(nowMs: number = Date.now()): ConsoleSession | undefined {
  const raw = sessionStorage.getItem(STORAGE_KEY)
  if (raw === null) return undefined
  try {
    const s = JSON.parse(raw) as Partial<ConsoleSession>
    if (typeof s.token !== 'string' || typeof s.address !== 'string' || typeof s.expiresAtSecs !== 'number') return undefined
    if (s.expiresAtSecs * 1000 <= nowMs) return undefined
    return { token: s.token, address: s.address, expiresAtSecs: s.expiresAtSecs }
  } catch {
    return undefined
  }
}

export function storeSession(session: ConsoleSession): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session))
}

export function clearSession(): void {
  sessionStorage.removeItem(STORAGE_KEY)
}
