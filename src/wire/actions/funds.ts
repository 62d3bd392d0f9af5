// Funds actions (area: funds): referral, bridge deposits and withdrawals, transfers. The user-signed
// kinds are shaped by user-signed.ts (docs/protocol.md#user-signed-actions). WithdrawRequest's type
// is fixed by the vectors.
import { type Static, Type } from '@sinclair/typebox'
import { decimalPattern } from '../../lib/decimal.ts'
import type { ActionKindSpec } from '../action-kind.ts'
import { Address20, U53 } from '../schema-types.ts'
import { USER_SIGNED, userSignedSchema, userSignedTypedFields } from './user-signed.ts'

/** A positive-or-zero SCALE_6 amount: at most 6 decimals and 12 integer digits (refused at admission otherwise). */
export const Amount6 = (description: string) =>
  Type.String({
    pattern: decimalPattern({ integerDigits: 12, decimals: 6 }),
    maxLength: 19,
    description: `${description}; decimal string, at most 6 decimals`,
  })

/** Identifiers the bridge supplies (deposit ids, chain names, external tx ids): no spaces or quotes. */
export const BridgeId = (description: string, maxLength: number) =>
  Type.String({ pattern: '^[A-Za-z0-9_.:#/-]+$', minLength: 1, maxLength, description })

export const SetInviterSchema = userSignedSchema({ inviter: Address20('the account that invited this one') })
export type SetInviterPayload = Static<typeof SetInviterSchema>

export const WithdrawRequestSchema = userSignedSchema({
  destination: Address20('where the bridge pays out'),
  amount: Amount6('amount to withdraw, > 0'),
})
export type WithdrawRequestPayload = Static<typeof WithdrawRequestSchema>

export const CancelWithdrawRequestSchema = userSignedSchema({ withdrawal_id: U53('a pending withdrawal of the signer') })
export type CancelWithdrawRequestPayload = Static<typeof CancelWithdrawRequestSchema>

export const TransferFundsSchema = userSignedSchema({
  destination: Address20('the receiving account; created with the Trader role when new'),
  amount: Amount6('amount to move, > 0'),
})
export type TransferFundsPayload = Static<typeof TransferFundsSchema>

export const CreditDepositSchema = Type.Object(
  {
    account: Address20('the account credited; created with the Trader role when new'),
    amount: Amount6('amount deposited, > 0'),
    deposit_id: BridgeId("the bridge's unique id of the deposit (e.g. tx hash and log index)", 128),
    source_chain: Type.Optional(BridgeId('the chain the deposit came from', 64)),
  },
  { additionalProperties: false },
)
export type CreditDepositPayload = Static<typeof CreditDepositSchema>

export const ClaimWithdrawalSchema = Type.Object(
  { withdrawal_id: U53('a pending withdrawal nobody claimed yet') },
  { additionalProperties: false },
)
export type ClaimWithdrawalPayload = Static<typeof ClaimWithdrawalSchema>

export const SettleWithdrawalSchema = Type.Object(
  {
    withdrawal_id: U53('a pending withdrawal, claimed or not'),
    external_tx: Type.Optional(BridgeId('the payout transaction on the destination chain', 128)),
  },
  { additionalProperties: false },
)
export type SettleWithdrawalPayload = Static<typeof SettleWithdrawalSchema>

export const RefundWithdrawalSchema = Type.Object(
  {
    withdrawal_id: U53('a pending withdrawal, claimed or not'),
    reason: Type.Optional(Type.String({ maxLength: 128, description: 'why the bridge did not pay out' })),
  },
  { additionalProperties: false },
)
export type RefundWithdrawalPayload = Static<typeof RefundWithdrawalSchema>

const ALICE = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const BOB = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'

export const FUNDS_ACTIONS = [
  {
    name: 'SetInviter',
    ...USER_SIGNED,
    schema: SetInviterSchema,
    typedFields: userSignedTypedFields(['inviter', 'address']),
    description:
      'Name the account that invited this one, once. Afterwards global_rebate_ratio_bps of each fee the account pays is rebated, half to the inviter and half back to the account (each half rounded down; the rest goes to the fee recipient).',
    example: { network: 'dev', inviter: BOB, nonce: 4, signature_chain_id: '0x539' },
    rejects: ['InviterAlreadySet', 'InvalidInviter'],
  },
  {
    name: 'WithdrawRequest',
    ...USER_SIGNED,
    schema: WithdrawRequestSchema,
    typedFields: userSignedTypedFields(['destination', 'string'], ['amount', 'string']),
    description:
      'Request a bridge withdrawal. The amount (at most cross_cash_available, and at most cross_trading_available so unrealized losses cannot leave) is debited at once into a pending withdrawal, which the bridge claims, then settles or refunds; the owner may cancel it until the bridge claims it.',
    example: { network: 'dev', destination: BOB, amount: '1250.5', nonce: 3, signature_chain_id: '0x539' },
    rejects: ['InvalidAmount', 'AccountFrozen', 'TooManyPendingWithdrawals', 'InsufficientFunds'],
  },
  {
    name: 'CancelWithdrawRequest',
    ...USER_SIGNED,
    schema: CancelWithdrawRequestSchema,
    typedFields: userSignedTypedFields(['withdrawal_id', 'uint64']),
    description:
      "Cancel one of the signer's pending withdrawals; the amount returns to the balance. Refused once the bridge has claimed it (ClaimWithdrawal: processing).",
    example: { network: 'dev', withdrawal_id: 1, nonce: 5, signature_chain_id: '0x539' },
    rejects: ['WithdrawalNotFound', 'WithdrawalProcessing'],
  },
  {
    name: 'TransferFunds',
    ...USER_SIGNED,
    schema: TransferFundsSchema,
    typedFields: userSignedTypedFields(['destination', 'string'], ['amount', 'string']),
    description: 'Move cross cash to another address (limited like a withdrawal), creating it with the Trader role when new.',
    example: { network: 'dev', destination: BOB, amount: '100', nonce: 6, signature_chain_id: '0x539' },
    rejects: ['InvalidAmount', 'AccountFrozen', 'InvalidDestination', 'AddressIsAgent', 'InsufficientFunds'],
  },
  {
    name: 'CreditDeposit',
    auth: 'master',
    role: 'BridgeDeposit',
    masterOnly: true,
    schema: CreditDepositSchema,
    description: 'Credit a bridge deposit, once per deposit_id; a new address becomes an account with the Trader role.',
    example: {
      account: ALICE,
      amount: '5000',
      deposit_id: '0x9f2c0d51aa6e3b1c7d4e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9012345678:0',
      source_chain: 'arbitrum',
    },
    rejects: ['InvalidAmount', 'DuplicateDeposit', 'AddressIsAgent', 'Unauthorized'],
  },
  {
    name: 'ClaimWithdrawal',
    auth: 'master',
    role: 'BridgeWithdraw',
    masterOnly: true,
    schema: ClaimWithdrawalSchema,
    description:
      'Take a pending withdrawal on before paying it out: it becomes processing, and its owner can no longer cancel it (CancelWithdrawRequest is refused with WithdrawalProcessing); only SettleWithdrawal or RefundWithdrawal end it. Refused while settlement is paused, and for a withdrawal already claimed.',
    example: { withdrawal_id: 1 },
    rejects: ['SettlementPaused', 'WithdrawalNotFound', 'WithdrawalProcessing', 'Unauthorized'],
  },
  {
    name: 'SettleWithdrawal',
    auth: 'master',
    role: 'BridgeWithdraw',
    masterOnly: true,
    schema: SettleWithdrawalSchema,
    description:
      'Finalize a pending withdrawal the bridge has paid out, claimed (processing) or, for bridges that do not claim, still unclaimed; refused while settlement is paused.',
    example: { withdrawal_id: 1, external_tx: '0x5e1d3a2b9c8f7e6d5c4b3a29181716151413121110f0e0d0c0b0a09080706050' },
    rejects: ['SettlementPaused', 'WithdrawalNotFound', 'Unauthorized'],
  },
  {
    name: 'RefundWithdrawal',
    auth: 'master',
    role: 'BridgeWithdraw',
    masterOnly: true,
    schema: RefundWithdrawalSchema,
    description:
      "Return a pending withdrawal's amount to its account (the bridge could not pay out), claimed (processing) or still unclaimed.",
    example: { withdrawal_id: 2, reason: 'destination rejected the transfer' },
    rejects: ['WithdrawalNotFound', 'Unauthorized'],
  },
] as const satisfies readonly ActionKindSpec[]
