// Admin actions (area: agents/admin): exchange-wide parameters, roles, freezing, forced cancels.
// All are master-signed by an account with the Admin role; each emits an Ops event naming the signer.
import { type Static, Type } from '@sinclair/typebox'
import type { ActionKindSpec } from '../action-kind.ts'
import { Address20, RoleSchema, U32 } from '../schema-types.ts'

export const SetGlobalRebateRatioSchema = Type.Object(
  {
    ratio_bps: Type.Integer({
      minimum: 0,
      maximum: 10_000,
      description: 'share of each fee rebated to inviter and invitee, bps (1000 = 10%)',
    }),
  },
  { additionalProperties: false },
)
export type SetGlobalRebateRatioPayload = Static<typeof SetGlobalRebateRatioSchema>

export const SetSettlementPausedSchema = Type.Object(
  { paused: Type.Boolean({ description: 'true stops SettleWithdrawal until set false again' }) },
  { additionalProperties: false },
)
export type SetSettlementPausedPayload = Static<typeof SetSettlementPausedSchema>

export const GrantRoleSchema = Type.Object(
  { account: Address20('the account; created without balance when new'), role: RoleSchema },
  { additionalProperties: false },
)
export type GrantRolePayload = Static<typeof GrantRoleSchema>

export const RevokeRoleSchema = Type.Object(
  { account: Address20('an existing account'), role: RoleSchema },
  { additionalProperties: false },
)
export type RevokeRolePayload = Static<typeof RevokeRoleSchema>

export const SetInsuranceFundSchema = Type.Object(
  { address: Address20('the account that absorbs liquidation surplus and bad debt') },
  { additionalProperties: false },
)
export type SetInsuranceFundPayload = Static<typeof SetInsuranceFundSchema>

export const AmendExchangeConfigSchema = Type.Object(
  {
    max_tx_per_block: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100_000, description: 'envelopes per block from the next block on' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type AmendExchangeConfigPayload = Static<typeof AmendExchangeConfigSchema>

export const SetAccountFrozenSchema = Type.Object(
  {
    account: Address20('an existing account'),
    frozen: Type.Boolean({ description: 'a frozen account may only cancel and place reduce-only orders, and moves no money out' }),
  },
  { additionalProperties: false },
)
export type SetAccountFrozenPayload = Static<typeof SetAccountFrozenSchema>

export const ForceCancelAccountOrdersSchema = Type.Object(
  { account: Address20('an existing account'), market_id: Type.Optional(U32('only this market; all markets when absent')) },
  { additionalProperties: false },
)
export type ForceCancelAccountOrdersPayload = Static<typeof ForceCancelAccountOrdersSchema>

const ALICE = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
/** An Admin kind's entry: signed by the master, with the Admin role. */
const admin = <const K extends Omit<ActionKindSpec, 'auth' | 'role' | 'masterOnly'>>(k: K) =>
  ({ ...k, auth: 'master', role: 'Admin', masterOnly: true }) as const

export const ADMIN_ACTIONS = [
  admin({
    name: 'SetGlobalRebateRatio',
    schema: SetGlobalRebateRatioSchema,
    description:
      'Set global_rebate_ratio_bps, the share of each fee paid by an invited account that is rebated (Ops GlobalRebateRatioChanged).',
    example: { ratio_bps: 1000 },
    rejects: ['Unauthorized'],
  }),
  admin({
    name: 'SetSettlementPaused',
    schema: SetSettlementPausedSchema,
    description: 'Pause or resume bridge settlement (settlement_paused in getExchangeConfig); requests, cancels and refunds go on.',
    example: { paused: true },
    rejects: ['Unauthorized'],
  }),
  admin({
    name: 'GrantRole',
    schema: GrantRoleSchema,
    description: 'Give an account a role; an unknown address becomes an account without balance.',
    example: { account: ALICE, role: 'Quoter' },
    rejects: ['RoleAlreadyGranted', 'AddressIsAgent', 'Unauthorized'],
  }),
  admin({
    name: 'RevokeRole',
    schema: RevokeRoleSchema,
    description: 'Take a role from an account; the last Admin cannot lose its Admin role. Agents acting with the role lose it too.',
    example: { account: ALICE, role: 'Quoter' },
    rejects: ['AccountNotFound', 'RoleNotGranted', 'LastAdmin', 'Unauthorized'],
  }),
  admin({
    name: 'SetInsuranceFund',
    schema: SetInsuranceFundSchema,
    description: 'Set the insurance fund account (it need not exist yet: the first credit creates it).',
    example: { address: '0xa0ee7a142d267c1f36714e4a8f75612f20a79720' },
    rejects: ['AddressIsAgent', 'Unauthorized'],
  }),
  admin({
    name: 'AmendExchangeConfig',
    schema: AmendExchangeConfigSchema,
    description: 'Change exchange-wide limits: max_tx_per_block (1..100000).',
    example: { max_tx_per_block: 5000 },
    rejects: ['Unauthorized'],
  }),
  admin({
    name: 'SetAccountFrozen',
    schema: SetAccountFrozenSchema,
    description:
      'Freeze or unfreeze an account. A frozen account may cancel and place reduce-only orders only, and cannot withdraw or transfer.',
    example: { account: ALICE, frozen: true },
    rejects: ['AccountNotFound', 'Unauthorized'],
  }),
  admin({
    name: 'ForceCancelAccountOrders',
    schema: ForceCancelAccountOrdersSchema,
    description: "Cancel an account's resting orders, in one market or all (OrderDone reason ForceCancelled).",
    example: { account: ALICE, market_id: 1 },
    rejects: ['AccountNotFound', 'MarketNotFound', 'Unauthorized'],
  }),
] as const satisfies readonly ActionKindSpec[]
