// The command-line client's stored session: a JSON file (mode 0600, in a 0700 directory) under the
// user's config directory, holding the admin URL, the token, its address and expiry.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** What `perpd-admin login` stores. */
export interface StoredSession {
  readonly admin_url: string
  readonly token: string
  readonly address: string
  readonly expires_at_secs: number
}

/** The session file inside the client's config directory. */
export function sessionFile(configDir: string): string {
  return join(configDir, 'session.json')
}

/** The stored session, or undefined when there is none (or it cannot be read). */
export function readSession(configDir: string): StoredSession | undefined {
  try {
    const s = JSON.parse(readFileSync(sessionFile(configDir), 'utf8')) as Partial<StoredSession>
    if (
      typeof s.admin_url !== 'string' ||
      typeof s.token !== 'string' ||
      typeof s.address !== 'string' ||
      typeof s.expires_at_secs !== 'number'
    )
      return undefined
    return s as StoredSession
  } catch {
    return undefined
  }
}

/** Stores a session readable by its owner only. */
export function writeSession(configDir: string, session: StoredSession): string {
  mkdirSync(configDir, { recursive: true, mode: 0o700 })
  const file = sessionFile(configDir)
  writeFileSync(file, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return file
}

/** Removes the stored session; false when there was none. */
export function deleteSession(configDir: string): boolean {
  const file = sessionFile(configDir)
  try {
    rmSync(file)
    return true
  } catch {
    return false
  }
}
