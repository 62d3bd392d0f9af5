// The simulated participants of `perpd demo` (README.md, docs/operator.md#demo): a market maker that
// quotes every native market through an agent key over the WebSocket post path, takers that cross
// the spread over HTTP, a trader that places the occasional trigger order, and now and then an
// under-margined gambler that the liquidator (dev account #9) liquidates. They sign with the
// development keys (node/dev-banner.ts) through the project's client and its nonce manager; every
// decision comes from a PRNG seeded with --seed (lib/prng.ts), so a seed gives the same sequence of
// orders (their timing, and so the fills, follow the node's blocks).
import {
  batchPlaceOrder,
  liquidatePosition,
  massCancel,
  placeOrder,
  placeTriggerOrder,
  registerAgent,
  transferFunds,
  updateLeverage,
} from '../client/actions.ts'
import { PerpdClient } from '../client/perpd-client.ts'
import type { ActionReply } from '../client/rpc-client.ts'
import { PerpdWsClient } from '../client/ws-client.ts'
import { formatDecimal } from '../lib/decimal.ts'
import { keccak256 } from '../lib/keccak.ts'
import { mulberry32Unit } from '../lib/prng.ts'
import { DEV_PRIVATE_KEYS } from '../node/dev-banner.ts'
import { devGenesis } from '../node/dev-genesis.ts'

/** Development accounts the demo signs with: #1 the market maker (through its agent), #2-#4 takers, #5 triggers. #7 is the node's dev quoter. */
export const MAKER_INDEX = 1
export const TAKER_INDEXES = [2, 3, 4] as const
export const TRIGGER_INDEX = 5
/** Dev account #6 funds the gambler (a fresh key per round); #9 holds the Liquidator role (node/dev-genesis.ts). */
export const FUNDER_INDEX = 6
export const LIQUIDATOR_INDEX = 9

/** Quote levels per side, and their distance from the fair price (bps): level i at HALF_SPREAD_BPS + i * LEVEL_STEP_BPS. */
const LEVELS = 4
const HALF_SPREAD_BPS = 4
const LEVEL_STEP_BPS = 5
/** A fair-price step moves at most this many bps: under 2 * HALF_SPREAD_BPS, so new quotes never cross the ones they replace. */
const STEP_BPS_MAX = 5
/** Takers send an IOC this far through the fair price: it sweeps one or more levels. */
const TAKER_THROUGH_BPS = 30
/** Trigger prices sit this far from the fair price, so the walk crosses them now and then. */
const TRIGGER_BPS = 6
/** A trigger expires after this long (block time is wall-clock time), well under the 200 active triggers an account may hold (docs/limits.md). */
const TRIGGER_LIFETIME_MS = 120_000

/**
 * The gambler: each round a fresh key gets GAMBLER_FUNDS_USD from account #6, sets the market's
 * maximum leverage and takes a position of about 45 times its cash with an IOC, so a move of about
 * 1% against it leaves it under its maintenance requirement. Meanwhile the market maker's walk
 * leans against it by DRIFT_BPS a step (at most DRIFT_MAX_BPS from where it entered), until the
 * liquidator takes the position over. At most GAMBLER_ROUNDS rounds, GAMBLER_PAUSE_MS and a seeded
 * part of it apart.
 */
const GAMBLER_FUNDS_USD = 50
const GAMBLER_NOTIONAL_PER_USD = 45
const GAMBLER_ROUNDS = 20
const GAMBLER_FIRST_MS = 5_000
const GAMBLER_PAUSE_MS = 20_000
/** A round that has not been liquidated after this long is given up (the gambler keeps its position). */
const GAMBLER_ROUND_MAX_MS = 180_000
/** The lean of the walk: the step is DRIFT_BPS ± DRIFT_BPS / 2 against the gambler, under 2 * HALF_SPREAD_BPS as above. */
const DRIFT_BPS = 5
const DRIFT_MAX_BPS = 500
/** How often the liquidator reads getLiquidatablePositions. */
const LIQUIDATOR_POLL_MS = 1_000

/** A native market as the demo trades it. */
export interface DemoMarket {
  readonly id: number
  readonly symbol: string
  readonly priceDecimals: number
  readonly sizeDecimals: number
  /** The market maker's first level size and a taker's unit, in size ticks. */
  readonly unitTicks: number
  /** Where the walk started (it reverts slowly towards it). */
  startTicks: number
  /** While a gambler holds a position here: -1 (the walk leans down) or 1 (up), and the fair price it entered at; 0 otherwise. */
  drift: number
  driftFromTicks: number
  /** The market maker's fair price in price ticks (the takers and triggers read it too). */
  fairTicks: number
}

/** What the demo counts, for its status lines. */
export interface DemoStats {
  actions: number
  refused: number
  fills: number
  triggers: number
  liquidations: number
  height: number
}

/** The unit size of each native market of the dev genesis, in USD of notional (about). */
const UNIT_NOTIONAL_USD = 2_000

/** The native markets of the dev network (node/dev-genesis.ts), their fair price starting at the node's mark. */
export async function demoMarkets(client: PerpdClient): Promise<DemoMarket[]> {
  const out: DemoMarket[] = []
  for (const m of devGenesis().markets.filter((g) => g.routing === 'native')) {
    const mark = (await client.rpc.query<{ mark_price: string }>('getMarket', { symbol: m.symbol })).data.mark_price
    const startTicks = Math.max(1, Math.round(Number(mark) * 10 ** m.price_decimals))
    const unitTicks = Math.max(
      Math.round(Number(m.min_order_qty) * 10 ** m.size_decimals),
      Math.round((UNIT_NOTIONAL_USD / Number(mark)) * 10 ** m.size_decimals),
    )
    out.push({
      id: m.market_id,
      symbol: m.symbol,
      priceDecimals: m.price_decimals,
      sizeDecimals: m.size_decimals,
      unitTicks,
      startTicks,
      fairTicks: startTicks,
      drift: 0,
      driftFromTicks: startTicks,
    })
  }
  return out
}

/** The agent key of the market maker: derived from the seed (a throwaway key, registered by account #1). */
export function agentKeyOf(seed: number): Uint8Array {
  return keccak256(new TextEncoder().encode(`perpd demo market maker agent, seed ${seed}`))
}

/** The gambler's key of one round: derived from the seed and the round (a fresh account each round). */
export function gamblerKeyOf(seed: number, round: number): Uint8Array {
  return keccak256(new TextEncoder().encode(`perpd demo gambler, seed ${seed}, round ${round}`))
}

/** Sleeps that stop() cuts short, and the flag the loops check. */
class Stopper {
  stopped = false
  private readonly wakers = new Set<() => void>()

  sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve()
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        this.wakers.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      this.wakers.add(wake)
    })
  }

  stop(): void {
    this.stopped = true
    for (const wake of [...this.wakers]) wake()
  }
}

export interface TradersOptions {
  readonly url: string
  readonly seed: number
  /** Problems (a refused action, a lost request), each streak of the same one once. */
  readonly warn: (message: string) => void
  /** Events worth a line of their own (a liquidation). */
  readonly info?: (message: string) => void
}

/** The running participants: start() registers the agent and starts the loops, stop() ends them. */
export class DemoTraders {
  readonly stats: DemoStats = { actions: 0, refused: 0, fills: 0, triggers: 0, liquidations: 0, height: 0 }
  readonly maker: PerpdClient
  readonly agent: PerpdClient
  markets: DemoMarket[] = []
  private readonly ws: PerpdWsClient
  private readonly stopper = new Stopper()
  private loops: Promise<void>[] = []
  private lastProblem = ''
  /** The gambler of the current round and its market, for the liquidator; refusals already reported. */
  private gambler: { address: string; market: DemoMarket; since: number } | undefined
  private readonly refusedLiquidations = new Set<string>()

  constructor(private readonly options: TradersOptions) {
    this.maker = new PerpdClient({ url: options.url, privateKey: DEV_PRIVATE_KEYS[MAKER_INDEX]! })
    this.ws = new PerpdWsClient({ url: options.url })
    this.agent = new PerpdClient({ url: options.url, privateKey: agentKeyOf(options.seed), ws: this.ws })
  }

  /** Registers the market maker's agent (RegisterAgent, signed by account #1), connects its WebSocket and starts every loop. */
  async start(): Promise<void> {
    this.markets = await demoMarkets(this.maker)
    const reg = await this.maker.send((nonce, network) =>
      registerAgent({ network, agent: this.agent.address, role: 'Trader', name: 'demo-market-maker', nonce }),
    )
    if (reg.status !== 'accepted')
      this.options.warn(
        `RegisterAgent of ${this.agent.address}: ${JSON.stringify(reg.reason)} (going on: the agent may be registered already)`,
      )
    await this.ws.connect()
    const seed = this.options.seed
    this.loops = [
      ...this.markets.map((m) => this.run(() => this.makeMarket(m, mulberry32Unit(seed * 1_000 + m.id)))),
      ...TAKER_INDEXES.map((i) =>
        this.run(() =>
          this.take(new PerpdClient({ url: this.options.url, privateKey: DEV_PRIVATE_KEYS[i]! }), mulberry32Unit(seed * 1_000 + 100 + i)),
        ),
      ),
      this.run(() =>
        this.placeTriggers(
          new PerpdClient({ url: this.options.url, privateKey: DEV_PRIVATE_KEYS[TRIGGER_INDEX]! }),
          mulberry32Unit(seed * 1_000 + 200),
        ),
      ),
      this.run(() => this.gamble(mulberry32Unit(seed * 1_000 + 300))),
      this.run(() => this.liquidate(new PerpdClient({ url: this.options.url, privateKey: DEV_PRIVATE_KEYS[LIQUIDATOR_INDEX]! }))),
    ]
  }

  /** Stops the loops (each finishes the request it is in, or gives up on it after timeoutMs) and closes the WebSocket. */
  async stop(timeoutMs = 5_000): Promise<void> {
    this.stopper.stop()
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([
      Promise.allSettled(this.loops),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs)
      }),
    ])
    clearTimeout(timer)
    this.ws.close()
  }

  /** Runs a loop until stop(); a failed step is reported and the loop goes on after a pause. */
  private async run(loop: () => Promise<void>): Promise<void> {
    while (!this.stopper.stopped) {
      try {
        await loop()
      } catch (err) {
        if (this.stopper.stopped) return
        this.stats.refused++
        this.problem((err as Error).message)
        await this.stopper.sleep(1_000)
      }
    }
  }

  /** Sends one action and counts it. */
  private async send(client: PerpdClient, action: Parameters<PerpdClient['send']>[0]): Promise<ActionReply> {
    const reply = await client.send(action)
    this.stats.actions++
    this.stats.height = Math.max(this.stats.height, reply.height)
    if (reply.status !== 'accepted')
      this.problem(
        `${typeof action === 'function' ? 'user-signed action' : Object.keys(action)[0]} rejected: ${JSON.stringify(reply.reason)}`,
      )
    return reply
  }

  private problem(message: string): void {
    if (message === this.lastProblem) return
    this.lastProblem = message
    this.options.warn(message)
  }

  /**
   * The market maker of one market: each round the fair price takes a step of a random walk, a new
   * ladder of LEVELS bids and asks is placed around it (BatchPlaceOrder), then the previous ladder
   * is cancelled by id (MassCancel Ids), so the book is never empty in between.
   */
  private async makeMarket(m: DemoMarket, random: () => number): Promise<void> {
    let previous: number[] = []
    while (!this.stopper.stopped) {
      // While a gambler holds a position here the step leans against it (the same draw from the PRNG either way).
      const draw = random() * 2 - 1
      const leaning = m.drift !== 0 && Math.abs(m.fairTicks / m.driftFromTicks - 1) * 10_000 < DRIFT_MAX_BPS
      const step = leaning ? m.drift * (DRIFT_BPS + (draw * DRIFT_BPS) / 2) : draw * STEP_BPS_MAX
      const revert = ((m.startTicks - m.fairTicks) / m.fairTicks) * 10_000 * 0.01
      m.fairTicks = Math.max(LEVELS * 10, Math.round(m.fairTicks * (1 + (step + revert) / 10_000)))
      const orders = []
      for (let i = 0; i < LEVELS; i++) {
        const bps = HALF_SPREAD_BPS + i * LEVEL_STEP_BPS
        const qty = this.qty(m, m.unitTicks * (i + 1) * (1 + Math.floor(random() * 2)))
        orders.push({
          market_id: m.id,
          side: 'Bid' as const,
          price: this.price(m, Math.floor(m.fairTicks * (1 - bps / 10_000))),
          qty,
          tif: 'Gtc' as const,
          reduce_only: false,
        })
        orders.push({
          market_id: m.id,
          side: 'Ask' as const,
          price: this.price(m, Math.ceil(m.fairTicks * (1 + bps / 10_000))),
          qty,
          tif: 'Gtc' as const,
          reduce_only: false,
        })
      }
      const placed = await this.send(this.agent, batchPlaceOrder(orders))
      const ids =
        placed.status !== 'accepted'
          ? []
          : [...new Set(placed.events.filter((e) => e.sub_kind === 'OrderResting').map((e) => Number(e.body.order_id)))]
      if (previous.length > 0) await this.send(this.agent, massCancel({ market_id: m.id, by: 'Ids', order_ids: previous }))
      previous = ids
      await this.stopper.sleep(700 + random() * 1_300)
    }
  }

  /** A taker: now and then an IOC through the fair price of a random market, leaning against its own position. */
  private async take(client: PerpdClient, random: () => number): Promise<void> {
    const position = new Map<number, number>()
    while (!this.stopper.stopped) {
      await this.stopper.sleep(500 + random() * 1_500)
      if (this.stopper.stopped) return
      const m = this.markets[Math.floor(random() * this.markets.length)]!
      const units = 1 + Math.floor(random() * 3)
      const held = position.get(m.id) ?? 0
      // Past 10 units long the taker sells more often than it buys, and the other way round.
      const buy = random() < 0.5 - Math.max(-0.4, Math.min(0.4, held / (25 * m.unitTicks)))
      const price = buy
        ? Math.ceil(m.fairTicks * (1 + TAKER_THROUGH_BPS / 10_000))
        : Math.floor(m.fairTicks * (1 - TAKER_THROUGH_BPS / 10_000))
      const reply = await this.send(
        client,
        placeOrder({
          market_id: m.id,
          side: buy ? 'Bid' : 'Ask',
          price: this.price(m, price),
          qty: this.qty(m, units * m.unitTicks),
          tif: 'Ioc',
          reduce_only: false,
        }),
      )
      const fills = reply.status === 'accepted' ? reply.events.filter((e) => e.sub_kind === 'Filled') : []
      this.stats.fills += fills.length
      let filled = 0
      for (const f of fills) filled += Math.round(Number(f.body.qty) * 10 ** m.sizeDecimals)
      position.set(m.id, held + (buy ? filled : -filled))
    }
  }

  /** Now and then a stop-market trigger a few bps from the mark (a buy stop above, a sell stop below); the walk fires some. */
  private async placeTriggers(client: PerpdClient, random: () => number): Promise<void> {
    while (!this.stopper.stopped) {
      await this.stopper.sleep(3_000 + random() * 5_000)
      if (this.stopper.stopped) return
      const m = this.markets[Math.floor(random() * this.markets.length)]!
      const buy = random() < 0.5
      // Around the mark (which follows the trades, not the maker's fair price): a trigger the mark has passed already is refused.
      const mark =
        Number((await client.rpc.query<{ mark_price: string }>('getMarket', { market_id: m.id })).data.mark_price) * 10 ** m.priceDecimals
      const trigger = buy ? Math.ceil(mark * (1 + TRIGGER_BPS / 10_000)) : Math.floor(mark * (1 - TRIGGER_BPS / 10_000))
      const reply = await this.send(
        client,
        placeTriggerOrder({
          market_id: m.id,
          side: buy ? 'Bid' : 'Ask',
          qty: this.qty(m, m.unitTicks),
          trigger_price: this.price(m, trigger),
          trigger_direction: buy ? 'Above' : 'Below',
          order_type: 'market',
          reduce_only: false,
          expires_at_ms: Date.now() + TRIGGER_LIFETIME_MS,
        }),
      )
      if (reply.status === 'accepted') this.stats.triggers++
    }
  }

  /**
   * The gambler: rounds of a fresh key funded with GAMBLER_FUNDS_USD by account #6 that takes a
   * position at the market's maximum leverage (long and short in turn, in a seeded market); the
   * maker's walk then leans against it until the liquidator has taken it over (or the round times out).
   */
  private async gamble(random: () => number): Promise<void> {
    const funder = new PerpdClient({ url: this.options.url, privateKey: DEV_PRIVATE_KEYS[FUNDER_INDEX]! })
    const leverageOf = (m: DemoMarket) => devGenesis().markets.find((g) => g.market_id === m.id)?.max_leverage ?? 1
    const highest = Math.max(...this.markets.map(leverageOf))
    const candidates = this.markets.filter((m) => leverageOf(m) === highest)
    await this.stopper.sleep(GAMBLER_FIRST_MS)
    for (let round = 0; round < GAMBLER_ROUNDS && !this.stopper.stopped; round++) {
      // The markets of the highest maximum leverage (BTC-USD and ETH-USD on dev): there about a 1% move liquidates.
      const m = candidates[Math.floor(random() * candidates.length)]!
      const buy = round % 2 === 0
      const client = new PerpdClient({ url: this.options.url, privateKey: gamblerKeyOf(this.options.seed, round) })
      const funded = await this.send(funder, (nonce, network) =>
        transferFunds({ network, destination: client.address, amount: String(GAMBLER_FUNDS_USD), nonce }),
      )
      const maxLeverage = leverageOf(m)
      const levered = funded.status === 'accepted' && (await this.send(client, updateLeverage({ market_id: m.id, leverage: maxLeverage })))
      const notional = GAMBLER_FUNDS_USD * Math.min(GAMBLER_NOTIONAL_PER_USD, maxLeverage * 0.9)
      const qtyTicks = Math.round((notional / (m.fairTicks / 10 ** m.priceDecimals)) * 10 ** m.sizeDecimals)
      const price = buy
        ? Math.ceil(m.fairTicks * (1 + TAKER_THROUGH_BPS / 10_000))
        : Math.floor(m.fairTicks * (1 - TAKER_THROUGH_BPS / 10_000))
      const opened =
        levered &&
        levered.status === 'accepted' &&
        (await this.send(
          client,
          placeOrder({
            market_id: m.id,
            side: buy ? 'Bid' : 'Ask',
            price: this.price(m, price),
            qty: this.qty(m, qtyTicks),
            tif: 'Ioc',
            reduce_only: false,
          }),
        ))
      const filled = opened && opened.status === 'accepted' && opened.events.some((e) => e.sub_kind === 'Filled')
      if (filled) {
        this.options.info?.(
          `gambler ${client.address} (${GAMBLER_FUNDS_USD} USD from dev account #${FUNDER_INDEX}) went ${buy ? 'long' : 'short'} ${m.symbol} at ${maxLeverage}x; the walk now leans against it`,
        )
        this.gambler = { address: client.address.toLowerCase(), market: m, since: Date.now() }
        m.driftFromTicks = m.fairTicks
        m.drift = buy ? -1 : 1
        while (!this.stopper.stopped && this.gambler !== undefined && Date.now() - this.gambler.since < GAMBLER_ROUND_MAX_MS)
          await this.stopper.sleep(500)
        if (this.gambler !== undefined && !this.stopper.stopped)
          this.problem(`gambler ${client.address} was not liquidated within ${GAMBLER_ROUND_MAX_MS / 1000} s; next round`)
        this.gambler = undefined
        m.drift = 0
      }
      await this.stopper.sleep(GAMBLER_PAUSE_MS + random() * GAMBLER_PAUSE_MS)
    }
  }

  /** The liquidator (dev account #9): liquidates what getLiquidatablePositions lists; a refusal is reported once per position. */
  private async liquidate(client: PerpdClient): Promise<void> {
    while (!this.stopper.stopped) {
      await this.stopper.sleep(LIQUIDATOR_POLL_MS)
      if (this.stopper.stopped) return
      const listed = (
        await client.rpc.query<{ address: string; market_id: number; symbol: string; size: string; mark_price: string }[]>(
          'getLiquidatablePositions',
          { limit: 10 },
        )
      ).data
      for (const p of listed) {
        const key = `${p.address}:${p.market_id}`
        if (this.refusedLiquidations.has(key)) continue
        const reply = await client.send(liquidatePosition({ address: p.address, market_id: p.market_id }))
        this.stats.actions++
        this.stats.height = Math.max(this.stats.height, reply.height)
        if (reply.status === 'accepted') {
          this.stats.liquidations++
          this.options.info?.(
            `liquidated ${p.address} ${p.symbol} ${p.size} at mark ${p.mark_price} (dev account #${LIQUIDATOR_INDEX}, block ${reply.height})`,
          )
          if (this.gambler?.address === p.address.toLowerCase() && this.gambler.market.id === p.market_id) this.gambler = undefined
        } else {
          this.stats.refused++
          this.refusedLiquidations.add(key)
          this.options.warn(`LiquidatePosition ${p.address} ${p.symbol} refused: ${JSON.stringify(reply.reason)} (not retried)`)
        }
      }
    }
  }

  private price(m: DemoMarket, ticks: number): string {
    return formatDecimal(BigInt(Math.max(1, ticks)), m.priceDecimals)
  }

  private qty(m: DemoMarket, ticks: number): string {
    return formatDecimal(BigInt(Math.max(1, ticks)), m.sizeDecimals)
  }
}
