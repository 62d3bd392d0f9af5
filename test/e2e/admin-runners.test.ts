// The bridge and liquidator runners end to end: deposits from a file source are credited once
// (also across a restart), a position the oracle's price move makes liquidatable is liquidated,
// and pending withdrawals are settled unless settlement is paused.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import {
  creditDeposit,
  grantRole,
  placeOrder,
  setSettlementPaused,
  submitOracleQuote,
  updateLeverage,
  withdrawRequest,
} from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { eciesEncrypt } from '../../src/wire/ecies.ts'
import { type AdminProcess, api, eventually, loginToken, removeAdminFiles, startAdmin } from '../support/admin-process.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { DEV_KEYS, removeDir, startNode } from '../support/node-process.ts'
import { startTreasury, treasuryKey } from '../support/treasury.ts'

const QUOTER = DEV_KEYS[3] as Hex
const DEPOSITOR = DEV_KEYS[5] as Hex
const LIQUIDATOR = DEV_KEYS[6] as Hex
const SETTLER = DEV_KEYS[7] as Hex
const OTHER_DEPOSITOR = DEV_KEYS[8] as Hex
/** A trader that exists only through the bridge. */
const TRADER = '0x4242424242424242424242424242424242424242424242424242424242424242' as Hex
const addr = (k: Hex) => privateKeyToAccount(k).address.toLowerCase()
const XAU = 4

const node = await startNode()
const rpc = new CheckedRpcClient(node.url)
const offered = new Set((await rpc.query<{ actions: { name: string }[] }>('getActionsMeta')).data.actions.map((a) => a.name))
const needed = [
  'GrantRole',
  'CreditDeposit',
  'ClaimWithdrawal',
  'SettleWithdrawal',
  'LiquidatePosition',
  'SubmitOracleQuote',
  'WithdrawRequest',
  'SetSettlementPaused',
]
const ready = needed.every((a) => offered.has(a))
if (!ready) console.warn(`admin-runners: the node lacks one of ${needed.join(', ')}; these tests are skipped`)
const sourceDir = mkdtempSync(join(tmpdir(), 'perpd-deposits-'))
const depositFile = join(sourceDir, 'deposits.json')
const adminArgs = ['--deposit-source', depositFile, '--runner-interval-ms', '150']
let admin: AdminProcess = await startAdmin({ nodeUrl: node.url, args: adminArgs })
let token = await loginToken(admin.url, DEV_KEYS[0] as Hex)
const chainAdmin = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[0] })
const quoter = new PerpdClient({ url: node.url, privateKey: QUOTER })
const trader = new PerpdClient({ url: node.url, privateKey: TRADER })

afterAll(async () => {
  await admin.stop()
  await node.stop()
  removeAdminFiles(admin)
  removeDir(node.dataDir)
  removeDir(sourceDir)
})

const account = async (address: string) =>
  (await rpc.query<{ balance: string; positions: Record<string, { size: string }> }>('getAccount', { address })).data
const status = async (service: string) => (await api(admin.url, '/api/service-config', { token })).body.services[service]
const writeDeposits = (deposits: { deposit_id: string; account: string; amount: string }[]) =>
  writeFileSync(depositFile, JSON.stringify({ deposits }))

async function uploadAndBind(key: Hex, service: string): Promise<string> {
  const { public_key } = (await api(admin.url, '/api/keys/encryption-key')).body
  const up = await api(admin.url, '/api/keys', {
    method: 'POST',
    token,
    body: { label: service, address: addr(key), ...eciesEncrypt(public_key, new TextEncoder().encode(key)) },
  })
  if (up.status !== 201) throw new Error(up.text)
  const bind = await api(admin.url, '/api/service-config', { method: 'PUT', token, body: { service, key_id: up.body.id, enabled: true } })
  if (bind.status !== 200) throw new Error(bind.text)
  return up.body.id
}

let lastQuoteMs = 0
async function quote(mark: number) {
  // XAU-USD's min_quote_interval_ms is 100.
  await Bun.sleep(Math.max(0, lastQuoteMs + 150 - Date.now()))
  lastQuoteMs = Date.now()
  const r = await quoter.send(
    submitOracleQuote([
      {
        market_id: XAU,
        bid_price: (mark - 0.5).toFixed(2),
        ask_price: (mark + 0.5).toFixed(2),
        mark_price: mark.toFixed(2),
        source_ts_ms: lastQuoteMs,
      },
    ]),
  )
  if (r.status !== 'accepted' || r.events.some((e) => e.sub_kind === 'BatchItemRejected')) throw new Error(JSON.stringify(r))
}

describe.if(ready)('bridge and liquidator runners', () => {
  test('setup: roles on chain, keys uploaded and bound', async () => {
    for (const [k, role] of [
      [QUOTER, 'Quoter'],
      [DEPOSITOR, 'BridgeDeposit'],
      [OTHER_DEPOSITOR, 'BridgeDeposit'],
      [LIQUIDATOR, 'Liquidator'],
      [SETTLER, 'BridgeWithdraw'],
    ] as const) {
      // The dev genesis may already give some of these roles; either way the account ends with it.
      const r = await chainAdmin.send(grantRole({ account: addr(k), role }))
      expect(r.status === 'accepted' || (r.status === 'kept-reject' && r.reason.code === 'RoleAlreadyGranted')).toBe(true)
    }
    await uploadAndBind(DEPOSITOR, 'bridge_deposit')
    await uploadAndBind(LIQUIDATOR, 'liquidator')
    await uploadAndBind(SETTLER, 'bridge_withdraw')
    for (const s of ['bridge_deposit', 'liquidator', 'bridge_withdraw']) {
      await eventually(async () => ((await status(s)).status.last_success_ms !== null ? true : undefined), 10_000, `${s} to run`)
      expect((await status(s)).status).toMatchObject({ state: 'running', last_error: null })
    }
  }, 30_000)

  test('deposits from the source are credited once each; one already on chain counts as a duplicate', async () => {
    // Someone else credited dep-3 already.
    expect(
      (
        await new PerpdClient({ url: node.url, privateKey: OTHER_DEPOSITOR }).send(
          creditDeposit({ account: trader.address, amount: '7', deposit_id: 'dep-3' }),
        )
      ).status,
    ).toBe('accepted')
    writeDeposits([{ deposit_id: 'dep-1', account: trader.address, amount: '5000' }])
    await eventually(async () => ((await account(trader.address)).balance === '5007' ? true : undefined), 10_000, 'the first deposit')
    writeDeposits([
      { deposit_id: 'dep-1', account: trader.address, amount: '5000' },
      { deposit_id: 'dep-2', account: trader.address, amount: '500.25' },
      { deposit_id: 'dep-3', account: trader.address, amount: '7' },
    ])
    await eventually(
      async () => ((await status('bridge_deposit')).status.detail.duplicates === 1 ? true : undefined),
      10_000,
      'the duplicate',
    )
    await Bun.sleep(500)
    expect((await account(trader.address)).balance).toBe('5507.25')
    expect((await status('bridge_deposit')).status.detail).toMatchObject({ credited: 2, duplicates: 1, rejected: 0, pending_last_cycle: 0 })
    // Each credit is an audit row (docs/admin.md#audit-log); the duplicate moved no money.
    const credits = (await api(admin.url, '/api/audit?limit=100', { token })).body.entries.filter(
      (e: { action: string }) => e.action === 'deposit.credit',
    )
    expect(credits.map((e: { target: string }) => e.target).sort()).toEqual(['dep-1', 'dep-2'])
    expect(credits.find((e: { target: string }) => e.target === 'dep-2')).toMatchObject({
      actor: 'bridge_deposit',
      detail: { account: trader.address.toLowerCase(), amount: '500.25', signer: addr(DEPOSITOR), tx_hash: expect.stringMatching(/^0x/) },
    })
  }, 30_000)

  test('after a restart the runner remembers what it credited', async () => {
    await admin.stop()
    admin = await startAdmin({ nodeUrl: node.url, dataDir: admin.dataDir, args: adminArgs })
    token = await loginToken(admin.url, DEV_KEYS[0] as Hex)
    await eventually(async () => ((await status('bridge_deposit')).status.cycles >= 3 ? true : undefined), 10_000, 'a few cycles')
    expect((await status('bridge_deposit')).status.detail).toMatchObject({ credited: 0, duplicates: 0, pending_last_cycle: 0 })
    expect((await account(trader.address)).balance).toBe('5507.25')
  }, 30_000)

  test('a position the price move makes liquidatable is liquidated', async () => {
    await quote(2400)
    expect((await trader.send(updateLeverage({ market_id: XAU, leverage: 20 }))).status).toBe('accepted')
    const fill = await trader.send(placeOrder({ market_id: XAU, side: 'Bid', price: '2401', qty: '40', tif: 'Ioc', reduce_only: false }))
    expect(fill.status === 'accepted' && fill.events.some((e) => e.sub_kind === 'Filled')).toBe(true)
    expect((await account(trader.address)).positions[String(XAU)]?.size).toBe('40')
    // Two steps (a quote may move the mark at most 5%): equity ends below the maintenance margin.
    await quote(2330)
    await quote(2280)
    await eventually(
      async () => (Object.keys((await account(trader.address)).positions).length === 0 ? true : undefined),
      10_000,
      'the liquidation',
    )
    // The position is gone once the block commits; the runner counts it once the reply to its
    // action reaches it, a moment later (seen in CI: submitted 1, liquidated 0 right after).
    await eventually(
      async () => (((await status('liquidator')).status.detail as { liquidated?: number }).liquidated === 1 ? true : undefined),
      10_000,
      "the runner's count of it",
    )
    expect((await status('liquidator')).status.detail).toMatchObject({ liquidated: 1, failed: 0 })
    expect(admin.output()).toContain(`LiquidatePosition ${trader.address} market ${XAU}: liquidated`)
  }, 30_000)

  test('withdrawals wait while settlement is paused and are settled once it resumes', async () => {
    expect((await chainAdmin.send(setSettlementPaused({ paused: true }))).status).toBe('accepted')
    const before = Number((await account(trader.address)).balance)
    const request = await trader.send((nonce, network) =>
      withdrawRequest({ network, destination: addr(DEV_KEYS[9] as Hex), amount: '50', nonce }),
    )
    expect(request.status).toBe('accepted')
    const pending = async () => (await rpc.query<unknown[]>('getWithdrawals', { address: trader.address })).data.length
    expect(await pending()).toBe(1)
    await eventually(
      async () => ((await status('bridge_withdraw')).status.detail.settlement_paused === true ? true : undefined),
      10_000,
      'the paused state',
    )
    await Bun.sleep(600)
    expect(await pending()).toBe(1)
    expect((await chainAdmin.send(setSettlementPaused({ paused: false }))).status).toBe('accepted')
    await eventually(async () => ((await pending()) === 0 ? true : undefined), 10_000, 'the settlement')
    expect(Number((await account(trader.address)).balance)).toBeCloseTo(before - 50, 6)
    // As for the liquidation: the runner counts the settlement once its reply reaches it.
    await eventually(
      async () => (((await status('bridge_withdraw')).status.detail as { settled?: number }).settled === 1 ? true : undefined),
      10_000,
      "the runner's count of it",
    )
    expect((await status('bridge_withdraw')).status.detail).toMatchObject({ settlement_paused: false, settled: 1 })
  }, 30_000)

  test('with a payout endpoint a withdrawal is paid out first, asked about until paid, and settled with its external tx', async () => {
    // The treasury is briefly down: its first answers are 503 and it records nothing.
    const treasury = startTreasury({ nodeUrl: node.url })
    treasury.mode('unavailable')
    try {
      await admin.stop()
      admin = await startAdmin({ nodeUrl: node.url, dataDir: admin.dataDir, args: [...adminArgs, '--withdraw-payout-url', treasury.url] })
      token = await loginToken(admin.url, DEV_KEYS[0] as Hex)
      const request = await trader.send((nonce, network) =>
        withdrawRequest({ network, destination: addr(DEV_KEYS[9] as Hex), amount: '25', nonce }),
      )
      expect(request.status).toBe('accepted')
      const id =
        request.status === 'accepted' ? (request.events.find((e) => e.sub_kind === 'WithdrawalRequested')!.body.withdrawal_id as number) : 0
      const block1 = (await rpc.query<{ digest: string }[]>('getBlocks', { before_height: 2, limit: 1 })).data[0]!.digest
      const key = treasuryKey('dev', block1, id)
      await eventually(async () => (treasury.posts(key) >= 1 ? true : undefined), 10_000, 'the first payout request')
      treasury.mode('ok')
      await eventually(
        async () => ((await rpc.query<unknown[]>('getWithdrawals', { address: trader.address })).data.length === 0 ? true : undefined),
        10_000,
        'the settlement',
      )
      expect(treasury.payouts(key)).toBe(1)
      expect(JSON.parse(treasury.records.get(key)!.body)).toMatchObject({
        withdrawal_id: id,
        amount: '25',
        destination: addr(DEV_KEYS[9] as Hex),
      })
      expect(admin.output()).toContain('no answer from the treasury')
      const settled = (await status('bridge_withdraw')).status.detail
      expect(settled).toMatchObject({ paid: 1, settled: 1 })
      // The runner's record names the settlement's block, whose SettleWithdrawal carries the payout's reference.
      const externalTx = treasury.records.get(key)!.externalTx!
      const db = new Database(admin.dbFile, { readonly: true })
      const row = db.query('SELECT status, external_tx, height FROM bridge_withdrawals WHERE withdrawal_id = ?').get(id) as {
        status: string
        external_tx: string
        height: number
      }
      db.close()
      expect(row).toMatchObject({ status: 'settled', external_tx: externalTx })
      const block = (
        await rpc.query<{ envelopes: { action: { SettleWithdrawal?: { withdrawal_id: number; external_tx?: string } } }[] }>('getBlock', {
          height: row.height,
        })
      ).data
      const settle = block.envelopes.map((e) => e.action.SettleWithdrawal).find((a) => a !== undefined)
      expect(settle).toEqual({ withdrawal_id: id, external_tx: externalTx })
    } finally {
      treasury.stop()
    }
  }, 30_000)
})
