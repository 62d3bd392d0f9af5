// The development quoter of `perpd --dev`: keeps the dev network's external-peg markets (XAU-USD)
// quoted, so they are Active and trade without the admin service's oracle. Each market's price is a
// deterministic random walk (a seeded PRNG, lib/prng.ts) starting from its latest quote or mark.
// Quotes are SubmitOracleQuote actions signed by the dev Quoter key (development account #7) and
// sent through ChainNode.submit, the admission path of POST /api/v1/action: they are envelopes in
// blocks like any quoter's, never writes into the state. `--no-dev-quoter` turns it off.
import { type ChainState, lowestUnusedNonce, type Market, ROLES } from '../chain/index.ts'
import { formatDecimal } from '../lib/decimal.ts'
import { createLogger, type Logger } from '../lib/log.ts'
import { mulberry32Unit } from '../lib/prng.ts'
import { QUOTES_PER_BATCH_MAX } from '../wire/actions.ts'
import { addressOfPrivateKey, l1Digest, signDigest, sourceForNetwork, type WireSignature } from '../wire/signing.ts'
import type { ActionResult } from './action-result.ts'
import { DEV_PRIVATE_KEYS } from './dev-banner.ts'
import { DEV_QUOTER_INDEX } from './dev-genesis.ts'

/** What the quoter needs of the node: its state, the /action admission path, its stop. */
export interface QuoterNode {
  readonly state: ChainState
  submit(params: unknown): Promise<ActionResult>
  onStop(listener: () => void): void
}

export interface DevQuoterOptions {
  /** The network name the actions are signed for (the genesis `network`). */
  readonly network: string
  /** Time between two quotes of a market, before the markets' min_quote_interval_ms and max_quote_lag_ms bound it; default 1000. */
  readonly intervalMs?: number
  /** The random walk's seed (the market id is added per market); default DEV_QUOTER_SEED. */
  readonly seed?: number
  /** The signing key; default the dev Quoter's (development account #7). */
  readonly privateKey?: string
  /** Wall clock in ms (source_ts_ms); default Date.now. */
  readonly now?: () => number
  readonly logger?: Logger
}

export const DEV_QUOTER_SEED = 0x5eed
/** Each step moves the price by at most this many bps (a walk well inside any max_quote_change_bps). */
const STEP_BPS_MAX = 5
/** Half the bid-ask spread, bps of the price (at least one tick each side). */
const HALF_SPREAD_BPS = 2

/** A market's walk: its price in ticks and its generator. */
interface Walk {
  priceTicks: number
  readonly random: () => number
}

/**
 * The interval the quoter runs at: `wanted`, at least every market's min_quote_interval_ms (plus
 * a margin for block timing) and at most a third of its max_quote_lag_ms, so a quote or two can be
 * late without the market going stale.
 */
export function quoteIntervalMs(markets: readonly Market[], wanted: number): number {
  let at = wanted
  for (const m of markets) at = Math.max(at, m.quoteLimits.minIntervalMs * 2)
  for (const m of markets) at = Math.min(at, Math.floor(m.quoteLimits.maxLagMs / 3))
  return Math.max(at, 10)
}

/** The external-peg markets the quoter keeps quoted (not delisted). */
export function quotedMarkets(state: ChainState): Market[] {
  return [...state.markets.values()].filter((m) => m.routing === 'external_peg' && m.lifecycle !== 'Delisted')
}

/** The next price of a walk in ticks: one step of at most STEP_BPS_MAX bps, within the market's price bounds. */
export function stepPrice(priceTicks: number, random: () => number, m: Pick<Market, 'quoteLimits'>): number {
  const bps = (random() * 2 - 1) * STEP_BPS_MAX
  let next = Math.round(priceTicks * (1 + bps / 10_000))
  const lo = Math.max(1, m.quoteLimits.minPriceTicks)
  const hi = m.quoteLimits.maxPriceTicks > 0 ? m.quoteLimits.maxPriceTicks : Number.MAX_SAFE_INTEGER
  // Room for the spread inside the bounds.
  const half = halfSpreadTicks(next, m)
  next = Math.min(Math.max(next, lo + half), Math.max(lo + half, hi - half))
  return next
}

function halfSpreadTicks(priceTicks: number, m: Pick<Market, 'quoteLimits'>): number {
  // Within max_quote_spread_bps (ask - bid in bps of the bid), and at least a tick.
  const bps = Math.min(HALF_SPREAD_BPS, m.quoteLimits.maxSpreadBps / 4)
  return Math.max(1, Math.floor((priceTicks * bps) / 10_000))
}

export class DevQuoter {
  private readonly key: string
  readonly address: string
  private readonly walks = new Map<number, Walk>()
  private readonly now: () => number
  private readonly log: Logger
  private timer: ReturnType<typeof setTimeout> | undefined
  private stopped = false
  private lastSourceTs = 0
  private lastProblem = ''

  constructor(
    private readonly node: QuoterNode,
    private readonly options: DevQuoterOptions,
  ) {
    this.key = options.privateKey ?? DEV_PRIVATE_KEYS[DEV_QUOTER_INDEX]!
    this.address = addressOfPrivateKey(this.key)
    this.now = options.now ?? Date.now
    this.log = options.logger ?? createLogger('dev-quoter')
  }

  /** Starts quoting (the node must be producing blocks); stops with the node. */
  start(): this {
    this.node.onStop(() => this.stop())
    const markets = quotedMarkets(this.node.state)
    this.log.info(
      `dev quoter: quoting ${markets.map((m) => m.symbol).join(', ') || 'no market'} every ${quoteIntervalMs(markets, this.options.intervalMs ?? 1_000)} ms as ${this.address} (--no-dev-quoter turns it off)`,
    )
    this.schedule(0)
    return this
  }

  stop(): void {
    this.stopped = true
    if (this.timer !== undefined) clearTimeout(this.timer)
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return
    this.timer = setTimeout(() => {
      const started = this.now()
      void this.quoteOnce()
        .catch((err: Error) => this.problem(`dev quoter: ${err.message}`))
        .finally(() => {
          const interval = quoteIntervalMs(quotedMarkets(this.node.state), this.options.intervalMs ?? 1_000)
          this.schedule(Math.max(0, interval - (this.now() - started)))
        })
    }, delayMs)
  }

  /** The signed SubmitOracleQuote params of the next quote of every quoted market, or undefined when there is none to send. */
  nextQuote(): { action: Record<string, unknown>; nonce: number; signature: WireSignature } | undefined {
    const state = this.node.state
    const account = state.accounts.get(this.address)
    if (account === undefined || (account.roleMask & ROLES.Quoter) === 0) {
      this.problem(`dev quoter: ${this.address} does not hold the Quoter role in this genesis; not quoting`)
      return undefined
    }
    const markets = quotedMarkets(state).slice(0, QUOTES_PER_BATCH_MAX)
    if (markets.length === 0) return undefined
    // Time-monotonic per market (equal allowed): never behind the last quote sent or accepted.
    let ts = Math.max(this.now(), this.lastSourceTs)
    for (const m of markets) ts = Math.max(ts, m.oracle.latest?.sourceTsMs ?? 0)
    this.lastSourceTs = ts
    const quotes = markets.map((m) => {
      let walk = this.walks.get(m.marketId)
      if (walk === undefined) {
        const start = m.oracle.latest?.markTicks ?? (m.markTicks > 0 ? m.markTicks : m.quoteLimits.minPriceTicks)
        walk = { priceTicks: start, random: mulberry32Unit((this.options.seed ?? DEV_QUOTER_SEED) + m.marketId) }
        this.walks.set(m.marketId, walk)
      }
      walk.priceTicks = stepPrice(walk.priceTicks, walk.random, m)
      const half = halfSpreadTicks(walk.priceTicks, m)
      const px = (ticks: number) => formatDecimal(BigInt(ticks), m.priceDecimals)
      return {
        market_id: m.marketId,
        bid_price: px(walk.priceTicks - half),
        ask_price: px(walk.priceTicks + half),
        mark_price: px(walk.priceTicks),
        source_ts_ms: ts,
      }
    })
    const action = { SubmitOracleQuote: { quotes } }
    const nonce = lowestUnusedNonce(state, this.address)
    const signature = signDigest(this.key, l1Digest(action, nonce, sourceForNetwork(this.options.network)))
    return { action, nonce, signature }
  }

  /** Sends one quote batch and waits for its block. */
  async quoteOnce(): Promise<ActionResult | undefined> {
    const params = this.nextQuote()
    if (params === undefined) return undefined
    const result = await this.node.submit(params)
    if (result.status === 'refused') this.problem(`dev quoter: quote refused: ${result.error.message}`)
    else if (result.status === 'kept-reject') this.problem(`dev quoter: quote rejected: ${result.reason.code} ${result.reason.message}`)
    else this.lastProblem = ''
    return result
  }

  /** Logs a problem once per streak of the same one. */
  private problem(message: string): void {
    if (message === this.lastProblem) return
    this.lastProblem = message
    this.log.warn(message)
  }
}

/** Starts the development quoter of a dev node (after node.start()). */
export function startDevQuoter(node: QuoterNode, options: DevQuoterOptions): DevQuoter {
  return new DevQuoter(node, options).start()
}
