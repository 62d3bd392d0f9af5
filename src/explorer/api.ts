// The explorer's reads: the node's JSON-RPC read methods (POST /api/v1/query, typed by the client's
// method table) and its REST routes (hot reads, history, candles), all on the origin that served the
// page. Read-only: nothing here signs or sends an action.
import type { Static } from '@sinclair/typebox'
import type { QueryData, QueryMethodName, QueryParams } from '../client/query-methods.ts'
import type { BridgeFlowSchema, FillRecordSchema, FundFlowSchema, SearchHitSchema, TxViewSchema } from '../wire/results/history-rows.ts'
import type { CandleSchema, HotOrderbookSchema, HotSummarySchema, RecentTradeSchema, RestPage } from '../wire/results/rest.ts'
import type { BlockHeaderSchema, EnvelopeViewSchema, EventViewSchema } from '../wire/results/shared-block.ts'

export type MarketDetail = QueryData<'getMarket'>
export type Candle = Static<typeof CandleSchema>
export type BookSnapshot = Static<typeof HotOrderbookSchema>
export type BookLevel = BookSnapshot['bids'][number]
export type MarketSummary = Static<typeof HotSummarySchema>
export type RecentTrade = Static<typeof RecentTradeSchema>
export type BlockHeader = Static<typeof BlockHeaderSchema>
export type EnvelopeView = Static<typeof EnvelopeViewSchema>
export type EventView = Static<typeof EventViewSchema>
export type TxView = Static<typeof TxViewSchema>
export type FillRecord = Static<typeof FillRecordSchema>
export type FundFlow = Static<typeof FundFlowSchema>
export type BridgeFlow = Static<typeof BridgeFlowSchema>
export type SearchHit = Static<typeof SearchHitSchema>
export type Page = Static<typeof RestPage>

/** A read the node refused or could not answer: the HTTP status and the node's message. */
export class ReadError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

async function errorOf(res: Response): Promise<ReadError> {
  let message = `${res.status} ${res.statusText}`
  try {
    const body = (await res.json()) as { error?: unknown; message?: unknown }
    if (typeof body.error === 'string') message = body.error
    else if (typeof body.message === 'string') message = body.message
  } catch {
    // A body that is not JSON: the status line says enough.
  }
  return new ReadError(res.status, message)
}

/** GET a REST route of the node (path from the origin, e.g. /api/v1/blocks?limit=20). */
export async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path)
  if (!res.ok) throw await errorOf(res)
  return (await res.json()) as T
}

/** The {data} of a hot-read or history REST reply. */
export async function getData<T>(path: string): Promise<T> {
  return (await getJson<{ data: T }>(path)).data
}

let nextId = 1

/** Calls one JSON-RPC read method and returns its `data`. */
export async function query<M extends QueryMethodName>(method: M, params: QueryParams<M>): Promise<QueryData<M>> {
  const res = await fetch('/api/v1/query', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  })
  if (!res.ok) throw await errorOf(res)
  const reply = (await res.json()) as { result?: { data: QueryData<M> }; error?: { message: string } }
  if (reply.error !== undefined) throw new ReadError(res.status, `${method}: ${reply.error.message}`)
  return reply.result!.data
}

/** A query string from the defined values of `params`. */
export function qs(params: Readonly<Record<string, string | number | boolean | undefined>>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value))
  return search.toString()
}
