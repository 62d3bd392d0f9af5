// The dead man's switch: ScheduleCancel sets (or, with null, clears) a deadline for the account;
// at the first block whose time is past it, a begin-block hook cancels every resting order of the
// account (OrderDone DeadMansSwitch, then DeadMansSwitchFired) and clears the deadline. A client
// that keeps pushing the deadline forward keeps its orders; one that goes silent loses them.
//
// The deadline lives on the account (its leaf carries dms_deadline_ms); the queue of deadlines is
// a derived index (order-indexes.ts) that keeps replaced deadlines as stale entries, skipped when
// they come up because they no longer equal the account's deadline.
import type { ScheduleCancelPayload } from '../../wire/actions.ts'
import { type BlockHook, OK, type Outcome } from '../core/action-context.ts'
import type { EventSink } from '../core/events.ts'
import { reject } from '../core/reasons.ts'
import { type Account, type ChainState, LIMITS, type Order } from '../core/types.ts'
import { markLeaf } from '../state/state-root.ts'
import { ORDER_LIMITS } from './order-indexes.ts'
import { cancelRestingOrder } from './order-ops.ts'

/** Sets or clears account's dead man's switch at block time timestampMs. */
export function scheduleCancel(
  state: ChainState,
  account: Account,
  p: ScheduleCancelPayload,
  timestampMs: number,
  events: EventSink,
): Outcome {
  const deadline = p.deadline_ms
  if (deadline !== null && deadline < timestampMs + ORDER_LIMITS.dmsLeadMsMin) {
    return reject(
      'InvalidDeadline',
      `deadline_ms ${deadline} must be at least ${ORDER_LIMITS.dmsLeadMsMin} ms ` + `after block time ${timestampMs}`,
    )
  }
  if (deadline !== null && deadline > timestampMs + ORDER_LIMITS.dmsLeadMsMax) {
    return reject(
      'InvalidDeadline',
      `deadline_ms ${deadline} must be at most ${ORDER_LIMITS.dmsLeadMsMax} ms ` + `after block time ${timestampMs}`,
    )
  }
  // After this point the action must succeed.
  account.dmsDeadlineMs = deadline
  markLeaf(state, account)
  if (deadline !== null) {
    const queue = state.orderIndexes.deadlines
    queue.compactIfStale((e) => state.accounts.get(e.address)?.dmsDeadlineMs === e.deadlineMs)
    queue.push({ deadlineMs: deadline, address: account.address })
  }
  events.push({ kind: 'Core', sub_kind: 'CancelScheduled', market_id: null, account: account.address, deadline_ms: deadline })
  return OK
}

/**
 * Begin-block hook: fires every switch whose deadline is before the block's time, earliest first,
 * at most ORDER_LIMITS.dmsFiresPerBlockMax accounts per block (the rest fire in the next blocks).
 */
export const deadMansSwitchHook: BlockHook = (ctx) => {
  const { state, events } = ctx
  const queue = state.orderIndexes.deadlines
  let fired = 0
  for (let pops = 0; pops < ORDER_LIMITS.dmsPopsPerBlockMax && fired < ORDER_LIMITS.dmsFiresPerBlockMax; pops++) {
    const top = queue.peek()
    if (top === undefined || top.deadlineMs >= ctx.timestampMs) break
    queue.pop()
    const account = state.accounts.get(top.address)
    // Stale: the deadline was replaced, cleared or has fired already.
    if (account === undefined || account.dmsDeadlineMs !== top.deadlineMs) continue
    fired++
    account.dmsDeadlineMs = null
    markLeaf(state, account)
    // Collected first: cancelling changes account.orders. Bounded by LIMITS.openOrdersPerAccountMax.
    const orders: Order[] = []
    for (const order of account.orders.values()) {
      if (orders.length === LIMITS.openOrdersPerAccountMax) break
      orders.push(order)
    }
    for (const order of orders) cancelRestingOrder(state, account, order, 'DeadMansSwitch', events)
    events.push({
      kind: 'Core',
      sub_kind: 'DeadMansSwitchFired',
      market_id: null,
      account: account.address,
      deadline_ms: top.deadlineMs,
      cancelled: orders.length,
    })
  }
}
