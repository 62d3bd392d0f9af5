// Inserting, changing and removing triggers and OCO pairs with every index that mirrors them, and
// marking their leaves. The only code that touches TriggerState's maps and ladders.
import { assert } from '../../lib/assert.ts'
import type { ChainState } from '../core/types.ts'
import { ClientIdIndex, clientIdHash } from '../orders/client-ids.ts'
import { markLeaf, markTriggerDirty } from '../state/state-root.ts'
import { TriggerLadder } from './trigger-ladder.ts'
import {
  type AccountTriggers,
  aboveKey,
  belowKey,
  type MarketTriggers,
  type OcoPair,
  type TriggerOrder,
  type TriggerState,
} from './trigger-types.ts'

export const pairKey = (id: number) => `oc:${id}`

/** Takes the next trigger id. */
export function takeTriggerId(state: ChainState): number {
  markLeaf(state, state.triggers.counterLeaf)
  return state.triggers.nextTriggerId++
}

/** Takes the next OCO pair id. */
export function takePairId(state: ChainState): number {
  markLeaf(state, state.triggers.counterLeaf)
  return state.triggers.nextPairId++
}

export function marketTriggers(ts: TriggerState, marketId: number): MarketTriggers {
  let mt = ts.markets.get(marketId)
  if (mt === undefined) {
    mt = { above: new TriggerLadder(aboveKey), below: new TriggerLadder(belowKey), pairs: new Map() }
    ts.markets.set(marketId, mt)
  }
  return mt
}

export function accountTriggers(ts: TriggerState, owner: string): AccountTriggers {
  let at = ts.accounts.get(owner)
  if (at === undefined) {
    at = {
      triggers: new Map(),
      reduceOnly: new Map(),
      triggersByClientId: new ClientIdIndex(),
      pairs: new Map(),
      pairsByClientId: new Map(),
    }
    ts.accounts.set(owner, at)
  }
  return at
}

/** Drops an account's index once it holds nothing (it is rebuilt on demand). */
function releaseAccount(ts: TriggerState, owner: string, at: AccountTriggers): void {
  if (at.triggers.size === 0 && at.pairs.size === 0) ts.accounts.delete(owner)
}

const ladderOf = (mt: MarketTriggers, t: TriggerOrder) => (t.direction === 'Above' ? mt.above : mt.below)

/** Adds a new trigger to the state and its indexes. */
export function insertTrigger(state: ChainState, t: TriggerOrder): void {
  const ts = state.triggers
  if (ts.triggers.has(t.id)) assert(false, `trigger ${t.id} exists`)
  ts.triggers.set(t.id, t)
  ladderOf(marketTriggers(ts, t.marketId), t).insert(t)
  if (t.expiresAtMs !== null) ts.expiry.insert(t)
  const at = accountTriggers(ts, t.owner)
  at.triggers.set(t.id, t)
  if (t.clientOrderId !== undefined) at.triggersByClientId.setIn(t.marketId, t.clientOrderId, t.id, t.clientIdHash)
  if (t.reduceOnly) {
    at.reduceOnly.set(t.id, t)
    ts.reduceOnlyCount++
  }
  markTriggerDirty(state, t)
}

/** Removes an active trigger from the state and its indexes (its pair, if any, is the caller's). */
export function removeTrigger(state: ChainState, t: TriggerOrder): void {
  const ts = state.triggers
  if (ts.triggers.get(t.id) !== t) assert(false, `trigger ${t.id} is not active`)
  ts.triggers.delete(t.id)
  if (!ladderOf(ts.markets.get(t.marketId)!, t).remove(t)) assert(false, `trigger ${t.id} missing from its ladder`)
  if (t.expiresAtMs !== null && !ts.expiry.remove(t)) assert(false, `trigger ${t.id} missing from the expiry ladder`)
  const at = ts.accounts.get(t.owner)!
  at.triggers.delete(t.id)
  if (t.clientOrderId !== undefined) at.triggersByClientId.deleteId(t.marketId, t.clientIdHash, t.id)
  if (t.reduceOnly) {
    at.reduceOnly.delete(t.id)
    ts.reduceOnlyCount--
  }
  releaseAccount(ts, t.owner, at)
  markTriggerDirty(state, t)
}

/** The amendable fields of a trigger; undefined leaves a field as it is. */
export interface TriggerChange {
  readonly triggerTicks?: number | undefined
  readonly qtyLots?: number | undefined
  readonly limitTicks?: number | undefined
  readonly tif?: TriggerOrder['tif'] | undefined
  readonly expiresAtMs?: number | null | undefined
}

/** Changes an active trigger, re-filing it in the ladders its keys put it in. */
export function changeTrigger(state: ChainState, t: TriggerOrder, c: TriggerChange): void {
  const ts = state.triggers
  const ladder = ladderOf(ts.markets.get(t.marketId)!, t)
  if (!ladder.remove(t)) assert(false, `trigger ${t.id} missing from its ladder`)
  if (t.expiresAtMs !== null && !ts.expiry.remove(t)) assert(false, `trigger ${t.id} missing from the expiry ladder`)
  if (c.triggerTicks !== undefined) t.triggerTicks = c.triggerTicks
  if (c.qtyLots !== undefined) t.qtyLots = c.qtyLots
  if (c.limitTicks !== undefined) t.limitTicks = c.limitTicks
  if (c.tif !== undefined) t.tif = c.tif
  if (c.expiresAtMs !== undefined) t.expiresAtMs = c.expiresAtMs
  ladder.insert(t)
  if (t.expiresAtMs !== null) ts.expiry.insert(t)
  markTriggerDirty(state, t)
}

/** Adds a new pair; the order ids it watches (limit leg or parent) go into pairByOrder. */
export function insertPair(state: ChainState, p: OcoPair): void {
  const ts = state.triggers
  if (ts.pairs.has(p.id)) assert(false, `pair ${p.id} exists`)
  ts.pairs.set(p.id, p)
  marketTriggers(ts, p.marketId).pairs.set(p.id, p)
  const at = accountTriggers(ts, p.owner)
  at.pairs.set(p.id, p)
  at.pairsByClientId.set(p.clientPairId, p.id)
  watchPairOrders(ts, p)
  markLeaf(state, p)
}

/** Indexes the order the pair waits on: its limit leg once armed, else its parent. */
function watchPairOrders(ts: TriggerState, p: OcoPair): void {
  const watched = p.limitOrderId ?? p.parentOrderId
  if (watched !== null) ts.pairByOrder.set(watched, p.id)
}

/** Records a bracket's legs once its parent filled: it now watches the limit leg instead. */
export function armPairLegs(state: ChainState, p: OcoPair, limitOrderId: number, stopTriggerId: number): void {
  const ts = state.triggers
  if (p.parentOrderId !== null) ts.pairByOrder.delete(p.parentOrderId)
  p.limitOrderId = limitOrderId
  p.stopTriggerId = stopTriggerId
  watchPairOrders(ts, p)
  markLeaf(state, p)
}

/** Removes a pair and what indexes it (its legs are the caller's). */
export function removePair(state: ChainState, p: OcoPair): void {
  const ts = state.triggers
  if (ts.pairs.get(p.id) !== p) assert(false, `pair ${p.id} is not open`)
  ts.pairs.delete(p.id)
  ts.markets.get(p.marketId)!.pairs.delete(p.id)
  if (p.limitOrderId !== null) ts.pairByOrder.delete(p.limitOrderId)
  if (p.parentOrderId !== null) ts.pairByOrder.delete(p.parentOrderId)
  const at = ts.accounts.get(p.owner)!
  at.pairs.delete(p.id)
  at.pairsByClientId.delete(p.clientPairId)
  releaseAccount(ts, p.owner, at)
  markLeaf(state, p)
}

/** A trigger's fields as its creator gives them; the id and leaf bookkeeping are added here. */
export type TriggerFields = Omit<TriggerOrder, 'id' | 'clientIdHash' | 'leafKey' | 'dirtyIn'>

/** Creates and inserts a trigger under the next trigger id. */
export function createTrigger(state: ChainState, fields: TriggerFields): TriggerOrder {
  const id = takeTriggerId(state)
  // Field by field, in TriggerFields' order (object spread is slow on this path; no figure logged).
  const t: TriggerOrder = {
    owner: fields.owner,
    marketId: fields.marketId,
    side: fields.side,
    qtyLots: fields.qtyLots,
    triggerTicks: fields.triggerTicks,
    direction: fields.direction,
    orderType: fields.orderType,
    limitTicks: fields.limitTicks,
    tif: fields.tif,
    reduceOnly: fields.reduceOnly,
    clientOrderId: fields.clientOrderId,
    clientIdHash: fields.clientOrderId === undefined ? 0 : clientIdHash(fields.marketId, fields.clientOrderId),
    expiresAtMs: fields.expiresAtMs,
    txHash: fields.txHash,
    placedHeight: fields.placedHeight,
    pairId: fields.pairId,
    id,
    leafKey: undefined,
    dirtyIn: -1,
  }
  insertTrigger(state, t)
  return t
}

/** An OCO pair's fields as its creator gives them. */
export type PairFields = Omit<OcoPair, 'id' | 'leafKey' | 'dirtyIn'>

/** Creates and inserts a pair under the next pair id. */
export function createPair(state: ChainState, fields: PairFields): OcoPair {
  const id = takePairId(state)
  const p: OcoPair = { ...fields, id, leafKey: pairKey(id), dirtyIn: -1 }
  insertPair(state, p)
  return p
}
