// What a FillRecord adds to a Filled event's numbers: the participant's position_action and its
// realized PnL as a percentage of the cost basis its fill closed. Pure, exact (bigint).
import { compareDecimals, fine, ratioString, signOf } from '../amounts.ts'

export type PositionAction = 'open_long' | 'open_short' | 'close_long' | 'close_short'

/**
 * The action of a change of signed size from before to after (decimal strings). A flip through
 * zero closes first, and the close is what the fill's realized PnL belongs to, so a flip reports
 * the close.
 */
export function positionAction(before: string, after: string): PositionAction | null {
  const move = compareDecimals(after, before)
  if (move === 0) return null
  const sign = signOf(before)
  if (sign > 0 && move < 0) return 'close_long'
  if (sign < 0 && move > 0) return 'close_short'
  return move > 0 ? 'open_long' : 'open_short'
}

/** Decimal places of realized_pnl_pct (rounded toward zero). */
export const PNL_PCT_DECIMALS = 4

/**
 * realized_pnl as a percentage of the cost basis of the part the fill closed, from the event's
 * numbers alone: the chain closes `closeQty = min(qty, |before|)` against the position, at a
 * notional share of floor(notional x closeQty / qty); realized = proceeds - basis for a long
 * (selling) and -(basis) - paid for a short (buying), which gives the basis back.
 */
export function realizedPnlPct(a: { buying: boolean; sizeBefore: string; qty: string; notional: bigint; realizedPnl: bigint }): string {
  if (a.realizedPnl === 0n) return '0'
  const before = fine(a.sizeBefore)
  const qty = fine(a.qty)
  if (before === 0n || before > 0n !== !a.buying || qty === 0n) return '0'
  const absBefore = before < 0n ? -before : before
  const closeQty = qty < absBefore ? qty : absBefore
  const closeNotional = closeQty === qty ? a.notional : (a.notional * closeQty) / qty
  const basis = a.buying ? a.realizedPnl + closeNotional : closeNotional - a.realizedPnl
  if (basis <= 0n) return '0'
  return ratioString(a.realizedPnl * 100n, basis, PNL_PCT_DECIMALS)
}
