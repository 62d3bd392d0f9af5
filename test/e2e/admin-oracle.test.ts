// The oracle runner end to end: binding a Quoter key makes quotes appear on chain; a rejected batch
// item is logged, stays due and is retried with a newer timestamp until it is accepted; rebinding
// restarts the component with the new key; disabling stops it.
import { afterAll, describe, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { activateMarket, amendMarketConfig, createMarket, grantRole } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { eciesEncrypt } from '../../src/wire/ecies.ts'
import { api, eventually, loginToken, removeAdminFiles, startAdmin, startPriceServer } from '../support/admin-process.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { DEV_KEYS, removeDir, startNode } from '../support/node-process.ts'

const QUOTER_A = DEV_KEYS[3] as Hex
const QUOTER_B = DEV_KEYS[4] as Hex
const NO_ROLE = DEV_KEYS[5] as Hex
const addr = (k: Hex) => privateKeyToAccount(k).address.toLowerCase()

const node = await startNode()
const rpc = new CheckedRpcClient(node.url)
const offered = new Set((await rpc.query<{ actions: { name: string }[] }>('getActionsMeta')).data.actions.map((a) => a.name))
const ready = offered.has('SubmitOracleQuote') && offered.has('GrantRole')
// The runner waits for these actions at run time; without them these tests cannot show anything.
if (!ready) console.warn('admin-oracle: the node lacks SubmitOracleQuote or GrantRole; the oracle tests are skipped')
const prices = startPriceServer()
const admin = await startAdmin({
  nodeUrl: node.url,
  args: ['--price-source-url', prices.url, '--oracle-interval-ms', '150', '--quote-refresh-ms', '1000'],
})
const token = await loginToken(admin.url, DEV_KEYS[0] as Hex)

afterAll(async () => {
  await admin.stop()
  await node.stop()
  prices.stop()
  removeAdminFiles(admin)
  removeDir(node.dataDir)
})

interface LatestQuote {
  bid_price: string
  ask_price: string
  mark_price: string
  source_ts_ms: number
  accepted_height: number
}
const latestQuote = async (symbol: string) =>
  (await rpc.query<{ latest_quote: LatestQuote | null }>('getMarket', { symbol })).data.latest_quote
const oracleStatus = async () => (await api(admin.url, '/api/service-config', { token })).body.services.oracle
const bind = (keyId: string | null, enabled = true) =>
  api(admin.url, '/api/service-config', { method: 'PUT', token, body: { service: 'oracle', key_id: keyId, enabled } })

async function uploadKey(key: Hex, label: string): Promise<string> {
  const { public_key } = (await api(admin.url, '/api/keys/encryption-key')).body
  const r = await api(admin.url, '/api/keys', {
    method: 'POST',
    token,
    body: { label, address: addr(key), ...eciesEncrypt(public_key, new TextEncoder().encode(key)) },
  })
  if (r.status !== 201) throw new Error(`upload: ${r.text}`)
  return r.body.id
}

/** Every SubmitOracleQuote item for `symbol` in the chain's blocks so far: signer and source time. */
async function quoteItemsOnChain(marketId: number): Promise<{ signer: string; source_ts_ms: number; height: number }[]> {
  const tip = (await rpc.query('getHealth')).chain_height
  const out: { signer: string; source_ts_ms: number; height: number }[] = []
  for (let h = 1; h <= tip; h += 20) {
    const calls = Array.from({ length: Math.min(20, tip - h + 1) }, (_, i) => ({ method: 'getBlock', params: { height: h + i } }))
    for (const r of await rpc.batch(calls)) {
      if (!('result' in r)) continue
      const block = r.result.data as {
        height: number
        envelopes: {
          signer: string
          action_kind: string
          action: { SubmitOracleQuote?: { quotes: { market_id: number; source_ts_ms: number }[] } }
        }[]
      }
      for (const e of block.envelopes) {
        for (const q of e.action.SubmitOracleQuote?.quotes ?? [])
          if (q.market_id === marketId) out.push({ signer: e.signer, source_ts_ms: q.source_ts_ms, height: block.height })
      }
    }
  }
  return out
}

describe.if(ready)('oracle runner', () => {
  let oilId = 0
  let keyA = ''
  let keyB = ''

  test('setup: Quoter roles and a second external-peg market on chain', async () => {
    const chainAdmin = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[0] })
    for (const k of [QUOTER_A, QUOTER_B]) {
      // The dev genesis may already give the role; either way the account ends with it.
      const r = await chainAdmin.send(grantRole({ account: addr(k), role: 'Quoter' }))
      expect(r.status === 'accepted' || (r.status === 'kept-reject' && r.reason.code === 'RoleAlreadyGranted')).toBe(true)
    }
    const created = await chainAdmin.send(
      createMarket({
        symbol: 'OIL-USD',
        price_decimals: 3,
        size_decimals: 2,
        maker_fee_bps: 0,
        taker_fee_bps: 3,
        max_leverage: 10,
        maintenance_margin_bps: 500,
        mark_price: '75',
        routing: 'external_peg',
      }),
    )
    if (created.status !== 'accepted') throw new Error(JSON.stringify(created))
    oilId = created.events.find((e) => e.sub_kind === 'MarketCreated')!.market_id!
    expect((await chainAdmin.send(activateMarket({ market_id: oilId }))).status).toBe('accepted')
    keyA = await uploadKey(QUOTER_A, 'quoter-a')
    keyB = await uploadKey(QUOTER_B, 'quoter-b')
  }, 30_000)

  test('binding the oracle key makes quotes appear on chain, rounded to the market precision', async () => {
    // More decimals than XAU-USD's 2: the bid rounds down, the ask up, the mark to nearest.
    prices.set('XAU-USD', { bid: '2400.104', ask: '2400.496', mark: '2400.3049' })
    // OIL-USD is crossed (bid above ask): the chain rejects that item, the XAU item stands.
    prices.set('OIL-USD', { bid: '76', ask: '75', mark: '75.5' })
    const before = Date.now()
    expect((await bind(keyA)).status).toBe(200)
    const q = await eventually(
      async () => {
        const lq = await latestQuote('XAU-USD')
        return lq !== null && lq.source_ts_ms >= before ? lq : undefined
      },
      15_000,
      'an XAU-USD quote',
    )
    expect(q).toMatchObject({ bid_price: '2400.1', ask_price: '2400.5', mark_price: '2400.3' })
    const items = await quoteItemsOnChain(4)
    expect(items.at(-1)!.signer).toBe(addr(QUOTER_A))
    const status = await oracleStatus()
    expect(status).toMatchObject({ key_id: keyA, address: addr(QUOTER_A), enabled: true })
    expect(status.status).toMatchObject({ state: 'running', running: true, address: addr(QUOTER_A) })
  }, 30_000)

  test('a rejected item is not marked pushed, its reason is logged, and it is retried with a newer timestamp', async () => {
    const first = await eventually(
      async () => {
        const m = (await oracleStatus()).status.detail.markets.find((x: { symbol: string }) => x.symbol === 'OIL-USD')
        return m?.last_rejection ?? undefined
      },
      10_000,
      'an OIL-USD rejection',
    )
    expect(first.reason).toBe('QuoteCrossed')
    const status = await oracleStatus()
    expect(status.status.last_error).toContain('QuoteCrossed')
    expect(status.status.detail.markets.find((x: { symbol: string }) => x.symbol === 'OIL-USD').pushed_source_ts_ms).toBeNull()
    expect(admin.output()).toMatch(/quote OIL-USD \(source_ts_ms \d+\) rejected: QuoteCrossed/)
    // The next attempt carries a newer timestamp.
    const second = await eventually(
      async () => {
        const m = (await oracleStatus()).status.detail.markets.find((x: { symbol: string }) => x.symbol === 'OIL-USD')
        return m.last_rejection.source_ts_ms > first.source_ts_ms ? m.last_rejection : undefined
      },
      10_000,
      'a retried OIL-USD item',
    )
    expect(second.reason).toBe('QuoteCrossed')
    // The chain saw the same market again and again, each time later.
    const attempts = await quoteItemsOnChain(oilId)
    expect(attempts.length).toBeGreaterThanOrEqual(2)
    for (let i = 1; i < attempts.length; i++) expect(attempts[i]!.source_ts_ms).toBeGreaterThan(attempts[i - 1]!.source_ts_ms)
    // The same rejection, every attempt, is logged once; the status counts them, with the backoff.
    expect(admin.output().match(/quote OIL-USD \(source_ts_ms \d+\) rejected: QuoteCrossed/g)).toHaveLength(1)
    expect(
      (await oracleStatus()).status.detail.markets.find((x: { symbol: string }) => x.symbol === 'OIL-USD').rejections_in_a_row,
    ).toBeGreaterThanOrEqual(2)
    expect(await latestQuote('OIL-USD')).toBeNull()
    // Once the source is sane the retry is accepted, newer than every rejected attempt.
    prices.set('OIL-USD', { bid: '75.2', ask: '75.3', mark: '75.25' })
    const accepted = await eventually(async () => (await latestQuote('OIL-USD')) ?? undefined, 10_000, 'an accepted OIL-USD quote')
    expect(accepted.mark_price).toBe('75.25')
    expect(accepted.source_ts_ms).toBeGreaterThan(second.source_ts_ms)
    await eventually(
      async () =>
        (await oracleStatus()).status.detail.markets.find((x: { symbol: string }) => x.symbol === 'OIL-USD').last_rejection === null
          ? true
          : undefined,
      5_000,
      'the rejection to clear',
    )
  }, 30_000)

  test('a price change goes out at once; an unchanged price is refreshed', async () => {
    prices.set('XAU-USD', { bid: '2409.9', ask: '2410.1', mark: '2410' })
    const moved = await eventually(
      async () => {
        const lq = await latestQuote('XAU-USD')
        return lq?.mark_price === '2410' ? lq : undefined
      },
      10_000,
      'the new XAU-USD mark',
    )
    const refreshed = await eventually(
      async () => {
        const lq = await latestQuote('XAU-USD')
        return lq !== null && lq.source_ts_ms > moved.source_ts_ms ? lq : undefined
      },
      5_000,
      'a refresh of the unchanged XAU-USD quote',
    )
    expect(refreshed.mark_price).toBe('2410')
    const status = (await oracleStatus()).status
    expect(status.last_success_ms).toBeGreaterThan(Date.now() - 5_000)
    expect(status.detail.items_accepted).toBeGreaterThan(2)
  }, 30_000)

  test('rebinding hot-restarts the oracle with the new key', async () => {
    expect((await bind(keyB)).status).toBe(200)
    const since = Date.now()
    await eventually(
      async () => {
        const items = await quoteItemsOnChain(4)
        const last = items.at(-1)
        return last !== undefined && last.signer === addr(QUOTER_B) && last.source_ts_ms > since ? true : undefined
      },
      10_000,
      'a quote signed by the new key',
    )
    expect((await oracleStatus()).status.address).toBe(addr(QUOTER_B))
    // The old key is no longer bound, so it can be deleted; the new one cannot.
    expect((await api(admin.url, `/api/keys/${keyA}`, { method: 'DELETE', token })).status).toBe(200)
    expect((await api(admin.url, `/api/keys/${keyB}`, { method: 'DELETE', token })).status).toBe(409)
  }, 30_000)

  test('a key without the Quoter role waits and says why', async () => {
    const keyC = await uploadKey(NO_ROLE, 'no-role')
    expect((await bind(keyC)).status).toBe(200)
    const status = await eventually(
      async () => {
        const s = (await oracleStatus()).status
        return s.last_error !== null ? s : undefined
      },
      5_000,
      'the waiting status',
    )
    expect(status.state).toBe('waiting')
    expect(status.last_error).toContain('lacks the Quoter role')
  }, 30_000)

  test('a frozen source is not re-sent as fresh: the market halts QuoteStale, and resumes once the source moves again', async () => {
    const chainAdmin = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[0] })
    // A short lag, so the chain's stale-quote halt comes within the test (the refresh is 1 s).
    expect((await chainAdmin.send(amendMarketConfig({ market_id: oilId, max_quote_lag_ms: 2_500 }))).status).toBe('accepted')
    prices.set('OIL-USD', { bid: '75.2', ask: '75.3', mark: '75.25' })
    expect((await bind(keyB)).status).toBe(200)
    const market = async () =>
      (
        await rpc.query<{ lifecycle: string; halt_reason: string | null; latest_quote: LatestQuote | null }>('getMarket', {
          symbol: 'OIL-USD',
        })
      ).data
    const since = Date.now()
    await eventually(
      async () => {
        const m = await market()
        return m.lifecycle === 'Active' && (m.latest_quote?.source_ts_ms ?? 0) > since ? true : undefined
      },
      15_000,
      'OIL-USD quoted and active',
    )
    // The upstream stops: same prices, same observation time, answer after answer.
    const frozenAt = Date.now()
    prices.timestamp(frozenAt)
    const halted = await eventually(
      async () => {
        const m = await market()
        return m.lifecycle === 'Halted' ? m : undefined
      },
      20_000,
      'OIL-USD halted',
    )
    expect(halted.halt_reason).toBe('QuoteStale')
    const status = await eventually(
      async () => {
        const st = (await oracleStatus()).status
        return (st.last_error ?? '').includes('longer ago than its max_quote_lag_ms') ? st : undefined
      },
      10_000,
      'the stale source in the status',
    )
    expect(status.last_error).toContain(`OIL-USD at ts_ms ${frozenAt}`)
    await Bun.sleep(1_500)
    // Longer than --quote-refresh-ms, yet the frozen prices were not sent again as fresh.
    expect((await market()).latest_quote!.source_ts_ms).toBe(halted.latest_quote!.source_ts_ms)
    // Logged once, not every cycle.
    expect(admin.output().match(new RegExp(`last observed OIL-USD at ts_ms ${frozenAt}`, 'g'))).toHaveLength(1)
    // A source that dates nothing is refused the same way.
    prices.timestamp(null)
    await eventually(
      async () =>
        ((await oracleStatus()).status.last_error ?? '').includes('gives no source timestamp (ts_ms) for OIL-USD') ? true : undefined,
      10_000,
      'the undated source',
    )
    expect((await market()).lifecycle).toBe('Halted')
    // Live again: the next quote resumes the market.
    prices.timestamp('live')
    await eventually(async () => ((await market()).lifecycle === 'Active' ? true : undefined), 15_000, 'OIL-USD resumed')
  }, 60_000)

  test('disabled: the binding stays, the component stops and quotes stop', async () => {
    expect((await bind(keyB, false)).status).toBe(200)
    const s = await oracleStatus()
    expect(s).toMatchObject({ key_id: keyB, enabled: false, status: { state: 'disabled', running: false } })
    await Bun.sleep(300)
    const frozen = (await latestQuote('XAU-USD'))!.source_ts_ms
    await Bun.sleep(1_500)
    expect((await latestQuote('XAU-USD'))!.source_ts_ms).toBe(frozen)
  }, 30_000)
})
