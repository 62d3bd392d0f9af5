// Withdrawals that cannot pay twice (docs/admin.md#bridge-withdraw-runner), end to end: a real node,
// the real admin service, and a faithful treasury (test/support/treasury.ts) that checks every
// signed, idempotent payout request and counts payouts per key. Each withdrawal is paid at most
// once through reply timeouts, a SIGKILL of the service mid-payout and a rebinding to another key;
// a settlement whose reply was lost is resolved from the chain; a payout someone else settles is
// an alert; a definite payout failure is refunded; the owner's cancel and the runner's claim race
// without ever both paying and crediting back; without a payout endpoint the runner refuses to
// start off the dev network; and a database pointed at a new chain scans it from block 1.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { WithdrawalsReply } from '../../src/admin/http/routes-withdrawals.ts'
import { cancelWithdrawRequest, grantRole, settleWithdrawal, withdrawRequest } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import type { ActionReply } from '../../src/client/rpc-client.ts'
import { devGenesis } from '../../src/node/dev-genesis.ts'
import { eciesEncrypt } from '../../src/wire/ecies.ts'
import { type AdminProcess, api, eventually, loginToken, removeAdminFiles, startAdmin } from '../support/admin-process.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { startLossyProxy } from '../support/lossy-proxy.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode, tempDataDir } from '../support/node-process.ts'
import { startTreasury, treasuryKey } from '../support/treasury.ts'

const KEY_A = DEV_KEYS[7] as Hex
const KEY_B = DEV_KEYS[6] as Hex
/** The dev genesis's bridge account (#8): a BridgeWithdraw key outside the admin service. */
const OUTSIDE_BRIDGE = DEV_KEYS[8] as Hex
const OWNER = DEV_KEYS[2] as Hex
const addr = (k: Hex) => privateKeyToAccount(k).address.toLowerCase()
const DESTINATION = addr(DEV_KEYS[9] as Hex)
/** Generous: the machine running these may be loaded. */
const WAIT_MS = 60_000

const node = await startNode()
const rpc = new CheckedRpcClient(node.url)
const chainAdmin = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[0] })
const owner = new PerpdClient({ url: node.url, privateKey: OWNER })
const outsider = new PerpdClient({ url: node.url, privateKey: OUTSIDE_BRIDGE })
const treasury = startTreasury({ nodeUrl: node.url })
const proxy = startLossyProxy(node.url)
const adminArgs = ['--runner-interval-ms', '150', '--withdraw-payout-url', treasury.url, '--withdraw-payout-timeout-ms', '1000']
let admin: AdminProcess = await startAdmin({ nodeUrl: proxy.url, args: adminArgs })
let token = await loginToken(admin.url, DEV_KEYS[0] as Hex)
const keyIds = new Map<Hex, string>()
const extraNodes: NodeProcess[] = []
const extraAdmins: AdminProcess[] = []

afterAll(async () => {
  await admin.stop().catch(() => 0)
  for (const a of extraAdmins) await a.stop().catch(() => 0)
  treasury.stop()
  proxy.stop()
  await node.stop()
  for (const n of extraNodes) await n.stop().catch(() => 0)
  removeAdminFiles(admin)
  for (const a of extraAdmins) removeAdminFiles(a)
  removeDir(node.dataDir)
  for (const n of extraNodes) removeDir(n.dataDir)
})

/** The chain's identity as the treasury keys name it: the digest of block 1. */
async function block1(client: CheckedRpcClient = rpc): Promise<string> {
  return eventually(
    async () =>
      (await client.query<{ height: number; digest: string }[]>('getBlocks', { before_height: 2, limit: 1 })).data.find(
        (b) => b.height === 1,
      )?.digest,
    WAIT_MS,
    'block 1',
  )
}
const keyOf = async (id: number) => treasuryKey('dev', await block1(), id)

interface Row {
  chain: string
  withdrawal_id: number
  status: string
  idempotency_key: string | null
  external_tx: string | null
  sent_tx_hashes: string
  tx_hash: string | null
  reason: string | null
}
function rowOf(id: number, chain: string, dbFile = admin.dbFile): Row | undefined {
  const db = new Database(dbFile, { readonly: true })
  try {
    return (db.query('SELECT * FROM bridge_withdrawals WHERE chain = ? AND withdrawal_id = ?').get(chain, id) as Row | null) ?? undefined
  } finally {
    db.close()
  }
}
/** Waits until the runner's row of a withdrawal is in one of `statuses`. */
async function rowIn(id: number, statuses: string[], chain?: string, dbFile?: string): Promise<Row> {
  const c = chain ?? (await block1())
  return eventually(
    async () => {
      const r = rowOf(id, c, dbFile)
      return r !== undefined && statuses.includes(r.status) ? r : undefined
    },
    WAIT_MS,
    `withdrawal ${id} to be ${statuses.join(' or ')}`,
  )
}

const status = async (base = admin.url, tok = token) =>
  (await api(base, '/api/service-config', { token: tok })).body.services.bridge_withdraw
const balance = async (address: string) => (await rpc.query<{ balance: string }>('getAccount', { address })).data.balance
const listed = async (address: string) =>
  (await rpc.query<{ withdrawal_id: number; status: string; claimed_by: string | null }[]>('getWithdrawals', { address })).data

async function request(amount: string, client = owner): Promise<number> {
  const r = await client.send((nonce, network) => withdrawRequest({ network, destination: DESTINATION, amount, nonce }))
  if (r.status !== 'accepted') throw new Error(JSON.stringify(r))
  return r.events.find((e) => e.sub_kind === 'WithdrawalRequested')!.body.withdrawal_id as number
}
const cancel = (id: number, client = owner): Promise<ActionReply> =>
  client.send((nonce, network) => cancelWithdrawRequest({ network, withdrawal_id: id, nonce }))

async function uploadKey(base: string, tok: string, key: Hex, label: string): Promise<string> {
  const { public_key } = (await api(base, '/api/keys/encryption-key')).body
  const up = await api(base, '/api/keys', {
    method: 'POST',
    token: tok,
    body: { label, address: addr(key), ...eciesEncrypt(public_key, new TextEncoder().encode(key)) },
  })
  if (up.status !== 201) throw new Error(up.text)
  return up.body.id as string
}
async function bind(base: string, tok: string, keyId: string): Promise<void> {
  const r = await api(base, '/api/service-config', {
    method: 'PUT',
    token: tok,
    body: { service: 'bridge_withdraw', key_id: keyId, enabled: true },
  })
  if (r.status !== 200) throw new Error(r.text)
}
/** The settlement or refund a row names, as the chain holds it. */
const txOf = async (hash: string) =>
  (
    await rpc.query<{ signer: string; status: string; action_kind: string; action: Record<string, Record<string, unknown>> }>('getTx', {
      tx_hash: hash,
    })
  ).data
const audit = async () =>
  (await api(admin.url, '/api/audit?limit=500', { token })).body.entries as {
    action: string
    target: string | null
    detail: Record<string, unknown>
  }[]

describe('bridge withdraw runner: withdrawals that cannot pay twice', () => {
  test('setup: BridgeWithdraw for two keys, both uploaded, the runner bound to the first', async () => {
    for (const k of [KEY_A, KEY_B]) {
      const r = await chainAdmin.send(grantRole({ account: addr(k), role: 'BridgeWithdraw' }))
      expect(r.status === 'accepted' || (r.status === 'kept-reject' && r.reason.code === 'RoleAlreadyGranted')).toBe(true)
    }
    keyIds.set(KEY_A, await uploadKey(admin.url, token, KEY_A, 'withdraw-a'))
    keyIds.set(KEY_B, await uploadKey(admin.url, token, KEY_B, 'withdraw-b'))
    await bind(admin.url, token, keyIds.get(KEY_A)!)
    await eventually(async () => ((await status()).status.last_success_ms !== null ? true : undefined), WAIT_MS, 'the runner to cycle')
    expect((await status()).status).toMatchObject({ state: 'running', detail: { network: 'dev', chain: await block1() } })
  }, 90_000)

  test("claimed, recorded, paid once with a signed idempotent request, then settled with the payout's reference", async () => {
    const before = await balance(addr(OWNER))
    const id = await request('12.5')
    const row = await rowIn(id, ['settled'])
    const key = await keyOf(id)
    expect(row.idempotency_key).toBe(key)
    // The treasury checked the signature (by the bound key), the key and the withdrawal on chain, and paid once.
    expect(treasury.payouts(key)).toBe(1)
    expect(treasury.posts(key)).toBe(1)
    const record = treasury.records.get(key)!
    expect(record).toMatchObject({ signer: addr(KEY_A), status: 'paid', withdrawalId: id })
    expect(JSON.parse(record.body)).toEqual({
      idempotency_key: key,
      network: 'dev',
      chain: await block1(),
      withdrawal_id: id,
      account: addr(OWNER),
      destination: DESTINATION,
      amount: '12.5',
    })
    const settle = await txOf(row.tx_hash!)
    expect(settle).toMatchObject({
      status: 'accepted',
      action_kind: 'SettleWithdrawal',
      signer: addr(KEY_A),
      action: { SettleWithdrawal: { withdrawal_id: id, external_tx: record.externalTx } },
    })
    expect(Number(await balance(addr(OWNER)))).toBeCloseTo(Number(before) - 12.5, 6)
    // Audited in order: the request (before the treasury call), the payout, the settlement.
    const trail = (await audit())
      .filter((e) => e.target === String(id))
      .map((e) => e.action)
      .reverse()
    expect(trail).toEqual(['withdrawal.payout_requested', 'withdrawal.payout', 'withdrawal.settle'])
  }, 90_000)

  test('(a) payout replies that time out: the runner asks what became of the payout, and pays once', async () => {
    treasury.delayPayoutReplies(2_500)
    treasury.delayStatusReplies(2_500)
    const id = await request('3')
    const key = await keyOf(id)
    await treasury.waitForPost(id)
    // The request and at least one status read time out (1 s) while the treasury holds its replies.
    await eventually(async () => (treasury.statusReads(key) >= 1 ? true : undefined), WAIT_MS, 'a status read')
    await eventually(
      async () => (/no answer from the treasury/.test((await status()).status.last_error ?? '') ? true : undefined),
      WAIT_MS,
      'the timeout in the status',
    )
    expect(rowOf(id, await block1())?.status).toBe('payout_requested')
    treasury.delayPayoutReplies(0)
    treasury.delayStatusReplies(0)
    await rowIn(id, ['settled'])
    expect(treasury.payouts(key)).toBe(1)
    expect(treasury.posts(key)).toBe(1)

    // A treasury that is down (503, nothing recorded): the runner asks, hears `unknown`, asks to pay again under the same key.
    treasury.mode('unavailable')
    const id2 = await request('4')
    const key2 = await keyOf(id2)
    await eventually(async () => (treasury.posts(key2) >= 2 ? true : undefined), WAIT_MS, 'a second payout request')
    expect(treasury.payouts(key2)).toBe(0)
    treasury.mode('ok')
    await rowIn(id2, ['settled'])
    expect(treasury.payouts(key2)).toBe(1)
  }, 120_000)

  test('(b) SIGKILL of the service mid-payout: after the restart it asks the treasury and does not pay again', async () => {
    treasury.delayPayoutReplies(60_000)
    const id = await request('5')
    const key = await keyOf(id)
    await treasury.waitForPost(id)
    // Durable before the call: the row is there while the treasury holds the reply.
    expect(rowOf(id, await block1())).toMatchObject({ status: 'payout_requested', idempotency_key: key })
    expect(await admin.stop('SIGKILL')).not.toBe(0)
    treasury.delayPayoutReplies(0)
    admin = await startAdmin({ nodeUrl: proxy.url, dataDir: admin.dataDir, args: adminArgs })
    token = await loginToken(admin.url, DEV_KEYS[0] as Hex)
    const row = await rowIn(id, ['settled'])
    expect(treasury.posts(key)).toBe(1)
    expect(treasury.statusReads(key)).toBeGreaterThanOrEqual(1)
    expect(treasury.payouts(key)).toBe(1)
    expect((await txOf(row.tx_hash!)).action.SettleWithdrawal).toEqual({
      withdrawal_id: id,
      external_tx: treasury.records.get(key)!.externalTx!,
    })
  }, 120_000)

  test('(c) rebinding the runner to another key mid-payout: the new key asks, settles, and nothing is paid twice', async () => {
    treasury.delayPayoutReplies(60_000)
    const id = await request('6')
    const key = await keyOf(id)
    expect((await treasury.waitForPost(id)).signer).toBe(addr(KEY_A))
    expect((await listed(addr(OWNER))).find((w) => w.withdrawal_id === id)).toMatchObject({ status: 'processing', claimed_by: addr(KEY_A) })
    await bind(admin.url, token, keyIds.get(KEY_B)!)
    treasury.delayPayoutReplies(0)
    const row = await rowIn(id, ['settled'])
    expect(treasury.posts(key)).toBe(1)
    expect(treasury.payouts(key)).toBe(1)
    expect((await txOf(row.tx_hash!)).signer).toBe(addr(KEY_B))
  }, 120_000)

  test('a settlement whose reply was lost is resolved from the chain, not left paid', async () => {
    proxy.loseReplies('SettleWithdrawal', 1)
    const id = await request('7')
    const row = await rowIn(id, ['settled'])
    expect(proxy.lost).toBe(1)
    // The settlement that went out without a reply is the one the chain holds.
    expect(JSON.parse(row.sent_tx_hashes)).toContain(row.tx_hash)
    expect(await txOf(row.tx_hash!)).toMatchObject({ status: 'accepted', action_kind: 'SettleWithdrawal' })
    expect(treasury.payouts(await keyOf(id))).toBe(1)
    expect((await status()).status.detail.alerts).toEqual([])
    expect(admin.output()).toContain('the settlement sent without a reply made it')
  }, 90_000)

  test('a paid withdrawal someone else settles is an alert in the status and the audit log', async () => {
    // The treasury pays, holds its reply past the runner's timeout, and meanwhile another BridgeWithdraw key settles.
    treasury.delayPayoutReplies(2_500)
    const id = await request('8')
    await treasury.waitForPost(id)
    expect((await outsider.send(settleWithdrawal({ withdrawal_id: id }))).status).toBe('accepted')
    const row = await rowIn(id, ['alert'])
    treasury.delayPayoutReplies(0)
    expect(row.reason).toMatch(/paid out.*left the chain without this runner's settlement/)
    const alerts = (await status()).status.detail.alerts as { withdrawal_id: number }[]
    expect(alerts.map((a) => a.withdrawal_id)).toContain(id)
    expect((await audit()).some((e) => e.action === 'withdrawal.alert' && e.target === String(id))).toBe(true)
    expect(treasury.payouts(await keyOf(id))).toBe(1)
  }, 90_000)

  test('a definite payout failure is refunded: the owner gets the amount back and nothing is paid', async () => {
    treasury.mode('refuse')
    const before = await balance(addr(OWNER))
    const id = await request('9')
    const row = await rowIn(id, ['refunded'])
    treasury.mode('ok')
    expect(await txOf(row.tx_hash!)).toMatchObject({ status: 'accepted', action_kind: 'RefundWithdrawal' })
    expect(await balance(addr(OWNER))).toBe(before)
    expect(treasury.payouts(await keyOf(id))).toBe(0)
  }, 90_000)

  test('GET /api/bridge/withdrawals lists the rows as the database holds them, the most recently changed first, and by state', async () => {
    const all = await api(admin.url, '/api/bridge/withdrawals?limit=500', { token })
    expect(all.status).toBe(200)
    const db = new Database(admin.dbFile, { readonly: true })
    const stored = db
      .query('SELECT chain, withdrawal_id, status, tx_hash FROM bridge_withdrawals ORDER BY updated_at_ms DESC, withdrawal_id DESC')
      .all()
    db.close()
    const rows = all.body.withdrawals as (Row & { sent_tx_hashes: string[] })[]
    expect(rows.map((w) => ({ chain: w.chain, withdrawal_id: w.withdrawal_id, status: w.status, tx_hash: w.tx_hash }))).toEqual(
      stored as never[],
    )
    expect([...Value.Errors(WithdrawalsReply, all.body)]).toEqual([])
    const refunded = (await api(admin.url, '/api/bridge/withdrawals?status=refunded', { token })).body.withdrawals as Row[]
    expect(refunded.length).toBeGreaterThan(0)
    expect(refunded.map((w) => w.status)).toEqual(refunded.map(() => 'refunded'))
    expect((await api(admin.url, '/api/bridge/withdrawals?limit=1', { token })).body.withdrawals).toEqual([rows[0]])
    expect((await api(admin.url, '/api/bridge/withdrawals?status=lost', { token })).body.reason).toBe('INVALID_REQUEST')
    expect((await api(admin.url, '/api/bridge/withdrawals')).status).toBe(401)
  }, 60_000)

  test("the owner's cancel against the runner: the cancel wins and nothing is paid, or the payout happens and the cancel is refused", async () => {
    const start = Number(await balance(addr(OWNER)))
    let paidOut = 0
    const outcomes: string[] = []
    // Right after the claim: the runner holds the payout; the cancel is a kept-reject WithdrawalProcessing.
    treasury.delayPayoutReplies(2_000)
    const claimedId = await request('1.5')
    await eventually(
      async () => ((await listed(addr(OWNER))).find((w) => w.withdrawal_id === claimedId)?.status === 'processing' ? true : undefined),
      WAIT_MS,
      'the claim',
    )
    const late = await cancel(claimedId)
    expect(late.status === 'kept-reject' && late.reason.code).toBe('WithdrawalProcessing')
    treasury.delayPayoutReplies(0)
    await rowIn(claimedId, ['settled'])
    expect(treasury.payouts(await keyOf(claimedId))).toBe(1)
    paidOut += 1.5
    // Right before, and racing: the cancel goes out at once or a little after the request, while
    // the treasury takes a moment to answer (so some cancels land while the payout is under way).
    treasury.delayPayoutReplies(300)
    for (let i = 0; i < 8; i++) {
      const amount = 0.25 + i / 100
      const id = await request(String(amount))
      if (i > 0) await Bun.sleep(i * 50)
      const r = await cancel(id)
      const key = await keyOf(id)
      if (r.status === 'accepted') {
        outcomes.push('cancel won')
        // Give the runner time to (wrongly) pay: it must not, and must not settle.
        await Bun.sleep(1_000)
        expect(treasury.payouts(key)).toBe(0)
        expect(rowOf(id, await block1())?.status ?? 'none').not.toMatch(/paid|settled|payout_requested/)
      } else {
        outcomes.push(`cancel refused (${r.reason.code})`)
        expect(['WithdrawalProcessing', 'WithdrawalNotFound']).toContain(r.reason.code)
        await rowIn(id, ['settled'])
        expect(treasury.payouts(key)).toBe(1)
        paidOut += amount
      }
    }
    treasury.delayPayoutReplies(0)
    console.log(`cancel races: ${outcomes.join(', ')}`)
    // Never both paid and credited back: the balance fell by exactly what was paid out.
    expect(Number(await balance(addr(OWNER)))).toBeCloseTo(start - paidOut, 6)
  }, 180_000)

  test('pointed at a new chain (a reset), the runner scans it from block 1 and pays its withdrawals under new keys', async () => {
    const oldChain = await block1()
    const oldScan = (await status()).status.detail.scan_height as number
    expect(oldScan).toBeGreaterThan(0)
    const settledOnOld = rowOf(1, oldChain)
    expect(settledOnOld?.status).toBe('settled')
    await admin.stop()
    const fresh = await startNode({ dataDir: tempDataDir() })
    extraNodes.push(fresh)
    const freshRpc = new CheckedRpcClient(fresh.url)
    const freshOwner = new PerpdClient({ url: fresh.url, privateKey: OWNER })
    const freshAdmin = new PerpdClient({ url: fresh.url, privateKey: DEV_KEYS[0] })
    expect((await freshAdmin.send(grantRole({ account: addr(KEY_B), role: 'BridgeWithdraw' }))).status).toBe('accepted')
    // Withdrawal 1 again, on the new chain.
    expect(await request('2.5', freshOwner)).toBe(1)
    const newChain = await block1(freshRpc)
    expect(newChain).not.toBe(oldChain)
    treasury.setNode(fresh.url)
    admin = await startAdmin({ nodeUrl: fresh.url, dataDir: admin.dataDir, args: adminArgs })
    token = await loginToken(admin.url, DEV_KEYS[0] as Hex)
    const row = await rowIn(1, ['settled'], newChain)
    const newKey = treasuryKey('dev', newChain, 1)
    expect(row.idempotency_key).toBe(newKey)
    expect(newKey).not.toBe(treasuryKey('dev', oldChain, 1))
    expect(treasury.payouts(newKey)).toBe(1)
    expect(rowOf(1, oldChain)).toEqual(settledOnOld)
    const detail = (await status()).status.detail
    expect(detail.chain).toBe(newChain)
    expect(detail.scan_height).toBeLessThanOrEqual((await freshRpc.query<{ height: number }>('getChainInfo')).data.height)
    expect(
      (await audit()).some((e) => e.action === 'withdrawal.chain_reset' && e.detail.from === oldChain && e.detail.to === newChain),
    ).toBe(true)
  }, 180_000)

  test('without a payout endpoint the runner refuses to start off the dev network, unless --settle-without-payout', async () => {
    const genesisFile = join(tempDataDir(), 'testnet-genesis.json')
    writeFileSync(genesisFile, JSON.stringify({ ...devGenesis(), network: 'testnet' }))
    const testnet = await startNode({ extraArgs: ['--genesis', genesisFile] })
    extraNodes.push(testnet)
    let other = await startAdmin({ nodeUrl: testnet.url, args: ['--runner-interval-ms', '150'] })
    extraAdmins.push(other)
    let tok = await loginToken(other.url, DEV_KEYS[0] as Hex)
    // #8 holds BridgeWithdraw in the genesis.
    await bind(other.url, tok, await uploadKey(other.url, tok, OUTSIDE_BRIDGE, 'withdraw'))
    const refused = await eventually(
      async () => {
        const s = (await status(other.url, tok)).status
        return s.state === 'refused' ? s : undefined
      },
      WAIT_MS,
      'the refusal',
    )
    expect(refused.running).toBe(false)
    expect(refused.last_error).toContain('--withdraw-payout-url')
    expect(refused.last_error).toContain('testnet')
    const testnetOwner = new PerpdClient({ url: testnet.url, privateKey: OWNER })
    const id = await request('1', testnetOwner)
    await Bun.sleep(1_000)
    const testnetRpc = new CheckedRpcClient(testnet.url)
    expect((await testnetRpc.query<{ withdrawal_id: number; status: string }[]>('getWithdrawals', { address: addr(OWNER) })).data).toEqual([
      expect.objectContaining({ withdrawal_id: id, status: 'pending' }),
    ])
    // Told to settle without paying, it runs.
    await other.stop()
    other = await startAdmin({
      nodeUrl: testnet.url,
      dataDir: other.dataDir,
      args: ['--runner-interval-ms', '150', '--settle-without-payout'],
    })
    extraAdmins[extraAdmins.length - 1] = other
    tok = await loginToken(other.url, DEV_KEYS[0] as Hex)
    await eventually(
      async () => ((await testnetRpc.query<unknown[]>('getWithdrawals', { address: addr(OWNER) })).data.length === 0 ? true : undefined),
      WAIT_MS,
      'the settlement',
    )
    expect((await status(other.url, tok)).status).toMatchObject({ state: 'running', detail: { network: 'testnet', settled: 1 } })
  }, 180_000)
})
