// Where trading fees go once a payer's balance has been debited: the referral rebates first (when
// the payer has an inviter, referral.ts), the rest to the market's fee recipient.
import type { EventSink } from '../core/events.ts'
import type { Account, ChainState, Market } from '../core/types.ts'
import { credit } from '../orders/order-ops.ts'
import { payRebates } from './referral.ts'

/**
 * Distributes a fee already debited from payer. Called once per fee: per fill for makers, per
 * order (the sum of its fills) for the taker. The fee is conserved: rebates plus the recipient's
 * share equal it exactly.
 */
export function collectFee(state: ChainState, market: Market, payer: Account, fee: bigint, events: EventSink): void {
  if (fee === 0n) return
  const rebated = payRebates(state, market.marketId, payer, fee, events)
  const rest = rebated === 0n ? fee : fee - rebated
  if (rest !== 0n) credit(state, market.feeRecipient, rest)
}
