// What every user-signed kind shares (docs/protocol.md#user-signed-actions): the payload starts
// with `network`, ends with `nonce` and carries `signature_chain_id` (the EIP-712 domain chain id);
// the typed fields are `network`, the kind's own fields and `nonce`, in that order. Such kinds are
// master-signed only.
import { type TProperties, Type } from '@sinclair/typebox'
import type { TypedField } from '../eip712.ts'
import { U53 } from '../schema-types.ts'

/** The auth fields of a user-signed kind's registry entry. */
export const USER_SIGNED = { auth: 'user_signed_master', role: null, masterOnly: true } as const

/** The payload schema of a user-signed kind: network, the kind's own fields, nonce and signature_chain_id. */
export function userSignedSchema<T extends TProperties>(fields: T) {
  return Type.Object(
    {
      network: Type.String({ maxLength: 32, description: "the chain's network name (replay protection)" }),
      ...fields,
      nonce: U53('equal to the envelope nonce'),
      signature_chain_id: Type.String({ pattern: '^0x[0-9a-fA-F]{1,16}$', description: 'EIP-712 domain chain id, hex' }),
    },
    { additionalProperties: false },
  )
}

/** The EIP-712 typed fields of a user-signed kind: network, the kind's own [name, type] fields, nonce. */
export function userSignedTypedFields(...fields: readonly (readonly [name: string, type: string])[]): TypedField[] {
  return [{ name: 'network', type: 'string' }, ...fields.map(([name, type]) => ({ name, type })), { name: 'nonce', type: 'uint64' }]
}
