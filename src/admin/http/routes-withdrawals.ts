// GET /api/bridge/withdrawals: the bridge withdraw runner's rows (docs/admin.md#withdrawal-states),
// the most recently changed first, for the console and for people looking at what is in flight.
// The runner's counts and alerts are in its status (GET /api/service-config, bridge_withdraw).
import { type TSchema, Type } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import { type BridgeStore, WITHDRAWAL_STATUSES, type WithdrawalStatus } from '../store/bridge-store.ts'
import type { AuthGuard } from './auth-guard.ts'

/** Most rows one request returns. */
export const WITHDRAWALS_PAGE_MAX = 500

/** GET /api/bridge/withdrawals query parameters. */
export const WithdrawalsQuery = Type.Object({
  status: Type.Optional(
    Type.Union(
      WITHDRAWAL_STATUSES.map((s) => Type.Literal(s)),
      { description: 'only rows in this state' },
    ),
  ),
  limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,15}$', description: `rows, 1..${WITHDRAWALS_PAGE_MAX}, default 100` })),
})

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()])

/** The reply: the rows of bridge_withdrawals (docs/admin.md#withdrawal-states). */
export const WithdrawalsReply = Type.Object(
  {
    withdrawals: Type.Array(
      Type.Object(
        {
          chain: Type.String({ description: "the digest of the chain's block 1" }),
          withdrawal_id: Type.Integer({ minimum: 0 }),
          account: Type.String(),
          destination: Type.String(),
          amount: Type.String({ description: 'a decimal string' }),
          status: Type.Union(WITHDRAWAL_STATUSES.map((s) => Type.Literal(s))),
          idempotency_key: Nullable(Type.String()),
          external_tx: Nullable(Type.String()),
          sent_tx_hashes: Type.Array(Type.String(), { description: 'settlements and refunds sent without a reply' }),
          tx_hash: Nullable(Type.String()),
          height: Nullable(Type.Integer({ minimum: 0 })),
          reason: Nullable(Type.String()),
          updated_at_ms: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: "the bridge withdraw runner's rows, the most recently changed first" },
)

/** The route's entry in the OpenAPI document (routes-openapi.ts). */
export const WITHDRAWAL_RESPONSES = {
  'GET /api/bridge/withdrawals': { summary: "The bridge withdraw runner's withdrawals", ok: WithdrawalsReply, bearer: true },
} as const

/** GET /api/bridge/withdrawals (Bearer). */
export function withdrawalRoutes(deps: { guard: AuthGuard; bridge: BridgeStore }) {
  return new Elysia().get(
    '/api/bridge/withdrawals',
    async ({ headers, query }) => {
      await deps.guard.admin(headers.authorization)
      const limit = Math.min(Number(query.limit ?? 100), WITHDRAWALS_PAGE_MAX)
      const rows = deps.bridge.listWithdrawals({ status: query.status as WithdrawalStatus | undefined, limit })
      return {
        withdrawals: rows.map(({ sent_tx_hashes, ...row }) => ({ ...row, sent_tx_hashes: JSON.parse(sent_tx_hashes) as string[] })),
      }
    },
    { query: WithdrawalsQuery },
  )
}
