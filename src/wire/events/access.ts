// Event bodies of access control: agent keys an account registers and revokes (kind Core), and
// the roles and freezing an Admin sets (kind Ops, naming the signer for getAdminAuditLog).
import { Type } from '@sinclair/typebox'
import { Address, Count, eventSchema, RoleSchema } from './fields.ts'

const NoMarket = Type.Null({ description: 'always null' })

export const AgentRegisteredSchema = eventSchema(
  'Core',
  'AgentRegistered',
  'RegisterAgent: the account authorized an agent key to sign actions of one role for it.',
  {
    market_id: NoMarket,
    account: Address('the master account'),
    agent: Address("the agent key's address"),
    role: RoleSchema,
    name: Type.String({ description: "the agent's label" }),
  },
)

export const AgentRevokedSchema = eventSchema('Core', 'AgentRevoked', 'RevokeAgent: the agent key may no longer sign for the account.', {
  market_id: NoMarket,
  account: Address('the master account'),
  agent: Address("the agent key's address"),
  role: RoleSchema,
})

const RoleMask = Count(
  "the account's roles after the change, one bit each (Admin 1, Trader 2, Quoter 4, Liquidator 8, BridgeDeposit 16, BridgeWithdraw 32)",
)

export const RoleGrantedSchema = eventSchema(
  'Ops',
  'RoleGranted',
  'GrantRole gave an account a role (an unknown address became an account without balance).',
  {
    market_id: NoMarket,
    account: Address('the account that got the role'),
    signer: Address('the Admin'),
    role: RoleSchema,
    role_mask: RoleMask,
  },
)

export const RoleRevokedSchema = eventSchema('Ops', 'RoleRevoked', 'RevokeRole took a role from an account.', {
  market_id: NoMarket,
  account: Address('the account that lost the role'),
  signer: Address('the Admin'),
  role: RoleSchema,
  role_mask: RoleMask,
})

export const AccountFrozenChangedSchema = eventSchema(
  'Ops',
  'AccountFrozenChanged',
  'SetAccountFrozen froze or unfroze an account (a frozen account may only cancel and reduce, and moves no money out).',
  {
    market_id: NoMarket,
    account: Address('the account'),
    signer: Address('the Admin'),
    frozen: Type.Boolean({ description: 'the flag after the action' }),
  },
)

export const ACCESS_EVENT_SCHEMAS = [
  AgentRegisteredSchema,
  AgentRevokedSchema,
  RoleGrantedSchema,
  RoleRevokedSchema,
  AccountFrozenChangedSchema,
] as const
