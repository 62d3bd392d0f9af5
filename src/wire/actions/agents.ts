// Agent actions (area: agents).
import { type Static, Type } from '@sinclair/typebox'
import type { ActionKindSpec } from '../action-kind.ts'
import { Address20, RoleSchema } from '../schema-types.ts'
import { USER_SIGNED, userSignedSchema, userSignedTypedFields } from './user-signed.ts'

export const RegisterAgentSchema = userSignedSchema({
  agent: Address20('the agent address'),
  role: RoleSchema,
  name: Type.String({ maxLength: 32, description: 'a label for the agent' }),
})
export type RegisterAgentPayload = Static<typeof RegisterAgentSchema>

export const RevokeAgentSchema = userSignedSchema({ agent: Address20('an agent of the signer') })
export type RevokeAgentPayload = Static<typeof RevokeAgentSchema>

export const AGENT_ACTIONS = [
  {
    name: 'RegisterAgent',
    ...USER_SIGNED,
    schema: RegisterAgentSchema,
    typedFields: userSignedTypedFields(['agent', 'address'], ['role', 'string'], ['name', 'string']),
    description: 'Register an agent key that acts for the master with a role.',
    example: {
      network: 'dev',
      agent: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      role: 'Trader',
      name: 'bot-1',
      nonce: 2,
      signature_chain_id: '0x539',
    },
    rejects: ['InvalidAgent', 'AgentLimitReached', 'Unauthorized'],
  },
  {
    name: 'RevokeAgent',
    ...USER_SIGNED,
    schema: RevokeAgentSchema,
    typedFields: userSignedTypedFields(['agent', 'address']),
    description: "Remove one of the master's agents; its key can no longer act for the master (its used nonces stay used).",
    example: { network: 'dev', agent: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', nonce: 7, signature_chain_id: '0x539' },
    rejects: ['AgentNotFound'],
  },
] as const satisfies readonly ActionKindSpec[]
