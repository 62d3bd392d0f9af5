// What an action handler and a block hook receive. Handlers return an Outcome: a rejection is a
// value (the envelope becomes a kept-reject and nothing it touched may have changed).
import type { ActionKind, ActionPayload, ModifyPayload, PlaceOrderPayload, PlaceTriggerOrderPayload } from '../../wire/actions.ts'
import type { PlaceContext } from '../orders/order-types.ts'
import type { ChainEvent, EventSink } from './events.ts'
import type { Rejection } from './reasons.ts'
import type { Account, ChainState, RoleName } from './types.ts'

export interface ActionContext {
  readonly state: ChainState
  /** The recovered signer: the account itself or one of its agents. */
  readonly signer: string
  /** The account the action acts for (the agent's master when an agent signed). */
  readonly account: Account
  /** The agent's role when an agent signed, else undefined. */
  readonly agentRole: RoleName | undefined
  readonly events: EventSink
  readonly height: number
  readonly timestampMs: number
  readonly txHash: string
  /** Where the orders this envelope places come from: its block and tx hash, no source trigger
   * (one object per block, its tx hash set per envelope). */
  readonly place: PlaceContext
}

export type Outcome = { readonly ok: true } | Rejection

/**
 * The decimals the node's edge packs beside the strings of a PlaceOrder (and of each BatchPlaceOrder
 * item), and of a BatchModify item for the fields it has (lib/decimal.ts packDecimal; the edge:
 * src/node/edge-envelope.ts). Absent when no edge prepared the envelope (tests, tools): the chain
 * then packs the strings itself, with the same outcome.
 */
export type EdgeOrderDecimals = {
  readonly edge_price?: number | undefined
  readonly edge_qty?: number | undefined
}

/** The decimals the edge packs beside the strings of a PlaceTriggerOrder. */
export type EdgeTriggerDecimals = {
  readonly edge_trigger_price?: number | undefined
  readonly edge_limit_price?: number | undefined
  readonly edge_qty?: number | undefined
}

/** A PlaceOrder (or BatchPlaceOrder item) as the chain takes it: its schema's fields, and the packed decimals. */
export type PlaceOrderInput = PlaceOrderPayload & EdgeOrderDecimals
/** A BatchModify item as the chain takes it. */
export type ModifyInput = ModifyPayload & EdgeOrderDecimals
/** A PlaceTriggerOrder as the chain takes it. */
export type PlaceTriggerOrderInput = PlaceTriggerOrderPayload & EdgeTriggerDecimals

/** The kinds whose payloads the edge gives packed decimals, as their handlers take them. */
type EdgeInputs = {
  readonly PlaceOrder: PlaceOrderInput
  readonly BatchPlaceOrder: { readonly orders: readonly PlaceOrderInput[] }
  readonly BatchModify: { readonly modifies: readonly ModifyInput[] }
  readonly PlaceTriggerOrder: PlaceTriggerOrderInput
}

/**
 * The payload each kind's handler takes: what passed the kind's schema at admission (ActionPayload),
 * with the packed decimals beside the strings for the kinds the edge packs (EdgeInputs).
 */
export type HandlerPayloads = {
  readonly [K in ActionKind]: K extends keyof EdgeInputs ? EdgeInputs[K] : ActionPayload<K>
}

/** A handler of a kind whose payloads are P. */
export type ActionHandler<P> = (ctx: ActionContext, payload: P) => Outcome

/** The handlers of the kinds K, each typed by the payload it takes. */
export type HandlersOf<K extends ActionKind> = { readonly [Kind in K]: ActionHandler<HandlerPayloads[Kind]> }

/** The chain's handler table: a handler for every kind of the registry (block/handlers.ts). */
export type HandlerTable = HandlersOf<ActionKind>

/** The handlers of an area: one for each kind of the area's registry array (src/wire/actions/<area>.ts), and no other. */
export type AreaHandlers<Area extends readonly { readonly name: ActionKind }[]> = HandlersOf<Area[number]['name']>

/** Block-level work (expiry, triggers, marks, staleness): its events have no envelope. */
export interface BlockContext {
  readonly state: ChainState
  readonly height: number
  readonly timestampMs: number
  readonly events: EventSink
  /** Markets that had fills in this block. */
  readonly traded: Set<number>
  /** The block's events so far (begin hooks, envelopes, earlier end hooks), in sequence order;
   * hooks that react to order lifecycle read them instead of hooking the matching path. */
  readonly blockEvents: readonly ChainEvent[]
  /** The parties of the Filled events among blockEvents, in the same order, three entries per fill:
   * taker, maker, market id. Hooks that react to fills alone read these instead of the events:
   * taken while each event was fresh, they are one dense array, where going back to the block's
   * fills at its end read one cold object per fill (no figure logged). */
  readonly blockFillParties: readonly (string | number)[]
}

export type BlockHook = (ctx: BlockContext) => void

export const OK: Outcome = Object.freeze({ ok: true as const })
