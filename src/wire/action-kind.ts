// The shape of an action kind's registry entry (its auth channel and role:
// docs/protocol.md#envelope, getActionsMeta). The kinds' names, as a literal union (ActionKind),
// and their payload types come from the registry itself (actions.ts).
import type { TSchema } from '@sinclair/typebox'
import type { TypedField } from './eip712.ts'

export type AuthChannel = 'master' | 'master_or_agent_with_role' | 'user_signed_master'
export type ActionRole = 'Admin' | 'Trader' | 'Quoter' | 'Liquidator' | 'BridgeDeposit' | 'BridgeWithdraw'

/** The auth fields of a kind signed by the master or by an agent with the Trader role. */
export const TRADER_AUTH = { auth: 'master_or_agent_with_role', role: 'Trader', masterOnly: false } as const

/** An action kind's registry entry. */
export interface ActionKindSpec {
  readonly name: string
  readonly auth: AuthChannel
  readonly role: ActionRole | null
  readonly masterOnly: boolean
  /** The payload schema: validation at admission, types, docs/actions.md. */
  readonly schema: TSchema
  /**
   * EIP-712 fields of a user-signed kind, in type order (docs/protocol.md#user-signed-actions):
   * always starting with `network` (string) and ending with `nonce` (uint64); the payload also
   * carries `signature_chain_id` (hex), which is not a typed field.
   */
  readonly typedFields?: TypedField[]
  readonly description: string
  /** An example payload (the value under the kind's key); docs/actions.md shows it. */
  readonly example: Record<string, unknown>
  /** The kept-reject reasons this kind can end with (docs/errors.md#reject-reasons). */
  readonly rejects: readonly string[]
}
