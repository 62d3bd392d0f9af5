// Another perpd node as the external venue, through the project's client (src/client): its markets,
// quotes and accounts over the node's JSON-RPC interface (docs/rpc.md), orders signed as PlaceOrder
// and CancelOrder actions (docs/actions.md).
//
// Client order ids: the venue's `cloid` (0x + 32 hex, 34 characters) is sent as the order's
// `client_order_id` (1 to 64 characters). perpd only keeps a client id unique among the account's
// open orders of a market, so never reusing one is the caller's duty (the hedger's cloids never
// repeat, venues/hyperliquid-cloid.ts). A lookup by cloid needs the market on perpd (getOrderStatus takes the owner, a
// market and the client id): the account remembers the market of the cloids it placed, and for any
// other cloid (placed before a restart) asks every listed market.
//
// Categories: a perpd node groups no markets, so categories() answers an empty list: the catalog
// gets nothing from this venue rather than an invented grouping.
import { cancelOrder, placeOrder } from '../../client/actions.ts'
import { PerpdClient } from '../../client/perpd-client.ts'
import type { QueryData } from '../../client/query-methods.ts'
import { type ActionReply, type EventView, RpcCallError, RpcClient } from '../../client/rpc-client.ts'
import { formatDecimal, parseDecimal } from '../../lib/decimal.ts'
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
  VenueTif,
} from './venue.ts'

/** Timeout of one request to the venue node. */
const VENUE_REQUEST_TIMEOUT_MS = 10_000

/** Pages of 500 fills fillsSince reads at most (a reconciliation looks back a bounded time). */
const FILL_PAGES_MAX = 20

type MarketListItem = QueryData<'getMarkets'>[number]

/** perpd's time in force for each of the venue interface's. */
const TIF: Record<VenueTif, 'Ioc' | 'Gtc' | 'PostOnly'> = { Ioc: 'Ioc', Gtc: 'Gtc', Alo: 'PostOnly' }

/** A perpd node as a venue; `url` is its HTTP base address. */
export class PerpdVenue implements Venue {
  readonly name: string
  readonly rpc: RpcClient
  private marketsBySymbol = new Map<string, MarketListItem>()

  constructor(readonly url: string) {
    this.name = `perpd ${url}`
    this.rpc = new RpcClient(url, VENUE_REQUEST_TIMEOUT_MS)
  }

  /** Every listed market that is not Delisted; coin and symbol are both the perpd symbol. */
  async markets(signal?: AbortSignal): Promise<readonly VenueMarket[]> {
    return (await this.listMarkets(signal)).map((m) => ({
      coin: m.symbol,
      symbol: m.symbol,
      size_decimals: m.size_decimals,
      price_decimals: m.price_decimals,
      tradable: m.lifecycle === 'Active' && !m.emergency_halt,
    }))
  }

  /**
   * Best bid and ask from the node's books (an external-peg market: its fresh oracle quote); the mid
   * is their average, or the mark when a side is empty (null while the mark is 0, i.e. unknown).
   */
  async quotes(symbols: readonly string[], signal?: AbortSignal): Promise<ReadonlyMap<string, VenueQuote>> {
    signal?.throwIfAborted()
    const [bbos, marks] = await Promise.all([
      this.rpc.query<QueryData<'getAllBBOs'>>('getAllBBOs'),
      this.rpc.query<QueryData<'getAllMarks'>>('getAllMarks'),
    ])
    const tsMs = Date.now()
    const wanted = new Set(symbols)
    const out = new Map<string, VenueQuote>()
    for (const b of bbos.data) {
      if (!wanted.has(b.symbol)) continue
      const mark = marks.data[b.symbol]
      const mid = b.bid !== null && b.ask !== null ? midOf(b.bid, b.ask) : mark !== undefined && mark !== '0' ? mark : null
      out.set(b.symbol, { mid, best_bid: b.bid, best_ask: b.ask, ts_ms: tsMs })
    }
    return out
  }

  /** A perpd node has no categories (see the file comment). */
  async categories(): Promise<readonly VenueCategory[]> {
    return []
  }

  account(privateKeyHex: string): VenueAccount {
    return new PerpdVenueAccount(this, new PerpdClient({ url: this.url, privateKey: privateKeyHex }))
  }

  /** getMarkets, remembered by symbol for the accounts' symbol-to-market_id lookups. */
  async listMarkets(signal?: AbortSignal): Promise<readonly MarketListItem[]> {
    signal?.throwIfAborted()
    const list = (await this.rpc.query<QueryData<'getMarkets'>>('getMarkets')).data
    this.marketsBySymbol = new Map(list.map((m) => [m.symbol, m]))
    return list
  }

  /** The market of a symbol; throws when the node does not list it. */
  async market(symbol: string, signal?: AbortSignal): Promise<MarketListItem> {
    const known = this.marketsBySymbol.get(symbol)
    if (known !== undefined) return known
    await this.listMarkets(signal)
    const m = this.marketsBySymbol.get(symbol)
    if (m === undefined) throw new Error(`${this.name} lists no market ${symbol}`)
    return m
  }
}

/** One account on the venue node, signing with its key. */
class PerpdVenueAccount implements VenueAccount {
  readonly address: string
  /** The market of each cloid this object placed: where getOrderStatus looks first. */
  private readonly marketOfCloid = new Map<string, number>()

  constructor(
    private readonly venue: PerpdVenue,
    private readonly client: PerpdClient,
  ) {
    this.address = client.address.toLowerCase()
  }

  /**
   * Sends a PlaceOrder with the cloid as client_order_id. A refusal at admission (nothing was
   * placed) and a kept reject are `rejected`; an Ioc that filled nothing is `rejected` with
   * IocExpired, as Hyperliquid answers an Ioc that met no liquidity. A lost reply throws: the
   * outcome is unknown and orderStatusByCloid tells it later.
   */
  async place(order: VenueOrderRequest, signal?: AbortSignal): Promise<VenuePlaceResult> {
    const market = await this.venue.market(order.coin, signal)
    signal?.throwIfAborted()
    this.marketOfCloid.set(order.cloid, market.market_id)
    let reply: ActionReply
    try {
      reply = await this.client.send(
        placeOrder({
          market_id: market.market_id,
          side: order.is_buy ? 'Bid' : 'Ask',
          price: order.px,
          qty: order.sz,
          tif: TIF[order.tif],
          reduce_only: order.reduce_only,
          client_order_id: order.cloid,
        }),
      )
    } catch (err) {
      if (err instanceof RpcCallError) return { status: 'rejected', error: `${err.reason ?? err.error.code}: ${err.error.message}` }
      throw err
    }
    if (reply.status === 'kept-reject') return { status: 'rejected', error: `${reply.reason.code}: ${reply.reason.message}` }
    return placeOutcome(reply.events, this.address, market)
  }

  async cancelByCloid(coin: string, cloid: string, signal?: AbortSignal): Promise<boolean> {
    const market = await this.venue.market(coin, signal)
    signal?.throwIfAborted()
    try {
      const reply = await this.client.send(cancelOrder({ market_id: market.market_id, client_order_id: cloid }))
      return reply.status === 'accepted'
    } catch (err) {
      if (err instanceof RpcCallError) return false
      throw err
    }
  }

  async orderStatusByCloid(cloid: string, signal?: AbortSignal): Promise<VenueOrderStatus | null> {
    const hinted = this.marketOfCloid.get(cloid)
    const marketIds = hinted !== undefined ? [hinted] : (await this.venue.listMarkets(signal)).map((m) => m.market_id)
    for (const marketId of marketIds) {
      signal?.throwIfAborted()
      const r = await this.venue.rpc.query<QueryData<'getOrderStatus'>>('getOrderStatus', {
        address: this.address,
        market_id: marketId,
        client_order_id: cloid,
      })
      const status = orderStatusOf(r.data, cloid)
      if (status !== null) return status
    }
    return null
  }

  async openOrders(signal?: AbortSignal): Promise<readonly VenueOpenOrder[]> {
    signal?.throwIfAborted()
    const r = await this.venue.rpc.query<QueryData<'getAccountOrders'>>('getAccountOrders', { address: this.address })
    // perpd orders carry their placing height, not a time: the read's time stands in for it.
    const tsMs = Date.now()
    return r.data.map((o) => ({
      coin: o.symbol,
      ext_oid: String(o.order_id),
      cloid: o.client_order_id,
      is_buy: o.side === 'Bid',
      sz: o.remaining,
      px: o.price,
      ts_ms: tsMs,
    }))
  }

  async fillsSince(sinceMs: number, signal?: AbortSignal): Promise<readonly VenueFill[]> {
    const fills: VenueFill[] = []
    let cursor: string | undefined
    for (let page = 0; page < FILL_PAGES_MAX; page++) {
      signal?.throwIfAborted()
      const params: Record<string, unknown> = { address: this.address, start_time_ms: Math.max(0, Math.floor(sinceMs)), limit: 500 }
      if (cursor !== undefined) params.cursor = cursor
      const r = await this.venue.rpc.query<QueryData<'getUserFillsSince'>>('getUserFillsSince', params)
      for (const f of r.data) {
        fills.push({
          coin: f.symbol ?? `#${f.market_id}`,
          ext_oid: String(f.order_id),
          cloid: f.client_order_id ?? null,
          is_buy: f.side === 'Bid',
          sz: f.qty,
          px: f.price,
          fee: f.fee,
          ts_ms: f.timestamp_ms,
        })
      }
      cursor = (r.page as { next_cursor?: string | null } | undefined)?.next_cursor ?? undefined
      if (cursor === undefined || r.data.length === 0) break
    }
    return fills
  }

  async positions(signal?: AbortSignal): Promise<readonly VenuePosition[]> {
    const account = await this.readAccount(signal)
    return Object.values(account.positions).map((p) => ({
      coin: p.symbol,
      size: p.size,
      entry_px: p.entry_vwap,
      unrealized_pnl: p.unrealized_pnl,
    }))
  }

  async margin(signal?: AbortSignal): Promise<VenueMargin> {
    const account = await this.readAccount(signal)
    return { account_value: account.account_value, withdrawable: account.withdrawable }
  }

  private async readAccount(signal?: AbortSignal): Promise<QueryData<'getAccount'>> {
    signal?.throwIfAborted()
    return (await this.venue.rpc.query<QueryData<'getAccount'>>('getAccount', { address: this.address })).data
  }
}

/** The outcome of an accepted PlaceOrder from its events: resting, filled (in full or in part) or an Ioc that filled nothing. */
export function placeOutcome(events: readonly EventView[], address: string, market: MarketListItem): VenuePlaceResult {
  const accepted = events.find((e) => e.sub_kind === 'OrderAccepted' && e.body.account === address)
  if (accepted === undefined || accepted.sub_kind !== 'OrderAccepted')
    return { status: 'rejected', error: 'the venue accepted the action but placed no order' }
  const orderId = accepted.body.order_id
  const extOid = String(orderId)
  let qtyLots = 0n
  let notional = 0n // price ticks x size lots
  for (const e of events) {
    if (e.sub_kind !== 'Filled' || e.body.taker_order_id !== orderId || e.body.taker !== address) continue
    const qty = units(e.body.qty, market.size_decimals)
    qtyLots += qty
    notional += units(e.body.price, market.price_decimals) * qty
  }
  if (events.some((e) => e.sub_kind === 'OrderResting' && e.body.order_id === orderId)) return { status: 'resting', ext_oid: extOid }
  if (qtyLots === 0n) return { status: 'rejected', error: 'IocExpired: nothing filled' }
  return {
    status: 'filled',
    ext_oid: extOid,
    filled_sz: formatDecimal(qtyLots, market.size_decimals),
    avg_px: formatDecimal(notional / qtyLots, market.price_decimals),
  }
}

/** getOrderStatus's answer as a VenueOrderStatus; null when the node does not know the order. */
export function orderStatusOf(data: QueryData<'getOrderStatus'>, cloid: string): VenueOrderStatus | null {
  if (data.status === 'unknown') return null
  const filled = data.filled ?? '0'
  const common = {
    cloid,
    ext_oid: String(data.order_id),
    coin: data.symbol ?? `#${data.market_id}`,
    is_buy: data.side === 'Bid',
    orig_sz: data.qty ?? addDecimals(data.remaining, filled),
    filled_sz: filled,
    px: data.price ?? '0',
  }
  if (data.status === 'open') return { ...common, status: 'open' }
  if (data.close_reason === 'filled') return { ...common, status: 'filled' }
  return { ...common, status: isZero(filled) ? 'cancelled' : 'partially_filled' }
}

/** A decimal string the node wrote, as integer units of `decimals`; 0 when it does not parse. */
function units(s: string, decimals: number): bigint {
  const r = parseDecimal(s, decimals)
  return r.ok ? r.value : 0n
}

const isZero = (s: string) => /^0(\.0*)?$/.test(s)

/** Places of a decimal string's fraction. */
const placesOf = (s: string) => (s.includes('.') ? s.length - s.indexOf('.') - 1 : 0)

/** (bid + ask) / 2 with one more place than the finer of the two. */
function midOf(bid: string, ask: string): string {
  const places = Math.max(placesOf(bid), placesOf(ask)) + 1
  return formatDecimal((units(bid, places) + units(ask, places)) / 2n, places)
}

function addDecimals(a: string, b: string): string {
  const places = Math.max(placesOf(a), placesOf(b))
  return formatDecimal(units(a, places) + units(b, places), places)
}
