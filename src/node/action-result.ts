// The result of /action (docs/protocol.md#replies): an envelope that reached a block, or a refusal
// before one.
import type { StoredEvent } from '../wire/stored-block.ts'
import type { ActionReply, EventView } from '../wire/views.ts'
import type { SymbolOf } from './views.ts'

export type ActionResult = ActionReply | { status: 'refused'; error: { code: number; message: string; data?: unknown } }

/**
 * The JSON text of an accepted result, kept on it by the block producer (ChainNode.reply) under a
 * symbol key, which JSON.stringify skips. It is built from the events' stored JSON, which is the
 * JSON of their bodies, instead of serializing every body a second time: a 50-order batch's reply
 * is about 35 KB, and stringifying its event views was a sixth of the block thread's time in the
 * batch benchmark.
 */
const RESULT_JSON: unique symbol = Symbol('perpd.action-result-json')

type WithJson = { [RESULT_JSON]?: string }

/** JSON.stringify(result), from the text the node kept when there is one. */
export function actionResultJson(result: unknown): string {
  return (result as WithJson | null)?.[RESULT_JSON] ?? JSON.stringify(result)
}

/**
 * An accepted result for the envelope at (height, envelopeIdx) with its events as views, and its
 * JSON text kept for actionResultJson: byte for byte what JSON.stringify gives for the same result
 * (action-result.test.ts), because each event's bodyJson is JSON.stringify of its body.
 */
export function acceptedResult(
  txHash: string,
  height: number,
  envelopeIdx: number,
  stored: readonly StoredEvent[],
  views: EventView[],
  symbolOf: SymbolOf,
): ActionReply {
  const result = { status: 'accepted' as const, tx_hash: txHash, height, envelope_idx: envelopeIdx, events: views }
  let text = `{"status":"accepted","tx_hash":${JSON.stringify(txHash)},"height":${height},"envelope_idx":${envelopeIdx},"events":[`
  for (let i = 0; i < stored.length; i++) {
    const e = stored[i]!
    if (i > 0) text += ','
    text += `{"height":${e.height},"seq":${e.seq},"envelope_idx":${e.envelopeIdx},"kind":${JSON.stringify(e.kind)},"sub_kind":${JSON.stringify(e.subKind)},"market_id":${e.marketId},"symbol":${JSON.stringify(symbolOf(e.marketId))},"account":${JSON.stringify(e.account)},"body":${e.bodyJson}}`
  }
  text += ']}'
  Object.defineProperty(result, RESULT_JSON, { value: text })
  return result
}
