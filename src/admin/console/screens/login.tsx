// The login screen: sign the service's challenge with the browser wallet.
import { useState } from 'preact/hooks'
import { describeError } from '../api.ts'
import type { ConsoleSession } from '../session.ts'
import { type Note, NoteLine } from '../ui.tsx'
import { WalletError, walletLogin } from '../wallet-login.ts'

export function LoginScreen({ note, onLoggedIn }: { note: Note | undefined; onLoggedIn: (s: ConsoleSession) => void }) {
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<Note | undefined>()
  const login = async () => {
    setBusy(true)
    setFailure(undefined)
    try {
      onLoggedIn(await walletLogin(window.ethereum))
    } catch (err) {
      setFailure({ kind: 'error', text: err instanceof WalletError ? err.message : describeError(err) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="login">
      <h1>perpd-admin</h1>
      <p>
        Log in with the wallet of an address that holds the <code>Admin</code> role on chain. The wallet signs a one-time challenge of the
        service (<code>personal_sign</code>); nothing is sent to the chain.
      </p>
      <NoteLine note={failure ?? note} testId="login-note" />
      <button type="button" class="primary" onClick={login} disabled={busy} data-testid="login">
        {busy ? 'Waiting for the wallet…' : 'Log in with wallet'}
      </button>
    </main>
  )
}
