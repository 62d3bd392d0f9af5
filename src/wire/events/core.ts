// The body of a kept-reject envelope's one event (chain events.ts RejectedEvent).
import { Type } from '@sinclair/typebox'
import { Address, eventSchema, MarketId, Nullable, RejectReasonSchema } from './fields.ts'

export const RejectedSchema = eventSchema(
  'Core',
  'Rejected',
  'An envelope was kept in its block but rejected (a kept-reject): it changed nothing, consumed its nonce, and this is its only event.',
  {
    market_id: Nullable(MarketId(), "the payload's market_id when it names one by id; null otherwise"),
    account: Address('the signer'),
    action_kind: Type.String({ minLength: 1, description: 'the action kind of the envelope (docs/actions.md)' }),
    reason: RejectReasonSchema('why it was rejected (a reject reason)'),
    message: Type.String({ description: 'a human-readable explanation' }),
  },
)

export const CORE_EVENT_SCHEMAS = [RejectedSchema] as const
