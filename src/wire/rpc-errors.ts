// JSON-RPC error codes of the node (docs/errors.md#json-rpc-codes; the range -32700..-32010 is the
// defined one) and the `data.reason` names of admission refusals
// (docs/protocol.md#refusals-and-kept-rejects).
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Rate limit exceeded on /action, /query timeout, or the mempool is full. */
  limited: -32000,
  /** The signature is malformed, high-s, or recovers to an address the chain does not know. */
  badSignature: -32010,
  /** The nonce is outside the window or already used. */
  nonceReplay: -32011,
  /** The signer exists but may not send this action kind. */
  unauthorized: -32012,
} as const

export type AdmissionReason =
  | 'PARSE_ERROR'
  | 'INVALID_REQUEST'
  | 'INVALID_PARAMS'
  | 'BAD_SIGNATURE'
  | 'HIGH_S'
  | 'UNKNOWN_SIGNER'
  | 'NONCE_REPLAY'
  | 'UNAUTHORIZED'
  | 'WRONG_NETWORK'
  | 'MEMPOOL_FULL'
  | 'RATE_LIMITED'
  | 'SHUTTING_DOWN'

export interface RpcError {
  readonly code: number
  readonly message: string
  readonly data?: { readonly reason: AdmissionReason; readonly [key: string]: unknown }
}

export function rpcError(code: number, reason: AdmissionReason, message: string, detail: Record<string, unknown> = {}): RpcError {
  return { code, message, data: { reason, ...detail } }
}
