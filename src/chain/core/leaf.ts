// The state-root bookkeeping every state object with a leaf of its own carries. Apart from the data
// model (types.ts) so that the areas' own types (trigger-types.ts, funds-types.ts) can extend it
// without importing the model that imports them.

/**
 * A state object with a state-root leaf of its own. The two fields are bookkeeping of the root
 * (state-root.ts), not state: they are not part of the leaf's value.
 */
export interface Leaf {
  /** The leaf key, built once when the object is created. */
  readonly leafKey: string
  /** ChainState.rootSeq of the block in which it was last marked dirty (-1: never). */
  dirtyIn: number
}
