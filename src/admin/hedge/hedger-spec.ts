// The hedger as a runner component (bound with PUT /api/service-config {service: "hedger"}): every
// interval_ms of the hedge config (read before each sleep, so a PUT /api/hedge/config takes effect
// at the next one) it runs one HedgeEngine cycle. It signs nothing on our chain: the bound key needs
// no role (it must not be an Admin key, as every runner's); the venue accounts are the hedge accounts.
import type { ComponentSpec } from '../runners/component.ts'
import type { HedgeEngine } from './engine.ts'
import type { HedgePolicyStore } from './policy-store.ts'

/** The interval used while the config cannot be read. */
const FALLBACK_INTERVAL_MS = 10_000

export function hedgerSpec(engine: HedgeEngine, policies: HedgePolicyStore): ComponentSpec {
  return {
    service: 'hedger',
    role: null,
    actions: [],
    get intervalMs() {
      try {
        return policies.config().interval_ms
      } catch {
        return FALLBACK_INTERVAL_MS
      }
    },
    create: () => ({
      async cycle(signal) {
        return { problems: await engine.cycle(signal) }
      },
      detail: () => engine.detail(),
    }),
  }
}
