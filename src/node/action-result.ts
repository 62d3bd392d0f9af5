// The result of /action (docs/protocol.md#replies): an envelope that reached a block, or a refusal
// before one.
import type { EventBody } from '../wire/events/index.ts'
import type { StoredEvent } from '../wire/stored-block.ts'
import type { ActionReply, EventView } from '../wire/views.ts'
import { eventView, eventViewsJson, type SymbolOf } from './views.ts'

export type ActionResult = ActionReply | { status: 'refused'; error: { code: number; message: string; data?: unknown } }

/**
 * The JSON text of an accepted result, kept on it by the block producer (ChainNode.reply) under a
 * symbol key, which JSON.stringify skips. It is built from the events' stored JSON (eventViewsJson)
 * instead of serializing every body a second time: a 50-order batch's reply is about 36 KB, and
 * building the reply frames was a sixth of the block thread's time in a profile of the batch
 * benchmark.
 */
const RESULT_JSON: unique symbol = Symbol('perpd.action-result-json')

type WithJson = { [RESULT_JSON]?: string }

/** JSON.stringify(result), from the text the node kept when there is one. */
export function actionResultJson(result: unknown): string {
  return (result as WithJson | null)?.[RESULT_JSON] ?? JSON.stringify(result)
}

/**
 * The accepted result of the envelope at (height, envelopeIdx) that raised `events` (bodies[seq]:
 * each event's body object), with its JSON text kept for actionResultJson: byte for byte what
 * JSON.stringify gives for the result (action-result.test.ts).
 */
export function acceptedResult(
  txHash: string,
  height: number,
  envelopeIdx: number,
  events: readonly StoredEvent[],
  bodies: readonly EventBody[],
  symbolOf: SymbolOf,
): ActionReply {
  const result = { status: 'accepted' as const, tx_hash: txHash, height, envelope_idx: envelopeIdx } as ActionReply & {
    events: EventView[]
  }
  // The events as objects are made when first read: the replies of /action and WebSocket posts are
  // written from the JSON text below and never read them (a split WebSocket reply, in-process callers
  // do). 50-order batches, three alternated pairs: 68,277 -> 70,936, 68,840 -> 74,278 and 78,031 ->
  // 79,843 orders/s, the replies phase 99-104 -> 87-95 ms a block (scripts/bench/actions.ts --mode batch).
  let views: EventView[] | undefined
  Object.defineProperty(result, 'events', {
    enumerable: true,
    get: () => (views ??= events.map((e) => eventView(e, symbolOf, bodies[e.seq]))),
  })
  const text = `{"status":"accepted","tx_hash":${JSON.stringify(txHash)},"height":${height},"envelope_idx":${envelopeIdx},"events":[${eventViewsJson(events, symbolOf)}]}`
  Object.defineProperty(result, RESULT_JSON, { value: text })
  return result
}
