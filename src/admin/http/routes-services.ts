// Service bindings (docs/admin.md#bindings): which key each component signs with, and the hot
// restart of the component when its binding changes. Each service's entry also carries its runner's
// status. A key serves one service (two runners never share a nonce sequence), and a key holding
// Admin on chain is never bound: a runner's key sits decrypted in a long-lived process.
import { Type } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import type { RpcClient } from '../../client/rpc-client.ts'
import type { Logger } from '../../lib/log.ts'
import { chainRoles } from '../auth/chain-roles.ts'
import type { RunnerSupervisor } from '../runners/supervisor.ts'
import { type BindingStore, SERVICE_NAMES, type ServiceName } from '../store/bindings.ts'
import type { KeyStore } from '../store/key-store.ts'
import type { AuthGuard } from './auth-guard.ts'
import { HttpError } from './errors.ts'
import { UUID_PATTERN } from './helpers.ts'
import { readJsonBody } from './json-body.ts'

/** PUT /api/service-config body. */
export const ServiceConfigBody = Type.Object({
  service: Type.Union(
    SERVICE_NAMES.map((s) => Type.Literal(s)),
    { error: `service must be one of ${SERVICE_NAMES.join(', ')}` },
  ),
  key_id: Type.Union([Type.String({ pattern: UUID_PATTERN }), Type.Null()], { description: 'the key to sign with; null unbinds' }),
  enabled: Type.Boolean({ description: 'false keeps the binding but stops the component' }),
})

/** What the service-config routes need. */
export interface ServiceRouteDeps {
  readonly guard: AuthGuard
  readonly rpc: RpcClient
  readonly keys: KeyStore
  readonly bindings: BindingStore
  readonly supervisor: RunnerSupervisor
  readonly log: Logger
}

/** GET and PUT /api/service-config. */
export function serviceRoutes(deps: ServiceRouteDeps) {
  const { guard, rpc, keys, bindings, supervisor, log } = deps
  const inUse = (keyId: string, services: readonly string[]) =>
    new HttpError(
      409,
      'KEY_IN_USE',
      `key ${keyId} is bound to ${services.join(', ')}; a key serves one service (one nonce sequence per runner): upload another key for this one, or unbind it there first`,
      { used_by: services },
    )
  const view = () => {
    const all = bindings.all()
    const services: Record<string, unknown> = {}
    for (const s of SERVICE_NAMES) services[s] = { ...all[s], status: supervisor.status(s, all[s]) }
    return { services }
  }
  return new Elysia()
    .get('/api/service-config', async ({ headers }) => {
      await guard.admin(headers.authorization)
      return view()
    })
    .put(
      '/api/service-config',
      async ({ headers, body }) => {
        const session = await guard.admin(headers.authorization)
        const service = body.service as ServiceName
        const keyId = body.key_id === null ? null : body.key_id.toLowerCase()
        const keyMissing = () => new HttpError(400, 'KEY_NOT_FOUND', `no key with id ${keyId}; upload it first (POST /api/keys)`)
        if (keyId !== null) {
          const key = keys.get(keyId)
          if (key === undefined) throw keyMissing()
          const others = bindings.otherServicesOf(keyId, service)
          if (others.length > 0) throw inUse(keyId, others)
          const roles = await chainRoles(rpc, key.address)
          if (roles.includes('Admin')) {
            throw new HttpError(
              409,
              'KEY_IS_ADMIN',
              `key ${keyId} (${key.address}) holds the Admin role on chain; a runner's key stays decrypted in this process, so it must never be an Admin key: bind a key that holds the role ${service} needs and not Admin (docs/admin.md#bindings)`,
            )
          }
        }
        const outcome = bindings.set({ service, keyId, enabled: body.enabled, actor: session.address })
        if (outcome === 'key-missing') throw keyMissing()
        if (outcome !== 'ok') throw inUse(keyId!, outcome.inUse)
        const binding = bindings.all()[service]
        log.info(
          `${service} ${keyId === null ? 'unbound' : `bound to ${keyId} (${binding.address})`}, enabled ${body.enabled}, by ${session.address}`,
        )
        // The hot restart: the old runner stops and a new one starts with a signer for the key.
        await supervisor.apply(service, binding)
        return { ok: true, status: supervisor.status(service, binding) }
      },
      {
        parse: 'arrayBuffer',
        body: ServiceConfigBody,
        // No session is 401 before the body is looked at.
        transform(ctx) {
          guard.session(ctx.headers.authorization)
          readJsonBody(ctx)
        },
      },
    )
}
