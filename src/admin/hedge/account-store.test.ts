// Hedge accounts, policies and config at rest: keys sealed under the KEK (and re-sealed by a KEK
// rotation), every change audited, the rotation order, the default policy and the config's
// "absent fields keep their value".
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '../../lib/log.ts'
import { addressOfPrivateKey } from '../../wire/signing.ts'
import { readKek } from '../crypto/kek.ts'
import { listAudit, verifyAuditChain } from '../store/audit.ts'
import { prepareDataDir } from '../store/data-dir.ts'
import { AdminDb } from '../store/db.ts'
import { rotateKek } from '../store/kek-rotation.ts'
import { KeyStore } from '../store/key-store.ts'
import { HedgeAccountStore } from './account-store.ts'
import { HedgeOrderStore } from './order-store.ts'
import { DEFAULT_POLICY, HedgePolicyStore } from './policy-store.ts'

const root = mkdtempSync(join(tmpdir(), 'perpd-hedge-accounts-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))
const K1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const K2 = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'
const K3 = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6'

const dataDir = join(root, 'data')
const kekFile = join(root, 'admin.kek')
const { kek } = prepareDataDir({ dataDir, kekFile, dev: false, log: silentLogger })
let now = 5_000
let db = AdminDb.open(dataDir)
new KeyStore(db, kek).checkKek(kekFile)
let accounts = new HedgeAccountStore(db, kek, () => now)
const policies = () => new HedgePolicyStore(db, () => now)
const ids: string[] = []

describe('hedge accounts', () => {
  test('create seals the key, audits, seeds the default policies in the same transaction; a duplicate address is refused', () => {
    const c = accounts.create({
      name: 'one',
      privateKey: bytes(K1),
      actor: '0xadmin',
      seed: (tx, id, at) => {
        expect(policies().seedDefaults(tx, ['XAU-USD', 'OIL-USD'], id, at, '0xadmin')).toEqual(['XAU-USD', 'OIL-USD'])
      },
    })
    if (!c.ok) throw new Error('not created')
    ids.push(c.account.id)
    expect(c.account).toEqual({
      id: c.account.id,
      name: 'one',
      address: addressOfPrivateKey(bytes(K1)),
      enabled: true,
      created_at_ms: 5_000,
      updated_at_ms: 5_000,
      updated_by: '0xadmin',
      margin: null,
    })
    expect(
      policies()
        .list()
        .map((p) => [p.market_symbol, p.hedge_ratio, p.hedge_mode, p.enabled, p.account_id]),
    ).toEqual([
      ['OIL-USD', DEFAULT_POLICY.hedge_ratio, DEFAULT_POLICY.hedge_mode, false, c.account.id],
      ['XAU-USD', '1', 'follow', false, c.account.id],
    ])
    const sealed = db.read((d) => d.query('SELECT sealed FROM hedge_accounts').get() as { sealed: Uint8Array })
    expect(Buffer.from(sealed.sealed).toString('hex')).not.toContain(K1.slice(2))
    expect(accounts.create({ name: 'again', privateKey: bytes(K1), actor: '0xadmin' })).toEqual({ ok: false, existingId: c.account.id })
    now = 5_500
    const c2 = accounts.create({ name: 'two', privateKey: bytes(K2), actor: '0xadmin' })
    if (!c2.ok) throw new Error('not created')
    ids.push(c2.account.id)
    expect(accounts.openPrivateKey(ids[1]!)).toEqual(bytes(K2))
  })

  test('update: name, enabled, a new key (new address, margin cleared); a key another account has is refused', () => {
    accounts.setMargin(ids[0]!, { account_value: '100', withdrawable: '90' }, 6_000)
    expect(accounts.get(ids[0]!)!.margin).toEqual({ account_value: '100', withdrawable: '90', updated_at_ms: 6_000 })
    now = 7_000
    expect(accounts.update(ids[0]!, { name: 'uno', enabled: false, actor: '0xother' })).toBe('ok')
    expect(accounts.get(ids[0]!)).toMatchObject({ name: 'uno', enabled: false, updated_at_ms: 7_000, updated_by: '0xother' })
    expect(accounts.update(ids[0]!, { privateKey: bytes(K2), actor: '0xadmin' })).toEqual({ duplicateOf: ids[1]! })
    expect(accounts.update(ids[0]!, { privateKey: bytes(K3), actor: '0xadmin' })).toBe('ok')
    expect(accounts.get(ids[0]!)).toMatchObject({ address: addressOfPrivateKey(bytes(K3)), margin: null })
    expect(accounts.openPrivateKey(ids[0]!)).toEqual(bytes(K3))
    expect(accounts.update('nope', { enabled: true, actor: 'x' })).toBe('missing')
    expect(accounts.update(ids[0]!, { enabled: true, actor: '0xadmin' })).toBe('ok')
  })

  test('rotation: enabled accounts, the one whose latest order is oldest first (never used first)', () => {
    const orders = new HedgeOrderStore(db, () => now)
    const order = (account_id: string, cloid: string) =>
      orders.insert({
        account_id,
        market_symbol: 'XAU-USD',
        coin: 'XAU',
        is_buy: true,
        sz: '1',
        px: '1',
        delta_before: '1',
        cloid,
        status: 'dry_run',
      })
    expect(accounts.rotation().map((a) => a.id)).toEqual(ids)
    order(ids[0]!, '0x01')
    expect(accounts.rotation().map((a) => a.id)).toEqual([ids[1]!, ids[0]!])
    order(ids[1]!, '0x02')
    expect(accounts.rotation().map((a) => a.id)).toEqual([ids[0]!, ids[1]!])
    accounts.update(ids[0]!, { enabled: false, actor: 'x' })
    expect(accounts.rotation().map((a) => a.id)).toEqual([ids[1]!])
    accounts.update(ids[0]!, { enabled: true, actor: 'x' })
  })

  test('a KEK rotation re-seals the hedge accounts with the operator keys', () => {
    db.close()
    const r = rotateKek({ dataDir, kekFile, dev: false, actor: 'local:test' })
    expect(r.resealed).toBe(2)
    const fresh = readKek(kekFile)
    db = AdminDb.open(dataDir)
    accounts = new HedgeAccountStore(db, fresh, () => now)
    expect(accounts.openPrivateKey(ids[0]!)).toEqual(bytes(K3))
    expect(accounts.openPrivateKey(ids[1]!)).toEqual(bytes(K2))
    expect(db.read((d) => d.query('SELECT DISTINCT kek_id FROM hedge_accounts').all())).toEqual([{ kek_id: fresh.id }])
    // The old KEK opens nothing any more; a process still holding it may not seal.
    expect(() => new HedgeAccountStore(db, kek).openPrivateKey(ids[0]!)).toThrow()
    expect(() => new HedgeAccountStore(db, kek).create({ name: 'late', privateKey: bytes(K1), actor: 'x' })).toThrow('kek rotate')
  })

  test('delete clears the policies that named the account; every change is in the audit chain', () => {
    expect(accounts.delete(ids[0]!, '0xadmin')).toBe(true)
    expect(accounts.delete(ids[0]!, '0xadmin')).toBe(false)
    expect(
      policies()
        .list()
        .every((p) => p.account_id === null),
    ).toBe(true)
    const actions: string[] = listAudit(db, { limit: 100 }).map((e) => e.action)
    for (const a of ['hedge.account.create', 'hedge.account.update', 'hedge.account.delete', 'hedge.policy.upsert', 'kek.rotate'])
      expect(actions).toContain(a)
    expect(verifyAuditChain(db.read((d) => d)).ok).toBe(true)
  })
})

describe('hedge policies and config', () => {
  test('upsert by symbol, delete, audited with what was there', () => {
    const p = policies()
    const policy = {
      market_symbol: 'BTC-USD',
      hedge_ratio: '0.5',
      hedge_mode: 'reverse' as const,
      account_id: null,
      enabled: true,
      threshold_notional: '50',
      min_order_sz: null,
      max_order_sz: '3',
    }
    p.upsert(policy, '0xadmin')
    p.upsert({ ...policy, hedge_ratio: '0.75' }, '0xadmin')
    expect(p.list().find((x) => x.market_symbol === 'BTC-USD')).toEqual({
      ...policy,
      hedge_ratio: '0.75',
      updated_at_ms: now,
      updated_by: '0xadmin',
    })
    const audit = listAudit(db, { limit: 1 })[0]!
    expect(audit).toMatchObject({ action: 'hedge.policy.upsert', target: 'BTC-USD' })
    expect((audit.detail as { before: { hedge_ratio: string } }).before.hedge_ratio).toBe('0.5')
    expect(p.delete('BTC-USD', '0xadmin')).toBe(true)
    expect(p.delete('BTC-USD', '0xadmin')).toBe(false)
  })

  test('the config: defaults, and absent fields keep their value', () => {
    const p = policies()
    expect(p.config()).toEqual({
      interval_ms: 10_000,
      threshold_notional: '100',
      min_order_sz: '0',
      max_slippage_bps: 50,
      dry_run: true,
      ext_network: 'mainnet',
      updated_at_ms: 0,
      updated_by: 'default',
    })
    p.setConfig({ dry_run: false, interval_ms: 2_000 }, '0xadmin')
    p.setConfig({ ext_network: 'testnet' }, '0xadmin')
    expect(p.config()).toMatchObject({
      interval_ms: 2_000,
      dry_run: false,
      ext_network: 'testnet',
      threshold_notional: '100',
      max_slippage_bps: 50,
    })
    expect(listAudit(db, { limit: 1 })[0]).toMatchObject({ action: 'hedge.config.update', detail: { change: { ext_network: 'testnet' } } })
  })
})
