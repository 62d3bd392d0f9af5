// Settles in-flight order records (pending, sent, unknown, open) against the venue by cloid
// (docs/admin.md#hedge-order-states). Runs under the engine's lock, so a record found pending here
// was never sent (the process that wrote it stopped before marking it sent) and is failed at once;
// a sent or unknown record the venue has not seen stays unknown for UNKNOWN_GRACE_MS (the order may
// still be on its way) and is failed after that. Nothing here ever places an order.
import { errorMessage, type Logger } from '../../lib/log.ts'
import type { VenueAccount, VenueOrderStatus } from '../venues/venue.ts'
import type { HedgeOrderStore } from './order-store.ts'
import type { HedgeOrderRecord, HedgeOrderStatus } from './schemas.ts'

/** How long a sent order the venue does not know may still be in flight before it counts as never placed. */
export const UNKNOWN_GRACE_MS = 30_000

/** One record's move. */
export interface Resolution {
  readonly id: number
  readonly from: HedgeOrderStatus
  readonly to: HedgeOrderStatus
}

/** Settles every in-flight record; the moves made and the problems met (accounts that could not be asked). */
export async function resolveInFlight(p: {
  orders: HedgeOrderStore
  accountOf: (accountId: string) => VenueAccount | undefined
  nowMs: number
  log: Logger
  signal?: AbortSignal
}): Promise<{ moves: Resolution[]; problems: string[] }> {
  const moves: Resolution[] = []
  const problems: string[] = []
  for (const r of p.orders.inFlight()) {
    if (p.signal?.aborted) break
    const move = (to: HedgeOrderStatus, fields: { ext_oid?: string; error?: string | null; filled_sz?: string } = {}) => {
      if (p.orders.transition(r.id, to, fields)) {
        moves.push({ id: r.id, from: r.status, to })
        p.log.info(
          `hedge order ${r.id} (${r.market_symbol} cloid ${r.cloid}): ${r.status} -> ${to}${fields.error ? ` (${fields.error})` : ''}`,
        )
      }
    }
    if (r.status === 'pending') {
      move('failed', { error: 'never sent: the service stopped between recording the order and sending it' })
      continue
    }
    const account = p.accountOf(r.account_id)
    if (account === undefined) {
      problems.push(`hedge order ${r.id}: its account ${r.account_id} is gone or will not open; it stays ${r.status}`)
      continue
    }
    let status: VenueOrderStatus | null
    try {
      status = await account.orderStatusByCloid(r.cloid, p.signal)
    } catch (err) {
      problems.push(`hedge order ${r.id}: the venue could not tell its status: ${errorMessage(err)}`)
      continue
    }
    if (status === null) {
      if (r.status === 'sent') move('unknown', { error: 'the reply was lost; the venue does not know the order yet' })
      if (r.status !== 'open' && p.nowMs - r.created_at_ms > UNKNOWN_GRACE_MS) {
        move('failed', { error: `the venue never saw the order (${Math.round(UNKNOWN_GRACE_MS / 1000)} s after it was sent)` })
      }
      if (r.status === 'open') problems.push(`hedge order ${r.id} was open but the venue no longer knows its cloid ${r.cloid}`)
      continue
    }
    applyStatus(r, status, move)
  }
  return { moves, problems }
}

/** Moves a record to what the venue says of its order. */
export function applyStatus(
  r: HedgeOrderRecord,
  s: VenueOrderStatus,
  move: (to: HedgeOrderStatus, fields: { ext_oid?: string; error?: string | null; filled_sz?: string }) => void,
): void {
  const fields = { ext_oid: s.ext_oid, filled_sz: s.filled_sz }
  if (s.status === 'open') {
    if (r.status !== 'open') move('open', fields)
    return
  }
  move(s.status, s.status === 'cancelled' ? { ...fields, error: 'cancelled on the venue' } : fields)
}
