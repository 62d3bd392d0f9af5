// Hyperliquid's public read API, POST {base}/info, for the requests the adapter makes. Every
// answer is checked against its schema below (the shapes of Hyperliquid's API documentation,
// with the fields the adapter reads; other fields are allowed), so a changed or broken answer is
// a clear error instead of a wrong number.
import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'

const Num = Type.String({ maxLength: 64, description: 'a decimal number as a string' })
const Side = Type.Union([Type.Literal('A'), Type.Literal('B')], { description: 'A ask (sell), B bid (buy)' })

/** `{"type": "meta", "dex"?}`: the perpetuals of one dex ("" the main one). */
export const HlMeta = Type.Object({
  universe: Type.Array(
    Type.Object({
      name: Type.String({ minLength: 1, maxLength: 64 }),
      szDecimals: Type.Integer({ minimum: 0, maximum: 6 }),
      maxLeverage: Type.Optional(Type.Integer({ minimum: 0 })),
      isDelisted: Type.Optional(Type.Boolean()),
      onlyIsolated: Type.Optional(Type.Boolean()),
    }),
  ),
})
export type HlMeta = Static<typeof HlMeta>

/** `{"type": "perpDexs"}`: null for the main dex at index 0, then the builder-deployed dexes. */
export const HlPerpDexs = Type.Array(
  Type.Union([
    Type.Null(),
    Type.Object({
      name: Type.String({ minLength: 1, maxLength: 32 }),
      fullName: Type.Optional(Type.String()),
      deployer: Type.Optional(Type.String()),
    }),
  ]),
)
export type HlPerpDexs = Static<typeof HlPerpDexs>

/** `{"type": "perpCategories"}`: [coin, category] pairs (builder-dex coins carry their dex prefix). */
export const HlPerpCategories = Type.Array(Type.Tuple([Type.String({ maxLength: 64 }), Type.String({ maxLength: 64 })]))
export type HlPerpCategories = Static<typeof HlPerpCategories>

/** `{"type": "allMids", "dex"?}`: coin → mid price. */
export const HlAllMids = Type.Record(Type.String(), Num)

const Level = Type.Object({ px: Num, sz: Num, n: Type.Integer({ minimum: 0 }) })
/** `{"type": "l2Book", "coin"}`: levels[0] bids (best first), levels[1] asks. */
export const HlL2Book = Type.Object({
  coin: Type.String(),
  time: Type.Integer({ minimum: 0 }),
  levels: Type.Tuple([Type.Array(Level), Type.Array(Level)]),
})
export type HlL2Book = Static<typeof HlL2Book>

const Cloid = Type.Union([Type.String({ pattern: '^0x[0-9a-fA-F]{32}$' }), Type.Null()])

/** `{"type": "orderStatus", "user", "oid": oid | cloid}`. */
export const HlOrderStatus = Type.Union([
  Type.Object({ status: Type.Literal('unknownOid') }),
  Type.Object({
    status: Type.Literal('order'),
    order: Type.Object({
      order: Type.Object({
        coin: Type.String(),
        side: Side,
        limitPx: Num,
        sz: Num,
        oid: Type.Integer({ minimum: 0 }),
        timestamp: Type.Integer({ minimum: 0 }),
        origSz: Num,
        cloid: Type.Optional(Cloid),
      }),
      status: Type.String({ maxLength: 64 }),
      statusTimestamp: Type.Integer({ minimum: 0 }),
    }),
  }),
])
export type HlOrderStatus = Static<typeof HlOrderStatus>

/** `{"type": "frontendOpenOrders", "user"}`. */
export const HlFrontendOpenOrders = Type.Array(
  Type.Object({
    coin: Type.String(),
    side: Side,
    limitPx: Num,
    sz: Num,
    oid: Type.Integer({ minimum: 0 }),
    timestamp: Type.Integer({ minimum: 0 }),
    origSz: Num,
    cloid: Type.Optional(Cloid),
  }),
)
export type HlFrontendOpenOrders = Static<typeof HlFrontendOpenOrders>

/** `{"type": "userFillsByTime", "user", "startTime", "endTime"?}`: at most 2000 fills, oldest first. */
export const HlUserFills = Type.Array(
  Type.Object({
    coin: Type.String(),
    px: Num,
    sz: Num,
    side: Side,
    time: Type.Integer({ minimum: 0 }),
    oid: Type.Integer({ minimum: 0 }),
    fee: Num,
    tid: Type.Optional(Type.Integer({ minimum: 0 })),
    cloid: Type.Optional(Cloid),
  }),
)
export type HlUserFills = Static<typeof HlUserFills>

const MarginSummary = Type.Object({ accountValue: Num, totalNtlPos: Num, totalRawUsd: Num, totalMarginUsed: Num })
/** `{"type": "clearinghouseState", "user"}`: positions and margin of the main dex. */
export const HlClearinghouseState = Type.Object({
  assetPositions: Type.Array(
    Type.Object({
      type: Type.String(),
      position: Type.Object({
        coin: Type.String(),
        szi: Num,
        entryPx: Type.Union([Num, Type.Null()]),
        unrealizedPnl: Num,
      }),
    }),
  ),
  marginSummary: MarginSummary,
  withdrawable: Num,
  time: Type.Integer({ minimum: 0 }),
})
export type HlClearinghouseState = Static<typeof HlClearinghouseState>

/** Longest one request may take. */
const REQUEST_TIMEOUT_MS = 10_000

/** POSTs a JSON body to `url` and returns the JSON answer checked against `schema`. */
export async function postJson<S extends TSchema>(
  url: string,
  body: unknown,
  schema: S,
  what: string,
  signal?: AbortSignal,
): Promise<Static<S>> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS)
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${what} answered HTTP ${res.status}: ${text.slice(0, 200)}`)
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    throw new Error(`${what} answered with something that is not JSON: ${text.slice(0, 200)}`)
  }
  if (!Value.Check(schema, doc)) {
    const first = Value.Errors(schema, doc).First()
    throw new Error(`${what} sent an unexpected answer: ${first?.path || '/'} ${first?.message ?? ''}`)
  }
  return doc
}

/** The /info requests of the adapter, for one API base URL. */
export class HyperliquidInfoClient {
  private readonly url: string

  constructor(
    apiUrl: string,
    private readonly label: string,
  ) {
    this.url = `${apiUrl.replace(/\/+$/, '')}/info`
  }

  private post<S extends TSchema>(body: Record<string, unknown>, schema: S, signal?: AbortSignal): Promise<Static<S>> {
    return postJson(this.url, body, schema, `${this.label} /info ${String(body.type)}`, signal)
  }

  meta(dex: string, signal?: AbortSignal): Promise<HlMeta> {
    return this.post(dex === '' ? { type: 'meta' } : { type: 'meta', dex }, HlMeta, signal)
  }

  perpDexs(signal?: AbortSignal): Promise<HlPerpDexs> {
    return this.post({ type: 'perpDexs' }, HlPerpDexs, signal)
  }

  perpCategories(signal?: AbortSignal): Promise<HlPerpCategories> {
    return this.post({ type: 'perpCategories' }, HlPerpCategories, signal)
  }

  allMids(dex: string, signal?: AbortSignal): Promise<Record<string, string>> {
    return this.post(dex === '' ? { type: 'allMids' } : { type: 'allMids', dex }, HlAllMids, signal)
  }

  l2Book(coin: string, signal?: AbortSignal): Promise<HlL2Book> {
    return this.post({ type: 'l2Book', coin }, HlL2Book, signal)
  }

  orderStatus(user: string, oidOrCloid: number | string, signal?: AbortSignal): Promise<HlOrderStatus> {
    return this.post({ type: 'orderStatus', user, oid: oidOrCloid }, HlOrderStatus, signal)
  }

  frontendOpenOrders(user: string, signal?: AbortSignal): Promise<HlFrontendOpenOrders> {
    return this.post({ type: 'frontendOpenOrders', user }, HlFrontendOpenOrders, signal)
  }

  userFillsByTime(user: string, startTime: number, signal?: AbortSignal): Promise<HlUserFills> {
    return this.post({ type: 'userFillsByTime', user, startTime }, HlUserFills, signal)
  }

  clearinghouseState(user: string, signal?: AbortSignal): Promise<HlClearinghouseState> {
    return this.post({ type: 'clearinghouseState', user }, HlClearinghouseState, signal)
  }
}
