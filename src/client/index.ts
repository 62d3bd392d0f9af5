// The entry point of the @perpd/client package (packages/client, built by scripts/build-client.ts):
// the signing client, its nonce manager, the action builders, the WebSocket client and the typed
// /query method table. Usage: packages/client/README.md; the node's interfaces: docs/rpc.md,
// docs/websocket.md, docs/protocol.md.

/** The payload types of every action kind (the builders' inputs), in wire field names. */
export type * from '../wire/actions.ts'
export * from './actions.ts'
export { NONCE_WINDOW, NonceManager, type NonceSource } from './nonce-manager.ts'
export { PerpdClient, type PerpdClientOptions } from './perpd-client.ts'
export { QUERY_METHOD_NAMES, type QueryData, type QueryMethodName, type QueryMethods, type QueryParams } from './query-methods.ts'
export {
  type ActionReply,
  bodyAs,
  decodeEventBody,
  type EventBody,
  type EventBodyOf,
  type EventSubKind,
  type EventView,
  type QueryResult,
  RpcCallError,
  RpcClient,
  type RpcErrorBody,
} from './rpc-client.ts'
export { type SignedAction, Signer } from './signer.ts'
export {
  mergeParts,
  type OpenOrder,
  OpenOrderSet,
  PerpdWsClient,
  type ResyncReason,
  subtractDecimal,
  type WsClientOptions,
  type WsClientStats,
  type WsFrame,
  wsUrlOf,
} from './ws-client.ts'
