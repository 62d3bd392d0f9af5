// Agent actions (area: agents).
import { Type, type Static } from '@sinclair/typebox'
import type { ActionKind } from '../action-kind.ts'
import { Address20, RoleSchema, U53 } from '../schema-types.ts'

export const RegisterAgentSchema = Type.Object(
  {
    network: Type.String({ maxLength: 32, description: 'the chain\'s network name (replay protection)' }),
    agent: Address20('the agent address'),
    role: RoleSchema,
    name: Type.String({ maxLength: 32, description: 'a label for the agent' }),
    nonce: U53('equal to the envelope nonce'),
    signature_chain_id: Type.String({ pattern: '^0x[0-9a-fA-F]{1,16}$', description: 'EIP-712 domain chain id, hex' }),
  },
  { additionalProperties: false },
)
export type RegisterAgentPayload = Static<typeof RegisterAgentSchema>

export const RevokeAgentSchema = Type.Object(
  {
    network: Type.String({ maxLength: 32, description: 'the chain\'s network name (replay protection)' }),
    agent: Address20('an agent of the signer'),
    nonce: U53('equal to the envelope nonce'),
    signature_chain_id: Type.String({ pattern: '^0x[0-9a-fA-F]{1,16}$', description: 'EIP-712 domain chain id, hex' }),
  },
  { additionalProperties: false },
)
export type RevokeAgentPayload = Static<typeof RevokeAgentSchema>

export const AGENT_ACTIONS: ActionKind[] = [
  {
    name: 'RegisterAgent', auth: 'user_signed_master', role: null, masterOnly: true, schema: RegisterAgentSchema,
    typedFields: [
      { name: 'network', type: 'string' }, { name: 'agent', type: 'address' }, { name: 'role', type: 'string' },
      { name: 'name', type: 'string' }, { name: 'nonce', type: 'uint64' },
    ],
    description: 'Register an agent key that acts for the master with a role.',
    example: { network: 'dev', agent: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', role: 'Trader', name: 'bot-1', nonce: 2, signature_chain_id: '0x539' },
    rejects: ['InvalidAgent', 'AgentLimitReached', 'Unauthorized'],
  },
  {
    name: 'RevokeAgent', auth: 'user_signed_master', role: null, masterOnly: true, schema: RevokeAgentSchema,
    typedFields: [{ name: 'network', type: 'string' }, { name: 'agent', type: 'address' }, { name: 'nonce', type: 'uint64' }],
    description: 'Remove one of the master\'s agents; its key can no longer act for the master (its used nonces stay used).',
    example: { network: 'dev', agent: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', nonce: 7, signature_chain_id: '0x539' },
    rejects: ['AgentNotFound'],
  },
]
