// The contract between the runner framework and one operator component (oracle, liquidator,
// bridge, and the hedger of the next issue): what it needs from the chain, and one cycle of work.
import type { PerpdClient } from '../../client/perpd-client.ts'
import type { Logger } from '../../lib/log.ts'
import type { ServiceName } from '../store/bindings.ts'

/** What a cycle reports besides success: partial failures (a rejected quote, a refused liquidation). */
export interface CycleReport {
  readonly problems: readonly string[]
}

/** One running component. The runner calls cycle() on its interval, never two at once. */
export interface Component {
  /** Does one round of work; throws when the round failed as a whole (the node is down…). */
  cycle(signal: AbortSignal): Promise<CycleReport>
  /** Component-specific figures for GET /api/service-config (counts, last items, pause state). */
  detail(): Record<string, unknown>
}

/** What a component is built with: a client that signs with the bound key, and its logger. */
export interface ComponentContext {
  readonly client: PerpdClient
  readonly log: Logger
  readonly clock: () => number
}

/** How to run one service: its chain requirements, its interval and how to build it. */
export interface ComponentSpec {
  readonly service: ServiceName
  /** The on-chain role the bound key must hold (checked before the first cycle); null: none (the hedger signs nothing on our chain). */
  readonly role: string | null
  /** The chain actions it sends; it waits, and says so, until getActionsMeta lists them. */
  readonly actions: readonly string[]
  readonly intervalMs: number
  /**
   * Checks, after the role, what the chain must say for this configuration to run (the withdraw
   * runner without a payout endpoint runs on the dev network only). Throws ComponentRefused to
   * refuse for good (the runner stops, in state `refused`), anything else to wait and check again.
   */
  check?(ctx: ComponentContext): Promise<void>
  /** Builds the component; throws (with an operator-facing message) when it cannot run as configured. */
  create(ctx: ComponentContext): Component
}

/** The component may not run as configured; the message says what to change (state `refused`). */
export class ComponentRefused extends Error {
  override readonly name = 'ComponentRefused'
}

/**
 * One cycle over a list of work items: handles at most `max` of them in order, one at a time (one
 * signer, one nonce sequence), and stops early when `signal` aborts. `handle` returns a problem
 * line (already logged) or undefined; the report lists the problems.
 */
export async function handleEach<T>(
  items: readonly T[],
  max: number,
  signal: AbortSignal,
  handle: (item: T) => Promise<string | undefined>,
): Promise<CycleReport> {
  const problems: string[] = []
  for (const item of items.slice(0, max)) {
    if (signal.aborted) break
    const problem = await handle(item)
    if (problem !== undefined) problems.push(problem)
  }
  return { problems }
}
