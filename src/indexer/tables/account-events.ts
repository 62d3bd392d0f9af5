// Table `account_events`: an index from each account to the non-trading events that touch it
// (funds, bridge, agents, referrals, triggers, liquidations, admin actions on it). Rows point at
// the ingested event, which is returned as its EventView.
import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { keysetPage, type PageRequest } from '../paging.ts'
import type { SymbolOf } from '../symbols.ts'
import { eventAt, eventJson } from './events.ts'

export function insertAccountEvent(db: Database, account: string, height: number, seq: number, subKind: string): void {
  db.query('INSERT OR IGNORE INTO account_events VALUES (?, ?, ?, ?)').run(account, height, seq, subKind)
}

export function accountEvents(db: Database, f: { account: string; subKind?: string | undefined }, page: PageRequest, symbolOf: SymbolOf) {
  const where = ['account = ?']
  const params: SQLQueryBindings[] = [f.account.toLowerCase()]
  if (f.subKind !== undefined) {
    where.push('sub_kind = ?')
    params.push(f.subKind)
  }
  const r = keysetPage<{ height: number; seq: number }>(
    db,
    { table: 'account_events', select: 'height, seq', where, params, keys: ['height', 'seq'], order: 'desc' },
    page,
  )
  const data = []
  for (const row of r.rows) {
    const e = eventAt(db, row.height, row.seq)
    if (e !== undefined) data.push(eventJson(e, symbolOf))
  }
  return { data, page: r.page }
}
