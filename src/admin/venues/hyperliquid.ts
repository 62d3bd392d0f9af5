// The Hyperliquid venue (docs/admin.md#venues): reads over /info (hyperliquid-info.ts), orders and
// cancels by cloid over /exchange with L1 signing (hyperliquid-exchange.ts, hyperliquid-signing.ts),
// prices and sizes rounded to Hyperliquid's rules (hyperliquid-numbers.ts), markets and categories
// derived from its metadata (hyperliquid-markets.ts).
import { hexToBytes } from '../../lib/hex.ts'
import { normalizeCloid } from './hyperliquid-cloid.ts'
import {
  type HlCancelStatusEntry,
  type HlOrderStatusEntry,
  HyperliquidActionError,
  HyperliquidExchangeClient,
} from './hyperliquid-exchange.ts'
import { type HlMeta, HyperliquidInfoClient } from './hyperliquid-info.ts'
import { categoriesOf, type HlMarket, marketsOf } from './hyperliquid-markets.ts'
import { fixed, formatFixed, roundPrice, roundSize } from './hyperliquid-numbers.ts'
import { cancelByCloidAction, type HyperliquidNetwork, orderAction, orderWire } from './hyperliquid-signing.ts'
import type {
  Venue,
  VenueAccount,
  VenueCategory,
  VenueFill,
  VenueMargin,
  VenueMarket,
  VenueOpenOrder,
  VenueOrderRequest,
  VenueOrderStatus,
  VenuePlaceResult,
  VenuePosition,
  VenueQuote,
} from './venue.ts'

/** Hyperliquid's public API of each network. */
export const HYPERLIQUID_API_URLS: Readonly<Record<HyperliquidNetwork, string>> = {
  mainnet: 'https://api.hyperliquid.xyz',
  testnet: 'https://api.hyperliquid-testnet.xyz',
}

export interface HyperliquidVenueOptions {
  readonly network: HyperliquidNetwork
  /** Another API base URL than the network's (a proxy, or a local implementation in tests). */
  readonly apiUrl?: string | undefined
  /** How long the market list is reused before it is read again. */
  readonly marketsTtlMs?: number | undefined
  readonly clock?: (() => number) | undefined
}

/**
 * Markets change rarely (a listing, a delisting). Reading them costs a `meta` request per dex (a
 * heavy request in Hyperliquid's rate limits, and testnet has dozens of builder dexes), so they are
 * reused for five minutes.
 */
const DEFAULT_MARKETS_TTL_MS = 300_000
/** Requests of one call in flight at once (l2Book of quotes(), meta of the dexes). */
const READS_IN_FLIGHT = 8
/** userFillsByTime answers at most this many fills; a full page means there may be more. */
const FILLS_PAGE = 2000
const FILL_PAGES_MAX = 5

export class HyperliquidVenue implements Venue {
  readonly name: string
  readonly apiUrl: string
  private readonly info: HyperliquidInfoClient
  private readonly clock: () => number
  private readonly ttlMs: number
  private cached: { atMs: number; markets: Promise<HlMarket[]> } | undefined
  /** The last markets read successfully: kept (for another TTL) when a re-read fails, so a venue hiccup does not stop quotes. */
  private lastGood: HlMarket[] | undefined

  constructor(private readonly options: HyperliquidVenueOptions) {
    this.apiUrl = (options.apiUrl ?? HYPERLIQUID_API_URLS[options.network]).replace(/\/+$/, '')
    this.name = `hyperliquid ${options.network}`
    this.info = new HyperliquidInfoClient(this.apiUrl, this.name)
    this.clock = options.clock ?? Date.now
    this.ttlMs = options.marketsTtlMs ?? DEFAULT_MARKETS_TTL_MS
  }

  /** Every market of every dex with its asset id (cached for the TTL; a failed read is not kept). */
  hlMarkets(signal?: AbortSignal): Promise<HlMarket[]> {
    const now = this.clock()
    if (this.cached !== undefined && now - this.cached.atMs < this.ttlMs) return this.cached.markets
    const entry = { atMs: now, markets: this.loadMarkets(signal) }
    this.cached = entry
    entry.markets.catch(() => {
      if (this.cached === entry) this.cached = undefined
    })
    return entry.markets
  }

  private async loadMarkets(signal?: AbortSignal): Promise<HlMarket[]> {
    try {
      const dexes = await this.info.perpDexs(signal)
      const names = dexes.map((d, i) => (i === 0 || d === null ? '' : d.name))
      const metas: HlMeta[] = []
      for (let i = 0; i < names.length; i += READS_IN_FLIGHT)
        metas.push(...(await Promise.all(names.slice(i, i + READS_IN_FLIGHT).map((n) => this.info.meta(n, signal)))))
      this.lastGood = marketsOf(dexes, metas)
      return this.lastGood
    } catch (err) {
      if (this.lastGood !== undefined && signal?.aborted !== true) return this.lastGood
      throw err
    }
  }

  async markets(signal?: AbortSignal): Promise<readonly VenueMarket[]> {
    return (await this.hlMarkets(signal)).map(({ coin, symbol, size_decimals, price_decimals, tradable }) => ({
      coin,
      symbol,
      size_decimals,
      price_decimals,
      tradable,
    }))
  }

  async quotes(symbols: readonly string[], signal?: AbortSignal): Promise<ReadonlyMap<string, VenueQuote>> {
    const bySymbol = new Map((await this.hlMarkets(signal)).map((m) => [m.symbol, m]))
    const wanted: { asked: string; market: HlMarket }[] = []
    for (const asked of symbols) {
      const market = bySymbol.get(asked.toUpperCase())
      if (market !== undefined && !market.delisted) wanted.push({ asked, market })
    }
    const out = new Map<string, VenueQuote>()
    if (wanted.length === 0) return out
    const dexes = [...new Set(wanted.map((w) => w.market.dex))]
    const mids = new Map(await Promise.all(dexes.map(async (d) => [d, await this.info.allMids(d, signal)] as const)))
    for (let i = 0; i < wanted.length; i += READS_IN_FLIGHT) {
      const chunk = wanted.slice(i, i + READS_IN_FLIGHT)
      const books = await Promise.all(chunk.map((w) => this.info.l2Book(w.market.coin, signal)))
      chunk.forEach((w, j) => {
        const book = books[j]!
        out.set(w.asked, {
          mid: mids.get(w.market.dex)?.[w.market.coin] ?? null,
          best_bid: book.levels[0][0]?.px ?? null,
          best_ask: book.levels[1][0]?.px ?? null,
          ts_ms: book.time,
        })
      })
    }
    return out
  }

  async categories(signal?: AbortSignal): Promise<readonly VenueCategory[]> {
    const [markets, tags] = await Promise.all([this.hlMarkets(signal), this.info.perpCategories(signal)])
    return categoriesOf(markets, tags)
  }

  account(privateKeyHex: string): VenueAccount {
    const key = hexToBytes(privateKeyHex)
    if (key.length !== 32) throw new Error('a Hyperliquid account key must be 32 bytes (0x + 64 hex)')
    const exchange = new HyperliquidExchangeClient(this.apiUrl, this.options.network, key, this.name, this.clock)
    return new HyperliquidAccount(this, this.info, exchange)
  }
}

/** Our order status of Hyperliquid's: open, filled, the *Canceled family, the *Rejected family. */
function statusOf(hlStatus: string, filled: bigint): VenueOrderStatus['status'] {
  if (hlStatus === 'open' || hlStatus === 'triggered') return 'open'
  if (hlStatus === 'filled') return 'filled'
  if (hlStatus === 'rejected' || hlStatus.endsWith('Rejected')) return 'rejected'
  // canceled, marginCanceled, scheduledCancel, …: what filled before the cancel stays filled.
  return filled > 0n ? 'partially_filled' : 'cancelled'
}

const isError = (s: HlOrderStatusEntry | HlCancelStatusEntry): s is { error: string } => typeof s === 'object' && 'error' in s

class HyperliquidAccount implements VenueAccount {
  readonly address: string

  constructor(
    private readonly venue: HyperliquidVenue,
    private readonly info: HyperliquidInfoClient,
    private readonly exchange: HyperliquidExchangeClient,
  ) {
    this.address = exchange.address
  }

  private async market(coin: string, signal?: AbortSignal): Promise<HlMarket | undefined> {
    return (await this.venue.hlMarkets(signal)).find((m) => m.coin === coin)
  }

  async place(order: VenueOrderRequest, signal?: AbortSignal): Promise<VenuePlaceResult> {
    const cloid = normalizeCloid(order.cloid)
    const market = await this.market(order.coin, signal)
    if (market === undefined) return { status: 'rejected', error: `${this.venue.name} lists no market ${order.coin}` }
    if (!market.tradable)
      return { status: 'rejected', error: `${this.venue.name} does not trade ${order.coin} (delisted or on a builder dex)` }
    const px = roundPrice(order.px, market.size_decimals)
    const sz = roundSize(order.sz, market.size_decimals)
    if (px === undefined) return { status: 'rejected', error: `price ${order.px} rounds to zero` }
    if (sz === undefined) return { status: 'rejected', error: `size ${order.sz} rounds to zero at ${market.size_decimals} size decimals` }
    const wire = orderWire({ asset: market.asset, isBuy: order.is_buy, px, sz, reduceOnly: order.reduce_only, tif: order.tif, cloid })
    let statuses: Awaited<ReturnType<HyperliquidExchangeClient['send']>>
    try {
      statuses = await this.exchange.send(orderAction([wire]), signal)
    } catch (err) {
      // The venue refused the whole action: nothing was placed.
      if (err instanceof HyperliquidActionError) return { status: 'rejected', error: err.message }
      throw err
    }
    const s = statuses[0]
    if (s === undefined || s === 'success') throw new Error(`${this.venue.name} answered an order without its status`)
    if (isError(s)) return { status: 'rejected', error: s.error }
    if ('resting' in s) return { status: 'resting', ext_oid: String(s.resting.oid) }
    return { status: 'filled', ext_oid: String(s.filled.oid), filled_sz: toNormal(s.filled.totalSz), avg_px: toNormal(s.filled.avgPx) }
  }

  async cancelByCloid(coin: string, cloid: string, signal?: AbortSignal): Promise<boolean> {
    const market = await this.market(coin, signal)
    if (market === undefined) throw new Error(`${this.venue.name} lists no market ${coin}`)
    const statuses = await this.exchange.send(cancelByCloidAction([{ asset: market.asset, cloid: normalizeCloid(cloid) }]), signal)
    // "Order was never placed, already canceled, or filled." is the venue's answer for no open order.
    return statuses[0] === 'success'
  }

  async orderStatusByCloid(cloid: string, signal?: AbortSignal): Promise<VenueOrderStatus | null> {
    const answer = await this.info.orderStatus(this.address, normalizeCloid(cloid), signal)
    if (answer.status === 'unknownOid') return null
    const o = answer.order.order
    const origSz = fixed(o.origSz, 'origSz')
    const filled = origSz - fixed(o.sz, 'sz')
    return {
      cloid: (o.cloid ?? cloid).toLowerCase(),
      ext_oid: String(o.oid),
      coin: o.coin,
      is_buy: o.side === 'B',
      status: statusOf(answer.order.status, filled),
      orig_sz: formatFixed(origSz),
      filled_sz: formatFixed(filled),
      px: toNormal(o.limitPx),
    }
  }

  async openOrders(signal?: AbortSignal): Promise<readonly VenueOpenOrder[]> {
    return (await this.info.frontendOpenOrders(this.address, signal)).map((o) => ({
      coin: o.coin,
      ext_oid: String(o.oid),
      cloid: o.cloid?.toLowerCase() ?? null,
      is_buy: o.side === 'B',
      sz: toNormal(o.sz),
      px: toNormal(o.limitPx),
      ts_ms: o.timestamp,
    }))
  }

  async fillsSince(sinceMs: number, signal?: AbortSignal): Promise<readonly VenueFill[]> {
    const out: VenueFill[] = []
    const seen = new Set<string>()
    let start = sinceMs
    for (let page = 0; page < FILL_PAGES_MAX; page++) {
      const fills = await this.info.userFillsByTime(this.address, start, signal)
      for (const f of fills) {
        // Pages overlap at their boundary time; a fill is known by its trade id (else its content).
        const key = f.tid === undefined ? `${f.oid}/${f.time}/${f.px}/${f.sz}` : String(f.tid)
        if (seen.has(key)) continue
        seen.add(key)
        out.push({
          coin: f.coin,
          ext_oid: String(f.oid),
          cloid: f.cloid?.toLowerCase() ?? null,
          is_buy: f.side === 'B',
          sz: toNormal(f.sz),
          px: toNormal(f.px),
          fee: toNormal(f.fee),
          ts_ms: f.time,
        })
      }
      if (fills.length < FILLS_PAGE) break
      start = Math.max(...fills.map((f) => f.time))
    }
    return out.sort((a, b) => a.ts_ms - b.ts_ms)
  }

  async positions(signal?: AbortSignal): Promise<readonly VenuePosition[]> {
    const state = await this.info.clearinghouseState(this.address, signal)
    return state.assetPositions
      .filter((p) => fixed(p.position.szi, 'szi') !== 0n)
      .map((p) => ({
        coin: p.position.coin,
        size: toNormal(p.position.szi),
        entry_px: p.position.entryPx === null ? null : toNormal(p.position.entryPx),
        unrealized_pnl: toNormal(p.position.unrealizedPnl),
      }))
  }

  async margin(signal?: AbortSignal): Promise<VenueMargin> {
    const state = await this.info.clearinghouseState(this.address, signal)
    return { account_value: toNormal(state.marginSummary.accountValue), withdrawable: toNormal(state.withdrawable) }
  }
}

/** Hyperliquid's "29792.0" as our normal decimal "29792". */
function toNormal(s: string): string {
  return formatFixed(fixed(s, 'number'))
}
