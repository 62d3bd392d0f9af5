// The state-root thread (state-root-thread.ts): holds the StateHash of the blocks the node produces,
// folds each block's leaf changes into it as they arrive in the shared ring and publishes the root
// in shared memory.
import { replayLeafChanges, StateHash } from '../chain/index.ts'
import { CONSUMED, FAILED, FOLDED, MESSAGE_BYTES, READY, RING_BYTES, sharedLayout, type ToStateRootThread } from './state-root-thread.ts'

declare const self: Worker

let hash: StateHash | undefined
let layout: ReturnType<typeof sharedLayout> | undefined

self.onmessage = (event: MessageEvent<ToStateRootThread>) => {
  const m = event.data
  if (m.type === 'init') {
    layout = sharedLayout(m.shared)
    try {
      hash = StateHash.fromContents(m.contents)
      Atomics.store(layout.control, READY, 1)
      Atomics.notify(layout.control, READY)
      // After READY: the block thread goes on meanwhile, and the first block's root waits for it.
      warmUp()
    } catch (err) {
      fail(err)
    }
    return
  }
  if (layout === undefined) return // no shared memory to answer in: the block thread times out
  if (Atomics.load(layout.control, FAILED) !== 0) return
  try {
    if (hash === undefined) throw new Error('a block came before the hash')
    if (m.type === 'fold') {
      const offset = m.start % RING_BYTES
      replayLeafChanges(layout.ring.subarray(offset, offset + (m.end - m.start)), hash)
      Atomics.store(layout.control, CONSUMED, m.end)
      Atomics.notify(layout.control, CONSUMED)
    } else if (m.type === 'foldLarge') {
      replayLeafChanges(m.changes, hash)
    } else {
      layout.root.set(hash.root())
      Atomics.add(layout.control, FOLDED, 1)
      Atomics.notify(layout.control, FOLDED)
    }
  } catch (err) {
    fail(err)
  }
}

/** Marks the thread failed (every wait of the block thread throws from now on) with what went wrong. */
function fail(err: unknown): void {
  if (layout === undefined) return
  const message = new TextEncoder().encode(err instanceof Error ? err.message : String(err)).subarray(0, MESSAGE_BYTES - 1)
  layout.message.set(message)
  Atomics.store(layout.control, FAILED, 1)
  for (const word of [FOLDED, READY, CONSUMED]) Atomics.notify(layout.control, word)
}

/**
 * Runs the hash's code on a scratch hash before the first block: at five blocks a second the root's
 * keccak ran in a slow tier of the JIT for a long while (1.13 ms a block against 0.10 after this,
 * at 2,000 actions/s). About 150 ms of this thread's time, once, while the node starts.
 */
function warmUp(): void {
  const scratch = new StateHash()
  const value = new Uint8Array(48)
  for (let i = 0; i < 400; i++) {
    value[0] = i & 0xff
    value[1] = i >>> 8
    for (let j = 0; j < 8; j++) scratch.set(`warm-up:${j}`, value)
    scratch.root()
  }
}
