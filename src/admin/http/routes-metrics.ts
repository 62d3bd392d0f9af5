// GET /metrics of the admin service in the Prometheus text format (src/lib/metrics.ts; the list and
// the alerts worth setting: docs/operator.md#metrics), and the hooks that count every HTTP reply.
// Runner states are read from the supervisor at scrape time. Unauthenticated like /api/health: it
// says which runners run, never a key or an address; keep the port on a private network.
import { Elysia } from 'elysia'
import { Registry, routeFamily, type Sample } from '../../lib/metrics.ts'
import type { RunnerStatus } from '../../wire/admin-replies.ts'
import { HEDGE_ORDER_STATUSES } from '../hedge/schemas.ts'
import { type Binding, SERVICE_NAMES, type ServiceName } from '../store/bindings.ts'

export const ADMIN_METRICS_PATH = '/metrics'

const RUNNER_STATES: readonly RunnerStatus['state'][] = ['stopped', 'disabled', 'unavailable', 'waiting', 'refused', 'running']

/** The bridge_withdraw runner's counts in its status detail, as perpd_admin_payouts_total outcomes. */
const PAYOUT_OUTCOMES = ['claimed', 'paid', 'settled', 'refunded'] as const

const ROUTE_FAMILIES: ReadonlyMap<string, string> = new Map([
  ['auth', 'auth'],
  ['keys', 'keys'],
  ['service-config', 'services'],
  ['audit', 'audit'],
  ['health', 'health'],
  ['metrics', 'metrics'],
  ['hedge', 'hedge'],
])

export interface AdminMetricsDeps {
  /** The status of each service under its binding (RunnerSupervisor.status). */
  readonly status: (service: ServiceName, binding: Binding) => RunnerStatus
  readonly bindings: () => Record<ServiceName, Binding>
  readonly clock: () => number
  /** Hedge order records per status (HedgeOrderStore.countsByStatus), read at scrape time. */
  readonly hedgeOrdersByStatus?: () => Record<string, number>
}

const STARTED = Symbol('perpd-admin.requestStarted')

export function metricsRoutes(deps: AdminMetricsDeps) {
  const registry = new Registry()
  const requests = registry.counter(
    'perpd_admin_http_requests_total',
    'HTTP requests answered by the admin service, by route family and status',
    ['route_family', 'status'],
  )
  const duration = registry.histogram('perpd_admin_http_request_duration_seconds', 'time from a request to its reply, by route family', [
    'route_family',
  ])
  const state = registry.gauge('perpd_admin_runner_state', 'the state of each runner: 1 for the current one, 0 for the others', [
    'runner',
    'state',
  ])
  const lastSuccessAge = registry.gauge(
    'perpd_admin_runner_last_success_age_seconds',
    'seconds since the runner last completed a cycle (absent: never, since the service started)',
    ['runner'],
  )
  const payouts = registry.counter(
    'perpd_admin_payouts_total',
    'withdrawals the bridge_withdraw runner took a step further since it started, by outcome (claimed, paid, settled, refunded)',
    ['outcome'],
  )
  const hedgeOrders = registry.gauge('perpd_admin_hedge_orders', 'hedge order records by status (docs/admin.md#hedge-order-states)', [
    'status',
  ])
  registry.onScrape(() => {
    if (deps.hedgeOrdersByStatus !== undefined) {
      try {
        const counts = deps.hedgeOrdersByStatus()
        for (const status of HEDGE_ORDER_STATUSES) hedgeOrders.labels(status).value = counts[status] ?? 0
      } catch {
        // The database is unavailable right now: the gauges keep their last values; the scrape still answers.
      }
    }
    const bindings = deps.bindings()
    const now = deps.clock()
    lastSuccessAge.reset()
    for (const runner of SERVICE_NAMES) {
      const s = deps.status(runner, bindings[runner])
      for (const st of RUNNER_STATES) state.labels(runner, st).value = s.state === st ? 1 : 0
      if (s.last_success_ms !== null) lastSuccessAge.labels(runner).value = Math.max(0, (now - s.last_success_ms) / 1000)
      if (runner === 'bridge_withdraw') {
        for (const outcome of PAYOUT_OUTCOMES) {
          const n = s.detail[outcome]
          payouts.labels(outcome).value = typeof n === 'number' ? n : 0
        }
      }
    }
  })
  const children = new Map<string, Map<number, Sample>>()
  return new Elysia({ name: 'perpd-admin-metrics' })
    .onRequest(({ request }) => {
      ;(request as unknown as Record<symbol, number>)[STARTED] = performance.now()
    })
    .onAfterResponse({ as: 'global' }, ({ request, set, responseValue }) => {
      const family = routeFamily(request.url, '/api/', ROUTE_FAMILIES)
      const status = responseValue instanceof Response ? responseValue.status : typeof set.status === 'number' ? set.status : 200
      let byStatus = children.get(family)
      if (byStatus === undefined) {
        byStatus = new Map()
        children.set(family, byStatus)
      }
      let child = byStatus.get(status)
      if (child === undefined) {
        child = requests.labels(family, String(status))
        byStatus.set(status, child)
      }
      child.value++
      const started = (request as unknown as Record<symbol, number | undefined>)[STARTED]
      duration.labels(family).observe(started === undefined ? 0 : (performance.now() - started) / 1000)
    })
    .get(ADMIN_METRICS_PATH, () => registry.response())
}
