// The data directory and the KEK file at start (docs/admin.md#data-directory,
// docs/admin.md#sealing-and-the-kek-file): the directory is 0700 and the database files 0600 (made
// so when new, checked when not); outside --dev the KEK lives outside the data directory, so a
// backup of the directory never carries the key that opens it; and a KEK is created only together
// with a new database, never for an existing one (whose keys a new KEK could not open).
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { Logger } from '../../lib/log.ts'
import { createKek, type Kek, kekFileExists, readKek } from '../crypto/kek.ts'
import { StartRefused } from '../start-refused.ts'
import { ADMIN_DB_FILE } from './db.ts'

/** Where the KEK goes by default: inside the data directory under --dev, else beside it (`DATA_DIR.kek`). */
export function defaultKekFile(dataDir: string, dev: boolean): string {
  const dir = resolve(dataDir)
  return dev ? join(dir, 'admin.kek') : `${dir}.kek`
}

/** The file names of the database: the database, its WAL and its shared-memory index. */
export function databaseFiles(dataDir: string): string[] {
  const db = join(dataDir, ADMIN_DB_FILE)
  return [db, `${db}-wal`, `${db}-shm`]
}

/** The real path of `p`, resolving symbolic links in the part of it that exists. */
function realPath(p: string): string {
  const abs = resolve(p)
  try {
    return realpathSync(abs)
  } catch {
    const parent = dirname(abs)
    return parent === abs ? abs : join(realPath(parent), basename(abs))
  }
}

/** Whether `file` lies inside `dir` (after resolving symbolic links). */
export function isInside(file: string, dir: string): boolean {
  const rel = relative(realPath(dir), realPath(file))
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
}

/**
 * A path whose mode must be `want` (0700 for the directory, 0600 for the files): checked; under
 * --dev a looser mode is tightened (and logged) instead of refused.
 */
function checkMode(path: string, want: number, dev: boolean, log: Logger): void {
  const mode = statSync(path).mode & 0o777
  if ((mode & 0o077) === 0) return
  if (dev) {
    chmodSync(path, want)
    log.warn(`${path} had mode ${mode.toString(8)}; set it to ${want.toString(8)} (--dev)`)
    return
  }
  throw new StartRefused(`${path} has mode ${mode.toString(8)}; it must not be open to group or others (chmod ${want.toString(8)} ${path})`)
}

/** What {@link prepareDataDir} found and made. */
export interface PreparedDataDir {
  readonly kek: Kek
  /** Whether the database existed before this start. */
  readonly dbExisted: boolean
}

/** Creates the data directory (mode 0700) when it is missing; refuses a path that is not a directory. */
export function ensureDataDirectory(dataDir: string): void {
  if (!existsSync(dataDir)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    chmodSync(dataDir, 0o700)
  } else if (!statSync(dataDir).isDirectory()) {
    throw new StartRefused(`--data-dir ${dataDir} is not a directory`)
  }
}

/**
 * Makes the data directory ready for AdminDb.open and loads (or, for a new database only, creates)
 * the KEK. Throws StartRefused (or KekError) with what to do when something cannot be used.
 */
export function prepareDataDir(p: { dataDir: string; kekFile: string; dev: boolean; log: Logger }): PreparedDataDir {
  const { dataDir, kekFile, dev, log } = p
  ensureDataDirectory(dataDir)
  checkMode(dataDir, 0o700, dev, log)

  if (!dev && isInside(kekFile, dataDir)) {
    throw new StartRefused(
      `the KEK file ${kekFile} is inside the data directory ${dataDir}: a backup of the data directory would carry the key ` +
        `that opens it. Move it elsewhere (e.g. mv ${kekFile} ${defaultKekFile(dataDir, false)}) and start with --kek-file pointing at it ` +
        '(or without --kek-file, to use that default place); only --dev accepts a KEK inside the data directory',
    )
  }

  const [dbFile] = databaseFiles(dataDir) as [string]
  for (const f of databaseFiles(dataDir)) if (existsSync(f)) checkMode(f, 0o600, dev, log)
  // An empty file is what SQLite treats as a new database too.
  const dbExisted = existsSync(dbFile) && statSync(dbFile).size > 0

  let kek: Kek
  if (kekFileExists(kekFile)) {
    kek = readKek(kekFile)
  } else if (!dbExisted) {
    kek = createKek(kekFile)
  } else {
    const old = join(dataDir, 'admin.kek')
    const hint =
      old !== resolve(kekFile) && existsSync(old)
        ? ` ${old} exists: earlier versions kept the KEK inside the data directory; move it out (mv ${old} ${kekFile}).`
        : ' Restore the KEK file from its backup, or start with the --kek-file this database was created with.'
    throw new StartRefused(
      `the database ${dbFile} exists but its KEK file ${kekFile} does not; a new KEK would not open the stored keys, so none is created.${hint}`,
    )
  }

  // A new database file is made 0600 before SQLite opens it; SQLite gives its WAL and shared-memory
  // files the database file's mode.
  if (!existsSync(dbFile)) closeSync(openSync(dbFile, 'wx', 0o600))
  chmodSync(dbFile, 0o600)
  return { kek, dbExisted }
}

/** After the database is open: its WAL and shared-memory files exist now, with the database's mode; make sure. */
export function checkDatabaseFileModes(dataDir: string): void {
  for (const f of databaseFiles(dataDir)) {
    if (!existsSync(f)) continue
    const mode = statSync(f).mode & 0o777
    if ((mode & 0o077) !== 0) chmodSync(f, 0o600)
  }
}
