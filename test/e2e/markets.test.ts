// End to end on a real node: an external-peg market driven by a quote stream trades against Book B,
// halts when the quotes stop and resumes on a fresh one; a native market is delisted with open
// orders and positions and no money is lost; the market read methods and the audit log.
import { describe, expect, test } from 'bun:test'
import {
  activateMarket,
  completeDelist,
  createMarket,
  haltMarket,
  placeOrder,
  requestDelist,
  resumeMarket,
  submitOracleQuote,
} from '../../src/client/actions.ts'
import { bodyAs } from '../../src/client/rpc-client.ts'
import { acceptedEvents, getAccount, keptRejectReason, startDevNodeForFile } from '../support/dev-node.ts'
import { until } from '../support/poll.ts'

const BOOK_B = '0x00000000000000000000000000000000000000bb'

const { rpc, client } = await startDevNodeForFile({ blockTimeMs: 40 })
const admin = client(0)
const alice = client(1)
const bob = client(2)
const carol = client(3)
const quoter = client(7)

interface MarketDetail {
  market_id: number
  symbol: string
  lifecycle: string
  halt_reason: string | null
  mark_price: string
  open_orders: number
  latest_quote: { bid_price: string; ask_price: string; mark_price: string; source_ts_ms: number; last_price: null; volume: null } | null
}
const market = async (market_id: number) => (await rpc.query<MarketDetail>('getMarketById', { market_id })).data

interface AccountData {
  balance: string
  positions: Record<string, { size: string }>
}
const account = (address: string) => getAccount<AccountData>(rpc, address)

/** A decimal string in SCALE_6 units as a bigint (balances are exact). */
function units6(s: string): bigint {
  const neg = s.startsWith('-')
  const [i, f = ''] = (neg ? s.slice(1) : s).split('.')
  const v = BigInt(i!) * 1_000_000n + BigInt(f.padEnd(6, '0'))
  return neg ? -v : v
}

/** Creates and activates a market; returns its id. */
async function listMarket(p: Parameters<typeof createMarket>[0]): Promise<number> {
  const created = acceptedEvents(await admin.send(createMarket(p)))
  const id = created[0]!.market_id!
  acceptedEvents(await admin.send(activateMarket({ market_id: id })))
  return id
}

describe('an external-peg market driven by a quote stream', () => {
  test('trades against Book B, halts when quotes stop, resumes on a fresh quote', async () => {
    const id = await listMarket({
      symbol: 'GOLD-USD',
      price_decimals: 2,
      size_decimals: 3,
      maker_fee_bps: 0,
      taker_fee_bps: 3,
      max_leverage: 20,
      maintenance_margin_bps: 250,
      mark_price: '2400',
      routing: 'external_peg',
      max_quote_lag_ms: 1_500,
      max_fills_per_quote: 4,
    })
    // The stream: a quote every 150 ms around a slowly rising mid, source time = now.
    let mid = 240_000
    let streaming = true
    let sent = 0
    const stream = (async () => {
      while (streaming) {
        mid += 10
        const q = {
          market_id: id,
          bid_price: ((mid - 50) / 100).toFixed(2),
          ask_price: ((mid + 50) / 100).toFixed(2),
          mark_price: (mid / 100).toFixed(2),
          source_ts_ms: Date.now(),
        }
        const r = await quoter.send(submitOracleQuote([q]))
        if (r.status === 'accepted') sent++
        await Bun.sleep(150)
      }
    })()
    await until(
      'a quote',
      () => market(id),
      (m) => m.latest_quote !== null && m.lifecycle === 'Active',
    )

    const buy = acceptedEvents(
      await alice.send(placeOrder({ market_id: id, side: 'Bid', price: '2600', qty: '1.5', tif: 'Ioc', reduce_only: false })),
    )
    expect(buy.map((e) => e.sub_kind)).toEqual(['OrderAccepted', 'Filled', 'OrderDone'])
    const fill = bodyAs(buy[1]!, 'Filled')
    expect(fill).toMatchObject({ maker: BOOK_B, maker_order_id: 0, qty: '1.5', maker_fee: '0' })
    expect(Number(fill.price)).toBeGreaterThan(2400)
    const sell = acceptedEvents(
      await bob.send(placeOrder({ market_id: id, side: 'Ask', price: '2300', qty: '0.5', tif: 'Ioc', reduce_only: false })),
    )
    expect(sell[1]!.body).toMatchObject({ maker: BOOK_B, qty: '0.5' })

    const stats = (await rpc.query<Record<string, unknown>>('getMarketStats', { market_id: id })).data
    expect(stats).toMatchObject({ long_size: '1.5', short_size: '0.5', net_size: '1', open_interest: '1.5' })
    expect(Object.keys(stats)).toEqual(
      expect.arrayContaining(['oracle_counter_pnl', 'open_interest_notional', 'fills_in_block', 'block_height']),
    )
    const detail = await market(id)
    expect(detail.latest_quote).toMatchObject({ last_price: null, volume: null })
    expect(detail.mark_price).toBe(detail.latest_quote!.mark_price)

    // The quotes stop: the end-of-block check halts the market within max_quote_lag_ms.
    streaming = false
    await stream
    expect(sent).toBeGreaterThan(0)
    const halted = await until(
      'the stale halt',
      () => market(id),
      (m) => m.lifecycle === 'Halted',
    )
    expect(halted.halt_reason).toBe('QuoteStale')
    expect(
      keptRejectReason(
        await alice.send(placeOrder({ market_id: id, side: 'Bid', price: '2600', qty: '0.1', tif: 'Ioc', reduce_only: false })),
      ),
    ).toBe('MarketNotTradable')

    // One fresh quote resumes it.
    mid += 10
    const resume = acceptedEvents(
      await quoter.send(
        submitOracleQuote([
          {
            symbol: 'gold',
            bid_price: ((mid - 50) / 100).toFixed(2),
            ask_price: ((mid + 50) / 100).toFixed(2),
            mark_price: (mid / 100).toFixed(2),
            source_ts_ms: Date.now(),
          },
        ]),
      ),
    )
    expect(resume.map((e) => e.sub_kind)).toEqual(['OracleQuoteAccepted', 'MarketResumedAfterQuote'])
    expect((await market(id)).lifecycle).toBe('Active')
    acceptedEvents(await alice.send(placeOrder({ market_id: id, side: 'Ask', price: '1', qty: '0.1', tif: 'Ioc', reduce_only: true })))

    // An Admin halt is not lifted by quotes.
    acceptedEvents(await admin.send(haltMarket({ market_id: id })))
    const q = acceptedEvents(
      await quoter.send(
        submitOracleQuote([{ market_id: id, bid_price: '2399', ask_price: '2401', mark_price: '2400', source_ts_ms: Date.now() }]),
      ),
    )
    expect(q.map((e) => e.sub_kind)).toEqual(['OracleQuoteAccepted'])
    expect(await market(id)).toMatchObject({ lifecycle: 'Halted', halt_reason: 'Admin', mark_price: '2400' })
    acceptedEvents(await admin.send(resumeMarket({ symbol: 'GOLD-USD' })))
  }, 30_000)

  test('quote rejects come back as kept-rejects with the documented reason', async () => {
    const now = Date.now()
    const r = await quoter.send(
      submitOracleQuote([{ symbol: 'XAU-USD', bid_price: '2400', ask_price: '2401', mark_price: '2400.5', source_ts_ms: now + 60_000 }]),
    )
    expect(keptRejectReason(r)).toBe('QuoteSourceTooFuture')
    const denied = await alice
      .send(submitOracleQuote([{ symbol: 'XAU-USD', bid_price: '2400', ask_price: '2401', mark_price: '2400.5', source_ts_ms: now }]))
      .catch((e: Error) => e)
    expect(String(denied)).toContain('Quoter')
  })
})

describe('delisting a market with open orders and positions', () => {
  test('orders cancelled, positions settled at the mark, every unit of money accounted for', async () => {
    const id = await listMarket({
      symbol: 'ODD-USD',
      price_decimals: 4,
      size_decimals: 4,
      maker_fee_bps: 2,
      taker_fee_bps: 5,
      max_leverage: 20,
      maintenance_margin_bps: 250,
      mark_price: '1.2345',
    })
    acceptedEvents(
      await bob.send(placeOrder({ market_id: id, side: 'Ask', price: '1.2345', qty: '3.0001', tif: 'Gtc', reduce_only: false })),
    )
    acceptedEvents(
      await carol.send(placeOrder({ market_id: id, side: 'Ask', price: '1.2345', qty: '2.0002', tif: 'Gtc', reduce_only: false })),
    )
    acceptedEvents(
      await alice.send(placeOrder({ market_id: id, side: 'Bid', price: '1.2345', qty: '5.0003', tif: 'Ioc', reduce_only: false })),
    )
    acceptedEvents(await alice.send(placeOrder({ market_id: id, side: 'Bid', price: '1.1', qty: '7', tif: 'Gtc', reduce_only: false })))
    acceptedEvents(await bob.send(placeOrder({ market_id: id, side: 'Ask', price: '1.4', qty: '2', tif: 'Gtc', reduce_only: false })))
    acceptedEvents(await admin.send(requestDelist({ market_id: id })))
    expect((await market(id)).lifecycle).toBe('DelistPending')
    expect(
      keptRejectReason(
        await carol.send(placeOrder({ market_id: id, side: 'Ask', price: '1.2', qty: '1', tif: 'Gtc', reduce_only: false })),
      ),
    ).toBe('MarketNotTradable')

    const people = [alice.address, bob.address, carol.address, admin.address]
    const before = await Promise.all(people.map(account))
    const sumBefore = before.reduce((s, a) => s + units6(a.balance), 0n)
    expect(before[0]!.positions[String(id)]?.size).toBe('5.0003')

    const events = acceptedEvents(await admin.send(completeDelist({ symbol: 'ODD-USD' })))
    expect(events.filter((e) => e.sub_kind === 'OrderDone').map((e) => e.body.reason)).toEqual(['MarketDelisted', 'MarketDelisted'])
    const settlements = events.filter((e) => e.sub_kind === 'DelistSettlement')
    expect(settlements.map((e) => e.account).sort()).toEqual([alice.address, bob.address, carol.address].sort())
    const summary = events.find((e) => e.sub_kind === 'DelistCompleted')!.body
    expect(summary).toMatchObject({ orders_cancelled: 2, positions_settled: 3 })
    // The realized PnL of the settlements and the rounding dust sum to zero.
    const pnl = settlements.reduce((s, e) => s + units6(String(e.body.realized_pnl)), 0n)
    expect(pnl + units6(String(summary.settlement_dust))).toBe(0n)

    const after = await Promise.all(people.map(account))
    // The insurance fund (the dev Admin) is among them: the balances sum is unchanged.
    expect(after.reduce((s, a) => s + units6(a.balance), 0n)).toBe(sumBefore)
    for (const a of after) expect(a.positions[String(id)]).toBeUndefined()
    const orders = (await rpc.query<unknown[]>('getAccountOrders', { address: alice.address, market_id: id })).data
    expect(orders).toEqual([])

    // Sealed: gone from the lists, still readable by id, its symbol reusable.
    const detail = await market(id)
    expect(detail).toMatchObject({ lifecycle: 'Delisted', open_orders: 0 })
    const list = (await rpc.query<{ market_id: number }[]>('getMarkets')).data
    expect(list.some((m) => m.market_id === id)).toBe(false)
    const marks = (await rpc.query<Record<string, string>>('getAllMarks')).data
    expect('ODD-USD' in marks).toBe(false)
    const bbos = (await rpc.query<{ symbol: string }[]>('getAllBBOs')).data
    expect(bbos.some((b) => b.symbol === 'ODD-USD')).toBe(false)
    const bySymbol = await rpc.query('getMarket', { symbol: 'ODD-USD' }).catch((e: Error) => e)
    expect(String(bySymbol)).toContain('not found')
    const again = acceptedEvents(
      await admin.send(
        createMarket({
          symbol: 'ODD-USD',
          price_decimals: 2,
          size_decimals: 2,
          maker_fee_bps: 0,
          taker_fee_bps: 0,
          max_leverage: 10,
          maintenance_margin_bps: 100,
          mark_price: '1',
          market_id: id,
        }),
      ),
    )
    expect(again[0]!.market_id).toBeGreaterThan(id)
  }, 30_000)
})

describe('market reads', () => {
  test('getMarkets fields, summary, settings, BBOs, marks and the audit log', async () => {
    const list = (await rpc.query<Record<string, unknown>[]>('getMarkets')).data
    for (const f of [
      'market_id',
      'symbol',
      'price_decimals',
      'size_decimals',
      'lifecycle',
      'emergency_halt',
      'mark_price',
      'halt_reason',
      'open_interest',
      'open_interest_notional',
    ]) {
      expect(list.every((m) => f in m)).toBe(true)
    }
    expect(list.find((m) => m.symbol === 'XAU-USD')).toMatchObject({ routing: 'external_peg' })
    const summary = (await rpc.query<Record<string, unknown>>('getMarketSummary', { symbol: 'btc' })).data
    expect(Object.keys(summary)).toEqual(
      expect.arrayContaining([
        'symbol',
        'mark_price',
        'best_bid',
        'best_ask',
        'spread',
        'open_interest',
        'open_interest_notional',
        'fills_in_block',
        'bid_levels',
        'ask_levels',
        'open_orders',
        'prev_day_price',
        'day_ntl_volume',
        'day_base_volume',
      ]),
    )
    const settings = (await rpc.query<Record<string, unknown>>('getMarketSettings', { symbol: 'XAU' })).data
    expect(settings).toMatchObject({ symbol: 'XAU-USD', max_quote_lag_ms: 10_000, max_quote_spread_bps: 200, max_fills_per_quote: 16 })
    const bbos = (await rpc.query<{ symbol: string }[]>('getAllBBOs')).data
    expect(bbos.map((b) => b.symbol)).toEqual([...bbos.map((b) => b.symbol)].sort())
    const marks = (await rpc.query<Record<string, string>>('getAllMarks')).data
    expect(marks['BTC-USD']).toBeDefined()

    const audit = await rpc.query<
      { block_height: number; event_seq: number; timestamp_ms: number; signer: string | null; event: { sub_kind: string } }[]
    >('getAdminAuditLog', { signer: admin.address, limit: 5 })
    expect(audit.data.length).toBe(5)
    expect(audit.data.every((e) => e.signer === admin.address)).toBe(true)
    const heights = audit.data.map((e) => e.block_height)
    expect(heights).toEqual([...heights].sort((a, b) => b - a))
    expect(audit.page).toMatchObject({ offset: 0, limit: 5, has_more: true })
    // The chain's own events (a quote-stale halt) name the block producer's marker as their signer.
    const stale = await rpc.query<{ signer: string; event: { sub_kind: string } }[]>('getAdminAuditLog', { limit: 1000 })
    expect(
      stale.data.some((e) => e.event.sub_kind === 'MarketHaltedQuoteStale' && e.signer === '0x0000000000000000000000000000000000000000'),
    ).toBe(true)
  })
})
