// Paging of the history REST lists (docs/history-api.md#conventions-all-history-rest-endpoints):
// offset, limit, cursor and include_total with per-endpoint defaults and maxima
// (docs/limits.md#history-rest-lists), as query schemas and as the PageRequest the index reads.
import { Type } from '@sinclair/typebox'
import { decodeCursor, OFFSET_MAX, type PageRequest } from '../../indexer/paging.ts'
import { FlagQuery, IntQuery, Opt, TextQuery } from './query-params.ts'

export interface PagingSpec {
  readonly limitDefault: number
  readonly limitMax: number
  /** Key parts of the endpoint's cursor; undefined for an endpoint without a cursor. */
  readonly cursorParts?: number
}

/** Limits per endpoint (docs/limits.md#history-rest-lists). */
export const PAGING = {
  blocks: { limitDefault: 50, limitMax: 200, cursorParts: 1 },
  blockEvents: { limitDefault: 500, limitMax: 2000 },
  envelopes: { limitDefault: 25, limitMax: 200, cursorParts: 2 },
  fills: { limitDefault: 50, limitMax: 200, cursorParts: 3 },
  orders: { limitDefault: 50, limitMax: 200, cursorParts: 2 },
  accountRows: { limitDefault: 50, limitMax: 200, cursorParts: 2 },
  openOrders: { limitDefault: 100, limitMax: 1000 },
} as const satisfies Record<string, PagingSpec>

const limitQuery = (spec: PagingSpec) => Opt(IntQuery(`rows per page, default ${spec.limitDefault}, clamped to 1..${spec.limitMax}`))
const includeTotal = Opt(FlagQuery('count the rows in all (page.total)'))

/** offset, limit and include_total of a list without a cursor. */
export const offsetPaging = (spec: PagingSpec) => ({
  offset: Opt(IntQuery('rows to skip, default 0')),
  limit: limitQuery(spec),
  include_total: includeTotal,
})

const integerText = /^\d{1,16}$/

/** offset (at most OFFSET_MAX: deeper pages use the cursor), limit, cursor and include_total. */
export const cursorPaging = (spec: PagingSpec) => ({
  offset: Opt(
    Type.Integer({
      minimum: 0,
      maximum: OFFSET_MAX,
      description: `rows to skip, default 0 (at most ${OFFSET_MAX}; deeper pages use cursor)`,
      invalid: (name: string, sent: string) =>
        integerText.test(sent) && Number(sent) <= Number.MAX_SAFE_INTEGER
          ? `offset ${Number(sent)} is above ${OFFSET_MAX}; page deeper with cursor`
          : `${name} must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}, got ${sent.slice(0, 40)}`,
    }),
  ),
  limit: limitQuery(spec),
  cursor: Opt(TextQuery('next_cursor of the previous page; takes precedence over offset')),
  include_total: includeTotal,
})

/** The paging query of a list, as read by its schema. */
export interface PagingQuery {
  readonly offset?: number
  readonly limit?: number
  readonly cursor?: string
  readonly include_total?: boolean
}

/** The page to read: offset default 0, limit default and clamped to the maximum, a decoded cursor (malformed: 400). */
export function pageRequest(q: PagingQuery, spec: PagingSpec): PageRequest {
  const offset = q.offset ?? 0
  const limit = Math.max(1, Math.min(spec.limitMax, q.limit ?? spec.limitDefault))
  const cursor = spec.cursorParts !== undefined && q.cursor !== undefined ? decodeCursor(q.cursor, spec.cursorParts) : undefined
  return { offset, limit, cursor, includeTotal: q.include_total === true }
}
