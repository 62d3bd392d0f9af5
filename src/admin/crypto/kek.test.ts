import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKek, KekError, kekFileExists, readKek, seal, unseal } from './kek.ts'

const dir = mkdtempSync(join(tmpdir(), 'perpd-kek-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the KEK file', () => {
  test('is created with mode 0600 (in a new 0700 directory) and read back the same; never overwritten', () => {
    const file = join(dir, 'sub', 'admin.kek')
    expect(kekFileExists(file)).toBe(false)
    const first = createKek(file)
    expect(first.created).toBe(true)
    expect(kekFileExists(file)).toBe(true)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, 'sub')).mode & 0o777).toBe(0o700)
    expect(readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/)
    const again = readKek(file)
    expect(again.created).toBe(false)
    expect(again.id).toBe(first.id)
    expect(again.key).toEqual(first.key)
    expect(() => createKek(file)).toThrow()
    expect(readKek(file).id).toBe(first.id)
  })

  test('is refused when group or others may read it, or when it is not 32 hex bytes', () => {
    const open = join(dir, 'open.kek')
    writeFileSync(open, 'ab'.repeat(32))
    chmodSync(open, 0o640)
    expect(() => readKek(open)).toThrow(KekError)
    const short = join(dir, 'short.kek')
    writeFileSync(short, 'abcd', { mode: 0o600 })
    expect(() => readKek(short)).toThrow(/32 bytes/)
    expect(() => readKek(join(dir, 'missing.kek'))).toThrow(KekError)
  })
})

describe('seal / unseal', () => {
  const kek = createKek(join(dir, 'seal.kek'))
  const secret = new Uint8Array(32).fill(7)

  test('round-trips under the same record id, with a fresh nonce each time', () => {
    const a = seal(kek, 'id-1', secret)
    const b = seal(kek, 'id-1', secret)
    expect(a.nonce).not.toEqual(b.nonce)
    expect(a.sealed.length).toBe(48)
    expect(unseal(kek, 'id-1', a)).toEqual(secret)
  })

  test('fails under another record id (associated data) or another KEK', () => {
    const s = seal(kek, 'id-1', secret)
    expect(() => unseal(kek, 'id-2', s)).toThrow()
    const other = createKek(join(dir, 'other.kek'))
    expect(() => unseal(other, 'id-1', s)).toThrow()
  })
})
