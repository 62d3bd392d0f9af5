// The withdraw runner's bookkeeping: rows per chain, the payout request written before the
// treasury is called (once), the transitions and their audit rows, settlements sent without a
// reply, and the chain binding that adopts older rows or restarts the scan for another chain.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { listAudit } from './audit.ts'
import { BridgeStore } from './bridge-store.ts'
import { ADMIN_DB_FILE, AdminDb, MIGRATIONS, SCHEMA_VERSION } from './db.ts'

const dir = mkdtempSync(join(tmpdir(), 'perpd-bridge-store-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const CHAIN_A = `0x${'a1'.repeat(32)}`
const CHAIN_B = `0x${'b2'.repeat(32)}`
const W = {
  withdrawal_id: 1,
  account: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  destination: '0x000000000000000000000000000000000000dead',
  amount: '12.5',
}

describe('withdrawal rows', () => {
  test('a payout request is recorded once, before anything else, and each step is audited', () => {
    const db = AdminDb.open(join(dir, 'rows'))
    const store = new BridgeStore(db, () => 1_000)
    expect(store.bindChain(CHAIN_A, 'dev')).toBe('adopted')
    expect(store.requestPayout(CHAIN_A, W, 'perpd:dev:a1:1', '0xsigner')).toBe(true)
    expect(store.requestPayout(CHAIN_A, W, 'perpd:dev:a1:1', '0xsigner')).toBe(false)
    expect(store.withdrawal(CHAIN_A, 1)).toMatchObject({
      status: 'payout_requested',
      idempotency_key: 'perpd:dev:a1:1',
      sent_tx_hashes: '[]',
    })
    // Rows belong to their chain: withdrawal 1 of another chain is another row.
    expect(store.withdrawal(CHAIN_B, 1)).toBeUndefined()
    store.transition(CHAIN_A, W, 'paid', { externalTx: '0xfeed' })
    expect(store.openWithdrawals(CHAIN_A, 10).map((r) => r.status)).toEqual(['paid'])
    for (let i = 0; i < 20; i++) store.noteSentTx(CHAIN_A, 1, `0x${i}`)
    const hashes = JSON.parse(store.withdrawal(CHAIN_A, 1)!.sent_tx_hashes) as string[]
    expect(hashes.length).toBe(16)
    expect(hashes.at(-1)).toBe('0x19')
    store.transition(CHAIN_A, W, 'settled', { txHash: '0x19', height: 42 })
    expect(store.withdrawal(CHAIN_A, 1)).toMatchObject({ status: 'settled', external_tx: '0xfeed', tx_hash: '0x19', height: 42 })
    expect(store.openWithdrawals(CHAIN_A, 10)).toEqual([])
    store.transition(CHAIN_A, { ...W, withdrawal_id: 2 }, 'alert', { reason: 'left the chain' })
    expect(store.alerts(CHAIN_A, 10).map((r) => [r.withdrawal_id, r.reason])).toEqual([[2, 'left the chain']])
    expect(
      listAudit(db, { limit: 10 })
        .reverse()
        .map((e) => [e.action, e.target]),
    ).toEqual([
      ['withdrawal.payout_requested', '1'],
      ['withdrawal.payout', '1'],
      ['withdrawal.settle', '1'],
      ['withdrawal.alert', '2'],
    ])
    db.close()
  })

  test("another chain restarts the scan and forgets the accounts; the old chain's rows stay", () => {
    const db = AdminDb.open(join(dir, 'reset'))
    const store = new BridgeStore(db, () => 1_000)
    expect(store.bindChain(CHAIN_A, 'dev')).toBe('adopted')
    store.addWithdrawAccounts([W.account], 300)
    store.transition(CHAIN_A, W, 'settled', {})
    expect(store.bindChain(CHAIN_A, 'dev')).toBe('same')
    expect(store.scanHeight()).toBe(300)
    expect(store.bindChain(CHAIN_B, 'dev')).toBe('reset')
    expect(store.scanHeight()).toBe(0)
    expect(store.withdrawAccounts(10)).toEqual([])
    expect(store.withdrawal(CHAIN_A, 1)?.status).toBe('settled')
    expect(store.withdrawal(CHAIN_B, 1)).toBeUndefined()
    expect(listAudit(db, { limit: 1 })[0]).toMatchObject({
      action: 'withdrawal.chain_reset',
      detail: { from: CHAIN_A, to: CHAIN_B, network: 'dev' },
    })
    db.close()
  })

  test('a database of schema 2 is migrated: its withdrawal rows are kept and adopted by the first chain', () => {
    const dataDir = join(dir, 'v2')
    mkdirSync(dataDir)
    const file = join(dataDir, ADMIN_DB_FILE)
    const v2 = new Database(file, { create: true })
    v2.run(MIGRATIONS[0]!.sql)
    v2.run(MIGRATIONS[1]!.sql)
    v2.run('PRAGMA user_version = 2')
    v2.run(`INSERT INTO bridge_withdrawals (withdrawal_id, account, destination, amount, status, external_tx, tx_hash, height, reason, updated_at_ms)
      VALUES (7, '0xaa', '0xbb', '1', 'paid', '0xfeed', NULL, NULL, NULL, 5)`)
    v2.run("INSERT INTO meta (key, value) VALUES ('bridge_withdraw_scan_height', '120')")
    v2.close()
    const db = AdminDb.open(dataDir)
    expect(db.schemaVersion()).toBe(SCHEMA_VERSION)
    const store = new BridgeStore(db, () => 1_000)
    expect(store.bindChain(CHAIN_A, 'dev')).toBe('adopted')
    expect(store.withdrawal(CHAIN_A, 7)).toMatchObject({ status: 'paid', external_tx: '0xfeed', account: '0xaa' })
    expect(store.scanHeight()).toBe(120)
    db.close()
  })
})
