import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '../../lib/log.ts'
import { StartRefused } from '../start-refused.ts'
import { checkDatabaseFileModes, databaseFiles, defaultKekFile, isInside, prepareDataDir } from './data-dir.ts'
import { AdminDb } from './db.ts'

const root = mkdtempSync(join(tmpdir(), 'perpd-datadir-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let n = 0
const fresh = () => join(root, `case-${n++}`)
const mode = (p: string) => statSync(p).mode & 0o777
const prepare = (dataDir: string, kekFile: string, dev = false) => prepareDataDir({ dataDir, kekFile, dev, log: silentLogger })

describe('the data directory at start', () => {
  test('a new one is made 0700 with a 0600 database (and WAL, SHM), and a new KEK beside it', () => {
    const dataDir = fresh()
    const kekFile = defaultKekFile(dataDir, false)
    expect(kekFile).toBe(`${dataDir}.kek`)
    const p = prepare(dataDir, kekFile)
    expect(p).toMatchObject({ dbExisted: false, kek: { created: true } })
    expect(mode(dataDir)).toBe(0o700)
    expect(mode(kekFile)).toBe(0o600)
    const db = AdminDb.open(dataDir)
    db.setMeta('x', 'y')
    checkDatabaseFileModes(dataDir)
    for (const f of databaseFiles(dataDir)) if (existsSync(f)) expect({ f, mode: mode(f) }).toEqual({ f, mode: 0o600 })
    db.close()
    expect(prepare(dataDir, kekFile)).toMatchObject({ dbExisted: true, kek: { created: false, id: p.kek.id } })
  })

  test('outside --dev the KEK must not be inside the data directory (also through a symlink)', () => {
    const dataDir = fresh()
    expect(() => prepare(dataDir, join(dataDir, 'admin.kek'))).toThrow('is inside the data directory')
    expect(() => prepare(dataDir, join(dataDir, 'sub', 'deeper.kek'))).toThrow(StartRefused)
    const link = `${dataDir}-link`
    symlinkSync(dataDir, link)
    expect(() => prepare(dataDir, join(link, 'admin.kek'))).toThrow('is inside the data directory')
    expect(existsSync(join(dataDir, 'admin.kek'))).toBe(false)
    // --dev accepts it (its default place there).
    expect(prepare(dataDir, defaultKekFile(dataDir, true), true).kek.created).toBe(true)
    expect(isInside(`${dataDir}.kek`, dataDir)).toBe(false)
    expect(isInside(join(`${dataDir}x`, 'k'), dataDir)).toBe(false)
  })

  test('an existing database whose KEK is missing is refused, and no KEK is made', () => {
    const dataDir = fresh()
    const kekFile = `${dataDir}.kek`
    prepare(dataDir, kekFile)
    AdminDb.open(dataDir).close()
    rmSync(kekFile)
    expect(() => prepare(dataDir, kekFile)).toThrow('exists but its KEK file')
    expect(existsSync(kekFile)).toBe(false)
    // The hint for a KEK an earlier version kept inside the data directory.
    writeFileSync(join(dataDir, 'admin.kek'), 'ab'.repeat(32), { mode: 0o600 })
    expect(() => prepare(dataDir, kekFile)).toThrow(`mv ${join(dataDir, 'admin.kek')} ${kekFile}`)
  })

  test('a data directory or database file open to others is refused; --dev tightens it', () => {
    const dataDir = fresh()
    const kekFile = `${dataDir}.kek`
    prepare(dataDir, kekFile)
    AdminDb.open(dataDir).close()
    const [db] = databaseFiles(dataDir) as [string]
    chmodSync(db, 0o644)
    expect(() => prepare(dataDir, kekFile)).toThrow(`has mode 644; it must not be open to group or others (chmod 600 ${db})`)
    chmodSync(db, 0o600)
    chmodSync(dataDir, 0o755)
    expect(() => prepare(dataDir, kekFile)).toThrow(`(chmod 700 ${dataDir})`)
    prepare(dataDir, kekFile, true)
    expect(mode(dataDir)).toBe(0o700)
    const notDir = join(root, 'a-file')
    writeFileSync(notDir, '')
    expect(() => prepare(notDir, `${notDir}.kek`)).toThrow('is not a directory')
  })
})
