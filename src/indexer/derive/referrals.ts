// Derives `referral_events` (InviterSet: a row for the invitee and one for the inviter) and
// `rebate_events` (RebatePaid: the invitee's and the inviter's share).
import { units6 } from '../amounts.ts'
import { insertRebateEvent } from '../tables/rebate-events.ts'
import { insertReferralEvent } from '../tables/referral-events.ts'
import type { DeriveModule } from './types.ts'

export const referralEventsModule: DeriveModule = {
  table: 'referral_events',
  subKinds: ['InviterSet'],
  create: (db) => ({
    event(e) {
      const b = e.body
      if (b.sub_kind !== 'InviterSet') return
      const invitee = e.account ?? b.account
      const inviter = b.inviter
      const row = { height: e.height, seq: e.seq, timestampMs: e.timestampMs, eventType: e.subKind, inviter, invitee }
      insertReferralEvent(db, { ...row, account: invitee, role: 'invitee' })
      insertReferralEvent(db, { ...row, account: inviter, role: 'inviter' })
    },
  }),
}

export const rebateEventsModule: DeriveModule = {
  table: 'rebate_events',
  subKinds: ['RebatePaid'],
  create: (db) => ({
    event(e) {
      const b = e.body
      if (b.sub_kind !== 'RebatePaid') return
      const invitee = e.account ?? b.account
      const inviter = b.inviter
      const row = {
        height: e.height,
        seq: e.seq,
        timestampMs: e.timestampMs,
        marketId: e.marketId ?? b.market_id,
        inviter,
        invitee,
        fee: units6(b.fee),
      }
      insertRebateEvent(db, { ...row, account: invitee, role: 'invitee', amount: units6(b.rebate_to_invitee) })
      insertRebateEvent(db, { ...row, account: inviter, role: 'inviter', amount: units6(b.rebate_to_inviter) })
    },
  }),
}
