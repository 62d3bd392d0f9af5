// Paging of history reads (spec §2.1, §8): offset/limit with per-endpoint defaults and maxima,
// opaque keyset cursors that take precedence over offset, include_total, next_cursor/has_more.
import type { Database, SQLQueryBindings } from 'bun:sqlite'

/** Deepest offset a cursor endpoint accepts; deeper paging uses the cursor (spec §7.1). */
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
  constructor(readonly status: number, message: string) {
    super(message)
  }
}

export const encodeCursor = (key: readonly number[]) => key.join('.')

/** Decodes a cursor of `parts` non-negative integers; a malformed one is a 400. */
export function decodeCursor(raw: string, parts: number): number[] {
  const out = raw.split('.').map((p) => (/^\d{1,16}$/.test(p) ? Number(p) : NaN))
  if (out.length !== parts || out.some((n) => !Number.isSafeInteger(n))) throw new ReadError(400, `cursor ${raw.slice(0, 40)} is not a cursor of this endpoint`)
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

/**
 * Runs a keyset-paged query: at most `limit` rows after the cursor (or at `offset` without one),
 * in the key order; has_more from one row more; next_cursor is the key of the last row returned.
 */
export function keysetPage<T extends object>(db: Database, q: KeysetQuery, page: PageRequest): { rows: T[]; page: PageInfo } {
  const where = [...q.where]
  const params = [...q.params]
  if (page.cursor !== undefined) {
    // (k1, k2, ...) after the cursor in the key order, as row-value comparison SQLite can seek on.
    where.push(`(${q.keys.join(', ')}) ${q.order === 'desc' ? '<' : '>'} (${q.keys.map(() => '?').join(', ')})`)
    params.push(...page.cursor)
  }
  const dir = q.order === 'desc' ? 'DESC' : 'ASC'
  const from = q.indexedBy === undefined ? q.table : `${q.table} INDEXED BY ${q.indexedBy}`
  const sql = `SELECT ${q.select}, ${q.keys.map((k, i) => `${k} AS _k${i}`).join(', ')} FROM ${from}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${q.keys.map((k) => `${k} ${dir}`).join(', ')} LIMIT ? OFFSET ?`
  const offset = page.cursor === undefined ? page.offset : 0
  const rows = db.query<Record<string, unknown>, SQLQueryBindings[]>(sql).all(...params, page.limit + 1, offset)
  const hasMore = rows.length > page.limit
  if (hasMore) rows.length = page.limit
  const last = rows[rows.length - 1]
  const info: PageInfo = {
    offset: page.cursor === undefined ? page.offset : 0,
    limit: page.limit,
    next_cursor: hasMore && last !== undefined ? encodeCursor(q.keys.map((_, i) => last[`_k${i}`] as number)) : null,
    has_more: hasMore,
  }
  if (page.includeTotal) {
    const countSql = `SELECT COUNT(*) AS n FROM ${q.table}${q.where.length > 0 ? ` WHERE ${q.where.join(' AND ')}` : ''}`
    info.total = db.query<{ n: number }, SQLQueryBindings[]>(countSql).get(...q.params)?.n ?? 0
  }
  for (const row of rows) for (let i = 0; i < q.keys.length; i++) delete row[`_k${i}`]
  return { rows: rows as T[], page: info }
}

/** Orders a page's info keys as the spec shows them: offset, limit, total (when asked), cursor. */
export function pageJson(p: PageInfo) {
  return p.total === undefined
    ? { offset: p.offset, limit: p.limit, next_cursor: p.next_cursor, has_more: p.has_more }
    : { offset: p.offset, limit: p.limit, total: p.total, next_cursor: p.next_cursor, has_more: p.has_more }
}
