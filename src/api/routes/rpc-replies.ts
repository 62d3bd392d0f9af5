// The bodies of POST /api/v1/query and /api/v1/action as the OpenAPI document shows them: JSON-RPC
// 2.0 requests and replies (docs/rpc.md#requests-and-replies, docs/protocol.md#envelope). The
// requests are checked by the JSON-RPC layer itself (jsonrpc.ts envelopeError, each method's params
// schema in methods/), whose errors are JSON-RPC error objects, not REST {error} bodies.
import { Type } from '@sinclair/typebox'
import { ActionParamsSchema, JsonRpcRequestSchema } from '../../wire/envelope.ts'
import { U53 } from '../../wire/schema-types.ts'
import { PageSchema } from '../methods/registry.ts'

const RpcId = Type.Union([Type.String(), Type.Integer(), Type.Null()])
const RpcError = Type.Object(
  { code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Object({}, { additionalProperties: true })) },
  { additionalProperties: false },
)
export const RpcFailure = Type.Object({ jsonrpc: Type.Literal('2.0'), id: RpcId, error: RpcError }, { additionalProperties: false })

/** The /query result wrapper: every method's data with its heights (docs/rpc.md#requests-and-replies). */
const QueryResultSchema = Type.Object(
  {
    height: U53('height of the data'),
    chain_height: U53('the chain tip'),
    stale: Type.Boolean(),
    data: Type.Unknown({ description: "the method's result: its schema is in rpc.discover and docs/rpc.md" }),
    page: Type.Optional(PageSchema),
  },
  { additionalProperties: false },
)
const QuerySuccess = Type.Object({ jsonrpc: Type.Literal('2.0'), id: RpcId, result: QueryResultSchema }, { additionalProperties: false })
const DiscoverSuccess = Type.Object(
  { jsonrpc: Type.Literal('2.0'), id: RpcId, result: Type.Object({ openrpc: Type.String() }, { additionalProperties: true }) },
  { additionalProperties: false },
)
const QueryReply = Type.Union([QuerySuccess, DiscoverSuccess, RpcFailure])
export const QueryReplySchema = Type.Union([QueryReply, Type.Array(QueryReply)], { description: 'one reply, or one per item of a batch' })

/** One /query request; a batch is an array of them. */
export const QueryRequest = Type.Object(
  {
    ...JsonRpcRequestSchema.properties,
    params: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'the method params' })),
  },
  { description: 'a JSON-RPC 2.0 request; without id a notification (no reply)' },
)

export const ActionRequest = Type.Object(
  { jsonrpc: Type.Literal('2.0'), id: Type.Optional(RpcId), method: Type.Literal('action'), params: ActionParamsSchema },
  { description: 'one signed action (docs/protocol.md#envelope)' },
)
const ActionSuccess = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: RpcId,
    result: Type.Object({}, { additionalProperties: true, description: 'the outcome (docs/protocol.md)' }),
  },
  { additionalProperties: false },
)
export const ActionReplySchema = Type.Union([ActionSuccess, RpcFailure])
