// The hedging routes (docs/admin.md#hedging), all Bearer: accounts (keys uploaded ECIES-encrypted
// as POST /api/keys, sealed under the KEK), policies, the global config, order records, one
// reconciliation on demand and Book B's exposure on our chain. Errors: 400 {error, reason} naming
// the field, 404 for an unknown id, 409 for a conflict, 503 when the database (or the chain, for
// the stats) is unavailable.
import { Elysia } from 'elysia'
import type { QueryData } from '../../client/query-methods.ts'
import type { RpcClient } from '../../client/rpc-client.ts'
import { errorMessage, type Logger } from '../../lib/log.ts'
import type { ServerKey } from '../crypto/server-key.ts'
import type { AuthGuard } from '../http/auth-guard.ts'
import { HttpError } from '../http/errors.ts'
import { UUID_PATTERN } from '../http/helpers.ts'
import { readJsonObjectBody } from '../http/json-body.ts'
import { privateKeyOf } from '../http/routes-keys.ts'
import type { HedgeAccountStore } from './account-store.ts'
import { readBookBStats } from './book-b-stats.ts'
import type { HedgeEngine } from './engine.ts'
import type { HedgeOrderStore } from './order-store.ts'
import { fx } from './plan.ts'
import type { HedgePolicyStore } from './policy-store.ts'
import {
  HEDGE_ORDERS_PAGE_MAX,
  HEDGE_RATIO_MAX,
  HedgeAccountCreateBody,
  HedgeAccountUpdateBody,
  HedgeConfigBody,
  HedgeOrdersQuery,
  HedgePolicyBody,
} from './schemas.ts'

export interface HedgeRouteDeps {
  readonly guard: AuthGuard
  readonly serverKey: ServerKey
  readonly accounts: HedgeAccountStore
  readonly policies: HedgePolicyStore
  readonly orders: HedgeOrderStore
  readonly engine: HedgeEngine
  /** Our chain's read client. */
  readonly rpc: RpcClient
  readonly log: Logger
  readonly clock: () => number
}

const UUID = new RegExp(UUID_PATTERN)
const SYMBOL = /^[A-Za-z0-9]{1,10}-[A-Za-z0-9]{1,9}$/

/** A 400 naming the field, in the shape of the schema validation's. */
const invalid = (field: string, message: string) => new HttpError(400, 'INVALID_REQUEST', `invalid request: ${field}: ${message}`)

/** Body routes: no session is 401 before the body is looked at; then the JSON, which must be an object. */
const bodyHooks = (guard: AuthGuard) => ({
  parse: 'arrayBuffer' as const,
  transform(ctx: { headers: Record<string, string | undefined>; body: unknown }) {
    guard.session(ctx.headers.authorization)
    readJsonObjectBody(ctx)
  },
})

export function hedgeRoutes(deps: HedgeRouteDeps) {
  const { guard, serverKey, accounts, policies, orders, engine, log } = deps
  const accountMissing = (id: string) => new HttpError(404, 'HEDGE_ACCOUNT_NOT_FOUND', `no hedge account with id ${id.slice(0, 64)}`)

  /** Decrypts an uploaded venue key to its 32 bytes (the caller zeroes them); 400 on any failure. */
  const decryptKey = (ciphertext: { ephemeral_public_key: string; iv: string; ciphertext: string }, publicKey: string | undefined) => {
    const decrypted = serverKey.decrypt(ciphertext, publicKey)
    if (!decrypted.ok) throw new HttpError(400, decrypted.reason, `ciphertext: ${decrypted.message}`)
    try {
      return privateKeyOf(decrypted.plaintext)
    } finally {
      decrypted.plaintext.fill(0)
    }
  }

  /** Our external-peg markets (the ones Book B trades), for the default policies; none when the chain cannot say. */
  const bookBSymbols = async (): Promise<string[]> => {
    try {
      const markets = await deps.rpc.query<QueryData<'getMarkets'>>('getMarkets')
      return markets.data.filter((m) => m.routing === 'external_peg').map((m) => m.symbol)
    } catch (err) {
      log.warn(`no default hedge policies seeded: our chain's markets could not be read: ${errorMessage(err)}`)
      return []
    }
  }

  return new Elysia()
    .get('/api/hedge/accounts', async ({ headers }) => {
      await guard.admin(headers.authorization)
      return { accounts: accounts.list() }
    })
    .post(
      '/api/hedge/accounts',
      async ({ headers, body }) => {
        const session = await guard.admin(headers.authorization)
        const key = decryptKey(body.ciphertext, body.public_key)
        try {
          const symbols = await bookBSymbols()
          let seeded: string[] = []
          const created = accounts.create({
            name: body.name,
            privateKey: key,
            actor: session.address,
            seed: (tx, id, now) => {
              seeded = policies.seedDefaults(tx, symbols, id, now, session.address)
            },
          })
          if (!created.ok) {
            throw new HttpError(
              400,
              'DUPLICATE_ADDRESS',
              `ciphertext: a hedge account with this address already exists (id ${created.existingId})`,
              {
                id: created.existingId,
              },
            )
          }
          log.info(
            `hedge account ${created.account.id} (${created.account.address}) added by ${session.address}; default policies: ${seeded.join(', ') || 'none'}`,
          )
          return { ok: true, account: created.account, seeded_policies: seeded }
        } finally {
          key.fill(0)
        }
      },
      { body: HedgeAccountCreateBody, ...bodyHooks(guard) },
    )
    .put(
      '/api/hedge/accounts/:id',
      async ({ headers, params, body }) => {
        const session = await guard.admin(headers.authorization)
        if (!UUID.test(params.id)) throw accountMissing(params.id)
        if (body.name === undefined && body.ciphertext === undefined && body.enabled === undefined) {
          throw invalid('body', 'give at least one of name, ciphertext, enabled')
        }
        const key = body.ciphertext === undefined ? undefined : decryptKey(body.ciphertext, body.public_key)
        try {
          const outcome = accounts.update(params.id.toLowerCase(), {
            ...(body.name === undefined ? {} : { name: body.name }),
            ...(key === undefined ? {} : { privateKey: key }),
            ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
            actor: session.address,
          })
          if (outcome === 'missing') throw accountMissing(params.id)
          if (outcome !== 'ok') {
            throw new HttpError(
              400,
              'DUPLICATE_ADDRESS',
              `ciphertext: another hedge account (id ${outcome.duplicateOf}) has this address`,
              {
                id: outcome.duplicateOf,
              },
            )
          }
          log.info(`hedge account ${params.id} changed by ${session.address}`)
          return { ok: true }
        } finally {
          key?.fill(0)
        }
      },
      { body: HedgeAccountUpdateBody, ...bodyHooks(guard) },
    )
    .delete('/api/hedge/accounts/:id', async ({ headers, params }) => {
      const session = await guard.admin(headers.authorization)
      if (!UUID.test(params.id)) throw accountMissing(params.id)
      const id = params.id.toLowerCase()
      const busy = orders.inFlight().filter((r) => r.account_id === id)
      if (busy.length > 0) {
        throw new HttpError(
          409,
          'ORDERS_IN_FLIGHT',
          `hedge account ${id} has ${busy.length} orders still in flight (${busy.map((r) => r.id).join(', ')}); reconcile first (POST /api/hedge/orders/reconcile)`,
        )
      }
      if (!accounts.delete(id, session.address)) throw accountMissing(params.id)
      log.info(`hedge account ${id} deleted by ${session.address}`)
      return { ok: true }
    })
    .get('/api/hedge/policies', async ({ headers }) => {
      await guard.admin(headers.authorization)
      return { policies: policies.list() }
    })
    .put(
      '/api/hedge/policies',
      async ({ headers, body }) => {
        const session = await guard.admin(headers.authorization)
        if (fx(body.hedge_ratio) > fx(HEDGE_RATIO_MAX)) throw invalid('hedge_ratio', `at most ${HEDGE_RATIO_MAX}`)
        const min = body.min_order_sz ?? null
        const max = body.max_order_sz ?? null
        if (max !== null && fx(max) === 0n) throw invalid('max_order_sz', 'must be above 0')
        if (min !== null && max !== null && fx(min) > fx(max)) throw invalid('max_order_sz', `below min_order_sz ${min}`)
        const accountId = body.account_id?.toLowerCase() ?? null
        if (accountId !== null && accounts.get(accountId) === undefined)
          throw invalid('account_id', `no hedge account with id ${accountId}`)
        const symbol = body.market_symbol.toUpperCase()
        policies.upsert(
          {
            market_symbol: symbol,
            hedge_ratio: body.hedge_ratio,
            hedge_mode: body.hedge_mode,
            account_id: accountId,
            enabled: body.enabled,
            threshold_notional: body.threshold_notional ?? null,
            min_order_sz: min,
            max_order_sz: max,
          },
          session.address,
        )
        log.info(`hedge policy ${symbol} set by ${session.address}`)
        return { ok: true }
      },
      { body: HedgePolicyBody, ...bodyHooks(guard) },
    )
    .delete('/api/hedge/policies/:symbol', async ({ headers, params }) => {
      const session = await guard.admin(headers.authorization)
      const symbol = safeDecode(params.symbol)
      const missing = new HttpError(404, 'POLICY_NOT_FOUND', `no hedge policy for ${JSON.stringify(symbol.slice(0, 40))}`)
      if (!SYMBOL.test(symbol)) throw missing
      if (!policies.delete(symbol.toUpperCase(), session.address)) throw missing
      log.info(`hedge policy ${symbol.toUpperCase()} deleted by ${session.address}`)
      return { ok: true }
    })
    .get('/api/hedge/config', async ({ headers }) => {
      await guard.admin(headers.authorization)
      return policies.config()
    })
    .put(
      '/api/hedge/config',
      async ({ headers, body }) => {
        const session = await guard.admin(headers.authorization)
        const change = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined))
        if (Object.keys(change).length > 0) {
          policies.setConfig(change, session.address)
          log.info(`hedge config ${JSON.stringify(change)} set by ${session.address}`)
        }
        return { ok: true }
      },
      { body: HedgeConfigBody, ...bodyHooks(guard) },
    )
    .get(
      '/api/hedge/orders',
      async ({ headers, query }) => {
        await guard.admin(headers.authorization)
        const limit = query.limit === undefined ? 50 : Number(query.limit)
        const offset = query.offset === undefined ? 0 : Number(query.offset)
        if (limit < 1 || limit > HEDGE_ORDERS_PAGE_MAX) throw invalid('limit', `from 1 to ${HEDGE_ORDERS_PAGE_MAX}`)
        const page = orders.page({
          ...(query.account_id === undefined ? {} : { accountId: query.account_id.toLowerCase() }),
          ...(query.symbol === undefined ? {} : { symbol: query.symbol.toUpperCase() }),
          limit,
          offset,
        })
        return { orders: page.orders, total: page.total, offset, limit }
      },
      { query: HedgeOrdersQuery },
    )
    .post('/api/hedge/orders/reconcile', async ({ headers }) => {
      const session = await guard.admin(headers.authorization)
      engine.reconcile(session.address).catch((err) => log.error(`reconcile failed: ${errorMessage(err)}`))
      return { ok: true, triggered: true }
    })
    .get('/api/hedge/book-b-stats', async ({ headers }) => {
      await guard.admin(headers.authorization)
      try {
        return await readBookBStats(deps.rpc, deps.clock)
      } catch (err) {
        throw new HttpError(503, 'CHAIN_UNAVAILABLE', `chain RPC unavailable: ${errorMessage(err)}`)
      }
    })
}

/** A path segment decoded once more if Elysia left escapes in it; the raw text when it is not valid escaping. */
function safeDecode(s: string): string {
  try {
    return s.includes('%') ? decodeURIComponent(s) : s
  } catch {
    return s
  }
}
