import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { addressOfPrivateKey } from '../../wire/signing.ts'
import { createKek, KekError } from '../crypto/kek.ts'
import { BindingStore } from './bindings.ts'
import { AdminDb } from './db.ts'
import { isPrintableLabel, KeyStore } from './key-store.ts'

const dir = mkdtempSync(join(tmpdir(), 'perpd-keystore-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const KEY_A = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const KEY_B = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))

describe('KeyStore', () => {
  const db = AdminDb.open(join(dir, 'data'))
  const kek = createKek(join(dir, 'admin.kek'))
  const keys = new KeyStore(db, kek)
  keys.checkKek('admin.kek')
  const bindings = new BindingStore(db)

  test('stores a sealed key, lists it without the key, opens it for a runner', () => {
    const created = keys.create({ label: 'a', privateKey: bytes(KEY_A), actor: '0xadmin' })
    if (!created.ok) throw new Error('not created')
    expect(created.entry).toMatchObject({ label: 'a', address: addressOfPrivateKey(KEY_A), used_by: [] })
    expect(keys.list().map((k) => k.id)).toEqual([created.entry.id])
    expect(keys.openPrivateKey(created.entry.id)).toEqual(bytes(KEY_A))
    expect(keys.openPrivateKey('00000000-0000-4000-8000-000000000000')).toBeUndefined()
    expect(keys.create({ label: 'again', privateKey: bytes(KEY_A), actor: '0xadmin' })).toEqual({ ok: false, existingId: created.entry.id })
  })

  test('a sealed key moved to another row does not open there (the id is associated data)', () => {
    const b = keys.create({ label: 'b', privateKey: bytes(KEY_B), actor: '0xadmin' })
    if (!b.ok) throw new Error('not created')
    const a = keys.list().find((k) => k.label === 'a')!
    db.write((d) =>
      d.run('UPDATE keys SET nonce = (SELECT nonce FROM keys WHERE id = ?), sealed = (SELECT sealed FROM keys WHERE id = ?) WHERE id = ?', [
        a.id,
        a.id,
        b.entry.id,
      ]),
    )
    expect(() => keys.openPrivateKey(b.entry.id)).toThrow()
    expect(keys.delete(b.entry.id, '0xadmin')).toEqual({ ok: true })
  })

  test('a bound key is not deleted; used_by names its services; the database refuses too', () => {
    const a = keys.list().find((k) => k.label === 'a')!
    expect(bindings.set({ service: 'oracle', keyId: a.id, enabled: false, actor: '0xadmin' })).toBe('ok')
    expect(keys.get(a.id)?.used_by).toEqual(['oracle'])
    expect(keys.delete(a.id, '0xadmin')).toEqual({ ok: false, missing: false, usedBy: ['oracle'] })
    // The foreign key stands behind the check.
    expect(() => db.write((d) => d.run('DELETE FROM keys WHERE id = ?', [a.id]))).toThrow(/FOREIGN KEY/)
    expect(bindings.set({ service: 'oracle', keyId: null, enabled: false, actor: '0xadmin' })).toBe('ok')
    expect(keys.delete(a.id, '0xadmin')).toEqual({ ok: true })
    expect(keys.delete(a.id, '0xadmin')).toEqual({ ok: false, missing: true })
  })

  test('a key serves one service: binding it to a second is refused, by the store and by the database', () => {
    const c = keys.create({ label: 'c', privateKey: bytes(KEY_B), actor: '0xadmin' })
    if (!c.ok) throw new Error('not created')
    expect(bindings.set({ service: 'liquidator', keyId: c.entry.id, enabled: true, actor: '0xadmin' })).toBe('ok')
    // Rebinding the same service (e.g. to disable it) is fine.
    expect(bindings.set({ service: 'liquidator', keyId: c.entry.id, enabled: false, actor: '0xadmin' })).toBe('ok')
    expect(bindings.set({ service: 'oracle', keyId: c.entry.id, enabled: true, actor: '0xadmin' })).toEqual({ inUse: ['liquidator'] })
    expect(bindings.otherServicesOf(c.entry.id, 'oracle')).toEqual(['liquidator'])
    expect(() =>
      db.write((d) =>
        d.run("INSERT INTO service_bindings (service, key_id, enabled, updated_at_ms, updated_by) VALUES ('oracle', ?, 1, 0, 'x')", [
          c.entry.id,
        ]),
      ),
    ).toThrow(/KEY_IN_USE/)
    expect(bindings.set({ service: 'liquidator', keyId: null, enabled: false, actor: '0xadmin' })).toBe('ok')
    expect(bindings.set({ service: 'oracle', keyId: c.entry.id, enabled: true, actor: '0xadmin' })).toBe('ok')
    expect(bindings.set({ service: 'oracle', keyId: null, enabled: false, actor: '0xadmin' })).toBe('ok')
    expect(keys.delete(c.entry.id, '0xadmin')).toEqual({ ok: true })
  })

  test('labels are printable text: control, format and separator characters are refused; a rename is audited', () => {
    for (const ok of ['oracle', 'quoter #2', 'é😀', 'x'.repeat(64)]) expect(isPrintableLabel(ok)).toBe(true)
    for (const bad of [
      '',
      'x'.repeat(65),
      'a\nb',
      'a\rb',
      '\u001b[31mred',
      'a\u0000',
      'a\u007f',
      'a\u0085',
      '\u202egnp.exe',
      'a\u200bb',
      'a\u2028b',
      '\ud800',
      'tab\t',
    ]) {
      expect(isPrintableLabel(bad)).toBe(false)
    }
    const c = keys.create({ label: 'before', privateKey: bytes(KEY_B), actor: '0xadmin' })
    if (!c.ok) throw new Error('not created')
    expect(() => keys.create({ label: 'x\u001b', privateKey: bytes(KEY_A), actor: '0xadmin' })).toThrow()
    expect(() => keys.rename(c.entry.id, 'a\nb', '0xadmin')).toThrow()
    expect(keys.rename(c.entry.id, 'after', '0xadmin')?.label).toBe('after')
    expect(keys.rename('00000000-0000-4000-8000-000000000000', 'x', '0xadmin')).toBeUndefined()
    expect(keys.delete(c.entry.id, '0xadmin')).toEqual({ ok: true })
  })

  test('every change wrote its audit row', () => {
    const actions = (db.read((d) => d.query('SELECT action FROM audit_log ORDER BY id').all()) as { action: string }[]).map((r) => r.action)
    expect(actions).toEqual([
      'key.upload',
      'key.upload',
      'key.delete',
      'service.bind',
      'service.unbind',
      'key.delete',
      'key.upload',
      'service.bind',
      'service.bind',
      'service.unbind',
      'service.bind',
      'service.unbind',
      'key.delete',
      'key.upload',
      'key.rename',
      'key.delete',
    ])
  })

  test('a database written under one KEK refuses another, at start and when sealing', () => {
    const other = new KeyStore(db, createKek(join(dir, 'other.kek')))
    expect(() => other.checkKek('other.kek')).toThrow(KekError)
    expect(() => other.create({ label: 'x', privateKey: bytes(KEY_A), actor: '0xadmin' })).toThrow(/restart the service with the new KEK/)
  })
})
