// The 12 WebSocket topics on a real node (docs/websocket.md#websocket-protocol): subscribe, drive
// the activity with the project's client, assert the exact frame shape and the initial push of each
// topic.
import { describe, expect, test } from 'bun:test'
import { cancelTriggerOrder, placeOrder, placeTriggerOrder, submitOracleQuote } from '../../src/client/actions.ts'
import { accepted, orderIdOf, startDevNodeForFile } from '../support/dev-node.ts'
import { type Frame, until, WsProbe } from './ws-support.ts'

const BTC = 1
const ETH = 2
const SOL = 3
const HEX64 = /^[0-9a-f]{64}$/

const { node, rpc, client } = await startDevNodeForFile({ blockTimeMs: 50, extraArgs: ['--ws-limits', 'account_refresh_ms=700'] })
const alice = client(1)
const bob = client(2)
const quoter = client(7)

const keys = (f: Frame) => Object.keys(f)
const bid = (market: number, price: string, qty: string, extra: { tif?: 'Gtc' | 'Ioc'; client_order_id?: string } = {}) =>
  placeOrder({
    market_id: market,
    side: 'Bid',
    price,
    qty,
    tif: extra.tif ?? 'Gtc',
    reduce_only: false,
    ...(extra.client_order_id ? { client_order_id: extra.client_order_id } : {}),
  })
const ask = (market: number, price: string, qty: string, extra: { tif?: 'Gtc' | 'Ioc'; client_order_id?: string } = {}) =>
  placeOrder({
    market_id: market,
    side: 'Ask',
    price,
    qty,
    tif: extra.tif ?? 'Gtc',
    reduce_only: false,
    ...(extra.client_order_id ? { client_order_id: extra.client_order_id } : {}),
  })

describe('WebSocket topics', () => {
  test('block: no initial push, then every block with digest and state_root without 0x', async () => {
    const ws = await WsProbe.open(node.url)
    const before = (await rpc.query('getExchangeConfig')).chain_height
    await ws.subscribe(['block'])
    // No push of the block the node was at: with 50 ms blocks, pushes of blocks committed since the
    // subscription may already be here (seen in CI), nothing older. Not with toMatchObject and
    // expect.any(Number): Bun's toMatchObject writes the matcher into the object it checks, so the
    // height read next was the matcher (the failures of this test after a slow demo.test.ts, when
    // a push came before the confirmation had been read).
    for (const pushed of ws.frames.slice(1)) {
      expect(pushed.topic).toBe('block')
      expect(typeof pushed.height).toBe('number')
      expect(pushed.height as number).toBeGreaterThan(before)
    }
    const f = await ws.next((x) => x.topic === 'block')
    expect(keys(f)).toEqual(['seq', 'topic', 'height', 'timestamp_ms', 'digest', 'state_root', 'envelope_count', 'event_count'])
    expect(f.digest).toMatch(HEX64)
    expect(f.state_root).toMatch(HEX64)
    const stored = (await rpc.query<{ digest: string; state_root: string; timestamp_ms: number }>('getBlock', { height: f.height })).data
    expect(`0x${f.digest}`).toBe(stored.digest)
    expect(`0x${f.state_root}`).toBe(stored.state_root)
    expect(f.timestamp_ms).toBe(stored.timestamp_ms)
    const next = await ws.next((x) => x.topic === 'block' && x.height === f.height + 1)
    expect(next.seq).toBe(f.seq + 1)
    ws.close()
  })

  test('book: full snapshot on subscribe, a new snapshot on each visible change only', async () => {
    const ws = await WsProbe.open(node.url)
    await ws.subscribe(['book.ETH-USD', 'book.ETH.1'])
    const first = await ws.next((f) => f.topic === 'book.ETH-USD')
    expect(keys(first)).toEqual(['seq', 'topic', 'symbol', 'height', 'timestamp_ms', 'state_hash', 'bids', 'asks'])
    expect(first).toMatchObject({ symbol: 'ETH-USD', bids: [], asks: [] })
    expect(first.state_hash).toMatch(/^0x[0-9a-f]{64}$/)
    await ws.next((f) => f.topic === 'book.ETH.1')
    let mark = ws.frames.length
    accepted(await alice.send(bid(ETH, '3400', '1.5')))
    const top = await ws.next((f) => f.topic === 'book.ETH-USD', mark)
    expect(top.bids).toEqual([{ price: '3400', qty: '1.5', cumulative_qty: '1.5' }])
    expect((await ws.next((f) => f.topic === 'book.ETH.1', mark)).bids).toEqual([{ price: '3400', qty: '1.5', cumulative_qty: '1.5' }])
    // A second level is visible at depth 50 but not at depth 1: only the depth-50 topic is pushed.
    mark = ws.frames.length
    accepted(await alice.send(bid(ETH, '3300', '0.5')))
    const two = await ws.next((f) => f.topic === 'book.ETH-USD', mark)
    expect(two.bids).toEqual([
      { price: '3400', qty: '1.5', cumulative_qty: '1.5' },
      { price: '3300', qty: '0.5', cumulative_qty: '2' },
    ])
    expect(two.state_hash).not.toBe(top.state_hash)
    await Bun.sleep(200)
    expect(ws.ofTopic('book.ETH.1', mark)).toEqual([])
    ws.close()
  })

  test('trades, userFills and orderUpdates of a fill, with exactly the documented fields', async () => {
    const ws = await WsProbe.open(node.url)
    const a = alice.address
    const b = bob.address
    await ws.subscribe(['trades.BTC', `userFills.${a}`, `orderUpdates.${b.slice(2)}`])
    expect(ws.frames).toHaveLength(1) // no initial push for these
    const makerId = orderIdOf(await alice.send(bid(BTC, '65100', '0.3', { client_order_id: 'mk-1' })))
    const taker = accepted(await bob.send(ask(BTC, '65000', '0.1', { tif: 'Ioc', client_order_id: 'tk-1' })))
    const trades = await ws.next((f) => f.topic === 'trades.BTC')
    expect(keys(trades)).toEqual(['seq', 'topic', 'symbol', 'height', 'timestamp_ms', 'trades'])
    expect(trades.trades).toEqual([
      {
        block_height: taker.height,
        event_seq: 1,
        timestamp_ms: trades.timestamp_ms,
        market_id: BTC,
        price: '65100',
        qty: '0.1',
        notional: '6510',
        side: 'Ask',
      },
    ])
    const fills = await ws.next((f) => f.topic === `userFills.${a}`)
    expect(keys(fills)).toEqual(['seq', 'topic', 'address', 'height', 'timestamp_ms', 'fills'])
    expect(fills.fills).toEqual([
      {
        block_height: taker.height,
        event_seq: 1,
        timestamp_ms: fills.timestamp_ms,
        market_id: BTC,
        symbol: 'BTC-USD',
        order_id: makerId,
        client_order_id: 'mk-1',
        price: '65100',
        qty: '0.1',
        notional: '6510',
        fee: '1.302',
        is_taker: false,
        aggressor_side: 'Ask',
      },
    ])
    const updates = await ws.next((f) => f.topic === `orderUpdates.${b.slice(2)}`)
    expect(keys(updates)).toEqual(['seq', 'topic', 'address', 'height', 'timestamp_ms', 'updates'])
    expect(updates.updates).toEqual([
      {
        block_height: taker.height,
        event_seq: 0,
        order_id: makerId + 1,
        market_id: BTC,
        symbol: 'BTC-USD',
        kind: 'accepted',
        remaining: '0.1',
        side: 'Ask',
        price: '65000',
        qty: '0.1',
        tif: 'Ioc',
      },
      {
        block_height: taker.height,
        event_seq: 2,
        order_id: makerId + 1,
        market_id: BTC,
        symbol: 'BTC-USD',
        kind: 'done',
        remaining: '0',
        reason: 'Filled',
      },
    ])
    ws.close()
  })

  test('orderUpdates: resting carries reduce_only and client_order_id; a cancel is done with its reason', async () => {
    const ws = await WsProbe.open(node.url)
    await ws.subscribe([`orderUpdates.${alice.address}`])
    const id = orderIdOf(await alice.send(ask(SOL, '160', '2', { client_order_id: 'sol-1' })))
    const placed = await ws.next((f) => f.topic === `orderUpdates.${alice.address}`)
    expect(placed.updates.map((u: Frame) => u.kind)).toEqual(['accepted', 'resting'])
    expect(placed.updates[1]).toEqual({
      block_height: placed.height,
      event_seq: 1,
      order_id: id,
      market_id: SOL,
      symbol: 'SOL-USD',
      kind: 'resting',
      remaining: '2',
      side: 'Ask',
      price: '160',
      qty: '2',
      tif: 'Gtc',
      reduce_only: false,
      client_order_id: 'sol-1',
    })
    const mark = ws.frames.length
    accepted(await alice.send({ CancelOrder: { market_id: SOL, order_id: id } }))
    const done = await ws.next((f) => f.topic === `orderUpdates.${alice.address}`, mark)
    expect(done.updates).toEqual([
      {
        block_height: done.height,
        event_seq: 0,
        order_id: id,
        market_id: SOL,
        symbol: 'SOL-USD',
        kind: 'done',
        remaining: '2',
        reason: 'Cancelled',
      },
    ])
    ws.close()
  })

  test('account: full snapshot on subscribe (hex with or without 0x), on a touch, and on the fallback timer', async () => {
    const ws = await WsProbe.open(node.url)
    const topic = `account.${bob.address.slice(2).toUpperCase()}`
    await ws.subscribe([topic])
    const snap = await ws.next((f) => f.topic === topic)
    expect(keys(snap)).toEqual([
      'seq',
      'topic',
      'address',
      'height',
      'timestamp_ms',
      'balance',
      'nonce',
      'role_mask',
      'account_value',
      'total_margin_used',
      'total_notional',
      'withdrawable',
      'cross_cash_available',
      'cross_trading_available',
      'positions',
    ])
    expect(snap.address).toBe(bob.address)
    expect(snap.role_mask).toBe(2)
    const position = snap.positions[String(BTC)]
    expect(Object.keys(position)).toEqual([
      'symbol',
      'mark_price',
      'size',
      'entry_vwap',
      'margin_mode',
      'leverage',
      'isolated_margin',
      'margin_used',
      'unrealized_pnl',
      'notional',
      'liquidation_price',
      'roe',
    ])
    expect(position).toMatchObject({ symbol: 'BTC-USD', size: '-0.1', entry_vwap: '65100', margin_mode: 'Cross' })
    // A touch: bob's nonce moves with his next action.
    const mark = ws.frames.length
    const r = accepted(await bob.send(bid(SOL, '100', '1')))
    const touched = await ws.next((f) => f.topic === topic && f.height === r.height, mark)
    expect(touched.nonce).toBe(snap.nonce + 1)
    // The fallback: with nothing happening to bob, the snapshot comes again on the timer.
    const quiet = ws.frames.length
    const again = await ws.next((f) => f.topic === topic, quiet, 3_000)
    expect(again.nonce).toBe(touched.nonce)
    ws.close()
  })

  test('bbo: snapshot on subscribe, a push when the best price changes', async () => {
    const ws = await WsProbe.open(node.url)
    await ws.subscribe(['bbo.SOL-USD'])
    const first = await ws.next((f) => f.topic === 'bbo.SOL-USD')
    expect(keys(first)).toEqual(['seq', 'topic', 'symbol', 'height', 'timestamp_ms', 'best_bid', 'best_ask'])
    const mark = ws.frames.length
    accepted(await alice.send(bid(SOL, '120.5', '1')))
    const moved = await ws.next((f) => f.topic === 'bbo.SOL-USD', mark)
    expect(moved).toMatchObject({ symbol: 'SOL-USD', best_bid: '120.5' })
    ws.close()
  })

  test('marks: full snapshot on subscribe, then only the markets whose mark changed', async () => {
    const ws = await WsProbe.open(node.url)
    await ws.subscribe(['marks'])
    const all = await ws.next((f) => f.topic === 'marks')
    expect(keys(all)).toEqual(['seq', 'topic', 'height', 'timestamp_ms', 'marks'])
    expect(Object.keys(all.marks).sort()).toEqual(['BTC-USD', 'ETH-USD', 'SOL-USD', 'XAU-USD'])
    const mark = ws.frames.length
    // A trade at a new price on an empty ETH ask side moves the ETH mark (median of bid, ask, last).
    accepted(await alice.send(ask(ETH, '3450', '0.2')))
    accepted(await bob.send(bid(ETH, '3450', '0.2', { tif: 'Ioc' })))
    const changed = await ws.next((f) => f.topic === 'marks' && 'ETH-USD' in f.marks, mark)
    expect(Object.keys(changed.marks)).toEqual(['ETH-USD'])
    expect(changed.marks['ETH-USD']).not.toBe(all.marks['ETH-USD'])
    ws.close()
  })

  test('external_quote: the latest accepted quote of an external-peg market, with last_price and volume, its age and market stats', async () => {
    const ws = await WsProbe.open(node.url)
    await ws.subscribe(['external_quote.XAU'])
    const now = Date.now()
    const r = accepted(
      await quoter.send(
        submitOracleQuote([
          {
            market_id: 4,
            bid_price: '2400.1',
            ask_price: '2400.5',
            mark_price: '2400.3',
            source_ts_ms: now,
            last_price: '2400.2',
            volume: '12.5',
          },
        ]),
      ),
    )
    // Pushed every block once the market has a quote (test/e2e/ws-quote-age.test.ts): this quote's block.
    const f = await ws.next((x) => x.topic === 'external_quote.XAU' && x.height === r.height)
    expect(keys(f)).toEqual(['seq', 'topic', 'symbol', 'height', 'timestamp_ms', 'quote', 'age_ms', 'market_stats'])
    expect(f.age_ms).toBe(f.timestamp_ms - now)
    expect(f.quote).toEqual({
      bid_price: '2400.1',
      ask_price: '2400.5',
      mark_price: '2400.3',
      source_ts_ms: now,
      quoter: quoter.address,
      last_price: '2400.2',
      volume: '12.5',
    })
    for (const k of [
      'long_size',
      'short_size',
      'net_size',
      'oracle_counter_pnl',
      'open_interest',
      'open_interest_notional',
      'fills_in_block',
      'block_height',
    ])
      expect(f.market_stats).toHaveProperty(k)
    ws.close()
  })

  test('triggerUpdates: placed with its details, cancelled with its reason', async () => {
    const ws = await WsProbe.open(node.url)
    const topic = `triggerUpdates.${alice.address}`
    await ws.subscribe([topic])
    const r = accepted(
      await alice.send(
        placeTriggerOrder({
          market_id: BTC,
          side: 'Ask',
          qty: '0.01',
          trigger_price: '50000',
          trigger_direction: 'Below',
          order_type: 'market',
          reduce_only: false,
          client_order_id: 'sl-1',
        }),
      ),
    )
    const placed = await ws.next((f) => f.topic === topic)
    const row = placed.updates[0]
    expect(row).toMatchObject({
      block_height: r.height,
      kind: 'placed',
      market_id: BTC,
      symbol: 'BTC-USD',
      side: 'Ask',
      order_type: 'market',
      qty: '0.01',
      trigger_price: '50000',
      trigger_direction: 'Below',
      reduce_only: false,
      client_order_id: 'sl-1',
      expires_at_ms: null,
    })
    expect(row).not.toHaveProperty('pair_id')
    expect(row).not.toHaveProperty('reason')
    const mark = ws.frames.length
    accepted(await alice.send(cancelTriggerOrder({ market_id: BTC, trigger_id: row.trigger_id })))
    const cancelled = (await ws.next((f) => f.topic === topic, mark)).updates[0]
    expect(Object.keys(cancelled)).toEqual(['block_height', 'event_seq', 'kind', 'market_id', 'symbol', 'trigger_id', 'reason'])
    expect(cancelled).toMatchObject({ kind: 'cancelled', trigger_id: row.trigger_id, reason: 'ByOwner' })
    ws.close()
  })

  test('blocks.live: every block with its envelopes (timestamp_ms) and the index watermarks', async () => {
    const ws = await WsProbe.open(node.url)
    await ws.subscribe(['blocks.live'])
    const r = accepted(await alice.send(bid(SOL, '90', '1')))
    const f = await ws.next((x) => x.topic === 'blocks.live' && x.block.height === r.height)
    expect(keys(f)).toEqual(['seq', 'topic', 'block', 'envelopes', 'watermark', 'block_count', 'node_tip', 'behind'])
    expect(keys(f.block)).toEqual([
      'parent',
      'height',
      'timestamp_ms',
      'digest',
      'envelope_count',
      'event_count',
      'state_root',
      'envelopes',
    ])
    expect(f.block.envelopes).toEqual([])
    expect(f.envelopes).toHaveLength(1)
    expect(f.envelopes[0]).toMatchObject({
      height: r.height,
      envelope_idx: 0,
      tx_hash: r.tx_hash,
      signer: alice.address,
      status: 'accepted',
      action_kind: 'PlaceOrder',
      market_id: SOL,
      symbol: 'SOL-USD',
      timestamp_ms: f.block.timestamp_ms,
    })
    // Pushed once the history index has ingested the block, with its watermarks
    // (docs/history-api.md#status).
    expect(f.watermark).toBeGreaterThanOrEqual(r.height)
    expect(f.node_tip).toBeGreaterThanOrEqual(f.watermark)
    expect(f.behind).toBe(f.node_tip - f.watermark)
    const lives = await until(() => {
      const l = ws.ofTopic('blocks.live')
      return l.length >= 10 ? l : undefined
    })
    expect(lives.map((x) => x.block.height)).toEqual(lives.map((_, i) => lives[0]!.block.height + i))
    ws.close()
  })

  test('candles: the current open bucket on subscribe, then bar updates from fills', async () => {
    accepted(await alice.send(ask(SOL, '150', '3')))
    accepted(await bob.send(bid(SOL, '150', '1', { tif: 'Ioc' })))
    const ws = await WsProbe.open(node.url)
    await ws.subscribe(['candles.SOL.1m', 'candles.SOL-USD.1d'])
    const first = await ws.next((f) => f.topic === 'candles.SOL.1m')
    expect(keys(first)).toEqual(['seq', 'topic', 'data'])
    expect(keys(first.data)).toEqual(['t', 'T', 's', 'i', 'o', 'c', 'h', 'l', 'v', 'n'])
    expect(first.data).toMatchObject({ s: 'SOL-USD', i: '1m', c: '150' })
    expect(first.data.T - first.data.t).toBe(60_000)
    await ws.next((f) => f.topic === 'candles.SOL-USD.1d')
    const mark = ws.frames.length
    accepted(await bob.send(bid(SOL, '150', '1', { tif: 'Ioc' })))
    const bar = await ws.next((f) => f.topic === 'candles.SOL.1m', mark)
    if (bar.data.t === first.data.t) expect(bar.data.n).toBe(first.data.n + 1)
    else expect(bar.data.n).toBe(1)
    ws.close()
  })

  test('every frame of a busy connection has seq one above the last', async () => {
    const ws = await WsProbe.open(node.url)
    await ws.subscribe(['block', 'marks', 'book.BTC', 'bbo.BTC', 'trades.BTC', `account.${alice.address}`, 'blocks.live'])
    accepted(await alice.send(bid(BTC, '64000', '0.01')))
    await until(() => ws.frames.length > 20)
    expect(ws.frames.every((f, i) => f.seq === i + 1)).toBe(true)
    ws.close()
  })
})
