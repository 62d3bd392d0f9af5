// The chain: perpd's deterministic state machine (no clock, randomness, env, I/O or floats). This
// file is its only entry from outside src/chain (.dependency-cruiser.cjs rule chain-entry): the
// node applies blocks and keeps snapshots with it, the API and the feed read the state through
// the read-only helpers below. It exports what the outside uses and nothing more; the folders
// behind it (docs/architecture.md) import each other directly, never this file.

// The edge: what the node checks and prepares before an envelope enters a block.
export { actorAuthorized, lowestUnusedNonce, nonceUsable, resolveActor } from './access/accounts.ts'
// Read-only helpers of the views (accounts, margin, books, markets, oracle, triggers, funds).
export { agentsOf } from './access/register-agent.ts'
// Blocks: apply a block to the state (the only way the state changes), the genesis state.
export { applyBlock, BlockExecution, eventEnvelopeIndexes, executeBlock } from './block/apply.ts'
export type { BlockInput, BlockResult, EnvelopeInput, EnvelopeResult } from './block/block-types.ts'
export { createGenesisState } from './block/genesis.ts'
export type { OrderBook } from './book/book.ts'
// What a block emits, and why an action is rejected.
export type { ChainEvent } from './core/events.ts'
export { absBig, notionalOf } from './core/math.ts'
export { REJECT_REASONS } from './core/reasons.ts'
export type { Account, ChainState, Market, Order, Position, RoleName, Side, Tif } from './core/types.ts'
// The data model, the state root and the snapshot codec.
export { LIMITS, ROLE_NAMES, ROLES, SCALE_6 } from './core/types.ts'
export { pendingWithdrawalsOf } from './funds/bridge.ts'
export { isFrozen } from './funds/funds-state.ts'
export type { PendingWithdrawal } from './funds/funds-types.ts'
export { liquidatablePositions } from './margin/liquidatable.ts'
export { liquidationPriceTicks } from './margin/maintenance.ts'
export { marginUsed, markNotional, unrealizedPnl, valueAccount } from './margin/margin.ts'
export { BOOK_B_ADDRESS } from './markets/external-peg.ts'
export { resolveMarketFilter, resolveMarketRef } from './markets/market-refs.ts'
export { marketStats } from './markets/market-stats.ts'
export { freshQuote, quoteLagMs } from './markets/oracle.ts'
export type { DecodedOrder } from './orders/order-types.ts'
export { decodePlaceOrder, isRejection } from './orders/place-order.ts'
export { LeafChangeWriter, replayLeafChanges } from './state/leaf-changes.ts'
export { decodeState, encodeState, STATE_CODEC_VERSION } from './state/state-codec.ts'
export { StateHash, type StateHashContents } from './state/state-hash.ts'
export { commitStateRoot, foldDirtyLeaves, fullStateRoot, type LeafSink } from './state/state-root.ts'
export type { OcoPair, TriggerOrder } from './triggers/trigger-types.ts'
