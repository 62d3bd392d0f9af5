// The state root: every state object is a leaf (key -> canonical msgpack of its fields) of an
// incremental multiset hash (state-hash.ts). Mutations mark their leaf dirty; at the end of a block
// only dirty leaves are re-encoded, so the cost is proportional to what the block changed.
// fullStateRoot() recomputes everything from scratch so tests can prove no mutation forgot a mark.
import { encodeCanonical } from '../lib/msgpack.ts'
import { stateRootOf } from './state-hash.ts'
import type { ChainState } from './types.ts'

/** Records that the leaf `key` changed in this block. */
export function markDirty(state: ChainState, key: string): void {
  state.dirty.add(key)
}

export const orderKey = (marketId: number, orderId: number) => `o:${marketId}:${orderId}`
export const positionKey = (address: string, marketId: number) => `p:${address}:${marketId}`

/** The canonical bytes of one leaf, or undefined when the object no longer exists. */
export function encodeLeaf(state: ChainState, key: string): Uint8Array | undefined {
  const colon = key.indexOf(':')
  const tag = colon < 0 ? key : key.slice(0, colon)
  const rest = colon < 0 ? '' : key.slice(colon + 1)
  switch (tag) {
    case 'x': {
      const p = state.params
      return encodeCanonical([state.nextOrderId, p.network, p.actionVersion, p.maxTxPerBlock, p.settlementPaused, p.globalRebateRatioBps])
    }
    case 'a': {
      const a = state.accounts.get(rest)
      return a && encodeCanonical([a.balance.toString(), a.roleMask, a.reservedMargin.toString()])
    }
    case 'n': {
      const n = state.nonces.get(rest)
      return n && encodeCanonical([n.floor, [...n.used].sort((x, y) => x - y)])
    }
    case 'g': {
      const g = state.agents.get(rest)
      return g && encodeCanonical([g.master, g.role, g.name])
    }
    case 'p': {
      const sep = rest.lastIndexOf(':')
      const pos = state.accounts.get(rest.slice(0, sep))?.positions.get(Number(rest.slice(sep + 1)))
      return pos && encodeCanonical([pos.sizeLots, pos.costBasis.toString(), pos.leverage, pos.realizedPnl.toString()])
    }
    case 'o': {
      const sep = rest.indexOf(':')
      const o = state.books.get(Number(rest.slice(0, sep)))?.get(Number(rest.slice(sep + 1)))
      return o && encodeCanonical([
        o.marketId, o.owner, o.side, o.priceTicks, o.remainingLots, o.origLots, o.tif, o.reduceOnly,
        o.clientOrderId ?? null, o.marginLots, o.marginHeld.toString(), o.leverage, o.placedHeight,
      ])
    }
    case 'm': {
      const m = state.markets.get(Number(rest))
      return m && encodeCanonical([
        m.symbol, m.priceDecimals, m.sizeDecimals, m.makerFeeBps, m.takerFeeBps, m.maxLeverage,
        m.maintenanceMarginBps, m.feeRecipient, m.routing, m.minOrderLots, m.maxFillsPerQuote,
        m.lifecycle, m.emergencyHalt, m.haltReason, m.markTicks, m.lastTradeTicks, m.openInterestLots,
      ])
    }
    default:
      throw new Error(`unknown state leaf ${key}`)
  }
}

/** Folds the dirty leaves into the incremental hash and returns the new root. */
export function commitStateRoot(state: ChainState): Uint8Array {
  for (const key of state.dirty) {
    const bytes = encodeLeaf(state, key)
    if (bytes === undefined) state.hash.delete(key)
    else state.hash.set(key, bytes)
  }
  state.dirty.clear()
  return state.hash.root()
}

/** Every leaf key of the state, for a from-scratch root. */
export function* allLeafKeys(state: ChainState): Generator<string> {
  yield 'x'
  for (const [addr, account] of state.accounts) {
    yield `a:${addr}`
    for (const mid of account.positions.keys()) yield `p:${addr}:${mid}`
  }
  for (const addr of state.nonces.keys()) yield `n:${addr}`
  for (const addr of state.agents.keys()) yield `g:${addr}`
  for (const id of state.markets.keys()) yield `m:${id}`
  for (const [mid, book] of state.books) {
    for (const o of book.ordersOf('Bid', Number.MAX_SAFE_INTEGER)) yield orderKey(mid, o.id)
    for (const o of book.ordersOf('Ask', Number.MAX_SAFE_INTEGER)) yield orderKey(mid, o.id)
  }
}

/** The root recomputed from every object in the state (tests and replay audits). */
export function fullStateRoot(state: ChainState): Uint8Array {
  const entries: [string, Uint8Array][] = []
  for (const key of allLeafKeys(state)) {
    const bytes = encodeLeaf(state, key)
    if (bytes !== undefined) entries.push([key, bytes])
  }
  return stateRootOf(entries)
}
