// Where trading fees go once a payer's balance has been debited: to the market's fee recipient.
import type { EventSink } from './events.ts'
import { credit } from './order-ops.ts'
import type { Account, ChainState, Market } from './types.ts'

/**
 * Distributes a fee already debited from payer. Called once per fee: per fill for makers, per
 * order (the sum of its fills) for the taker.
 */
export function collectFee(state: ChainState, market: Market, payer: Account, fee: bigint, events: EventSink): void {
  void payer
  void events
  if (fee === 0n) return
  credit(state, market.feeRecipient, fee)
}
