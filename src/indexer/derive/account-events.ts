// Derives `account_events`: every event outside order execution (kind Exec has /fills and /orders)
// indexed under each account it touches: its `account` and the addresses its body names.
import { insertAccountEvent } from '../tables/account-events.ts'
import type { DeriveModule } from './types.ts'

/** Body fields that name another account an event touches. */
const ACCOUNT_FIELDS = [
  'inviter',
  'destination',
  'agent',
  'maker',
  'taker',
  'counterparty',
  'liquidator',
  'trader',
  'recipient',
  'new_address',
  'old_address',
] as const

const ADDRESS = /^0x[0-9a-f]{40}$/

export const accountEventsModule: DeriveModule = {
  table: 'account_events',
  subKinds: '*',
  create: (db) => ({
    event(e) {
      if (e.kind === 'Exec') return
      const touched = new Set<string>()
      if (e.account !== null && ADDRESS.test(e.account)) touched.add(e.account)
      // Read by name across every sub_kind: a field is there only in the bodies that have it.
      const fields: Readonly<Record<string, unknown>> = e.body
      for (const field of ACCOUNT_FIELDS) {
        const v = fields[field]
        if (typeof v === 'string' && ADDRESS.test(v)) touched.add(v)
      }
      for (const account of touched) insertAccountEvent(db, account, e.height, e.seq, e.subKind)
    },
  }),
}
