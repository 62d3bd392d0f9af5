// Runs one component in a loop: checks its chain preconditions (the actions exist, the key holds
// the role), then calls cycle() every interval, and keeps the status the API reports.
import { RpcCallError } from '../../client/rpc-client.ts'
import { errorMessage, type Logger } from '../../lib/log.ts'
import type { RunnerStatus } from '../../wire/admin-replies.ts'
import { chainRoles } from '../auth/chain-roles.ts'
import { type Component, type ComponentContext, ComponentRefused, type ComponentSpec } from './component.ts'

/** Refusal reasons after which the preconditions are checked again before the next cycle. */
const RECHECK_REASONS = new Set(['UNAUTHORIZED', 'INVALID_PARAMS', 'UNKNOWN_SIGNER'])

/** How long stop() waits for a cycle in flight before leaving it to finish on its own. */
const STOP_WAIT_MS = 5_000

/** One component's loop and status; started and stopped by the RunnerSupervisor. */
export class PollingRunner {
  private readonly abort = new AbortController()
  private loop: Promise<void> | undefined
  private component: Component | undefined
  private ready = false
  private refused = false
  private readonly startedAtMs: number
  private lastSuccessMs: number | null = null
  private lastError: string | null = null
  private lastErrorMs: number | null = null
  private cycles = 0

  constructor(
    private readonly spec: ComponentSpec,
    private readonly ctx: ComponentContext,
  ) {
    this.startedAtMs = ctx.clock()
  }

  get log(): Logger {
    return this.ctx.log
  }

  start(): void {
    if (this.loop !== undefined) return
    this.ctx.log.info(`started with ${this.ctx.client.address}`)
    this.loop = this.run()
  }

  /**
   * Stops the loop; resolves once the cycle in flight (if any) has ended, or after STOP_WAIT_MS.
   * Then the signer's key is zeroed: a cycle still running past the wait can no longer sign.
   */
  async stop(): Promise<void> {
    this.abort.abort()
    if (this.loop !== undefined) await Promise.race([this.loop, Bun.sleep(STOP_WAIT_MS)])
    this.ctx.client.signer.dispose()
    this.ctx.log.info('stopped')
  }

  status(): RunnerStatus {
    const running = !this.abort.signal.aborted
    return {
      state: this.refused ? 'refused' : !running ? 'stopped' : this.ready ? 'running' : 'waiting',
      running: running && this.ready,
      address: this.ctx.client.address,
      started_at_ms: this.startedAtMs,
      last_success_ms: this.lastSuccessMs,
      last_error: this.lastError,
      last_error_ms: this.lastErrorMs,
      cycles: this.cycles,
      detail: this.component?.detail() ?? {},
    }
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal
    while (!signal.aborted) {
      await this.once(signal)
      if (signal.aborted || this.refused) break
      await sleep(this.spec.intervalMs, signal)
    }
  }

  private async once(signal: AbortSignal): Promise<void> {
    this.cycles++
    try {
      if (!this.ready) {
        await this.checkPreconditions()
        this.component ??= this.spec.create(this.ctx)
        this.ready = true
      }
      const report = await this.component!.cycle(signal)
      // Components log their own problems as they meet them; here they only become the status.
      if (report.problems.length === 0) this.lastSuccessMs = this.ctx.clock()
      else this.record(report.problems.join('; '))
    } catch (err) {
      if (signal.aborted) return
      if (err instanceof ComponentRefused) {
        this.refused = true
        this.ctx.log.error(`refused to start: ${err.message}`)
        this.record(err.message)
        return
      }
      if (err instanceof RpcCallError && RECHECK_REASONS.has(err.reason ?? '')) this.ready = false
      const message = errorMessage(err)
      // A failure that repeats every cycle is logged once, not every cycle.
      if (message !== this.lastError) this.ctx.log.warn(message)
      this.record(message)
    }
  }

  private record(message: string): void {
    this.lastError = message
    this.lastErrorMs = this.ctx.clock()
  }

  /** Throws a message an operator can act on when the chain or the key is not ready. */
  private async checkPreconditions(): Promise<void> {
    const rpc = this.ctx.client.rpc
    const meta = await rpc.query<{ actions: { name: string }[] }>('getActionsMeta')
    const offered = new Set(meta.data.actions.map((a) => a.name))
    const missing = this.spec.actions.filter((a) => !offered.has(a))
    if (missing.length > 0) throw new Error(`the node does not offer ${missing.join(', ')} (getActionsMeta); waiting for a node that does`)
    const roles = await chainRoles(rpc, this.ctx.client.address)
    // Checked at binding too; here again, for a role granted since (docs/admin.md#bindings).
    if (roles.includes('Admin')) {
      throw new Error(
        `the bound key ${this.ctx.client.address} holds the Admin role on chain; a runner never signs with an Admin key: revoke the role (RevokeRole) or bind another key`,
      )
    }
    if (this.spec.role !== null && !roles.includes(this.spec.role)) {
      throw new Error(
        `the bound key ${this.ctx.client.address} lacks the ${this.spec.role} role on chain (it has ${roles.join(', ') || 'none'}); grant it with GrantRole`,
      )
    }
    await this.spec.check?.(this.ctx)
  }
}

/** Sleeps ms, or less when signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
