// State-root leaves of the trigger area: `t:<id>` an active trigger, `oc:<id>` an open OCO pair,
// `tc` the two id counters. state-root.ts dispatches these tags here.
import { encodeCanonical } from '../../lib/msgpack.ts'
import type { ChainState } from '../core/types.ts'

/** A trigger's leaf key. */
export const triggerKey = (id: number): string => `t:${id}`

/** The leaf tags of this area. */
export const TRIGGER_LEAF_TAGS: ReadonlySet<string> = new Set(['t', 'oc', 'tc'])

/** The canonical bytes of a trigger-area leaf, or undefined when the object no longer exists. */
export function encodeTriggerLeaf(state: ChainState, tag: string, rest: string): Uint8Array | undefined {
  const ts = state.triggers
  switch (tag) {
    case 'tc':
      return encodeCanonical([ts.nextTriggerId, ts.nextPairId])
    case 't': {
      const t = ts.triggers.get(Number(rest))
      return (
        t &&
        encodeCanonical([
          t.marketId,
          t.owner,
          t.side,
          t.qtyLots,
          t.triggerTicks,
          t.direction,
          t.orderType,
          t.limitTicks,
          t.tif,
          t.reduceOnly,
          t.clientOrderId ?? null,
          t.expiresAtMs,
          t.txHash,
          t.placedHeight,
          t.pairId,
        ])
      )
    }
    case 'oc': {
      const p = ts.pairs.get(Number(rest))
      return (
        p &&
        encodeCanonical([
          p.marketId,
          p.owner,
          p.side,
          p.qtyLots,
          p.limitTicks,
          p.stop.triggerTicks,
          p.stop.direction,
          p.stop.orderType,
          p.stop.limitTicks,
          p.stop.expiresAtMs,
          p.reduceOnly,
          p.clientPairId,
          p.parentOrderId,
          p.txHash,
          p.placedHeight,
          p.limitOrderId,
          p.stopTriggerId,
        ])
      )
    }
    default:
      throw new Error(`unknown trigger leaf tag ${tag}`)
  }
}

/** Every trigger-area leaf key, for a from-scratch root. */
export function* triggerLeafKeys(state: ChainState): Generator<string> {
  yield state.triggers.counterLeaf.leafKey
  for (const t of state.triggers.triggers.values()) yield t.leafKey ?? triggerKey(t.id)
  for (const p of state.triggers.pairs.values()) yield p.leafKey
}
