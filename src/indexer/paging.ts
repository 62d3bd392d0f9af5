// Paging of history reads (docs/history-api.md#conventions-all-history-rest-endpoints,
// docs/limits.md#paging): offset/limit with per-endpoint defaults and maxima, opaque keyset cursors
// that take precedence over offset, include_total, next_cursor/has_more.
import type { Database, SQLQueryBindings } from 'bun:sqlite'

/** Deepest offset a cursor endpoint accepts; deeper paging uses the cursor (docs/errors.md#http-statuses). */
export const OFFSET_MAX = 1_000

export interface PageRequest {
  readonly offset: number
  readonly limit: number
  /** Decoded keyset cursor: the key of the last row already seen. */
  readonly cursor: readonly number[] | undefined
  readonly includeTotal: boolean
}

export interface PageInfo {
  offset: number
  limit: number
  total?: number
  next_cursor: string | null
  has_more: boolean
}

/** A history read that the caller got wrong: the HTTP status and a message. */
export class ReadError extends Error {
  override readonly name = 'ReadError'
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export const encodeCursor = (key: readonly number[]) => key.join('.')

/** Decodes a cursor of `parts` non-negative integers; a malformed one is a 400. */
export function decodeCursor(raw: string, parts: number): number[] {
  const out = raw.split('.').map((p) => (/^\d{1,16}$/.test(p) ? Number(p) : NaN))
  if (out.length !== parts || out.some((n) => !Number.isSafeInteger(n)))
    throw new ReadError(400, `cursor ${raw.slice(0, 40)} is not a cursor of this endpoint`)
  return out
}

export interface KeysetQuery {
  readonly table: string
  /** The select list (column expressions). */
  readonly select: string
  /** Filter conditions ANDed together, with their parameters in order. */
  readonly where: readonly string[]
  readonly params: readonly SQLQueryBindings[]
  /** The ordering key columns; rows are unique by them within the filters. */
  readonly keys: readonly string[]
  readonly order: 'asc' | 'desc'
  /** An index to force when the planner might pick a worse one. */
  readonly indexedBy?: string
}

/** At most `limit` rows of q after `cursor` in key order, skipping `offset`; keys as _k0, _k1, ... */
function keysetRows(
  db: Database,
  q: KeysetQuery,
  cursor: readonly number[] | undefined,
  limit: number,
  offset: number,
): Record<string, unknown>[] {
  const where = [...q.where]
  const params = [...q.params]
  if (cursor !== undefined) {
    // (k1, k2, ...) after the cursor in the key order, as a row-value comparison SQLite seeks on.
    where.push(`(${q.keys.join(', ')}) ${q.order === 'desc' ? '<' : '>'} (${q.keys.map(() => '?').join(', ')})`)
    params.push(...cursor)
  }
  const dir = q.order === 'desc' ? 'DESC' : 'ASC'
  const from = q.indexedBy === undefined ? q.table : `${q.table} INDEXED BY ${q.indexedBy}`
  const sql = `SELECT ${q.select}, ${q.keys.map((k, i) => `${k} AS _k${i}`).join(', ')} FROM ${from}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${q.keys.map((k) => `${k} ${dir}`).join(', ')} LIMIT ? OFFSET ?`
  return db.query<Record<string, unknown>, SQLQueryBindings[]>(sql).all(...params, limit, offset)
}

function countRows(db: Database, q: KeysetQuery): number {
  const sql = `SELECT COUNT(*) AS n FROM ${q.table}${q.where.length > 0 ? ` WHERE ${q.where.join(' AND ')}` : ''}`
  return db.query<{ n: number }, SQLQueryBindings[]>(sql).get(...q.params)?.n ?? 0
}

/** Cuts a fetched run of limit + 1 rows into the page, its info and next_cursor; drops the key columns. */
function finishPage<T>(
  rows: Record<string, unknown>[],
  keys: number,
  page: PageRequest,
  total: () => number,
): { rows: T[]; page: PageInfo } {
  const hasMore = rows.length > page.limit
  if (hasMore) rows.length = page.limit
  const last = rows[rows.length - 1]
  const info: PageInfo = {
    offset: page.cursor === undefined ? page.offset : 0,
    limit: page.limit,
    next_cursor: hasMore && last !== undefined ? encodeCursor(Array.from({ length: keys }, (_, i) => last[`_k${i}`] as number)) : null,
    has_more: hasMore,
  }
  if (page.includeTotal) info.total = total()
  for (const row of rows) for (let i = 0; i < keys; i++) delete row[`_k${i}`]
  return { rows: rows as T[], page: info }
}

/**
 * Runs a keyset-paged query: at most `limit` rows after the cursor (or at `offset` without one),
 * in the key order; has_more from one row more; next_cursor is the key of the last row returned.
 */
export function keysetPage<T extends object>(db: Database, q: KeysetQuery, page: PageRequest): { rows: T[]; page: PageInfo } {
  const rows = keysetRows(db, q, page.cursor, page.limit + 1, page.cursor === undefined ? page.offset : 0)
  return finishPage<T>(rows, q.keys.length, page, () => countRows(db, q))
}

/**
 * A keyset page over the union of several queries with the same keys and order (one range per
 * part, e.g. one per market of an account), merged by key: each part gives at most
 * offset + limit + 1 rows, so the work is bounded by the page, not by the table.
 */
export function mergedKeysetPage<T extends object>(
  db: Database,
  parts: readonly KeysetQuery[],
  page: PageRequest,
): { rows: T[]; page: PageInfo } {
  if (parts.length === 1) return keysetPage<T>(db, parts[0]!, page)
  const first = parts[0]
  if (first === undefined) return finishPage<T>([], 0, page, () => 0)
  const skip = page.cursor === undefined ? page.offset : 0
  const all: Record<string, unknown>[] = []
  for (const q of parts) all.push(...keysetRows(db, q, page.cursor, skip + page.limit + 1, 0))
  const n = first.keys.length
  const sign = first.order === 'desc' ? -1 : 1
  all.sort((a, b) => {
    for (let i = 0; i < n; i++) {
      const d = (a[`_k${i}`] as number) - (b[`_k${i}`] as number)
      if (d !== 0) return sign * d
    }
    return 0
  })
  return finishPage<T>(all.slice(skip, skip + page.limit + 1), n, page, () => parts.reduce((sum, q) => sum + countRows(db, q), 0))
}

/** Orders a page's info keys in the documented order (docs/history-api.md#conventions-all-history-rest-endpoints): offset, limit, total (when asked), cursor. */
export function pageJson(p: PageInfo) {
  return p.total === undefined
    ? { offset: p.offset, limit: p.limit, next_cursor: p.next_cursor, has_more: p.has_more }
    : { offset: p.offset, limit: p.limit, total: p.total, next_cursor: p.next_cursor, has_more: p.has_more }
}
