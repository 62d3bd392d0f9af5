// apply(state, block) -> results, events, state_root. The only entry into the state machine: the
// producer calls it for new blocks and replay calls it for stored ones, so both reach the same root.
import { assert } from '../../lib/assert.ts'
import { ACTION_KINDS, type ActionKind, type ActionKindSpec } from '../../wire/actions.ts'
import { actorAuthorized, newAccount, resolveActor, useNonce } from '../access/accounts.ts'
import type { ActionContext, BlockContext, HandlerPayloads, HandlerTable, Outcome } from '../core/action-context.ts'
import type { ChainEvent } from '../core/events.ts'
import { reject } from '../core/reasons.ts'
import { type Account, type ChainState, ROLES, type RoleName } from '../core/types.ts'
import type { PlaceContext } from '../orders/order-types.ts'
import { commitStateRoot } from '../state/state-root.ts'
import { BEGIN_BLOCK_HOOKS, END_BLOCK_HOOKS } from './block-hooks.ts'
import type { BlockInput, BlockResult, EnvelopeInput, EnvelopeResult } from './block-types.ts'
import { HANDLERS } from './handlers.ts'
import { WARM_SPAN, warmEnvelopes } from './warm-envelopes.ts'

/**
 * Per event of a block, the index of the envelope that emitted it, or null for a block-level
 * event (begin and end hooks): read off the envelopes' event runs, so executing a block writes
 * nothing per event for it.
 */
export function eventEnvelopeIndexes(result: Pick<BlockResult, 'envelopes' | 'events'>): (number | null)[] {
  const out = new Array<number | null>(result.events.length).fill(null)
  const envelopes = result.envelopes
  for (let idx = 0; idx < envelopes.length; idx++) {
    const r = envelopes[idx]!
    out.fill(idx, r.firstEvent, r.firstEvent + r.eventCount)
  }
  return out
}

/** Applies a block to state (mutating it) and returns what happened and the new root. */
export function applyBlock(state: ChainState, block: BlockInput): BlockResult {
  const { envelopes, events } = executeBlock(state, block)
  return { envelopes, events, stateRoot: commitStateRoot(state) }
}

/**
 * applyBlock without the state-root commit: the block's envelopes and hooks are applied to state and
 * its leaves are left dirty (the state-root thread folds them elsewhere; benchmarks time the two apart).
 */
export function executeBlock(state: ChainState, block: BlockInput): Omit<BlockResult, 'stateRoot'> {
  const execution = new BlockExecution(state, block.height, block.timestampMs)
  execution.apply(block.envelopes)
  return execution.close()
}

/**
 * A block executed in steps: opened (its begin hooks run at its time), its envelopes applied as they
 * come, in order, then closed (its end hooks). The same steps as executeBlock, which is built on
 * them, so a block executed in steps reaches the same state, events and results as one executed at
 * once: the node applies each envelope as it is admitted, before the block's tick (chain-node.ts).
 * From open to close the state holds a block that is not finished: the caller keeps it from readers.
 */
export class BlockExecution {
  /** The block's events so far, in sequence order. */
  readonly events: ChainEvent[] = []
  /** The results of the envelopes applied so far. */
  readonly results: EnvelopeResult[] = []
  /** The block's room, fixed when it opens (an action in it may change the chain's limit for the next). */
  readonly maxEnvelopes: number
  private readonly sink: ChainEvent[] = []
  private readonly traded = new Set<number>()
  private readonly fillParties: (string | number)[] = []
  private readonly blockCtx: BlockContext
  private readonly ctx: EnvelopeContext
  private closed = false

  constructor(
    private readonly state: ChainState,
    readonly height: number,
    readonly timestampMs: number,
  ) {
    assert(height === state.height + 1, `block ${height} does not follow ${state.height}`)
    assert(timestampMs >= state.timestampMs, `block time ${timestampMs} goes back from ${state.timestampMs}`)
    this.maxEnvelopes = state.params.maxTxPerBlock
    state.height = height
    state.timestampMs = timestampMs
    this.blockCtx = {
      state,
      height,
      timestampMs,
      events: this.sink,
      traded: this.traded,
      blockEvents: this.events,
      blockFillParties: this.fillParties,
    }
    // One context for the block's envelopes: applyEnvelope sets the envelope's fields before each handler.
    // Handlers emit straight into the block's events (hooks use the sink: they read what they emit).
    const place: EnvelopePlaceContext = { height, timestampMs, txHash: '', sourceTriggerId: null }
    this.ctx = { state, signer: '', account: NO_ACCOUNT, agentRole: undefined, events: this.events, height, timestampMs, txHash: '', place }
    for (const hook of BEGIN_BLOCK_HOOKS) hook(this.blockCtx)
    this.flushBlockEvents()
  }

  /** Applies envelopes after those applied already, in order. */
  apply(envelopes: readonly EnvelopeInput[]): void {
    assert(!this.closed, 'envelopes applied to a closed block')
    if (this.results.length + envelopes.length > this.maxEnvelopes)
      assert(false, `block has ${this.results.length + envelopes.length} envelopes`)
    applyEnvelopes(this.state, envelopes, this.ctx, this.events, this.traded, this.fillParties, this.results)
  }

  /** Runs the end hooks: the block's envelopes and events are final. */
  close(): Omit<BlockResult, 'stateRoot'> {
    assert(!this.closed, 'a block closed twice')
    this.closed = true
    for (const hook of END_BLOCK_HOOKS) {
      hook(this.blockCtx)
      this.flushBlockEvents()
    }
    return { envelopes: this.results, events: this.events }
  }

  private flushBlockEvents(): void {
    const events = this.events
    const from = events.length
    for (const e of this.sink) events.push(e)
    this.sink.length = 0
    recordFills(events, from, this.traded, this.fillParties)
  }
}

/**
 * Applies envelopes in order, appending their events to events (and recording their fills), and
 * their results to results. The per-envelope loop has a function of its own, apart from the block's
 * once-per-block hooks, so that it is compiled apart from them (no figure logged).
 */
function applyEnvelopes(
  state: ChainState,
  envelopes: readonly EnvelopeInput[],
  ctx: EnvelopeContext,
  events: ChainEvent[],
  traded: Set<number>,
  fillParties: (string | number)[],
  results: EnvelopeResult[],
): void {
  warmEnvelopes(envelopes, 0)
  for (let idx = 0; idx < envelopes.length; idx++) {
    // Reads the envelopes after the next WARM_SPAN, so their misses overlap (warm-envelopes.ts).
    if (idx % WARM_SPAN === 0) warmEnvelopes(envelopes, idx + WARM_SPAN)
    const env = envelopes[idx]!
    // Read where every envelope passes, not on the rejection path alone (with the flattened envelopes: median 1.08M -> 1.12M ops/s).
    const signer = env.signer
    const kind = env.kind ?? actionKindOf(env.action)
    const payload = admittedPayload(env, kind)
    const fields: Readonly<Record<string, unknown>> = payload
    const marketId = typeof fields.market_id === 'number' ? fields.market_id : null
    const firstEvent = events.length
    const outcome = applyEnvelope(state, env, signer, kind, payload, ctx)
    if (!outcome.ok) {
      // A rejected envelope changed nothing: its one event is the rejection.
      events.length = firstEvent
      events.push({
        kind: 'Core',
        sub_kind: 'Rejected',
        market_id: marketId,
        account: signer,
        action_kind: kind,
        reason: outcome.reason,
        message: outcome.message,
      })
    }
    recordFills(events, firstEvent, traded, fillParties)
    // The reason is allocated before the result, so the result's stores need no write barrier (no figure logged).
    const reason = outcome.ok ? null : { code: outcome.reason, message: outcome.message }
    results.push({
      status: outcome.ok ? 'accepted' : 'kept-reject',
      reason,
      actionKind: kind,
      marketId,
      firstEvent,
      eventCount: events.length - firstEvent,
    })
  }
}

/** Records the fills among events[from..]: their markets traded, their parties for the end hooks (BlockContext). */
function recordFills(events: readonly ChainEvent[], from: number, traded: Set<number>, fillParties: (string | number)[]): void {
  for (let i = from; i < events.length; i++) {
    const e = events[i]!
    if (e.sub_kind === 'Filled') {
      traded.add(e.market_id)
      fillParties.push(e.taker, e.maker, e.market_id)
    }
  }
}

/** The action's kind: its one own key. */
function actionKindOf(action: Record<string, unknown>): string {
  // for-in rather than Object.keys: no array per envelope. Own keys only, as Object.keys.
  let kind: string | undefined
  let keys = 0
  for (const key in action) {
    if (!Object.hasOwn(action, key)) continue
    kind = key
    keys++
  }
  if (keys !== 1) assert(false, 'an action has exactly one key')
  return kind!
}

/** A payload of some action kind, as its handler takes it. */
type AdmittedPayload = HandlerPayloads[ActionKind]

/**
 * The envelope's payload: the one the edge prepared, or the signed action's. Typed here, not checked:
 * admission checked it against its kind's schema (src/node/admission.ts) and the edge added only
 * packed decimals (HandlerPayloads), and a replayed block's envelopes were admitted so. The chain's
 * one step from the wire's untyped action to a typed payload; runHandler hands it to its kind's handler.
 */
function admittedPayload(env: EnvelopeInput, kind: string): AdmittedPayload {
  return (env.payload ?? env.action[kind]) as AdmittedPayload
}

/** Runs a kind's handler on its payload (generic in the kind, so the two are typed alike). */
function runHandler<K extends ActionKind>(handler: HandlerTable[K], ctx: ActionContext, payload: HandlerPayloads[K]): Outcome {
  return handler(ctx, payload)
}

/** An action kind's registry entry and handler, found with one lookup per envelope. */
interface Dispatch {
  readonly kind: ActionKindSpec
  readonly handler: HandlerTable[ActionKind]
  /** The role mask bit the kind requires of an account acting for itself (ROLES), 0 for none. */
  readonly roleBit: number
}

const DISPATCH: ReadonlyMap<string, Dispatch> = new Map(
  ACTION_KINDS.map(
    (kind) => [kind.name, { kind, handler: HANDLERS[kind.name], roleBit: kind.role === null ? 0 : ROLES[kind.role] }] as const,
  ),
)

/** The envelope context's account until applyEnvelope sets the first envelope's: none in the state. */
const NO_ACCOUNT: Account = newAccount('', 0n, 0)

/** The PlaceContext of the block's envelopes, its tx hash set per envelope. */
type EnvelopePlaceContext = { -readonly [K in keyof PlaceContext]: PlaceContext[K] }
/** An ActionContext whose fields are set per envelope (handlers never keep their context). */
type EnvelopeContext = { -readonly [K in Exclude<keyof ActionContext, 'place'>]: ActionContext[K] } & {
  readonly place: EnvelopePlaceContext
}

/** Authorizes, consumes the nonce, and runs one action. A rejection still consumes the nonce.
 * The signer is env.signer, read by the caller on the path every envelope takes. */
function applyEnvelope(
  state: ChainState,
  env: EnvelopeInput,
  signer: string,
  kindName: string,
  payload: AdmittedPayload,
  ctx: EnvelopeContext,
): Outcome {
  const dispatch = DISPATCH.get(kindName)
  // Messages are built only on failure: this runs for every envelope.
  if (dispatch === undefined) assert(false, `unknown action kind ${kindName} reached the chain`)
  const { kind, handler, roleBit } = dispatch
  useNonce(state, signer, env.nonce)
  // The common signer is an account acting for itself (resolveActor's first case, without the Actor object).
  let account = state.accounts.get(signer)
  let agentRole: RoleName | undefined
  if (account !== undefined) {
    // hasRole with the kind's bit looked up once, not per envelope.
    if ((account.roleMask & roleBit) !== roleBit) return reject('Unauthorized', `${signer} may not ${kindName}`)
  } else {
    const actor = resolveActor(state, signer)
    if (actor === undefined) return reject('Unauthorized', `${signer} is neither an account nor an agent`)
    if (!actorAuthorized(actor, kind.auth, kind.role)) return reject('Unauthorized', `${signer} may not ${kindName}`)
    account = actor.account
    agentRole = actor.agentRole
  }
  ctx.signer = signer
  ctx.account = account
  ctx.agentRole = agentRole
  ctx.txHash = env.txHash
  ctx.place.txHash = env.txHash
  return runHandler(handler, ctx, payload)
}
