// Block-level work in a fixed order. Begin hooks run before the block's envelopes (time-based
// expiry, the dead man's switch); end hooks after them (marks, then what reacts to new marks).
import type { BlockHook } from './action-context.ts'
import { updateMarksHook } from './marks.ts'

export const BEGIN_BLOCK_HOOKS: readonly BlockHook[] = []

export const END_BLOCK_HOOKS: readonly BlockHook[] = [
  updateMarksHook,
]
