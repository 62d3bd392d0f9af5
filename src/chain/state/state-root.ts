// The state root: every state object is a leaf (key -> canonical msgpack of its fields) of an
// incremental multiset hash (state-hash.ts). Mutations mark their leaf dirty; at the end of a block
// only dirty leaves are re-encoded, so the cost is proportional to what the block changed.
// fullStateRoot() recomputes everything from scratch so tests can prove no mutation forgot a mark.
//
// Marking is on the hot path of every order, so it neither builds key strings nor hashes them
// there: accounts, positions, markets and nonce windows are Leaf objects that carry their key
// (built once) and the block in which they were last marked, so a mark is a compare and, once per
// block, an array push. Orders are marked the same way, but an order's key is built at the end of
// the block and only when its leaf is set: an order that rests and goes within one block never needs
// one. Triggers are marked as orders are, for the same reason (no figure logged). The orders' leaves
// are the state hash's numbered leaves, found by order id (ids are unique across the markets): the
// hash keeps their digests compactly and neither it nor the order keeps the key string, which a
// million resting orders would otherwise hold a million of (docs/performance.md#memory).
import { encodeCanonical } from '../../lib/msgpack.ts'
import type { ChainState, Leaf, Order } from '../core/types.ts'
import { encodeFundsLeaf, FUNDS_LEAF_TAGS, fundsLeafKeys } from '../funds/funds-state.ts'
import { reservedMarginOf } from '../margin/reserved-margin.ts'
import { marketLeafExtension } from '../markets/market-leaf.ts'
import { encodeTriggerLeaf, TRIGGER_LEAF_TAGS, triggerKey, triggerLeafKeys } from '../triggers/trigger-leaves.ts'
import type { TriggerOrder } from '../triggers/trigger-types.ts'
import { StateHash, stateRootOf } from './state-hash.ts'

/** Records that the leaf `key` changed in this block. */
export function markDirty(state: ChainState, key: string): void {
  state.dirty.add(key)
}

/** Records that the leaf of a Leaf object changed in this block. */
export function markLeaf(state: ChainState, leaf: Leaf): void {
  if (leaf.dirtyIn === state.rootSeq) return
  leaf.dirtyIn = state.rootSeq
  state.dirtyLeaves.push(leaf)
}

/** Records that a resting order's leaf changed in this block (rested, filled or removed). */
export function markOrderDirty(state: ChainState, order: Order): void {
  if (order.dirtyIn === state.rootSeq) return
  order.dirtyIn = state.rootSeq
  state.dirtyOrders.push(order)
}

/** Records that a trigger's leaf changed in this block (placed, changed or removed). */
export function markTriggerDirty(state: ChainState, trigger: TriggerOrder): void {
  if (trigger.dirtyIn === state.rootSeq) return
  trigger.dirtyIn = state.rootSeq
  state.dirtyTriggers.push(trigger)
}

/** Leaf keys: `a:` accounts, `n:` nonce windows, `m:` markets, `o:` orders, `p:` positions (`x`: exchange, `g:` agents). */
export const accountKey = (address: string) => `a:${address}`
export const nonceKey = (signer: string) => `n:${signer}`
export const marketKey = (marketId: number) => `m:${marketId}`
export const orderKey = (marketId: number, orderId: number) => `o:${marketId}:${orderId}`
export const positionKey = (address: string, marketId: number) => `p:${address}:${marketId}`
/** `ms:` an account's margin setting (leverage, margin mode) in one market. */
export const marginSettingKey = (address: string, marketId: number) => `ms:${address}:${marketId}`

function encodeOrder(o: Order): Uint8Array {
  return encodeCanonical([
    o.marketId,
    o.owner,
    o.side,
    o.priceTicks,
    o.remainingLots,
    o.origLots,
    o.tif,
    o.reduceOnly,
    o.clientOrderId ?? null,
    o.marginLots,
    o.marginHeld.toString(),
    o.leverage,
    o.placedHeight,
    o.sourceTxHash,
    o.sourceTriggerId,
    o.expiresAtMs,
  ])
}

/** The canonical bytes of one leaf, or undefined when the object no longer exists. */
export function encodeLeaf(state: ChainState, key: string): Uint8Array | undefined {
  const colon = key.indexOf(':')
  const tag = colon < 0 ? key : key.slice(0, colon)
  const rest = colon < 0 ? '' : key.slice(colon + 1)
  switch (tag) {
    case 'x': {
      const p = state.params
      return encodeCanonical([
        state.nextOrderId,
        p.network,
        p.actionVersion,
        p.maxTxPerBlock,
        p.settlementPaused,
        p.globalRebateRatioBps,
        p.insuranceFund,
      ])
    }
    case 'a': {
      const a = state.accounts.get(rest)
      return a && encodeCanonical([a.balance.toString(), a.roleMask, reservedMarginOf(a).toString(), a.dmsDeadlineMs])
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
      return (
        pos &&
        encodeCanonical([
          pos.sizeLots,
          pos.costBasis.toString(),
          pos.leverage,
          pos.realizedPnl.toString(),
          pos.marginMode,
          pos.isolatedMargin.toString(),
        ])
      )
    }
    case 'ms': {
      const sep = rest.lastIndexOf(':')
      const ms = state.accounts.get(rest.slice(0, sep))?.settings.get(Number(rest.slice(sep + 1)))
      return ms && encodeCanonical([ms.leverage, ms.marginMode])
    }
    case 'o': {
      const sep = rest.indexOf(':')
      const o = state.books.get(Number(rest.slice(0, sep)))?.get(Number(rest.slice(sep + 1)))
      return o && encodeOrder(o)
    }
    case 'm': {
      const m = state.markets.get(Number(rest))
      return (
        m &&
        encodeCanonical([
          m.symbol,
          m.priceDecimals,
          m.sizeDecimals,
          m.makerFeeBps,
          m.takerFeeBps,
          m.maxLeverage,
          m.maintenanceMarginBps,
          m.liquidationPenaltyBps,
          m.feeRecipient,
          m.routing,
          m.minOrderLots,
          m.maxFillsPerQuote,
          m.lifecycle,
          m.emergencyHalt,
          m.haltReason,
          m.markTicks,
          m.lastTradeTicks,
          m.openInterestLots,
          marketLeafExtension(m),
        ])
      )
    }
    default:
      if (FUNDS_LEAF_TAGS.has(tag)) return encodeFundsLeaf(state, tag, rest)
      if (TRIGGER_LEAF_TAGS.has(tag)) return encodeTriggerLeaf(state, tag, rest)
      throw new Error(`unknown state leaf ${key}`)
  }
}

/**
 * Where a block's changed leaves go: the state's own hash (commitStateRoot), or a record of them
 * for a hash another thread holds (leaf-changes.ts; the node's state-root thread). StateHash is one.
 */
export interface LeafSink {
  set(key: string, value: Uint8Array): void
  delete(key: string): void
  setNumbered(id: number, key: string, value: Uint8Array): void
  deleteNumbered(id: number): void
}

function commitKey(state: ChainState, sink: LeafSink, key: string): void {
  const bytes = encodeLeaf(state, key)
  if (bytes === undefined) sink.delete(key)
  else sink.set(key, bytes)
}

/**
 * Hands the leaves the block changed to sink (their canonical bytes, or their removal) and clears
 * the marks: the block's part of the root, which sink folds in. Each dirty leaf is encoded once.
 */
export function foldDirtyLeaves(state: ChainState, sink: LeafSink): void {
  for (const key of state.dirty) commitKey(state, sink, key)
  state.dirty.clear()
  // By key, not by object: a position that went flat is gone from the state, and its leaf with it.
  for (const leaf of state.dirtyLeaves) commitKey(state, sink, leaf.leafKey)
  state.dirtyLeaves.length = 0
  for (const o of state.dirtyOrders) {
    if (state.books.get(o.marketId)?.get(o.id) === o) sink.setNumbered(o.id, orderKey(o.marketId, o.id), encodeOrder(o))
    // Gone from its book: a no-op when the order rested and left within this block (no leaf yet).
    else sink.deleteNumbered(o.id)
  }
  state.dirtyOrders.length = 0
  for (const t of state.dirtyTriggers) {
    if (state.triggers.triggers.get(t.id) === t) {
      t.leafKey ??= triggerKey(t.id)
      commitKey(state, sink, t.leafKey)
    } else if (t.leafKey !== undefined) {
      sink.delete(t.leafKey)
    }
    // Otherwise the trigger was placed and ended within this block: its leaf never entered the root.
  }
  state.dirtyTriggers.length = 0
  state.rootSeq++
}

/** Folds the dirty leaves into the incremental hash and returns the new root. */
export function commitStateRoot(state: ChainState): Uint8Array {
  foldDirtyLeaves(state, state.hash)
  return state.hash.root()
}

/** Every leaf key of the state, for a from-scratch root. */
export function* allLeafKeys(state: ChainState): Generator<string> {
  yield* unnumberedLeafKeys(state)
  for (const o of restingOrders(state)) yield orderKey(o.marketId, o.id)
}

/** The keys of every leaf but the orders' (the state hash's numbered leaves). */
function* unnumberedLeafKeys(state: ChainState): Generator<string> {
  yield 'x'
  for (const [addr, account] of state.accounts) {
    yield `a:${addr}`
    for (const mid of account.positions.keys()) yield `p:${addr}:${mid}`
    for (const mid of account.settings.keys()) yield marginSettingKey(addr, mid)
  }
  for (const addr of state.nonces.keys()) yield `n:${addr}`
  for (const addr of state.agents.keys()) yield `g:${addr}`
  for (const id of state.markets.keys()) yield `m:${id}`
  yield* fundsLeafKeys(state)
  yield* triggerLeafKeys(state)
}

function* restingOrders(state: ChainState): Generator<Order> {
  for (const book of state.books.values()) {
    yield* book.ordersOf('Bid', Number.MAX_SAFE_INTEGER)
    yield* book.ordersOf('Ask', Number.MAX_SAFE_INTEGER)
  }
}

/**
 * A StateHash of every leaf of the state, built from scratch: what a state restored from a snapshot
 * commits with (its root is then the full recomputation, so restoring it checks it too).
 */
export function rebuildStateHash(state: ChainState): StateHash {
  const hash = new StateHash()
  for (const key of unnumberedLeafKeys(state)) {
    const bytes = encodeLeaf(state, key)
    if (bytes !== undefined) hash.set(key, bytes)
  }
  for (const o of restingOrders(state)) hash.setNumbered(o.id, orderKey(o.marketId, o.id), encodeOrder(o))
  return hash
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
