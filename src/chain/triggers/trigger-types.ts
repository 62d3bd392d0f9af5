// The data model of trigger orders and OCO pairs (docs/orders.md#trigger-orders,
// docs/orders.md#oco-pairs-and-brackets). Triggers and pairs are state: each is a leaf of the state
// root (trigger-leaves.ts); the indexes beside them (ladders by trigger price, the expiry ladder,
// per-account and per-order maps) are derived from the same history and hold nothing the leaves do
// not.

import type { Side } from '../book/book.ts'
import type { Leaf } from '../core/leaf.ts'
import type { ClientIdIndex } from '../orders/client-ids.ts'
import type { Tif } from '../orders/order-types.ts'
import { TriggerLadder } from './trigger-ladder.ts'

export type TriggerDirection = 'Above' | 'Below'
/** `market`: an IOC sweep at a protective limit around the mark; `limit`: an order at limit_price. */
export type TriggerOrderType = 'market' | 'limit'

/** Why an active trigger was cancelled (docs/orders.md#trigger-orders). */
export type TriggerCancelReason = 'ByOwner' | 'OnFailure' | 'MarketDelisted' | 'OcoSibling'
/** Why an OCO pair closed (docs/orders.md#oco-pairs-and-brackets). */
export type OcoResolveReason = 'OrderResolved' | 'TriggerFired' | 'ManualCancel' | 'PairCancelled' | 'TriggerExpired'

/** Limits of the trigger area; every loop over triggers or pairs is bounded by one of these. */
export const TRIGGER_LIMITS = {
  /** Active triggers one account may keep across markets (stop legs of OCO pairs included). */
  triggersPerAccountMax: 200,
  /** Open OCO pairs (armed or waiting for their parent) one account may keep. */
  ocoPairsPerAccountMax: 100,
  /** Triggers fired at the end of one block; the rest fire at the end of the next. */
  triggersFiredPerBlockMax: 1_000,
  /** Triggers removed as expired at the start of one block; the rest go at the next. */
  triggersExpiredPerBlockMax: 1_000,
  /**
   * A `market` trigger fires as an IOC at the mark moved this far against the trader (bps), so a
   * thin book cannot fill it at any price: Bid limit = floor(mark x 1.1), Ask limit = ceil(mark x 0.9).
   */
  marketSlippageBps: 1_000,
} as const

/** An active trigger order. Its leaf is `t:<id>`. */
export interface TriggerOrder {
  readonly id: number
  readonly owner: string
  readonly marketId: number
  readonly side: Side
  qtyLots: number
  triggerTicks: number
  readonly direction: TriggerDirection
  readonly orderType: TriggerOrderType
  /** The limit price of a `limit` trigger; null for `market`. */
  limitTicks: number | null
  /** Time in force of the promoted order (`Ioc` for a `market` trigger). */
  tif: Tif
  readonly reduceOnly: boolean
  readonly clientOrderId: string | undefined
  /** Derived (not in the root): clientIdHash(marketId, clientOrderId), 0 without a client id, so
   * that the trigger leaves the client-id index without hashing a string gone cold (Order.clientIdHash). */
  readonly clientIdHash: number
  /** Block time at or after which the trigger expires; null: never. */
  expiresAtMs: number | null
  /** The envelope that placed it; the promoted order's Filled events carry it as source tx hash. */
  readonly txHash: string
  readonly placedHeight: number
  /** The OCO pair whose stop leg this is, or null. */
  readonly pairId: number | null
  /** The leaf key, built when the trigger's leaf first enters the root (state-root.ts): most
   * triggers are placed and cancelled within one block and never need one. */
  leafKey: string | undefined
  /** ChainState.rootSeq of the block in which it was last marked dirty (-1: never). */
  dirtyIn: number
}

/** The stop leg of an OCO pair as placed (it becomes a trigger when the pair is armed). */
export interface StopSpec {
  readonly triggerTicks: number
  readonly direction: TriggerDirection
  readonly orderType: TriggerOrderType
  readonly limitTicks: number | null
  readonly expiresAtMs: number | null
}

/**
 * An open OCO pair: a resting limit leg and a stop leg (a trigger). A bracket (parentOrderId set)
 * waits with both legs null until its parent order fully fills. Its leaf is `oc:<id>`.
 */
export interface OcoPair extends Leaf {
  readonly id: number
  readonly owner: string
  readonly marketId: number
  readonly side: Side
  readonly qtyLots: number
  readonly limitTicks: number
  readonly stop: StopSpec
  readonly reduceOnly: boolean
  readonly clientPairId: number
  readonly parentOrderId: number | null
  readonly txHash: string
  readonly placedHeight: number
  /** The resting limit leg's order id; null while a bracket waits for its parent. */
  limitOrderId: number | null
  /** The stop leg's trigger id; null while a bracket waits for its parent. */
  stopTriggerId: number | null
}

/** The triggers of one market, in the order they fire: the next to fire is at each ladder's end. */
export interface MarketTriggers {
  /** `Above` triggers: fire when mark >= trigger price, lowest trigger price last. */
  readonly above: TriggerLadder<TriggerOrder>
  /** `Below` triggers: fire when mark <= trigger price, highest trigger price last. */
  readonly below: TriggerLadder<TriggerOrder>
  /** Open pairs in the market (armed or waiting), for cancelling them all with the market. */
  readonly pairs: Map<number, OcoPair>
}

/** One account's triggers and pairs, with their client-id indexes. */
export interface AccountTriggers {
  readonly triggers: Map<number, TriggerOrder>
  /** The reduce-only ones among triggers (a subset, for the end-of-block reduce-only cleanup). */
  readonly reduceOnly: Map<number, TriggerOrder>
  /** client_order_id -> trigger id per market, among active triggers (client-ids.ts). */
  readonly triggersByClientId: ClientIdIndex
  readonly pairs: Map<number, OcoPair>
  /** client_pair_id -> pair id, among open pairs. */
  readonly pairsByClientId: Map<number, number>
}

export interface TriggerState {
  nextTriggerId: number
  nextPairId: number
  /** The leaf `tc` of the two id counters. */
  readonly counterLeaf: Leaf
  readonly triggers: Map<number, TriggerOrder>
  readonly pairs: Map<number, OcoPair>
  readonly markets: Map<number, MarketTriggers>
  readonly accounts: Map<string, AccountTriggers>
  /** Order id -> pair id, for limit legs and bracket parents: the orders whose end matters here. */
  readonly pairByOrder: Map<number, number>
  /** Triggers with an expiry, the earliest last. */
  readonly expiry: TriggerLadder<TriggerOrder>
  /** Active reduce-only triggers: while 0, no fill needs a look for a vanished position. */
  reduceOnlyCount: number
}

/** Ladder keys: ascending key order puts the next to fire (or expire) at the end. */
export const aboveKey = (t: TriggerOrder): number => -t.triggerTicks
export const belowKey = (t: TriggerOrder): number => t.triggerTicks
export const expiryKey = (t: TriggerOrder): number => -(t.expiresAtMs ?? 0)

/** The empty trigger state of genesis. */
export function newTriggerState(): TriggerState {
  return {
    nextTriggerId: 1,
    nextPairId: 1,
    counterLeaf: { leafKey: 'tc', dirtyIn: -1 },
    triggers: new Map(),
    pairs: new Map(),
    markets: new Map(),
    accounts: new Map(),
    pairByOrder: new Map(),
    expiry: new TriggerLadder(expiryKey),
    reduceOnlyCount: 0,
  }
}
