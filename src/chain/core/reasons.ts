// Reject reasons of kept-reject envelopes (docs/errors.md#reject-reasons): the names clients branch
// on, so a name never changes once published; new reasons are added. A rejection is a value, never
// an exception.

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
  // Funds, agents and admin (bridge.ts, transfers.ts, referral.ts, roles.ts, admin-config.ts).
  'InvalidAmount',
  'InsufficientFunds',
  'AccountFrozen',
  'AccountNotFound',
  'AddressIsAgent',
  'InvalidDestination',
  'DuplicateDeposit',
  'TooManyPendingWithdrawals',
  'WithdrawalNotFound',
  'WithdrawalProcessing',
  'SettlementPaused',
  'InviterAlreadySet',
  'InvalidInviter',
  'AgentNotFound',
  'RoleAlreadyGranted',
  'RoleNotGranted',
  'LastAdmin',
  // Orders (order-handlers.ts): expiry, amends, mass cancel, the dead man's switch.
  'OrderExpired',
  'InvalidModify',
  'InvalidMassCancel',
  'InvalidDeadline',
  // Markets, lifecycle and oracle quotes (lifecycle.ts, oracle.ts, quote-validation.ts, external-peg.ts).
  'InvalidLifecycleTransition',
  'MarketDelisted',
  'MarketNotExternalPeg',
  'PegMarketTakerOnly',
  'QuoteTimeNotMonotonic',
  'QuoteSourceTooFuture',
  'QuoteSourceTooOld',
  'QuoteTooFrequent',
  'QuoteChangeTooLarge',
  'QuotePriceOutOfBounds',
  'QuoteCrossed',
  'QuoteMarkOutsideSpread',
  'QuoteSpreadTooWide',
  // Triggers and OCO pairs (place-trigger.ts, amend-trigger.ts, cancel-trigger.ts, oco.ts).
  'InvalidTriggerOrder',
  'TriggerWouldFireImmediately',
  'TooManyTriggers',
  'TriggerNotFound',
  'InvalidOcoPair',
  'DuplicateClientPairId',
  'TooManyOcoPairs',
  'OcoPairNotFound',
  // Margin modes, leverage and liquidation (leverage.ts, isolated-margin.ts, liquidation.ts).
  'InvalidLeverage',
  'PositionOpen',
  'OpenOrdersExist',
  'NoOpenPosition',
  'PositionNotIsolated',
  'NotLiquidatable',
  'CannotLiquidateSelf',
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
