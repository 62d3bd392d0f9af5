// The console's frame: the login screen until a session exists, then the header (address, expiry,
// log out), the screen tabs (the URL's #hash names the screen) and the screen itself.
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks'
import { ApiError, apiCall, describeError } from './api.ts'
import { AuditScreen } from './screens/audit.tsx'
import { CategoriesScreen } from './screens/categories.tsx'
import { HedgingScreen } from './screens/hedging.tsx'
import { KeysScreen } from './screens/keys.tsx'
import { LoginScreen } from './screens/login.tsx'
import { ServicesScreen } from './screens/services.tsx'
import { WithdrawalsScreen } from './screens/withdrawals.tsx'
import { type ConsoleSession, clearSession, loadSession, storeSession } from './session.ts'
import { type AuthedCall, CallContext, fmtMs, type Note } from './ui.tsx'

const SCREENS = {
  keys: { title: 'Keys', render: () => <KeysScreen /> },
  services: { title: 'Services', render: () => <ServicesScreen /> },
  hedging: { title: 'Hedging', render: () => <HedgingScreen /> },
  categories: { title: 'Categories', render: () => <CategoriesScreen /> },
  withdrawals: { title: 'Withdrawals', render: () => <WithdrawalsScreen /> },
  audit: { title: 'Audit log', render: () => <AuditScreen /> },
} as const
type ScreenName = keyof typeof SCREENS

const screenOfHash = (): ScreenName => {
  const name = location.hash.replace(/^#\/?/, '')
  return name in SCREENS ? (name as ScreenName) : 'keys'
}

export function App() {
  const [session, setSession] = useState<ConsoleSession | undefined>(() => loadSession())
  const [loginNote, setLoginNote] = useState<Note | undefined>()
  const [screen, setScreen] = useState<ScreenName>(screenOfHash)

  useEffect(() => {
    const onHash = () => setScreen(screenOfHash())
    addEventListener('hashchange', onHash)
    return () => removeEventListener('hashchange', onHash)
  }, [])

  const endSession = useCallback((note: Note | undefined) => {
    clearSession()
    setSession(undefined)
    setLoginNote(note)
  }, [])

  // A session that expires while the page is open ends on its own.
  useEffect(() => {
    if (session === undefined) return
    const msLeft = session.expiresAtSecs * 1000 - Date.now()
    const timer = setTimeout(
      () => endSession({ kind: 'error', text: 'Your session expired (24 hours); log in again.' }),
      Math.max(0, msLeft),
    )
    return () => clearTimeout(timer)
  }, [session, endSession])

  const call = useMemo<AuthedCall>(
    () =>
      async <T,>(method: string, path: string, body?: unknown) => {
        if (session === undefined) throw new ApiError(401, 'UNAUTHENTICATED', 'not logged in', {})
        try {
          return await apiCall<T>(method, path, { token: session.token, body })
        } catch (err) {
          // The token is gone, or its address lost Admin: the session is of no use any more.
          if (err instanceof ApiError && (err.status === 401 || (err.status === 403 && err.reason === 'NOT_ADMIN'))) {
            endSession({ kind: 'error', text: describeError(err) })
          }
          throw err
        }
      },
    [session, endSession],
  )

  if (session === undefined) {
    return (
      <LoginScreen
        note={loginNote}
        onLoggedIn={(s) => {
          storeSession(s)
          setLoginNote(undefined)
          setSession(s)
        }}
      />
    )
  }

  const logout = async () => {
    try {
      await apiCall('POST', '/api/auth/logout', { token: session.token })
      endSession({ kind: 'ok', text: 'Logged out: the session was revoked at the service.' })
    } catch (err) {
      endSession({ kind: 'error', text: `Logged out here, but the service did not confirm the revocation. ${describeError(err)}` })
    }
  }

  return (
    <CallContext.Provider value={call}>
      <header class="top">
        <h1>perpd-admin</h1>
        <nav>
          {(Object.keys(SCREENS) as ScreenName[]).map((name) => (
            <a key={name} href={`#${name}`} class={name === screen ? 'current' : undefined}>
              {SCREENS[name].title}
            </a>
          ))}
        </nav>
        <div class="who">
          <span data-testid="session-address">{session.address}</span>
          <span class="who-expiry" data-testid="session-expiry">
            until {fmtMs(session.expiresAtSecs * 1000)}
          </span>
          <button type="button" onClick={logout} data-testid="logout">
            Log out
          </button>
        </div>
      </header>
      <main data-screen={screen}>{SCREENS[screen].render()}</main>
    </CallContext.Provider>
  )
}
