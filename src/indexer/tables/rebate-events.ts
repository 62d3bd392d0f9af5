// Table `rebate_events`: rebate payouts (RebatePaid), a row for the invitee's share and one for the
// inviter's, with the fee they were cut from.
import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { money } from '../amounts.ts'
import { keysetPage, type PageRequest } from '../paging.ts'
import type { SymbolOf } from '../symbols.ts'

export interface RebateEventInsert {
  account: string
  height: number
  seq: number
  timestampMs: number
  role: 'inviter' | 'invitee'
  marketId: number
  inviter: string
  invitee: string
  fee: bigint
  amount: bigint
}

export function insertRebateEvent(db: Database, r: RebateEventInsert): void {
  db.query('INSERT OR IGNORE INTO rebate_events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
    r.account,
    r.height,
    r.seq,
    r.timestampMs,
    r.role,
    r.marketId,
    r.inviter,
    r.invitee,
    r.fee,
    r.amount,
  )
}

interface RebateRow {
  height: number
  seq: number
  timestamp_ms: number
  account: string
  role: string
  market_id: number
  inviter: string
  invitee: string
  fee: string
  amount: string
}

export function accountRebateEvents(
  db: Database,
  f: { account: string; role?: string | undefined },
  page: PageRequest,
  symbolOf: SymbolOf,
) {
  const where = ['account = ?']
  const params: SQLQueryBindings[] = [f.account.toLowerCase()]
  if (f.role !== undefined) {
    where.push('role = ?')
    params.push(f.role)
  }
  const r = keysetPage<RebateRow>(
    db,
    {
      table: 'rebate_events',
      select:
        'height, seq, timestamp_ms, account, role, market_id, inviter, invitee, CAST(fee AS TEXT) AS fee, CAST(amount AS TEXT) AS amount',
      where,
      params,
      keys: ['height', 'seq'],
      order: 'desc',
    },
    page,
  )
  return {
    data: r.rows.map((x) => ({
      height: x.height,
      seq: x.seq,
      timestamp_ms: x.timestamp_ms,
      account: x.account,
      role: x.role,
      market_id: x.market_id,
      symbol: symbolOf(x.market_id),
      inviter: x.inviter,
      invitee: x.invitee,
      fee: money(x.fee),
      amount: money(x.amount),
    })),
    page: r.page,
  }
}
