// The hot feed (docs/websocket.md#hot-read-rest): market data in memory, moved by committed blocks.
// Per market: the book rebuilt from order events, a ring of recent trades, the open candles, the
// 24 h counters and the last BBO; per block the market list (marks, open interest) is refreshed
// through the read API. applyBlock returns what changed, which the WebSocket hub turns into pushes.
import { assert } from '../lib/assert.ts'
import { formatDecimal } from '../lib/decimal.ts'
import { createLogger, type LogLine, logLine } from '../lib/log.ts'
import { type CandleInterval, isCandleInterval } from '../wire/candles.ts'
import { decodeEventBody, type EventBody, type EventBodyOf } from '../wire/events/index.ts'
import { resolveSymbol } from '../wire/symbols.ts'
import { FeedBook } from './book.ts'
import { candleBucket, utcDayStart } from './candle-buckets.ts'
import type { FeedDayState } from './day-state.ts'
import { type LiveBar, LiveCandles } from './live-candles.ts'
import type { FeedSource } from './source.ts'
import { TRADE_RING_SIZE, TradeRing } from './trade-ring.ts'
import type { CandleJson, FeedBlock, FeedLifecycle, FeedMarketRow, LevelJson, ParsedEvent, RecentTrade, SeedFill, Slot } from './types.ts'
import { FEED_MARKETS_MAX } from './types.ts'
import { fromUnits, toUnits } from './units.ts'
import {
  fillRows,
  type OrderUpdateRow,
  orderUpdateRow,
  type TriggerUpdateRow,
  touchedAddresses,
  triggerUpdateRow,
  type UserFillRow,
} from './user-streams.ts'

/** Levels per side of the hot-read REST orderbook (docs/limits.md#hot-read-rest). */
export const REST_BOOK_DEPTH_MAX = 50
/** Default and largest depth of the WebSocket book topic (docs/limits.md#websocket). */
export const WS_BOOK_DEPTH_DEFAULT = 50
export const WS_BOOK_DEPTH_MAX = 500
/** Without a block for this long the feed reports stale (data is still served). */
export const STALE_AFTER_MS_DEFAULT = 5_000

const SCALE_6 = 6

export interface HotFeedOptions {
  /** Wall clock, ms (injected for tests). */
  readonly now?: () => number
  readonly staleAfterMs?: number
  readonly log?: LogLine
  /** Trades each market's ring keeps (default TRADE_RING_SIZE; tests lower it). */
  readonly tradeRingSize?: number
}

/** A book snapshot at one depth, cached until the book changes. */
export interface BookSnapshot {
  readonly bids: LevelJson[]
  readonly asks: LevelJson[]
  /** `"bids":[...],"asks":[...]`: the snapshot's JSON without braces, for frame building. */
  readonly levelsJson: string
  /** 0x + sha256 of `{levelsJson}`: lets a client check it holds exactly this snapshot. */
  readonly stateHash: string
}

/** The latest oracle quote of an external-peg market as the external_quote push carries it. */
export interface QuoteJson {
  bid_price: string
  ask_price: string
  mark_price: string
  source_ts_ms: number
  quoter: string
  last_price: string | null
  volume: string | null
}

export interface FeedMarket {
  readonly marketId: number
  symbol: string
  lifecycle: FeedLifecycle
  row: FeedMarketRow
  readonly book: FeedBook
  readonly trades: TradeRing
  readonly candles: LiveCandles
  /** Start of the UTC day the 24 h counters cover. */
  dayStartMs: number
  dayNotional: bigint
  dayBaseLots: number
  prevDayPrice: string | null
  fillsInBlock: number
  lastQuote: QuoteJson | null
  snapshotVersion: number
  readonly snapshots: Map<number, BookSnapshot>
}

/**
 * Whose per-account pushes anyone would be sent (the WebSocket hub's address topics). The rows of
 * accounts no one watches are left out of a block's delta: under 50-order batches they were about
 * a tenth of the block thread (each event's body scanned for addresses, an order update row per
 * event), for pushes that went nowhere.
 */
export interface AccountInterest {
  /** Whether anyone watches an account topic: else touched accounts are not gathered. */
  accounts(): boolean
  orderUpdates(address: string): boolean
  triggerUpdates(address: string): boolean
  userFills(address: string): boolean
}

/** What a block changed, for the WebSocket hub. */
export interface BlockDelta {
  readonly block: FeedBlock
  readonly height: number
  readonly timestampMs: number
  /** Markets whose book levels changed. */
  readonly booksChanged: Set<number>
  /** Markets whose best bid or ask may have changed (book changes, and external-peg quotes). */
  readonly bboChanged: Set<number>
  /** Taker-side trade rows by market, in event order. */
  readonly trades: Map<number, RecentTrade[]>
  /** Markets (not Delisted) whose mark changed, with the new mark. */
  readonly marksChanged: Map<number, string>
  /** Markets whose open candles moved. */
  readonly candlesChanged: Set<number>
  /** External-peg markets with an accepted quote in this block (the latest one each). */
  readonly quotes: Map<number, QuoteJson>
  readonly userFills: Map<string, UserFillRow[]>
  readonly orderUpdates: Map<string, OrderUpdateRow[]>
  readonly triggerUpdates: Map<string, TriggerUpdateRow[]>
  /** Accounts the block touched: signers and every address its events name (none when no one watches an account topic). */
  readonly touched: Set<string>
}

/** /api/v1/status hot_feed fields (docs/history-api.md#status). */
export interface HotFeedStatus {
  native_ready: boolean
  ext_ready: boolean
  stale: boolean
  chain_height: number
  book_updated_at_ms: number
}

type FilledBody = EventBodyOf<'Filled'>

/** The RecentTrade row of a Filled event body (decimal strings) in market m. */
const tradeOf = (m: FeedMarket, height: number, seq: number, timestampMs: number, b: FilledBody): RecentTrade => ({
  block_height: height,
  event_seq: seq,
  timestamp_ms: timestampMs,
  market_id: m.marketId,
  symbol: m.symbol,
  price: b.price,
  qty: b.qty,
  notional: b.notional,
  side: b.taker_side,
})

/** The body of a stored Filled event (the seed and resume reads select Filled events only). */
function filledBody(json: string): FilledBody {
  const b = decodeEventBody(json)
  assert(b.sub_kind === 'Filled', `expected a Filled event body, got ${b.sub_kind}`)
  return b
}

const pushTo = <T>(map: Map<string, T[]>, key: string, row: T) => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [row])
  else list.push(row)
}

export class HotFeed {
  private readonly markets = new Map<number, FeedMarket>()
  private readonly ready: Record<Slot, boolean> = { native: false, external_peg: false }
  private readonly now: () => number
  private readonly staleAfterMs: number
  private readonly log: LogLine
  private readonly tradeRingSize: number
  /** Height and block time of the last block applied (or of the seed). */
  height = 0
  timestampMs = 0
  /** Wall time of the last block applied, for staleness. */
  private updatedWallMs = 0
  /** Books resynced from the chain after their order count drifted (a missing event mapping). */
  resyncs = 0

  constructor(
    private readonly source: FeedSource,
    options: HotFeedOptions = {},
  ) {
    this.now = options.now ?? Date.now
    this.staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS_DEFAULT
    this.log = options.log ?? logLine(createLogger('feed'))
    this.tradeRingSize = options.tradeRingSize ?? TRADE_RING_SIZE
  }

  /** Builds every slot from the chain once: markets, marks, resting orders, trades and latest quotes. */
  seed(): void {
    const tip = this.source.tip()
    this.height = tip.height
    this.timestampMs = tip.timestampMs
    this.refreshMarkets(undefined)
    for (const o of this.source.restingOrders()) this.restSeedOrder(o)
    this.seedTrades()
    this.seedQuotes()
    this.updatedWallMs = this.now()
    this.ready.native = true
    this.ready.external_peg = true
  }

  isReady(slot: Slot): boolean {
    return this.ready[slot]
  }

  get stale(): boolean {
    return this.now() - this.updatedWallMs > this.staleAfterMs
  }

  status(): HotFeedStatus {
    return {
      native_ready: this.ready.native,
      ext_ready: this.ready.external_peg,
      stale: this.stale,
      chain_height: this.height,
      book_updated_at_ms: this.timestampMs,
    }
  }

  /** Resolves a symbol or base-asset prefix (docs/markets.md#symbol-resolution) among markets that are not Delisted. */
  resolve(symbol: string): FeedMarket | undefined {
    return resolveSymbol(this.markets.values(), symbol)
  }

  market(marketId: number): FeedMarket | undefined {
    return this.markets.get(marketId)
  }

  /** Markets that are not Delisted, by market_id. */
  liveMarkets(): FeedMarket[] {
    return [...this.markets.values()].filter((m) => m.lifecycle !== 'Delisted').sort((a, b) => a.marketId - b.marketId)
  }

  /**
   * Applies a committed block and reports what changed. Blocks at or below the seed are skipped.
   * bodies: its events' bodies as objects (index i is block.events[i]'s), when the producer has
   * them (ChainNode's CommittedBlock); else each bodyJson is parsed here. interest: whose
   * per-account rows to make (all without it).
   */
  applyBlock(block: FeedBlock, bodies?: readonly EventBody[], interest?: AccountInterest): BlockDelta | undefined {
    const { height, timestampMs } = block.header
    if (height <= this.height) return undefined
    assert(height === this.height + 1, `hot feed at ${this.height} got block ${height}`)
    // The 24 h counters roll over at UTC midnight, at the start of the block
    // (docs/websocket.md#hot-read-rest).
    const dayStart = utcDayStart(timestampMs)
    for (const m of this.markets.values()) {
      if (dayStart > m.dayStartMs) this.rollDay(m, dayStart)
      m.fillsInBlock = 0
    }
    const previous = new Map<number, FeedMarketRow>()
    for (const m of this.markets.values()) previous.set(m.marketId, m.row)
    this.refreshMarkets(dayStart)

    const delta: BlockDelta = {
      block,
      height,
      timestampMs,
      booksChanged: new Set(),
      bboChanged: new Set(),
      trades: new Map(),
      marksChanged: new Map(),
      candlesChanged: new Set(),
      quotes: new Map(),
      userFills: new Map(),
      orderUpdates: new Map(),
      triggerUpdates: new Map(),
      touched: new Set(),
    }
    const gatherTouched = interest === undefined || interest.accounts()
    if (gatherTouched) for (const env of block.envelopes) delta.touched.add(env.signer)
    const versions = new Map<number, number>()
    for (const m of this.markets.values()) versions.set(m.marketId, m.book.version)
    /** client_order_id of orders accepted in this block (a taker's own id for its fill rows). */
    const acceptedCloids = new Map<number, string | null>()
    for (let i = 0; i < block.events.length; i++) {
      const stored = block.events[i]!
      const e: ParsedEvent = {
        seq: stored.seq,
        envelopeIdx: stored.envelopeIdx,
        kind: stored.kind,
        subKind: stored.subKind,
        marketId: stored.marketId,
        account: stored.account,
        body: bodies?.[i] ?? decodeEventBody(stored.bodyJson),
      }
      if (gatherTouched) touchedAddresses(e, delta.touched)
      const m = e.marketId === null ? undefined : this.markets.get(e.marketId)
      if (m === undefined) continue
      this.applyEvent(m, e, block, delta, acceptedCloids, interest)
    }
    for (const m of this.markets.values()) {
      if (m.row.open_orders !== m.book.orderCount) this.resyncBook(m)
      if (m.book.version !== versions.get(m.marketId)) delta.booksChanged.add(m.marketId)
      const before = previous.get(m.marketId)
      if (m.lifecycle !== 'Delisted' && before !== undefined && before.mark_price !== m.row.mark_price)
        delta.marksChanged.set(m.marketId, m.row.mark_price)
      if (
        delta.booksChanged.has(m.marketId) ||
        before === undefined ||
        before.quote_bid !== m.row.quote_bid ||
        before.quote_ask !== m.row.quote_ask
      )
        delta.bboChanged.add(m.marketId)
    }
    this.height = height
    this.timestampMs = timestampMs
    this.updatedWallMs = this.now()
    return delta
  }

  private applyEvent(
    m: FeedMarket,
    e: ParsedEvent,
    block: FeedBlock,
    delta: BlockDelta,
    acceptedCloids: Map<number, string | null>,
    interest: AccountInterest | undefined,
  ): void {
    const b = e.body
    const { height, timestampMs } = block.header
    const px = m.row.price_decimals
    const sz = m.row.size_decimals
    switch (b.sub_kind) {
      case 'OrderAccepted':
        acceptedCloids.set(b.order_id, b.client_order_id ?? null)
        break
      case 'OrderResting':
        m.book.upsert({
          orderId: b.order_id,
          side: b.side,
          priceTicks: toUnits(b.price, px),
          lots: toUnits(b.remaining, sz),
          owner: b.account,
          clientOrderId: b.client_order_id ?? null,
        })
        break
      case 'OrderDone':
      case 'OrderExpired':
        m.book.remove(b.order_id)
        break
      case 'OracleQuoteAccepted':
        if (m.row.routing === 'external_peg') {
          const quote = this.quoteOf(m, e, b, block)
          m.lastQuote = quote
          delta.quotes.set(m.marketId, quote)
        }
        break
      case 'Filled': {
        // A match moves the maker's remainder (Filled is the only event that reports one).
        const makerId = b.maker_order_id
        const wantFills = interest === undefined || interest.userFills(b.taker) || interest.userFills(b.maker)
        // Read before setRemaining, which takes a filled maker off the book.
        const makerCloid = wantFills ? (m.book.get(makerId)?.clientOrderId ?? null) : null
        m.book.setRemaining(makerId, toUnits(b.maker_remaining, sz))
        this.recordTrade(m, e, b, height, timestampMs, delta)
        if (wantFills) {
          const takerId = b.taker_order_id
          const rows = fillRows(e, b, height, timestampMs, m.symbol, {
            taker: acceptedCloids.get(takerId) ?? m.book.get(takerId)?.clientOrderId ?? null,
            maker: makerCloid,
          })
          pushTo(delta.userFills, b.taker, rows.taker)
          pushTo(delta.userFills, b.maker, rows.maker)
        }
        break
      }
    }
    const account = e.account
    if (account === null) return
    if (interest === undefined || interest.orderUpdates(account)) {
      const update = orderUpdateRow(e, height, m.symbol)
      if (update !== undefined) pushTo(delta.orderUpdates, account, update)
    }
    if (interest === undefined || interest.triggerUpdates(account)) {
      const trigger = triggerUpdateRow(e, height, m.symbol)
      if (trigger !== undefined) pushTo(delta.triggerUpdates, account, trigger)
    }
  }

  /**
   * Fills each market's trade ring with that market's newest trades (docs/websocket.md#design-decisions:
   * per market, so a busy market does not crowd out a quiet one; oldest pushed first, so each ring
   * ends on the newest). Only the rings: open candles and the 24 h counters start from this block on.
   */
  private seedTrades(): void {
    const fills = this.source.recentFills(this.tradeRingSize)
    for (let i = fills.length - 1; i >= 0; i--) {
      const f = fills[i]!
      const m = f.marketId === null ? undefined : this.markets.get(f.marketId)
      if (m !== undefined) m.trades.push(tradeOf(m, f.height, f.seq, f.timestampMs, filledBody(f.bodyJson)))
    }
  }

  /**
   * Reads back each external-peg market's latest accepted quote from the block that accepted it, so
   * external_quote goes on pushing it (with its age) after a restart, last_price and volume included.
   */
  private seedQuotes(): void {
    for (const m of this.markets.values()) {
      if (m.row.routing !== 'external_peg') continue
      const block = this.source.latestQuoteBlock(m.marketId)
      if (block === undefined) continue
      for (const stored of block.events) {
        if (stored.subKind !== 'OracleQuoteAccepted' || stored.marketId !== m.marketId) continue
        const body = decodeEventBody(stored.bodyJson)
        if (body.sub_kind !== 'OracleQuoteAccepted') continue
        // The block's last accepted quote of the market is its latest.
        m.lastQuote = this.quoteOf(
          m,
          {
            seq: stored.seq,
            envelopeIdx: stored.envelopeIdx,
            kind: stored.kind,
            subKind: stored.subKind,
            marketId: stored.marketId,
            account: stored.account,
            body,
          },
          body,
          block,
        )
      }
    }
  }

  private recordTrade(m: FeedMarket, e: ParsedEvent, b: FilledBody, height: number, timestampMs: number, delta: BlockDelta): void {
    const trade = tradeOf(m, height, e.seq, timestampMs, b)
    m.trades.push(trade)
    const list = delta.trades.get(m.marketId)
    if (list === undefined) delta.trades.set(m.marketId, [trade])
    else list.push(trade)
    this.countFill(m, b, timestampMs)
    delta.candlesChanged.add(m.marketId)
    m.fillsInBlock++
  }

  /** Adds a fill (a Filled event body) to the market's open candles and day volumes. */
  private countFill(m: FeedMarket, b: FilledBody, timestampMs: number): void {
    const lots = toUnits(b.qty, m.row.size_decimals)
    m.candles.addFill(toUnits(b.price, m.row.price_decimals), lots, timestampMs)
    m.dayBaseLots += lots
    m.dayNotional += BigInt(toUnits(b.notional, SCALE_6))
  }

  /** The 24 h counters and open candles as of this.height, for a restart to go on from (day-state.ts). */
  dayState(): FeedDayState {
    return {
      height: this.height,
      markets: [...this.markets.values()].map((m) => ({
        market_id: m.marketId,
        day_start_ms: m.dayStartMs,
        day_notional: m.dayNotional.toString(),
        day_base_lots: m.dayBaseLots,
        prev_day_price: m.prevDayPrice,
        bars: m.candles.entries(),
      })),
    }
  }

  /**
   * Goes on from a day state saved at an earlier height, right after seed(): takes its counters and
   * bars, then counts the Filled events of the blocks after it (oldest first) as applyBlock did. A
   * day that ended within those blocks has no known closing mark, so prev_day_price is then unset.
   */
  resumeDay(saved: FeedDayState, fillsAfter: readonly SeedFill[]): void {
    assert(saved.height <= this.height, `a day state at ${saved.height} is ahead of the feed at ${this.height}`)
    for (const s of saved.markets) {
      const m = this.markets.get(s.market_id)
      if (m === undefined) continue
      m.dayStartMs = s.day_start_ms
      m.dayNotional = BigInt(s.day_notional)
      m.dayBaseLots = s.day_base_lots
      m.prevDayPrice = s.prev_day_price
      for (const [interval, bar] of s.bars) m.candles.restore(interval, bar)
    }
    const rollUnknown = (m: FeedMarket, dayStart: number) => {
      this.rollDay(m, dayStart)
      m.prevDayPrice = null
    }
    for (const f of fillsAfter) {
      const m = f.marketId === null ? undefined : this.markets.get(f.marketId)
      if (m === undefined || f.height <= saved.height) continue
      const dayStart = utcDayStart(f.timestampMs)
      if (dayStart > m.dayStartMs) rollUnknown(m, dayStart)
      this.countFill(m, filledBody(f.bodyJson), f.timestampMs)
    }
    const tipDay = utcDayStart(this.timestampMs)
    for (const m of this.markets.values()) if (tipDay > m.dayStartMs) rollUnknown(m, tipDay)
  }

  /** The quote of an OracleQuoteAccepted event, with last_price and volume from the signed item. */
  private quoteOf(m: FeedMarket, e: ParsedEvent, b: EventBodyOf<'OracleQuoteAccepted'>, block: FeedBlock): QuoteJson {
    const quote: QuoteJson = {
      bid_price: b.bid_price,
      ask_price: b.ask_price,
      mark_price: b.mark_price,
      source_ts_ms: b.source_ts_ms,
      quoter: b.account,
      last_price: null,
      volume: null,
    }
    // The chain keeps neither last_price nor volume; they travel in the SubmitOracleQuote item.
    const env = e.envelopeIdx === null ? undefined : block.envelopes[e.envelopeIdx]
    if (env === undefined || env.actionKind !== 'SubmitOracleQuote') return quote
    const action = JSON.parse(env.actionJson) as { SubmitOracleQuote?: { quotes?: Record<string, unknown>[] } }
    for (const item of action.SubmitOracleQuote?.quotes ?? []) {
      const forMarket =
        item.market_id !== undefined
          ? item.market_id === m.marketId
          : typeof item.symbol === 'string' && this.resolve(item.symbol)?.marketId === m.marketId
      if (!forMarket || Number(item.source_ts_ms) !== quote.source_ts_ms) continue
      if (typeof item.last_price === 'string') quote.last_price = item.last_price
      if (typeof item.volume === 'string') quote.volume = item.volume
      break
    }
    return quote
  }

  private rollDay(m: FeedMarket, dayStart: number): void {
    // The previous day's closing price: the mark at the end of that day.
    m.prevDayPrice = m.row.mark_price
    m.dayStartMs = dayStart
    m.dayNotional = 0n
    m.dayBaseLots = 0
  }

  /** Reads the market list (new markets, lifecycle, marks, open interest). */
  private refreshMarkets(dayStart: number | undefined): void {
    const rows = this.source.markets()
    assert(rows.length <= FEED_MARKETS_MAX, `${rows.length} markets exceed the feed's bound`)
    for (const row of rows) {
      const m = this.markets.get(row.market_id)
      if (m !== undefined) {
        m.row = row
        m.symbol = row.symbol
        m.lifecycle = row.lifecycle
        continue
      }
      this.markets.set(row.market_id, {
        marketId: row.market_id,
        symbol: row.symbol,
        lifecycle: row.lifecycle,
        row,
        book: new FeedBook(),
        trades: new TradeRing(this.tradeRingSize),
        candles: new LiveCandles(),
        dayStartMs: dayStart ?? utcDayStart(this.timestampMs),
        dayNotional: 0n,
        dayBaseLots: 0,
        prevDayPrice: null,
        fillsInBlock: 0,
        lastQuote: null,
        snapshotVersion: -1,
        snapshots: new Map(),
      })
    }
  }

  private restSeedOrder(o: {
    order_id: number
    market_id: number
    owner: string
    side: 'Bid' | 'Ask'
    price: string
    remaining: string
    client_order_id: string | null
  }): void {
    const m = this.markets.get(o.market_id)
    if (m === undefined) return
    m.book.upsert({
      orderId: o.order_id,
      side: o.side,
      priceTicks: toUnits(o.price, m.row.price_decimals),
      lots: toUnits(o.remaining, m.row.size_decimals),
      owner: o.owner,
      clientOrderId: o.client_order_id,
    })
  }

  /**
   * The book's order count differs from the chain's: some event kind changed resting orders without
   * the events this feed maps. Rebuild the market's book from the chain so clients see the truth,
   * and say so loudly, since it means an event mapping is missing.
   */
  private resyncBook(m: FeedMarket): void {
    this.resyncs++
    this.log(
      `hot feed: ${m.symbol} book drifted (${m.book.orderCount} orders, chain ${m.row.open_orders}); resynced from the chain`,
      'warn',
    )
    m.book.clear()
    for (const o of this.source.restingOrders(m.marketId)) this.restSeedOrder(o)
  }

  // ---- reads ------------------------------------------------------------------------------------

  /** The book at `depth` levels per side, cached until the book changes. */
  snapshot(m: FeedMarket, depth: number): BookSnapshot {
    if (m.snapshotVersion !== m.book.version) {
      m.snapshots.clear()
      m.snapshotVersion = m.book.version
    }
    const cached = m.snapshots.get(depth)
    if (cached !== undefined) return cached
    const side = (s: 'Bid' | 'Ask') => {
      let cumulative = 0
      return m.book.levels(s, depth).map(([ticks, lots]): LevelJson => {
        cumulative += lots
        return {
          price: fromUnits(ticks, m.row.price_decimals),
          qty: fromUnits(lots, m.row.size_decimals),
          cumulative_qty: fromUnits(cumulative, m.row.size_decimals),
        }
      })
    }
    const bids = side('Bid')
    const asks = side('Ask')
    const json = JSON.stringify({ bids, asks })
    const hasher = new Bun.CryptoHasher('sha256')
    hasher.update(json)
    const snap: BookSnapshot = { bids, asks, levelsJson: json.slice(1, -1), stateHash: `0x${hasher.digest('hex')}` }
    m.snapshots.set(depth, snap)
    return snap
  }

  /** OrderbookSnapshot of the hot-read REST endpoint (docs/websocket.md#hot-read-rest). */
  orderbook(m: FeedMarket, depth: number) {
    const snap = this.snapshot(m, depth)
    return { symbol: m.symbol, height: this.height, state_hash: snap.stateHash, source: 'chain-events', bids: snap.bids, asks: snap.asks }
  }

  /** Best bid and ask a taker meets: the book's on a native market, the fresh quote's on an external-peg one. */
  bbo(m: FeedMarket): { best_bid: string | null; best_ask: string | null; spread: string | null } {
    const px = m.row.price_decimals
    if (m.row.routing === 'external_peg') {
      const { quote_bid: bid, quote_ask: ask } = m.row
      return {
        best_bid: bid,
        best_ask: ask,
        spread: bid === null || ask === null ? null : fromUnits(toUnits(ask, px) - toUnits(bid, px), px),
      }
    }
    const bid = m.book.bestBid()
    const ask = m.book.bestAsk()
    return {
      best_bid: bid === undefined ? null : fromUnits(bid, px),
      best_ask: ask === undefined ? null : fromUnits(ask, px),
      spread: bid === undefined || ask === undefined ? null : fromUnits(ask - bid, px),
    }
  }

  /** BboItem[] sorted by symbol (docs/websocket.md#hot-read-rest). */
  bbos() {
    return this.liveMarkets()
      .map((m) => {
        const b = this.bbo(m)
        return { symbol: m.symbol, bid: b.best_bid, ask: b.best_ask, spread: b.spread }
      })
      .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0))
  }

  /** MarksMap: symbol to mark price. */
  marks(): Record<string, string> {
    const out: Record<string, string> = {}
    for (const m of this.liveMarkets()) out[m.symbol] = m.row.mark_price
    return out
  }

  /** The four-field market list (docs/websocket.md#hot-read-rest). */
  marketInfos() {
    return this.liveMarkets().map((m) => ({
      market_id: m.marketId,
      symbol: m.symbol,
      price_decimals: m.row.price_decimals,
      size_decimals: m.row.size_decimals,
    }))
  }

  /** MarketSummary (docs/websocket.md#hot-read-rest). */
  summary(m: FeedMarket) {
    const b = this.bbo(m)
    return {
      symbol: m.symbol,
      mark_price: m.row.mark_price,
      best_bid: b.best_bid,
      best_ask: b.best_ask,
      spread: b.spread,
      open_interest: m.row.open_interest,
      open_interest_notional: m.row.open_interest_notional,
      fills_in_block: m.fillsInBlock,
      bid_levels: m.row.routing === 'external_peg' ? (b.best_bid === null ? 0 : 1) : m.book.bidLevels,
      ask_levels: m.row.routing === 'external_peg' ? (b.best_ask === null ? 0 : 1) : m.book.askLevels,
      open_orders: m.book.orderCount,
      prev_day_price: m.prevDayPrice,
      day_ntl_volume: formatDecimal(m.dayNotional, SCALE_6),
      day_base_volume: fromUnits(m.dayBaseLots, m.row.size_decimals),
    }
  }

  /** Candle JSON of a live bar. */
  candle(m: FeedMarket, interval: CandleInterval, bar: LiveBar): CandleJson {
    const px = m.row.price_decimals
    return {
      t: bar.t,
      T: bar.T,
      s: m.symbol,
      i: interval,
      o: fromUnits(bar.o, px),
      c: fromUnits(bar.c, px),
      h: fromUnits(bar.h, px),
      l: fromUnits(bar.l, px),
      v: fromUnits(bar.v, m.row.size_decimals),
      n: bar.n,
    }
  }

  /** The open candle of an interval at the feed's block time, if its bucket has fills. */
  currentCandle(m: FeedMarket, interval: string): CandleJson | undefined {
    if (!isCandleInterval(interval)) return undefined
    const bar = m.candles.current(interval, this.timestampMs)
    return bar === undefined ? undefined : this.candle(m, interval, bar)
  }

  /** The bucket an interval is in at the feed's block time (for tests and the indexer's merge). */
  bucketNow(interval: CandleInterval): { t: number; T: number } {
    return candleBucket(interval, this.timestampMs)
  }
}
