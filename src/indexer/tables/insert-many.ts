// Rows written many to an INSERT statement: a statement's run has a fixed cost beside each row's
// (binding, stepping, resetting through bun:sqlite), and under 50-order batches the index writes
// two order_events rows an order. In isolation, 2.55-2.68 µs of CPU a row of order_events sixteen
// to a statement against 2.92-3.28 one to a statement (a temporary script over 10.5M rows). The
// orders archive's rows (20 columns, an integer key) measured no gain: 2.54-2.85 against 2.65-2.68.
import type { Database, SQLQueryBindings } from 'bun:sqlite'

/** Rows one statement writes at a time (14 columns here: far below SQLite's 32,766 parameters). */
export const ROWS_PER_INSERT = 16

/**
 * Writes rows with `insertInto` (`INSERT [OR …] INTO table [(columns)]`), ROWS_PER_INSERT to a
 * statement and the rest one at a time, in their order; push appends a row's `columns` values.
 */
export function insertMany<T>(
  db: Database,
  insertInto: string,
  columns: number,
  rows: readonly T[],
  push: (params: SQLQueryBindings[], row: T) => void,
): void {
  const rowSql = `(${Array(columns).fill('?').join(', ')})`
  const params: SQLQueryBindings[] = []
  let i = 0
  if (rows.length >= ROWS_PER_INSERT) {
    const many = db.query(`${insertInto} VALUES ${Array(ROWS_PER_INSERT).fill(rowSql).join(', ')}`)
    for (; i + ROWS_PER_INSERT <= rows.length; i += ROWS_PER_INSERT) {
      params.length = 0
      for (let k = i; k < i + ROWS_PER_INSERT; k++) push(params, rows[k]!)
      many.run(...params)
    }
  }
  if (i === rows.length) return
  const one = db.query(`${insertInto} VALUES ${rowSql}`)
  for (; i < rows.length; i++) {
    params.length = 0
    push(params, rows[i]!)
    one.run(...params)
  }
}
