// Reject reasons of kept-reject envelopes (spec §7.3): names exactly as the specification lists them,
// extended with the ones this venue needs. A rejection is a value, never an exception.

export const REJECT_REASONS = [
  'MarketNotFound',
  'MarketNotTradable',
  'MarketAlreadyExists',
  'MarketNotInCreatedState',
  'InvalidMarketConfig',
  'InvalidPrice',
  'InvalidQuantity',
  'BelowMinOrderSize',
  'DustNotionalFill',
  'InsufficientMargin',
  'PostOnlyWouldCross',
  'FokRejected',
  'ReduceOnlyWouldOpenOrFlip',
  'OrderNotFound',
  'DuplicateClientOrderId',
  'TooManyOpenOrders',
  'QuoteNotAvailable',
  'Unauthorized',
  'AgentLimitReached',
  'InvalidAgent',
  'InvalidMaxFillsPerQuote',
] as const

export type RejectReason = (typeof REJECT_REASONS)[number]

export interface Rejection {
  readonly ok: false
  readonly reason: RejectReason
  readonly message: string
}

/** A rejection value with a human-readable message. */
export function reject(reason: RejectReason, message: string): Rejection {
  return { ok: false, reason, message }
}
