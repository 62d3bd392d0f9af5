// A local implementation of the parts of Hyperliquid's public API the admin's venue adapter uses,
// for tests (the real one is not reachable from here): POST /info (meta, perpDexs,
// perpCategories, allMids, l2Book, orderStatus, frontendOpenOrders, openOrders, userFillsByTime,
// clearinghouseState) and POST /exchange (order, cancelByCloid) with the request and answer
// shapes of Hyperliquid's API documentation. /exchange recovers the signer from the L1
// "phantom agent" signature of its network and acts as that user (an address never credited
// "does not exist", as on Hyperliquid), enforces the nonce rules, refuses a reused cloid, matches
// orders against a book per coin and keeps positions, margin and fills per user. Whole-action
// errors are `{status: "err", response}`, per-order ones `{error}` statuses; a body that is not
// the expected JSON is HTTP 422, as Hyperliquid answers it. The error texts follow Hyperliquid's
// where they are known; the text of a reused cloid is this implementation's own.
import { Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { fixed, mulFixed } from '../../../src/admin/venues/hyperliquid-numbers.ts'
import type { HyperliquidNetwork } from '../../../src/admin/venues/hyperliquid-signing.ts'
import { recoverL1Signer } from '../../../src/admin/venues/hyperliquid-signing.ts'
import type { BookOrder } from './book.ts'
import { type HlPosition, HlState, type HlTestDex, type HlTestMarket, hl } from './state.ts'

export type { HlTestDex, HlTestMarket } from './state.ts'

export interface HyperliquidServerOptions {
  /** The main dex's perpetuals, in universe order (asset id = index). */
  readonly markets: readonly HlTestMarket[]
  /** Builder-deployed dexes, in perpDexs order (their coins named `dex:COIN`). */
  readonly dexes?: readonly HlTestDex[]
  /** What perpCategories answers: [coin, category] pairs. */
  readonly categories?: readonly (readonly [string, string])[]
  /** Which "phantom agent" source signatures are checked with: "a" mainnet, "b" testnet (default). */
  readonly network?: HyperliquidNetwork
  readonly clock?: () => number
}

export interface HyperliquidServer {
  readonly url: string
  readonly network: HyperliquidNetwork
  readonly state: HlState
  /** Every request body received, per path, in order. */
  readonly requests: { readonly path: string; readonly body: unknown }[]
  /** Deposits USDC to an address (creating the user). */
  credit(address: string, usd: string): void
  /** Rests a market maker's order (no signature): the liquidity IOC orders fill against. */
  seed(coin: string, side: 'B' | 'A', px: string, sz: string): BookOrder
  /** The price used for a coin's mid when its book is empty and it never traded. */
  setMark(coin: string, px: string): void
  stop(): void
}

/** The market maker whose seeded orders make the books. */
export const SEED_MAKER = `0x${'5e'.repeat(20)}`

const Signature = Type.Object({
  r: Type.String({ pattern: '^0x[0-9a-fA-F]{1,64}$' }),
  s: Type.String({ pattern: '^0x[0-9a-fA-F]{1,64}$' }),
  v: Type.Integer(),
})
const Cloid = Type.String({ pattern: '^0x[0-9a-fA-F]{32}$' })
const Tif = Type.Union([Type.Literal('Gtc'), Type.Literal('Ioc'), Type.Literal('Alo')])
const OrderWire = Type.Object(
  {
    a: Type.Integer({ minimum: 0 }),
    b: Type.Boolean(),
    p: Type.String({ maxLength: 40 }),
    s: Type.String({ maxLength: 40 }),
    r: Type.Boolean(),
    t: Type.Object({ limit: Type.Object({ tif: Tif }, { additionalProperties: false }) }, { additionalProperties: false }),
    c: Type.Optional(Cloid),
  },
  { additionalProperties: false },
)
const Action = Type.Union([
  Type.Object(
    {
      type: Type.Literal('order'),
      orders: Type.Array(OrderWire, { minItems: 1, maxItems: 100 }),
      grouping: Type.Literal('na'),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('cancelByCloid'),
      cancels: Type.Array(Type.Object({ asset: Type.Integer({ minimum: 0 }), cloid: Cloid }, { additionalProperties: false }), {
        minItems: 1,
        maxItems: 100,
      }),
    },
    { additionalProperties: false },
  ),
])
const ExchangeRequest = Type.Object({
  action: Action,
  nonce: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  signature: Signature,
  vaultAddress: Type.Optional(Type.Null()),
  expiresAfter: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
})
const User = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' })
const InfoRequest = Type.Union([
  Type.Object({ type: Type.Literal('meta'), dex: Type.Optional(Type.String()) }),
  Type.Object({ type: Type.Literal('perpDexs') }),
  Type.Object({ type: Type.Literal('perpCategories') }),
  Type.Object({ type: Type.Literal('allMids'), dex: Type.Optional(Type.String()) }),
  Type.Object({ type: Type.Literal('l2Book'), coin: Type.String(), nSigFigs: Type.Optional(Type.Null()) }),
  Type.Object({ type: Type.Literal('orderStatus'), user: User, oid: Type.Union([Type.Integer({ minimum: 0 }), Cloid]) }),
  Type.Object({ type: Type.Union([Type.Literal('frontendOpenOrders'), Type.Literal('openOrders')]), user: User }),
  Type.Object({
    type: Type.Literal('userFillsByTime'),
    user: User,
    startTime: Type.Integer({ minimum: 0 }),
    endTime: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    aggregateByTime: Type.Optional(Type.Boolean()),
  }),
  Type.Object({ type: Type.Literal('clearinghouseState'), user: User, dex: Type.Optional(Type.String()) }),
])

const FILLS_PER_ANSWER = 2000

export function startHyperliquidServer(options: HyperliquidServerOptions): HyperliquidServer {
  const clock = options.clock ?? Date.now
  const network = options.network ?? 'testnet'
  const state = new HlState(options.markets, options.dexes ?? [], clock)
  const categories = options.categories ?? []
  const requests: { path: string; body: unknown }[] = []

  const json = (body: unknown) => Response.json(body)
  const unprocessable = (what: string) => new Response(`Failed to deserialize the JSON body into the target type: ${what}`, { status: 422 })

  function info(body: unknown): Response {
    if (!Value.Check(InfoRequest, body)) return unprocessable('unknown or malformed info request')
    switch (body.type) {
      case 'meta': {
        const dex = body.dex ?? ''
        const markets = state.markets.filter((m) => m.dex === dex)
        if (dex !== '' && markets.length === 0 && !state.dexes.some((d) => d.name === dex)) return json(null)
        return json({
          universe: markets.map((m) => ({
            name: m.coin,
            szDecimals: m.szDecimals,
            maxLeverage: m.maxLeverage ?? 50,
            marginTableId: m.maxLeverage ?? 50,
            ...(m.isDelisted === true ? { isDelisted: true } : {}),
          })),
          marginTables: [],
        })
      }
      case 'perpDexs':
        return json([
          null,
          ...state.dexes.map((d) => ({
            name: d.name,
            fullName: d.fullName ?? d.name,
            deployer: `0x${'d0'.repeat(20)}`,
            oracleUpdater: null,
            feeRecipient: null,
            assetToStreamingOiCap: [],
          })),
        ])
      case 'perpCategories':
        return json(categories)
      case 'allMids': {
        const dex = body.dex ?? ''
        const out: Record<string, string> = {}
        for (const m of state.markets) {
          if (m.dex !== dex) continue
          const mid = state.mid(m.coin)
          if (mid !== undefined) out[m.coin] = hl(mid)
        }
        return json(out)
      }
      case 'l2Book': {
        const book = state.books.get(body.coin)
        if (book === undefined) return json(null)
        const [bids, asks] = book.levels(20)
        const level = (l: { px: bigint; sz: bigint; n: number }) => ({ px: hl(l.px), sz: hl(l.sz), n: l.n })
        return json({ coin: body.coin, time: clock(), levels: [bids.map(level), asks.map(level)] })
      }
      case 'orderStatus': {
        const user = body.user.toLowerCase()
        const order = typeof body.oid === 'number' ? state.orders.get(body.oid) : state.user(user)?.cloids.get(body.oid.toLowerCase())
        if (order === undefined || order.user !== user) return json({ status: 'unknownOid' })
        return json({
          status: 'order',
          order: { order: orderView(order), status: order.status, statusTimestamp: order.statusTimestamp },
        })
      }
      case 'frontendOpenOrders':
      case 'openOrders': {
        const user = body.user.toLowerCase()
        const open = [...state.orders.values()]
          .filter((o) => o.user === user && o.status === 'open')
          .sort((a, b) => b.timestamp - a.timestamp)
        if (body.type === 'openOrders')
          return json(
            open.map((o) => ({
              coin: o.coin,
              limitPx: hl(o.limitPx),
              oid: o.oid,
              side: o.isBuy ? 'B' : 'A',
              sz: hl(o.sz),
              timestamp: o.timestamp,
            })),
          )
        return json(open.map(orderView))
      }
      case 'userFillsByTime': {
        const u = state.user(body.user)
        const end = body.endTime ?? clock()
        const fills = (u?.fills ?? []).filter((f) => f.time >= body.startTime && f.time <= end).slice(0, FILLS_PER_ANSWER)
        return json(
          fills.map((f) => ({
            closedPnl: hl(f.closedPnl),
            coin: f.coin,
            crossed: f.crossed,
            dir: direction(f.startPosition, f.isBuy, f.sz),
            hash: `0x${f.tid.toString(16).padStart(64, '0')}`,
            oid: f.oid,
            px: hl(f.px),
            side: f.isBuy ? 'B' : 'A',
            startPosition: hl(f.startPosition),
            sz: hl(f.sz),
            time: f.time,
            fee: hl(f.fee),
            feeToken: 'USDC',
            tid: f.tid,
            ...(f.cloid === null ? {} : { cloid: f.cloid }),
          })),
        )
      }
      case 'clearinghouseState': {
        const u = state.user(body.user)
        const s = u === undefined ? { accountValue: 0n, ntlPos: 0n, marginUsed: 0n, withdrawable: 0n } : state.summary(u)
        const summary = {
          accountValue: hl(s.accountValue),
          totalNtlPos: hl(s.ntlPos),
          totalRawUsd: hl(u?.balance ?? 0n),
          totalMarginUsed: hl(s.marginUsed),
        }
        const positions = [...(u?.positions ?? new Map<string, HlPosition>()).entries()]
          .filter(([coin, p]) => p.szi !== 0n && (state.market(coin)?.dex ?? '') === (body.dex ?? ''))
          .map(([coin, p]) => {
            const m = state.market(coin)!
            const px = state.mid(coin) ?? p.entryPx
            const abs = p.szi < 0n ? -p.szi : p.szi
            const value = mulFixed(px, abs)
            const lev = state.leverageOf(m)
            const upnl = mulFixed(px - p.entryPx, p.szi)
            return {
              type: 'oneWay',
              position: {
                coin,
                szi: hl(p.szi),
                entryPx: hl(p.entryPx),
                positionValue: hl(value),
                unrealizedPnl: hl(upnl),
                returnOnEquity: '0.0',
                liquidationPx: null,
                leverage: { type: 'cross', value: Number(lev) },
                marginUsed: hl(value / lev),
                maxLeverage: m.maxLeverage ?? 50,
                cumFunding: { allTime: '0.0', sinceOpen: '0.0', sinceChange: '0.0' },
              },
            }
          })
        return json({
          marginSummary: summary,
          crossMarginSummary: summary,
          crossMaintenanceMarginUsed: hl(s.marginUsed / 2n),
          withdrawable: hl(s.withdrawable),
          assetPositions: positions,
          time: clock(),
        })
      }
    }
  }

  function exchange(body: unknown): Response {
    if (!Value.Check(ExchangeRequest, body)) return unprocessable('malformed exchange request')
    const signer = recoverL1Signer(body.action, body.nonce, body.signature, network)
    if (signer === undefined) return json({ status: 'err', response: 'Invalid signature.' })
    const user = state.user(signer)
    if (user === undefined) return json({ status: 'err', response: `User or API Wallet ${signer} does not exist.` })
    const nonceError = state.checkNonce(user, body.nonce)
    if (nonceError !== undefined) return json({ status: 'err', response: nonceError })
    const action = body.action
    if (action.type === 'order') {
      const statuses = action.orders.map((o) => state.place(signer, { a: o.a, b: o.b, p: o.p, s: o.s, r: o.r, tif: o.t.limit.tif, c: o.c }))
      return json({ status: 'ok', response: { type: 'order', data: { statuses } } })
    }
    const statuses = action.cancels.map((c) => state.cancelByCloid(signer, c.asset, c.cloid))
    return json({ status: 'ok', response: { type: 'cancel', data: { statuses } } })
  }

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname
      if (req.method !== 'POST' || (path !== '/info' && path !== '/exchange')) return new Response('Not Found', { status: 404 })
      let body: unknown
      try {
        body = await req.json()
      } catch {
        return unprocessable('the body is not JSON')
      }
      requests.push({ path, body })
      return path === '/info' ? info(body) : exchange(body)
    },
  })

  return {
    url: `http://127.0.0.1:${server.port}`,
    network,
    state,
    requests,
    credit: (address, amount) => void state.credit(address, amount),
    seed: (coin, side, px, sz) => state.seed(SEED_MAKER, coin, side === 'B', px, sz),
    setMark: (coin, px) => void state.marks.set(coin, fixed(px, 'mark')),
    stop: () => void server.stop(true),
  }
}

/** An order as orderStatus and frontendOpenOrders show it. */
function orderView(o: BookOrder) {
  return {
    coin: o.coin,
    side: o.isBuy ? 'B' : 'A',
    limitPx: hl(o.limitPx),
    sz: hl(o.sz),
    oid: o.oid,
    timestamp: o.timestamp,
    triggerCondition: 'N/A',
    isTrigger: false,
    triggerPx: '0.0',
    children: [],
    isPositionTpsl: false,
    reduceOnly: o.reduceOnly,
    orderType: 'Limit',
    origSz: hl(o.origSz),
    tif: o.tif,
    cloid: o.cloid,
  }
}

/** A fill's `dir`: Open Long, Close Short, … */
function direction(start: bigint, isBuy: boolean, sz: bigint): string {
  if (start === 0n) return isBuy ? 'Open Long' : 'Open Short'
  if (start > 0n) return isBuy ? 'Open Long' : sz > start ? 'Long > Short' : 'Close Long'
  return isBuy ? (sz > -start ? 'Short > Long' : 'Close Short') : 'Open Short'
}
