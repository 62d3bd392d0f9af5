// LiquidatePosition (role Liquidator): closes a liquidatable position at the mark against the
// insurance fund, which takes it over. Design and numbers: docs/liquidation.md.
//
// 1. The trader's resting orders are cancelled (reason Liquidated): for a Cross position all of
//    them, in every market (their margin leans on the cross equity that just failed); for an
//    Isolated position those in its market.
// 2. The position trades at the mark with the insurance fund: the trader's side is closed, the
//    fund's position in the market grows by the same size (no trading fee; open interest moves as
//    for a trade). The trader's realized PnL, and for an Isolated position its isolated margin,
//    go to the trader's balance.
// 3. The trader pays the penalty, ceil(notional x liquidation_penalty_bps / 10000), capped at what
//    the position's backing still holds (Isolated: its margin + realized PnL; Cross: the cross
//    equity left); LIQUIDATOR_REWARD_SHARE_BPS of it goes to the liquidator, the rest to the fund.
// 4. Bad debt: an Isolated position whose margin + realized PnL is negative leaves that shortfall,
//    which the fund pays at once (the trader's cross balance does not pay for an isolated
//    position). A Cross liquidation that leaves no Cross position and a negative balance leaves a
//    deficit that the trader's isolated margins cover first and the fund then (bad-debt.ts).
//    BadDebt events record what the fund paid; its balance may go negative. While Cross positions
//    remain, a negative balance is backed by their uPnL and stays visible (it is no debt yet).
// Every step moves money between accounts, so sum(balance + isolated margin - cost basis) over
// all accounts is conserved.
import type { LiquidatePositionPayload } from '../../wire/actions.ts'
import type { Outcome } from '../core/action-context.ts'
import type { EventSink } from '../core/events.ts'
import { divCeil, notionalOf } from '../core/math.ts'
import { reject } from '../core/reasons.ts'
import { type Account, BPS_DENOMINATOR, type ChainState, LIMITS, type Order } from '../core/types.ts'
import { cancelRestingOrder, credit, creditAccount } from '../orders/order-ops.ts'
import { clampReduceOnlyOrders } from '../orders/reduce-only.ts'
import { markLeaf } from '../state/state-root.ts'
import { absorbBadDebt } from './bad-debt.ts'
import { crossHealth, healthOf, isHouseAccount } from './maintenance.ts'
import type { PositionLiquidatedEvent } from './margin-events.ts'
import { applyTrade, positionFor, settlePosition } from './positions.ts'

/** Share of the liquidation penalty paid to the liquidator, in bps (the fund keeps the rest). */
export const LIQUIDATOR_REWARD_SHARE_BPS = 2_000n

export function liquidatePosition(state: ChainState, liquidator: Account, p: LiquidatePositionPayload, events: EventSink): Outcome {
  const address = p.address.toLowerCase()
  const trader = state.accounts.get(address)
  if (trader === undefined) return reject('AccountNotFound', `${address} has no account`)
  const market = state.markets.get(p.market_id)
  if (market === undefined) return reject('MarketNotFound', `market ${p.market_id} does not exist`)
  const pos = trader.positions.get(market.marketId)
  if (pos === undefined || pos.sizeLots === 0) return reject('NoOpenPosition', `${address} holds no ${market.symbol} position`)
  if (trader === liquidator) return reject('CannotLiquidateSelf', 'a liquidator cannot liquidate its own account')
  const fundAddress = state.params.insuranceFund
  if (isHouseAccount(state, address))
    return reject('NotLiquidatable', `${address} is a house account (the insurance fund or Book B) and is not liquidated`)
  if (market.markTicks === 0) return reject('NotLiquidatable', `${market.symbol} has no mark price`)
  const health = healthOf(state, trader, market, pos)
  if (health.equity >= health.maintenance) {
    return reject(
      'NotLiquidatable',
      `${pos.marginMode} equity ${health.equity} is not below ` + `the maintenance requirement ${health.maintenance} (SCALE_6)`,
    )
  }

  // After this point the liquidation must succeed.
  const isolated = pos.marginMode === 'Isolated'
  for (const order of ordersToCancel(trader, isolated ? market.marketId : undefined))
    cancelRestingOrder(state, trader, order, 'Liquidated', events)

  const size = pos.sizeLots
  const notional = notionalOf(market, market.markTicks, Math.abs(size))
  const fund = credit(state, fundAddress, 0n)
  const fundPos = positionFor(state, fund, market)
  markLeaf(state, pos)
  const t = applyTrade(pos, -size, notional)
  const f = applyTrade(fundPos, size, notional)
  market.openInterestLots += Math.max(0, t.sizeAfter) + Math.max(0, f.sizeAfter) - Math.max(0, t.sizeBefore) - Math.max(0, f.sizeBefore)
  markLeaf(state, market)
  settlePosition(state, trader, pos)
  settlePosition(state, fund, fundPos)
  creditAccount(state, fund, f.realizedPnl + f.isolatedTransfer)
  // The fund's own reduce-only orders must still fit its grown or flipped position.
  clampReduceOnlyOrders(state, fund, market.marketId, events)

  // What the position's backing holds after the close: the penalty cannot take more than that.
  const proceeds = t.realizedPnl + t.isolatedTransfer
  const backing = isolated ? proceeds : crossHealth(state, trader).equity + proceeds
  const fullPenalty = divCeil(notional * BigInt(market.liquidationPenaltyBps), BPS_DENOMINATOR)
  const penalty = backing <= 0n ? 0n : backing < fullPenalty ? backing : fullPenalty
  // Isolated: a negative remainder is bad debt at once; the trader's cross balance does not pay it.
  const isolatedDebt = isolated && proceeds < 0n ? -proceeds : 0n
  creditAccount(state, trader, proceeds - penalty + isolatedDebt)
  creditAccount(state, fund, -isolatedDebt)
  const reward = (penalty * LIQUIDATOR_REWARD_SHARE_BPS) / BPS_DENOMINATOR
  creditAccount(state, liquidator, reward)
  creditAccount(state, fund, penalty - reward)

  const liquidated: PositionLiquidatedEvent = {
    kind: 'Liquidation',
    sub_kind: 'PositionLiquidated',
    market_id: market.marketId,
    account: trader.address,
    liquidator: liquidator.address,
    insurance_fund: fundAddress,
    margin_mode: pos.marginMode,
    size_lots: size,
    price_ticks: market.markTicks,
    notional,
    realized_pnl: t.realizedPnl,
    penalty,
    liquidator_reward: reward,
    bad_debt: isolatedDebt,
    fund_size_before_lots: f.sizeBefore,
    fund_size_after_lots: f.sizeAfter,
  }
  events.push(liquidated)
  if (isolatedDebt > 0n) {
    events.push({
      kind: 'Liquidation',
      sub_kind: 'BadDebt',
      market_id: market.marketId,
      account: trader.address,
      insurance_fund: fundAddress,
      amount: isolatedDebt,
    })
  }
  // Cross: a negative balance that no Cross position backs any more (bad-debt.ts); the event
  // above reports the fund's share, its own events follow it.
  if (!isolated) liquidated.bad_debt = absorbBadDebt(state, trader, market.marketId, events)
  return { ok: true }
}

/** The trader's resting orders to cancel first: all of them, or those of one market. Collected
 * before cancelling (cancelling edits the map); bounded by LIMITS.openOrdersPerAccountMax. */
function ordersToCancel(trader: Account, marketId: number | undefined): Order[] {
  const out: Order[] = []
  for (const o of trader.orders.values()) {
    if (out.length >= LIMITS.openOrdersPerAccountMax) break
    if (marketId === undefined || o.marketId === marketId) out.push(o)
  }
  return out
}
