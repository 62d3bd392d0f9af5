// The liquidator (docs/admin.md#liquidation-runner): polls getLiquidatablePositions and submits
// LiquidatePosition for each position it lists, one at a time (one signer, one nonce sequence).
import { liquidatePosition } from '../../client/actions.ts'
import { type Component, type ComponentContext, type ComponentSpec, type CycleReport, handleEach } from './component.ts'
import { sendAction } from './send-outcome.ts'

/** Liquidations one cycle submits at most; the rest wait for the next cycle. */
export const LIQUIDATIONS_PER_CYCLE_MAX = 64

/** A liquidatable position as the node lists it (extra fields are ignored). */
interface Liquidatable {
  readonly address: string
  readonly market_id: number
}

/** The liquidator's ComponentSpec (role Liquidator, action LiquidatePosition). */
export function liquidatorSpec(options: { intervalMs: number }): ComponentSpec {
  return {
    service: 'liquidator',
    role: 'Liquidator',
    actions: ['LiquidatePosition'],
    intervalMs: options.intervalMs,
    create: (ctx) => new LiquidatorComponent(ctx),
  }
}

/** The positions of a getLiquidatablePositions reply: a list, or an object holding `positions`. */
export function liquidatablePositions(data: unknown): Liquidatable[] {
  const list = Array.isArray(data)
    ? data
    : Array.isArray((data as { positions?: unknown })?.positions)
      ? (data as { positions: unknown[] }).positions
      : []
  const out: Liquidatable[] = []
  for (const item of list) {
    const p = item as { address?: unknown; account?: unknown; market_id?: unknown }
    const address = typeof p.address === 'string' ? p.address : typeof p.account === 'string' ? p.account : undefined
    if (address !== undefined && typeof p.market_id === 'number') out.push({ address, market_id: p.market_id })
  }
  return out
}

/** Liquidates what getLiquidatablePositions lists, up to LIQUIDATIONS_PER_CYCLE_MAX a cycle. */
export class LiquidatorComponent implements Component {
  private submitted = 0
  private liquidated = 0
  private failed = 0
  private lastSeen = 0

  constructor(private readonly ctx: ComponentContext) {}

  async cycle(signal: AbortSignal): Promise<CycleReport> {
    const positions = liquidatablePositions((await this.ctx.client.rpc.query('getLiquidatablePositions')).data)
    this.lastSeen = positions.length
    return handleEach(positions, LIQUIDATIONS_PER_CYCLE_MAX, signal, (p) => this.liquidate(p))
  }

  detail(): Record<string, unknown> {
    return { liquidatable_last_cycle: this.lastSeen, submitted: this.submitted, liquidated: this.liquidated, failed: this.failed }
  }

  /** Submits one LiquidatePosition; a problem line, or undefined once it is liquidated. */
  private async liquidate(p: Liquidatable): Promise<string | undefined> {
    this.submitted++
    const outcome = await sendAction(this.ctx.client, liquidatePosition({ address: p.address, market_id: p.market_id }))
    const what = `LiquidatePosition ${p.address} market ${p.market_id}`
    if (outcome.kind === 'accepted') {
      this.liquidated++
      this.ctx.log.info(`${what}: liquidated at height ${outcome.reply.height}`)
      return undefined
    }
    this.failed++
    const line = `${what}: ${outcome.kind} ${outcome.reason} (${outcome.message})`
    this.ctx.log.warn(line)
    return line
  }
}
