// The frame of the seeded random-workload tests: blocks are applied one by one, each checked against
// a full recomputation of the state root and the invariants every state must satisfy; what happened
// is counted by key; then the same blocks are replayed on a fresh chain, each envelope with its kind
// and its payload prepared at the edge as the node replays them (decimals packed), which must reach
// every root and emit every event again.
// Halfway through the replay its state goes through the snapshot codec (state-codec.ts): the
// restored state must go on to the same roots and events as the run, as a node restarted from a
// snapshot must.
// Test-only.
import { expect } from 'bun:test'
import {
  applyBlock,
  type BlockInput,
  type BlockResult,
  type ChainEvent,
  decodeState,
  type EnvelopeInput,
  encodeState,
  fullStateRoot,
} from '../../../src/chain/index.ts'
import { bytesToHex } from '../../../src/lib/hex.ts'
import { atTheEdge } from '../../../src/node/edge-envelope.ts'
import { graphDifference } from './graph.ts'
import { checkInvariants, type TestChain } from './test-chain.ts'

export interface WorkloadRun {
  /** A chain at genesis; called twice, for the run and for the replay. */
  readonly genesis: () => TestChain
  readonly blocks: number
  /** The next block: its envelopes, and its time (default: one second after the last block). */
  readonly nextBlock: (chain: TestChain, height: number) => { readonly envelopes: EnvelopeInput[]; readonly timestampMs?: number }
  /** Checks after each block besides the root and checkInvariants: the area's invariants, conservation. */
  readonly afterBlock?: (chain: TestChain, result: BlockResult, height: number) => void
  /** The key an event is counted under; undefined leaves it out. */
  readonly eventKey: (e: ChainEvent) => string | undefined
}

/** The events of a block as text, to compare a replay with the run (bigints as decimal strings). */
export const eventsText = (r: BlockResult): string => JSON.stringify(r.events, (_, v) => (typeof v === 'bigint' ? v.toString() : v))

/** Runs the workload and its replay with every check; returns how often each event key was seen. */
export function runWorkload(run: WorkloadRun): Map<string, number> {
  const chain = run.genesis()
  const inputs: BlockInput[] = []
  const roots: string[] = []
  const events: string[] = []
  const seen = new Map<string, number>()
  for (let b = 1; b <= run.blocks; b++) {
    const next = run.nextBlock(chain, b)
    const input: BlockInput = {
      height: chain.state.height + 1,
      timestampMs: next.timestampMs ?? chain.state.timestampMs + 1_000,
      envelopes: next.envelopes,
    }
    const result = applyBlock(chain.state, input)
    const root = bytesToHex(result.stateRoot)
    expect({ height: b, root }).toEqual({ height: b, root: bytesToHex(fullStateRoot(chain.state)) })
    checkInvariants(chain.state)
    run.afterBlock?.(chain, result, b)
    inputs.push(input)
    roots.push(root)
    events.push(eventsText(result))
    for (const e of result.events) {
      const key = run.eventKey(e)
      if (key !== undefined) seen.set(key, (seen.get(key) ?? 0) + 1)
    }
  }
  // The replay takes the blocks as the node replays them, kind and payload from the edge with the
  // decimals packed: that path must reach the roots and events the chain's own reading of the
  // action reached (block-types.ts EnvelopeInput, src/node/edge-envelope.ts).
  let replayState = run.genesis().state
  const restoreAfter = Math.floor(inputs.length / 2)
  inputs.forEach((input, i) => {
    if (i === restoreAfter) {
      const restored = decodeState(encodeState(replayState))
      // The root's accumulator is rebuilt, not copied (its root is compared below).
      expect({ height: i, difference: graphDifference({ ...replayState, hash: null }, { ...restored, hash: null }) }).toEqual({
        height: i,
        difference: undefined,
      })
      replayState = restored
      expect({ height: i, restoredRoot: bytesToHex(replayState.hash.root()) }).toEqual({
        height: i,
        restoredRoot: roots[i - 1] ?? bytesToHex(fullStateRoot(run.genesis().state)),
      })
    }
    const result = applyBlock(replayState, { ...input, envelopes: input.envelopes.map((e) => atTheEdge(e, Object.keys(e.action)[0]!)) })
    expect({ height: i + 1, root: bytesToHex(result.stateRoot) }).toEqual({ height: i + 1, root: roots[i]! })
    expect({ height: i + 1, events: eventsText(result) }).toEqual({ height: i + 1, events: events[i]! })
  })
  return seen
}

/** Fails naming the first key the workload never reached: the paths it is meant to exercise. */
export function expectReached(seen: ReadonlyMap<string, number>, keys: readonly string[]): void {
  for (const key of keys) expect({ key, seen: (seen.get(key) ?? 0) > 0 }).toEqual({ key, seen: true })
}
