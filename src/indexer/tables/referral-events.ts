// Table `referral_events`: referral bindings (InviterSet), a row for the invitee and one for the
// inviter, so either side lists its referrals.
import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { keysetPage, type PageRequest } from '../paging.ts'

export interface ReferralEventInsert {
  account: string
  height: number
  seq: number
  timestampMs: number
  role: 'inviter' | 'invitee'
  eventType: string
  inviter: string
  invitee: string
}

export function insertReferralEvent(db: Database, r: ReferralEventInsert): void {
  db.query('INSERT OR IGNORE INTO referral_events VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
    r.account,
    r.height,
    r.seq,
    r.timestampMs,
    r.role,
    r.eventType,
    r.inviter,
    r.invitee,
  )
}

export function accountReferralEvents(db: Database, f: { account: string; role?: string | undefined }, page: PageRequest) {
  const where = ['account = ?']
  const params: SQLQueryBindings[] = [f.account.toLowerCase()]
  if (f.role !== undefined) {
    where.push('role = ?')
    params.push(f.role)
  }
  return keysetPage<Record<string, unknown>>(
    db,
    {
      table: 'referral_events',
      select: 'height, seq, timestamp_ms, account, role, event_type, inviter, invitee',
      where,
      params,
      keys: ['height', 'seq'],
      order: 'desc',
    },
    page,
  )
}
