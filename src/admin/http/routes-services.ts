// Service bindings (docs/admin.md#bindings): which key each component signs with, and the hot
// restart of the component when its binding changes. Each service's entry also carries its runner's
// status.
import { Type } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import type { AuthGuard } from './auth-guard.ts'
import { SERVICE_NAMES, type BindingStore, type ServiceName } from '../store/bindings.ts'
import { HttpError } from './errors.ts'
import { UUID_PATTERN } from './helpers.ts'
import { readJsonBody } from './json-body.ts'
import type { Logger } from '../../lib/log.ts'
import type { RunnerSupervisor } from '../runners/supervisor.ts'

/** PUT /api/service-config body. */
export const ServiceConfigBody = Type.Object({
  service: Type.Union(SERVICE_NAMES.map((s) => Type.Literal(s)), { error: `service must be one of ${SERVICE_NAMES.join(', ')}` }),
  key_id: Type.Union([Type.String({ pattern: UUID_PATTERN }), Type.Null()], { description: 'the key to sign with; null unbinds' }),
  enabled: Type.Boolean({ description: 'false keeps the binding but stops the component' }),
})

/** What the service-config routes need. */
export interface ServiceRouteDeps {
  readonly guard: AuthGuard
  readonly bindings: BindingStore
  readonly supervisor: RunnerSupervisor
  readonly log: Logger
}

/** GET and PUT /api/service-config. */
export function serviceRoutes(deps: ServiceRouteDeps) {
  const { guard, bindings, supervisor, log } = deps
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
    .put('/api/service-config', async ({ headers, body }) => {
      const session = await guard.admin(headers.authorization)
      const service = body.service as ServiceName
      const keyId = body.key_id === null ? null : body.key_id.toLowerCase()
      if (bindings.set({ service, keyId, enabled: body.enabled, actor: session.address }) === 'key-missing') {
        throw new HttpError(400, 'KEY_NOT_FOUND', `no key with id ${keyId}; upload it first (POST /api/keys)`)
      }
      const binding = bindings.all()[service]
      log.info(`${service} ${keyId === null ? 'unbound' : `bound to ${keyId} (${binding.address})`}, enabled ${body.enabled}, by ${session.address}`)
      // The hot restart: the old runner stops and a new one starts with a signer for the key.
      await supervisor.apply(service, binding)
      return { ok: true, status: supervisor.status(service, binding) }
    }, {
      parse: 'arrayBuffer',
      body: ServiceConfigBody,
      // No session is 401 before the body is looked at.
      transform(ctx) {
        guard.session(ctx.headers.authorization)
        readJsonBody(ctx)
      },
    })
}
