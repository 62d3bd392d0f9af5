// `perpd-admin kek rotate` (docs/admin.md#rotating-the-kek): re-seals every secret the database
// holds under a new KEK, in one transaction, with the service stopped. The new KEK is written to
// KEK_FILE.new and synced first; inside the transaction, before the commit, the old KEK is copied to
// KEK_FILE.old and KEK_FILE.new is renamed over KEK_FILE; after the commit KEK_FILE.old is removed.
// A crash at any point leaves either the old KEK with the old database, or the new KEK with the
// new database, plus (between the rename and the commit) the old KEK in KEK_FILE.old.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { silentLogger } from '../../lib/log.ts'
import { generateKek, type Kek, KekError, kekFileExists, seal, unseal, writeKekFile } from '../crypto/kek.ts'
import { StartRefused } from '../start-refused.ts'
import { appendAudit } from './audit.ts'
import { prepareDataDir } from './data-dir.ts'
import { ADMIN_DB_FILE, AdminDb } from './db.ts'
import { KEK_ID_META } from './key-store.ts'

/**
 * Every table holding secrets sealed under the KEK, with the column that is the associated data
 * (the row id). Rows carry `kek_id`, `nonce` and `sealed`: the operator keys and the hedge
 * accounts' venue keys.
 */
export const SEALED_TABLES: readonly { readonly table: string; readonly idColumn: string }[] = [
  { table: 'keys', idColumn: 'id' },
  { table: 'hedge_accounts', idColumn: 'id' },
]

/** The file the service writes its process id to while it runs; rotation refuses while it names a live process. */
export const ADMIN_PID_FILE = 'admin.pid'

/** What a rotation did. */
export interface RotationResult {
  readonly oldKekId: string
  readonly newKekId: string
  /** Secrets re-sealed, all tables together. */
  readonly resealed: number
}

/** The live process named by the data directory's pid file, if any. */
export function runningServicePid(dataDir: string): number | undefined {
  let pid: number
  try {
    pid = Number(readFileSync(join(dataDir, ADMIN_PID_FILE), 'utf8').trim())
  } catch {
    return undefined
  }
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return undefined
  try {
    process.kill(pid, 0)
    return pid
  } catch (err) {
    // EPERM: it exists but belongs to someone else; still a live process.
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined
  }
}

function syncDir(dir: string): void {
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** Rotates the KEK of the database in `dataDir`; throws StartRefused / KekError with what to do when it cannot. */
export function rotateKek(p: { dataDir: string; kekFile: string; dev: boolean; actor: string; clock?: () => number }): RotationResult {
  const { dataDir, kekFile } = p
  const pid = runningServicePid(dataDir)
  if (pid !== undefined)
    throw new StartRefused(
      `perpd-admin (pid ${pid}) is running on ${dataDir}; stop it first: a running service keeps the old KEK in memory`,
    )
  const newFile = `${kekFile}.new`
  const backup = `${kekFile}.old`
  if (existsSync(backup)) {
    throw new StartRefused(
      `${backup} exists (left by an earlier rotation): check which KEK it holds, keep it where your backups need it, and remove it before rotating again`,
    )
  }
  const dbFile = join(dataDir, ADMIN_DB_FILE)
  if (!existsSync(dbFile) || statSync(dbFile).size === 0) throw new StartRefused(`there is no database in ${dataDir}: nothing to rotate`)
  if (!kekFileExists(kekFile)) throw new KekError(`there is no KEK file ${kekFile}; name the database's KEK with --kek-file`)
  // The same checks as a start: modes, and where the KEK lives.
  const old: Kek = prepareDataDir({ dataDir, kekFile, dev: p.dev, log: silentLogger }).kek
  const db = AdminDb.open(dataDir)
  try {
    const recorded = db.meta(KEK_ID_META)
    if (recorded !== undefined && recorded !== old.id) {
      throw new KekError(
        `the KEK in ${kekFile} (id ${old.id}) is not the one this database was written with (id ${recorded}); rotate with the original --kek-file`,
      )
    }
    const fresh = generateKek()
    writeKekFile(newFile, fresh, false)
    let swapped = false
    let resealed = 0
    try {
      db.write((tx) => {
        for (const { table, idColumn } of SEALED_TABLES) {
          const rows = tx.query(`SELECT ${idColumn} AS id, nonce, sealed FROM ${table}`).all() as {
            id: string
            nonce: Uint8Array
            sealed: Uint8Array
          }[]
          const update = tx.query(`UPDATE ${table} SET kek_id = ?, nonce = ?, sealed = ? WHERE ${idColumn} = ?`)
          for (const r of rows) {
            let plain: Uint8Array
            try {
              plain = unseal(old, r.id, { nonce: r.nonce, sealed: r.sealed })
            } catch {
              throw new KekError(
                `${table} row ${r.id} does not open under the current KEK (altered, or sealed under another KEK); nothing was changed`,
              )
            }
            const s = seal(fresh, r.id, plain)
            plain.fill(0)
            update.run(fresh.id, s.nonce, s.sealed, r.id)
            resealed++
          }
        }
        tx.query('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
          KEK_ID_META,
          fresh.id,
        )
        appendAudit(tx, {
          atMs: (p.clock ?? Date.now)(),
          actor: p.actor,
          action: 'kek.rotate',
          target: null,
          detail: { from_kek_id: old.id, to_kek_id: fresh.id, resealed },
        })
        // The new KEK takes the file's name before the commit, the old one kept beside it: if the
        // commit fails the old one goes back; if the process dies here, KEK_FILE.old opens the database.
        writeKekFile(backup, old, true)
        renameSync(newFile, kekFile)
        syncDir(dirname(kekFile))
        swapped = true
      })
    } catch (err) {
      if (swapped) renameSync(backup, kekFile)
      rmSync(newFile, { force: true })
      if (!swapped) rmSync(backup, { force: true })
      throw err
    }
    rmSync(backup, { force: true })
    fresh.key.fill(0)
    return { oldKekId: old.id, newKekId: fresh.id, resealed }
  } finally {
    old.key.fill(0)
    db.close()
  }
}
