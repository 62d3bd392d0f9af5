// One running process of a program per data directory. Two nodes on one directory would both
// produce blocks into the one block store: each height goes to whichever commits first and the
// other node halts (STORE_WRITE_FAILED), to be restarted by its supervisor into the same race. Two
// admin services on one directory would both run its runners with its keys. So each takes the
// directory's lock first, before it opens or upgrades anything there, and a second one is refused
// with a message instead.
//
// The lock is SQLite's own: a small database, DIR/PROGRAM.lock, locked for writing once in exclusive
// locking mode, which keeps that lock until the connection closes. The operating system drops the
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

/** Takes dataDir's lock for program (creating the directory when missing), or throws DataDirInUse when another process holds it. */
export function lockDataDir(dataDir: string, program: LockingProgram): DataDirLock {
  mkdirSync(dataDir, { recursive: true })
  const path = join(dataDir, `${program}.lock`)
  const db = new Database(path, { create: true })
  try {
    chmodSync(path, 0o600)
    // No waiting: a lock that is held stays held as long as its process runs.
    db.exec('PRAGMA busy_timeout = 0')
    db.exec('PRAGMA locking_mode = EXCLUSIVE')
    // BEGIN EXCLUSIVE takes the write lock, which exclusive locking mode keeps after the COMMIT.
    db.exec('BEGIN EXCLUSIVE; COMMIT')
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
