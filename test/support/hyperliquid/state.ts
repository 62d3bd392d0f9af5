// The state of the local Hyperliquid: markets of the main dex and the builder dexes, one book per
// coin, users with USDC balances, cross positions, orders (by oid and cloid), fills and nonces,
// and the two trading actions the adapter sends (order, cancelByCloid) with Hyperliquid's rules
// and its per-order error statuses.
import { divFixed, formatFixed, isValidPrice, isValidSize, mulFixed, parseFixed } from '../../../src/admin/venues/hyperliquid-numbers.ts'
import { Book, type BookOrder } from './book.ts'

const usd = (n: number | string) => parseFixed(String(n))!

/** A perpetual as a test declares it (a builder dex's coin is named `dex:COIN`). */
export interface HlTestMarket {
  readonly coin: string
  readonly szDecimals: number
  readonly maxLeverage?: number
  readonly isDelisted?: boolean
}

/** A builder-deployed dex. */
export interface HlTestDex {
  readonly name: string
  readonly fullName?: string
  readonly markets: readonly HlTestMarket[]
}

export interface Market extends HlTestMarket {
  readonly asset: number
  /** "" for the main dex. */
  readonly dex: string
}

export interface HlPosition {
  szi: bigint
  /** Average entry price of the open size. */
  entryPx: bigint
}

export interface Fill {
  readonly coin: string
  readonly px: bigint
  readonly sz: bigint
  readonly isBuy: boolean
  readonly time: number
  readonly startPosition: bigint
  readonly closedPnl: bigint
  readonly oid: number
  readonly crossed: boolean
  readonly fee: bigint
  readonly tid: number
  readonly cloid: string | null
}

export interface User {
  /** USDC: deposits, minus fees, plus realized PnL. */
  balance: bigint
  readonly positions: Map<string, HlPosition>
  readonly fills: Fill[]
  readonly cloids: Map<string, BookOrder>
  /** The highest nonces used (Hyperliquid keeps the 100 highest per signer). */
  readonly nonces: number[]
}

/** Taker and maker fees of Hyperliquid's base tier (0.045% and 0.015%). */
const TAKER_FEE = usd('0.00045')
const MAKER_FEE = usd('0.00015')
/** Leverage of positions and orders here (Hyperliquid's default cross leverage, capped by the coin's max). */
const DEFAULT_LEVERAGE = 20
const MIN_ORDER_VALUE = usd(10)
const NONCES_KEPT = 100
const NONCE_PAST_MS = 2 * 24 * 3600_000
const NONCE_FUTURE_MS = 24 * 3600_000

/** One entry of an order action's `statuses`. */
export type OrderOutcome =
  | { resting: { oid: number; cloid?: string } }
  | { filled: { totalSz: string; avgPx: string; oid: number; cloid?: string } }
  | { error: string }

/** Hyperliquid's number form: at least one decimal ("100.0"). */
export function hl(v: bigint): string {
  const s = formatFixed(v)
  return s.includes('.') ? s : `${s}.0`
}

export class HlState {
  readonly markets: Market[] = []
  readonly dexes: HlTestDex[]
  readonly books = new Map<string, Book>()
  readonly users = new Map<string, User>()
  readonly orders = new Map<number, BookOrder>()
  readonly lastTrade = new Map<string, bigint>()
  readonly marks = new Map<string, bigint>()
  private nextOid = 1_000_001
  private nextTid = 1

  constructor(
    main: readonly HlTestMarket[],
    dexes: readonly HlTestDex[],
    readonly clock: () => number,
  ) {
    this.dexes = [...dexes]
    main.forEach((m, i) => {
      this.markets.push({ ...m, asset: i, dex: '' })
    })
    dexes.forEach((d, di) => {
      d.markets.forEach((m, i) => {
        this.markets.push({ ...m, asset: 100_000 + (di + 1) * 10_000 + i, dex: d.name })
      })
    })
    for (const m of this.markets) this.books.set(m.coin, new Book())
  }

  market(coin: string): Market | undefined {
    return this.markets.find((m) => m.coin === coin)
  }

  user(address: string): User | undefined {
    return this.users.get(address.toLowerCase())
  }

  /** Credits USDC to a user, creating it (a deposit). */
  credit(address: string, amount: string): User {
    const key = address.toLowerCase()
    let u = this.users.get(key)
    if (u === undefined) {
      u = { balance: 0n, positions: new Map(), fills: [], cloids: new Map(), nonces: [] }
      this.users.set(key, u)
    }
    u.balance += usd(amount)
    return u
  }

  /** The price positions are valued at: the book's mid, else the last trade, else the set mark. */
  mid(coin: string): bigint | undefined {
    const book = this.books.get(coin)
    const bid = book?.bestBid()
    const ask = book?.bestAsk()
    if (bid !== undefined && ask !== undefined) return (bid + ask) / 2n
    return this.lastTrade.get(coin) ?? this.marks.get(coin)
  }

  leverageOf(m: Market): bigint {
    return BigInt(Math.min(DEFAULT_LEVERAGE, m.maxLeverage ?? DEFAULT_LEVERAGE))
  }

  /** accountValue, margin used and withdrawable of a user's main-dex cross account. */
  summary(u: User): { accountValue: bigint; ntlPos: bigint; marginUsed: bigint; withdrawable: bigint } {
    let pnl = 0n
    let ntlPos = 0n
    let marginUsed = 0n
    for (const [coin, p] of u.positions) {
      if (p.szi === 0n) continue
      const m = this.market(coin)!
      const px = this.mid(coin) ?? p.entryPx
      pnl += mulFixed(px - p.entryPx, p.szi)
      const ntl = mulFixed(px, p.szi < 0n ? -p.szi : p.szi)
      ntlPos += ntl
      marginUsed += ntl / this.leverageOf(m)
    }
    const accountValue = u.balance + pnl
    const free = accountValue - marginUsed
    return { accountValue, ntlPos, marginUsed, withdrawable: free > 0n ? free : 0n }
  }

  /** Hyperliquid's nonce rules: unique per signer, within (now - 2 days, now + 1 day), above the smallest of the 100 highest. */
  checkNonce(u: User, nonce: number): string | undefined {
    const now = this.clock()
    if (nonce <= now - NONCE_PAST_MS || nonce >= now + NONCE_FUTURE_MS)
      return `Invalid nonce: ${nonce} is not within 2 days before and 1 day after the current time ${now}`
    if (u.nonces.includes(nonce)) return `Invalid nonce: duplicate nonce ${nonce}`
    if (u.nonces.length >= NONCES_KEPT && nonce <= u.nonces[0]!)
      return `Invalid nonce: ${nonce} is lower than the lowest of the last ${NONCES_KEPT} nonces`
    u.nonces.push(nonce)
    u.nonces.sort((a, b) => a - b)
    if (u.nonces.length > NONCES_KEPT) u.nonces.shift()
    return undefined
  }

  /** Places one order of an `order` action for `address` (a known user). */
  place(
    address: string,
    o: { a: number; b: boolean; p: string; s: string; r: boolean; tif: 'Gtc' | 'Ioc' | 'Alo'; c: string | undefined },
  ): OrderOutcome {
    const u = this.user(address)!
    const m = this.markets.find((x) => x.asset === o.a)
    if (m === undefined) return { error: `Invalid asset ${o.a}` }
    const tag = `asset=${o.a}`
    if (m.isDelisted === true) return { error: `Trading is halted. ${tag}` }
    if (!isValidPrice(o.p, m.szDecimals)) return { error: `Price must be divisible by tick size. ${tag}` }
    if (!isValidSize(o.s, m.szDecimals)) return { error: `Order has invalid size. ${tag}` }
    const px = parseFixed(o.p)!
    const sz = parseFixed(o.s)!
    const cloid = o.c === undefined ? null : o.c.toLowerCase()
    if (cloid !== null && u.cloids.has(cloid)) return { error: `Duplicate cloid: ${cloid} was already used by this account. ${tag}` }
    const now = this.clock()
    const order: BookOrder = {
      oid: this.nextOid++,
      user: address.toLowerCase(),
      coin: m.coin,
      isBuy: o.b,
      limitPx: px,
      origSz: sz,
      sz,
      timestamp: now,
      cloid,
      tif: o.tif,
      reduceOnly: o.r,
      status: 'open',
      statusTimestamp: now,
    }
    // From here on the order exists: its cloid is used and its status can be asked, even if rejected.
    this.orders.set(order.oid, order)
    if (cloid !== null) u.cloids.set(cloid, order)
    const reject = (status: string, error: string): OrderOutcome => {
      order.status = status
      return { error: `${error} ${tag}` }
    }
    if (mulFixed(px, sz) < MIN_ORDER_VALUE) return reject('minTradeNtlRejected', 'Order must have minimum value of $10.')
    const book = this.books.get(m.coin)!
    const position = u.positions.get(m.coin)?.szi ?? 0n
    if (o.r && (position === 0n || position > 0n === o.b || sz > (position < 0n ? -position : position)))
      return reject('reduceOnlyRejected', 'Reduce only order would increase position.')
    if (o.tif === 'Alo' && book.crosses(o.b, px)) {
      const bbo = `${hl(book.bestBid() ?? 0n)}@${hl(book.bestAsk() ?? 0n)}`
      return reject('badAloPxRejected', `Post only order would have immediately matched, bbo was ${bbo}.`)
    }
    if (o.tif === 'Ioc' && !book.crosses(o.b, px))
      return reject('iocCancelRejected', 'Order could not immediately match against any resting orders.')
    // Initial margin of what the order could add to the position.
    if (!o.r) {
      const free = this.summary(u).withdrawable
      if (mulFixed(px, sz) / this.leverageOf(m) > free) return reject('perpMarginRejected', 'Insufficient margin to place order.')
    }
    const matches = book.match(order, (maker) => maker.user !== order.user)
    let filled = 0n
    let notional = 0n
    for (const { maker, sz: q, px: fpx } of matches) {
      this.trade(order, q, fpx, true)
      this.trade(maker, q, fpx, false)
      if (maker.sz === 0n) {
        maker.status = 'filled'
        maker.statusTimestamp = now
      }
      filled += q
      notional += mulFixed(fpx, q)
      this.lastTrade.set(m.coin, fpx)
    }
    const withCloid = <T extends object>(x: T) => (cloid === null ? x : { ...x, cloid })
    if (order.sz === 0n) {
      order.status = 'filled'
      order.statusTimestamp = now
    } else if (o.tif === 'Ioc') {
      order.status = 'canceled'
      order.statusTimestamp = now
    } else {
      book.rest(order)
      return { resting: withCloid({ oid: order.oid }) }
    }
    return { filled: withCloid({ totalSz: formatFixed(filled), avgPx: hl(divFixed(notional, filled)), oid: order.oid }) }
  }

  /** Books one side of a fill: the position, realized PnL, the fee and the fill record. */
  private trade(order: BookOrder, sz: bigint, px: bigint, crossed: boolean): void {
    const u = this.users.get(order.user)!
    let p = u.positions.get(order.coin)
    if (p === undefined) {
      p = { szi: 0n, entryPx: 0n }
      u.positions.set(order.coin, p)
    }
    const start = p.szi
    const delta = order.isBuy ? sz : -sz
    let closedPnl = 0n
    if (start === 0n || start > 0n === delta > 0n) {
      // Opening or adding: the entry is the size-weighted average.
      const abs = (x: bigint) => (x < 0n ? -x : x)
      p.entryPx = divFixed(mulFixed(p.entryPx, abs(start)) + mulFixed(px, sz), abs(start) + sz)
      p.szi = start + delta
    } else {
      const closing = sz < (start < 0n ? -start : start) ? sz : start < 0n ? -start : start
      closedPnl = mulFixed(px - p.entryPx, start > 0n ? closing : -closing)
      p.szi = start + delta
      if (p.szi !== 0n && p.szi > 0n !== start > 0n) p.entryPx = px
      if (p.szi === 0n) p.entryPx = 0n
    }
    const fee = mulFixed(mulFixed(px, sz), crossed ? TAKER_FEE : MAKER_FEE)
    u.balance += closedPnl - fee
    u.fills.push({
      coin: order.coin,
      px,
      sz,
      isBuy: order.isBuy,
      time: this.clock(),
      startPosition: start,
      closedPnl,
      oid: order.oid,
      crossed,
      fee,
      tid: this.nextTid++,
      cloid: order.cloid,
    })
  }

  /** Cancels a user's open order by cloid: "success", or the venue's error. */
  cancelByCloid(address: string, asset: number, cloid: string): 'success' | { error: string } {
    const u = this.user(address)!
    const order = u.cloids.get(cloid.toLowerCase())
    const m = this.markets.find((x) => x.asset === asset)
    if (order === undefined || m === undefined || order.coin !== m.coin || order.status !== 'open')
      return { error: `Order was never placed, already canceled, or filled. asset=${asset}` }
    this.books.get(order.coin)!.remove(order)
    order.status = 'canceled'
    order.statusTimestamp = this.clock()
    return 'success'
  }

  /** A resting order of a market maker (no signature, unlimited funds): the liquidity tests seed. */
  seed(maker: string, coin: string, isBuy: boolean, px: string, sz: string): BookOrder {
    if (this.user(maker) === undefined) this.credit(maker, '1000000000')
    const book = this.books.get(coin)
    if (book === undefined) throw new Error(`no market ${coin}`)
    const now = this.clock()
    const order: BookOrder = {
      oid: this.nextOid++,
      user: maker.toLowerCase(),
      coin,
      isBuy,
      limitPx: parseFixed(px)!,
      origSz: parseFixed(sz)!,
      sz: parseFixed(sz)!,
      timestamp: now,
      cloid: null,
      tif: 'Gtc',
      reduceOnly: false,
      status: 'open',
      statusTimestamp: now,
    }
    this.orders.set(order.oid, order)
    book.rest(order)
    return order
  }

  /** Cancels an open order from outside (as a user on the venue's website would, behind the adapter's back). */
  cancelOid(oid: number): boolean {
    const order = this.orders.get(oid)
    if (order === undefined || order.status !== 'open') return false
    this.books.get(order.coin)!.remove(order)
    order.status = 'canceled'
    order.statusTimestamp = this.clock()
    return true
  }
}
