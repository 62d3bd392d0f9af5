// Reads a SubmitOracleQuote reply item by item. The chain applies each item of a batch on its own:
// a rejected item is a BatchItemRejected event (index, reason, message) while the others stand,
// and the envelope is a kept-reject only when every item was rejected.
import type { ActionReply } from '../../client/rpc-client.ts'

/** What became of one item of a batch. */
export type ItemOutcome =
  | { readonly index: number; readonly accepted: true }
  | { readonly index: number; readonly accepted: false; readonly reason: string; readonly message: string }

// A kept-reject of several items carries "item i: Reason (message); item j: …" as its message.
const ITEM_REASON = /item (\d+): (\w+) \((.*?)\)(?=; item \d+: |$)/g

/** The outcome of each of `count` items of a batch, in item order. */
export function quoteItemOutcomes(reply: ActionReply, count: number): ItemOutcome[] {
  if (reply.status === 'kept-reject') {
    const perItem = new Map<number, { reason: string; message: string }>()
    for (const m of reply.reason.message.matchAll(ITEM_REASON)) perItem.set(Number(m[1]), { reason: m[2]!, message: m[3]! })
    return Array.from({ length: count }, (_, index) => {
      const own = perItem.get(index)
      return { index, accepted: false as const, reason: own?.reason ?? reply.reason.code, message: own?.message ?? reply.reason.message }
    })
  }
  const rejected = new Map<number, { reason: string; message: string }>()
  for (const e of reply.events) {
    if (e.sub_kind !== 'BatchItemRejected') continue
    const index = e.body.index
    if (typeof index === 'number')
      rejected.set(index, { reason: String(e.body.reason ?? 'Rejected'), message: String(e.body.message ?? '') })
  }
  return Array.from({ length: count }, (_, index) => {
    const r = rejected.get(index)
    return r === undefined ? { index, accepted: true as const } : { index, accepted: false as const, ...r }
  })
}
