// Owns the running components: one PollingRunner per bound and enabled service. Applying a binding
// stops the old runner and starts a new one with a signer for the bound key (the hot restart of
// docs/admin.md#bindings). Changes to one service are serialized; services are independent.
import { PerpdClient } from '../../client/perpd-client.ts'
import { errorMessage, type Logger } from '../../lib/log.ts'
import type { RunnerStatus } from '../../wire/admin-replies.ts'
import type { Binding, ServiceName } from '../store/bindings.ts'
import type { KeyStore } from '../store/key-store.ts'
import type { ComponentSpec } from './component.ts'
import { PollingRunner } from './polling-runner.ts'

/** What the supervisor needs to build runners. */
export interface SupervisorDeps {
  readonly nodeUrl: string
  /** The components this build has; a service without one is reported as unavailable. */
  readonly specs: Partial<Record<ServiceName, ComponentSpec>>
  readonly keys: KeyStore
  readonly log: Logger
  readonly clock: () => number
}

/** The set of running components, one per service at most. */
export class RunnerSupervisor {
  private readonly runners = new Map<ServiceName, PollingRunner>()
  /** Why a bound service could not start (its key would not open…), until the next apply. */
  private readonly startErrors = new Map<ServiceName, { message: string; atMs: number }>()
  private readonly queues = new Map<ServiceName, Promise<void>>()

  constructor(private readonly deps: SupervisorDeps) {}

  /** Restarts `service` for its new binding; resolves once the old runner stopped and the new one started. */
  apply(service: ServiceName, binding: Binding): Promise<void> {
    const previous = this.queues.get(service) ?? Promise.resolve()
    const next = previous.then(() => this.restart(service, binding))
    this.queues.set(service, next)
    return next
  }

  /** The status of a service under its current binding. */
  status(service: ServiceName, binding: Binding): RunnerStatus {
    const runner = this.runners.get(service)
    if (runner !== undefined) return runner.status()
    const startError = this.startErrors.get(service)
    const idle = (state: RunnerStatus['state'], lastError: string | null): RunnerStatus => ({
      state,
      running: false,
      address: binding.address,
      started_at_ms: null,
      last_success_ms: null,
      last_error: lastError,
      last_error_ms: lastError === null ? null : (startError?.atMs ?? null),
      cycles: 0,
      detail: {},
    })
    if (this.deps.specs[service] === undefined) {
      return idle('unavailable', `this build of perpd-admin has no ${service} component; the binding is kept for the version that does`)
    }
    if (binding.key_id === null) return idle('stopped', null)
    if (!binding.enabled) return idle('disabled', null)
    return idle('stopped', startError?.message ?? null)
  }

  /**
   * Keeps `service` from starting for this binding, with the reason in its status (a key an earlier
   * version let two services share); the next apply clears it.
   */
  refuse(service: ServiceName, message: string): void {
    this.deps.log.child(service).error(message)
    this.startErrors.set(service, { message, atMs: this.deps.clock() })
  }

  /** Stops every runner (shutdown). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.queues.values()])
    await Promise.all([...this.runners.values()].map((r) => r.stop()))
    this.runners.clear()
  }

  private async restart(service: ServiceName, binding: Binding): Promise<void> {
    const old = this.runners.get(service)
    this.runners.delete(service)
    this.startErrors.delete(service)
    if (old !== undefined) await old.stop()
    const spec = this.deps.specs[service]
    if (spec === undefined || binding.key_id === null || !binding.enabled) return
    const log = this.deps.log.child(service)
    let client: PerpdClient
    let privateKey: Uint8Array | undefined
    try {
      privateKey = this.deps.keys.openPrivateKey(binding.key_id)
      if (privateKey === undefined) throw new Error(`key ${binding.key_id} no longer exists`)
      // The client's signer takes the bytes over; the runner disposes of it (zeroing them) when it stops.
      client = new PerpdClient({ url: this.deps.nodeUrl, privateKey })
    } catch (err) {
      privateKey?.fill(0)
      const message = `cannot start with key ${binding.key_id}: ${errorMessage(err)}`
      log.error(message)
      this.startErrors.set(service, { message, atMs: this.deps.clock() })
      return
    }
    const runner = new PollingRunner(spec, { client, log, clock: this.deps.clock })
    this.runners.set(service, runner)
    runner.start()
  }
}
