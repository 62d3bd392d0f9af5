// The part of a market's state-root leaf that the markets area added: quote limits, the delist
// audit time and the oracle state. state-root.ts appends this array to the market leaf, so a
// change to any of these fields changes the root (and a mutation that forgot markLeaf shows up in
// the incremental-vs-full root tests).
import type { Market } from '../core/types.ts'

/** The markets-area fields of a market leaf, as a canonical-msgpack-ready array. */
export function marketLeafExtension(m: Market): unknown[] {
  const q = m.quoteLimits
  const o = m.oracle
  const latest =
    o.latest === null
      ? null
      : [o.latest.bidTicks, o.latest.askTicks, o.latest.markTicks, o.latest.sourceTsMs, o.latest.acceptedHeight, o.latest.acceptedAtMs]
  return [
    [q.maxLagMs, q.minIntervalMs, q.maxChangeBps, q.minPriceTicks, q.maxPriceTicks, q.maxSpreadBps],
    m.delistRequestedAtMs,
    [latest, o.clockMs, o.fillsOnQuote, o.consecutiveRejects, o.stormRaised, o.counterRealizedPnl.toString()],
  ]
}
