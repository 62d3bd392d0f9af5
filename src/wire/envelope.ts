// The /action request envelope (docs/protocol.md#envelope).
import { Type } from '@sinclair/typebox'
import { U53 } from './schema-types.ts'

export const SignatureSchema = Type.Object(
  {
    r: Type.String({ pattern: '^0x[0-9a-fA-F]{1,64}$', description: 'hex, zero padding optional' }),
    s: Type.String({ pattern: '^0x[0-9a-fA-F]{1,64}$', description: 'hex, zero padding optional' }),
    v: Type.Integer({ minimum: 0, maximum: 28, description: '27 or 28 (0 or 1 accepted)' }),
  },
  { additionalProperties: false },
)

export const ActionParamsSchema = Type.Object(
  {
    action: Type.Object({}, { additionalProperties: true, description: 'exactly one key: the action kind' }),
    nonce: U53('within [getAccount.nonce, getAccount.nonce + 64)'),
    signature: SignatureSchema,
  },
  { additionalProperties: false },
)

export const JsonRpcRequestSchema = Type.Object({
  jsonrpc: Type.Literal('2.0'),
  id: Type.Optional(Type.Union([Type.String({ maxLength: 128 }), Type.Integer(), Type.Null()])),
  method: Type.String({ maxLength: 64 }),
  params: Type.Optional(Type.Unknown()),
})
