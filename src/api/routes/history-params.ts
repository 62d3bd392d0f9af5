// Query-string parameters of the history REST family
// (docs/history-api.md#conventions-all-history-rest-endpoints): integers, addresses, paging with
// per-endpoint defaults and maxima, keyset cursors, and the statuses for getting them wrong (a bad
// value is 400; a missing required parameter is 500, docs/errors.md#http-statuses).
import { decodeCursor, OFFSET_MAX, type PageRequest, ReadError } from '../../indexer/paging.ts'

export type Query = Record<string, string | undefined>

/** A required parameter; missing is HTTP 500 (docs/errors.md#http-statuses). */
export function required(q: Query, name: string): string {
  const v = q[name]
  if (v === undefined || v === '') throw new ReadError(500, `missing required parameter: ${name}`)
  return v
}

/** An optional non-negative integer parameter. */
export function intParam(q: Query, name: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const v = q[name]
  if (v === undefined || v === '') return undefined
  if (!/^\d{1,16}$/.test(v) || Number(v) > max)
    throw new ReadError(400, `${name} must be an integer from 0 to ${max}, got ${v.slice(0, 40)}`)
  return Number(v)
}

/** A 0x-prefixed 20-byte address, lowercased. */
export function addressParam(q: Query, name: string, isRequired: true): string
export function addressParam(q: Query, name: string, isRequired: false): string | undefined
export function addressParam(q: Query, name: string, isRequired: boolean): string | undefined {
  const v = isRequired ? required(q, name) : q[name]
  if (v === undefined || v === '') return undefined
  if (!/^0x[0-9a-fA-F]{40}$/.test(v)) throw new ReadError(400, `${name} must be a 0x-prefixed 20-byte address`)
  return v.toLowerCase()
}

/** One of a fixed set of values. */
export function enumParam<T extends string>(q: Query, name: string, values: readonly T[]): T | undefined {
  const v = q[name]
  if (v === undefined || v === '') return undefined
  if (!(values as readonly string[]).includes(v)) throw new ReadError(400, `${name} must be one of ${values.join(', ')}`)
  return v as T
}

export const boolParam = (q: Query, name: string) => q[name] === 'true' || q[name] === '1'

export interface PagingSpec {
  readonly limitDefault: number
  readonly limitMax: number
  /** Key parts of the endpoint's cursor; undefined for an endpoint without a cursor. */
  readonly cursorParts?: number
}

/**
 * offset (default 0; above 1000 is 400 on cursor endpoints), limit (default, clamped to the
 * maximum), cursor (takes precedence over offset) and include_total.
 */
export function pageParams(q: Query, spec: PagingSpec): PageRequest {
  const offset = intParam(q, 'offset') ?? 0
  if (spec.cursorParts !== undefined && offset > OFFSET_MAX)
    throw new ReadError(400, `offset ${offset} is above ${OFFSET_MAX}; page deeper with cursor`)
  const limit = Math.max(1, Math.min(spec.limitMax, intParam(q, 'limit') ?? spec.limitDefault))
  const raw = q.cursor
  const cursor = spec.cursorParts !== undefined && raw !== undefined && raw !== '' ? decodeCursor(raw, spec.cursorParts) : undefined
  return { offset, limit, cursor, includeTotal: boolParam(q, 'include_total') }
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
