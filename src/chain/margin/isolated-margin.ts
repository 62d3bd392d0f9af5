// UpdateIsolatedMargin: moves margin between the cross balance and an open Isolated position.
// - Add: at most what the cross part can spare (margin.ts crossMovable: cross_cash_available,
//   capped at cross_trading_available when Cross uPnL is negative).
// - Remove: the position keeps at least its initial margin at the mark plus any unrealized loss,
//   so a removal never takes it below its initial requirement nor takes out unrealized profit.
import { parseDecimal } from '../../lib/decimal.ts'
import type { UpdateIsolatedMarginPayload } from '../../wire/actions.ts'
import type { Outcome } from '../core/action-context.ts'
import type { EventSink } from '../core/events.ts'
import { reject } from '../core/reasons.ts'
import type { Account, ChainState } from '../core/types.ts'
import { markLeaf } from '../state/state-root.ts'
import { crossMovable, positionMargin, unrealizedPnl } from './margin.ts'

export function updateIsolatedMargin(state: ChainState, account: Account, p: UpdateIsolatedMarginPayload, events: EventSink): Outcome {
  const market = state.markets.get(p.market_id)
  if (market === undefined) return reject('MarketNotFound', `market ${p.market_id} does not exist`)
  const amount = parseDecimal(p.amount, 6)
  if (!amount.ok) return reject('InvalidAmount', `amount ${amount.message}`)
  if (amount.value <= 0n) return reject('InvalidAmount', 'amount must be positive')
  const pos = account.positions.get(market.marketId)
  if (pos === undefined || pos.sizeLots === 0) return reject('NoOpenPosition', `no open ${market.symbol} position`)
  if (pos.marginMode !== 'Isolated') return reject('PositionNotIsolated', `the ${market.symbol} position is Cross`)
  if (p.direction === 'Add') {
    const movable = crossMovable(state, account)
    if (amount.value > movable) return reject('InsufficientMargin', `the cross part can spare ${movable} SCALE_6, not ${amount.value}`)
  } else {
    const upnl = unrealizedPnl(market, pos)
    const keep = positionMargin(market, pos) + (upnl < 0n ? -upnl : 0n)
    if (pos.isolatedMargin - amount.value < keep) {
      return reject(
        'InsufficientMargin',
        `the position must keep ${keep} SCALE_6 (initial margin plus unrealized loss); ` + `it holds ${pos.isolatedMargin}`,
      )
    }
  }
  // After this point the transfer must succeed.
  const delta = p.direction === 'Add' ? amount.value : -amount.value
  pos.isolatedMargin += delta
  account.balance -= delta
  markLeaf(state, pos)
  markLeaf(state, account)
  events.push({
    kind: 'Core',
    sub_kind: 'IsolatedMarginUpdated',
    market_id: market.marketId,
    account: account.address,
    direction: p.direction,
    amount: amount.value,
    cause: 'Request',
    isolated_margin: pos.isolatedMargin,
    balance: account.balance,
  })
  return { ok: true }
}
