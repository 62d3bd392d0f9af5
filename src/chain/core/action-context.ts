// What an action handler and a block hook receive. Handlers return an Outcome: a rejection is a
// value (the envelope becomes a kept-reject and nothing it touched may have changed).
import type { ChainEvent, EventSink } from './events.ts'
import type { Rejection } from './reasons.ts'
import type { PlaceContext } from '../orders/order-types.ts'
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
  /** Where the orders this envelope places come from: its block and tx hash, no source trigger.
   * One object per block in the four-field shape every PlaceContext is built in (fired triggers,
   * OCO legs), so placing an order reads one shape of context whatever placed it: reads that met a
   * fired trigger's context only mid-block each cost placeOrder its optimized code. */
  readonly place: PlaceContext
}

export type Outcome = { readonly ok: true } | Rejection

/** A handler takes a payload that passed its kind's schema (at admission, and so in every block). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ActionHandler = (ctx: ActionContext, payload: any) => Outcome
export type HandlerMap = Readonly<Record<string, ActionHandler>>

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
   * fills at its end read one cold object per fill. */
  readonly blockFillParties: readonly (string | number)[]
}

export type BlockHook = (ctx: BlockContext) => void

export const OK: Outcome = Object.freeze({ ok: true as const })
