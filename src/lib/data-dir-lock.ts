// One running process of a program per data directory. Two nodes on one directory would both
// produce blocks into the one block store: each height goes to whichever commits first and the
// other node halts (STORE_WRITE_FAILED), to be restarted by its supervisor into the same race. Two
// admin services on one directory would both run its runners with its keys. So each takes the
// directory's lock first, before it opens or upgrades anything there, and a second one is refused
// with a message instead.
//
// The lock is SQLite's own: a small database, DIR/PROGRAM.lock, written once in exclusive locking
// mode, which keeps its write lock until the connection closes. The operating system drops the
// lock when the process ends however it ends (SIGKILL included), so a crash leaves no stale lock
// to clean up. The `perpd` subcommands that only read a directory (replay, status) take no lock.
import { Database } from 'bun:sqlite'
import { chmodSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'

/** Another process holds the data directory's lock. */
export class DataDirInUse extends Error {
  override readonly name: string = 'DataDirInUse'
}

/** The held lock of a data directory; release() (or the process's end) gives it up. */
export interface DataDirLock {
  release(): void
}

/** The programs that lock their data directory; the lock file is named after the program. */
export type LockingProgram = 'perpd' | 'perpd-admin'

/**
 * Takes dataDir's lock for program, or throws DataDirInUse when another process holds it. A missing
 * directory is created, with directoryMode when given (the admin service's is 0700).
 */
export function lockDataDir(dataDir: string, program: LockingProgram, directoryMode?: number): DataDirLock {
  mkdirSync(dataDir, { recursive: true, ...(directoryMode === undefined ? {} : { mode: directoryMode }) })
  const path = join(dataDir, `${program}.lock`)
  const db = new Database(path, { create: true })
  try {
    chmodSync(path, 0o600)
    // No waiting: a lock that is held stays held as long as its process runs.
    db.exec('PRAGMA busy_timeout = 0')
    db.exec('PRAGMA locking_mode = EXCLUSIVE')
    // A write takes the exclusive lock, which exclusive locking mode then never releases.
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)')
    db.transaction(() => {
      db.exec('DELETE FROM holder')
      db.query('INSERT INTO holder (pid) VALUES (?)').run(process.pid)
    })()
  } catch (err) {
    db.close()
    if ((err as { code?: unknown }).code === 'SQLITE_BUSY')
      throw new DataDirInUse(
        `the data directory ${dataDir} is in use by another running ${program} (it holds ${path}): stop that one first, or give this one another --data-dir`,
      )
    throw err
  }
  return { release: () => db.close() }
}
