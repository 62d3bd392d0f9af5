// The hedger's work (docs/admin.md#the-hedger): one hedge cycle and one reconciliation, never two
// at once (one lock: a reconciliation started from the API waits for the cycle in flight, so neither
// sees the other's order between its record and its send).
//
// A cycle: settle the in-flight records by cloid (resolve.ts); refresh each account's margin and
// read its positions; then for each enabled policy of a market that trades on our chain (Active, no
// emergency halt) and on the venue, with no order of that market still in flight: plan the order
// (plan.ts) and, unless dry_run, write its record (pending), mark it sent and place an Ioc through
// the next account of the rotation. A lost reply leaves the record unknown, resolved by cloid later;
// an order is never sent twice, a new one is only planned from a fresh venue position.
import type { RpcClient } from '../../client/rpc-client.ts'
import { errorMessage, type Logger } from '../../lib/log.ts'
import { appendAudit } from '../store/audit.ts'
import type { AdminDb } from '../store/db.ts'
import { CloidGenerator } from '../venues/hyperliquid-cloid.ts'
import type { Venue, VenueAccount, VenueMarket } from '../venues/venue.ts'
import type { HedgeAccountStore } from './account-store.ts'
import { readBookBStats } from './book-b-stats.ts'
import { type HedgeOrderStore, IN_FLIGHT } from './order-store.ts'
import { fmt, fx, plan } from './plan.ts'
import type { HedgePolicyStore } from './policy-store.ts'
import { resolveInFlight } from './resolve.ts'
import type { HedgeOrderStatus } from './schemas.ts'
import { VenueAccounts } from './venue-accounts.ts'

/** How far back a reconciliation reads the accounts' fills. */
export const RECONCILE_FILLS_LOOKBACK_MS = 24 * 3_600_000

/** Unknown venue orders a reconciliation lists in its audit row at most (the count is always complete). */
const REPORT_LIST_MAX = 50

export interface HedgeEngineDeps {
  readonly db: AdminDb
  readonly accounts: HedgeAccountStore
  readonly policies: HedgePolicyStore
  readonly orders: HedgeOrderStore
  /** Our chain's read client (the Book B stats). */
  readonly rpc: RpcClient
  /** The venue of --venue. */
  readonly venue: Venue
  readonly log: Logger
  readonly clock: () => number
  /**
   * Test only (PERPD_ADMIN_TEST_HEDGE_PAUSE_MS, docs/admin.md#the-hedger): a pause after an order's
   * record is written and before it is marked sent, so a test can kill the service in that window.
   */
  readonly pauseAfterRecordMs?: number
}

/** What the last cycle did, for the runner status' detail. */
interface CycleSummary {
  at_ms: number
  orders: number
  skipped: Record<string, string>
}

/** What a reconciliation found. */
export interface ReconcileReport {
  readonly resolved: { id: number; from: HedgeOrderStatus; to: HedgeOrderStatus }[]
  readonly unknown_open_orders: { account_id: string; coin: string; ext_oid: string; cloid: string | null }[]
  readonly unknown_fills: number
  readonly problems: string[]
}

export class HedgeEngine {
  private lock: Promise<unknown> = Promise.resolve()
  private readonly venueAccounts: VenueAccounts
  private lastCycle: CycleSummary | undefined
  private lastReconcile: { at_ms: number; resolved: number; unknown_open_orders: number; unknown_fills: number } | undefined
  private ordersSent = 0
  /** Client order ids that never repeat (docs/admin.md#client-order-ids). */
  private readonly cloids: CloidGenerator

  constructor(private readonly deps: HedgeEngineDeps) {
    this.cloids = new CloidGenerator(deps.clock)
    this.venueAccounts = new VenueAccounts(deps.venue, deps.accounts)
  }

  /** Figures for the runner status. */
  detail(): Record<string, unknown> {
    return {
      venue: this.deps.venue.name,
      orders_sent: this.ordersSent,
      last_cycle: this.lastCycle ?? null,
      last_reconcile: this.lastReconcile ?? null,
    }
  }

  /** One hedge cycle; the problems met (each already logged). */
  cycle(signal: AbortSignal): Promise<string[]> {
    return this.locked(() => this.hedge(signal))
  }

  /** One reconciliation with the venue. */
  reconcile(actor: string): Promise<ReconcileReport> {
    return this.locked(() => this.reconcileNow(actor))
  }

  private locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn)
    this.lock = run.catch(() => {})
    return run
  }

  /** The venue account of each stored account that opens; a problem line for each that does not. */
  private openAccounts(problems: string[]): Map<string, VenueAccount> {
    const accounts = this.venueAccounts
    const stored = this.deps.accounts.list()
    accounts.retain(stored)
    const open = new Map<string, VenueAccount>()
    for (const a of stored) {
      try {
        open.set(a.id, accounts.of(a))
      } catch (err) {
        problems.push(this.problem(`hedge account ${a.id} (${a.name}): its key does not open: ${errorMessage(err)}`))
      }
    }
    return open
  }

  private problem(line: string): string {
    this.deps.log.warn(line)
    return line
  }

  private async hedge(signal: AbortSignal): Promise<string[]> {
    const { orders, clock } = this.deps
    const problems: string[] = []
    const open = this.openAccounts(problems)
    // Settle first, then read positions: an order the venue reports filled is in the positions read
    // after, and a market whose order is still unsettled is not hedged this cycle.
    const settled = await resolveInFlight({ orders, accountOf: (id) => open.get(id), nowMs: clock(), log: this.deps.log, signal })
    problems.push(...settled.problems.map((p) => this.problem(p)))
    // Margins and positions of every account (disabled ones still hold positions that hedge).
    const position = new Map<string, bigint>()
    let positionsComplete = open.size === this.deps.accounts.list().length
    for (const [id, account] of open) {
      try {
        const [margin, positions] = await Promise.all([account.margin(signal), account.positions(signal)])
        this.deps.accounts.setMargin(id, margin, clock())
        for (const p of positions) position.set(p.coin, (position.get(p.coin) ?? 0n) + fx(p.size))
      } catch (err) {
        positionsComplete = false
        problems.push(this.problem(`hedge account ${id}: cannot read its margin and positions: ${errorMessage(err)}`))
      }
    }

    const summary: CycleSummary = { at_ms: clock(), orders: 0, skipped: {} }
    try {
      await this.hedgeMarkets(signal, open, position, positionsComplete, summary, problems)
    } finally {
      // Published whole when the cycle ends: a status read while a cycle awaits the venue shows the
      // last finished cycle, never one whose skipped markets are still being filled in.
      this.lastCycle = summary
    }
    return problems
  }

  /** The policies' markets of one cycle: each hedged or skipped (with its reason in the summary). */
  private async hedgeMarkets(
    signal: AbortSignal,
    open: Map<string, VenueAccount>,
    position: Map<string, bigint>,
    positionsComplete: boolean,
    summary: CycleSummary,
    problems: string[],
  ): Promise<void> {
    const { venue, orders, policies, clock } = this.deps
    const enabled = policies.list().filter((p) => p.enabled)
    if (enabled.length === 0) return
    if (!positionsComplete) {
      problems.push(this.problem('not hedging this cycle: the venue positions of every hedge account could not be read'))
      return
    }
    const config = policies.config()
    const stats = await readBookBStats(this.deps.rpc, clock)
    const venueMarkets = new Map<string, VenueMarket>((await venue.markets(signal)).map((m) => [m.symbol, m]))
    const quotes = await venue.quotes(
      enabled.map((p) => p.market_symbol),
      signal,
    )
    const inFlight = new Set(orders.inFlight().map((r) => r.market_symbol))
    for (const policy of enabled) {
      if (signal.aborted) break
      const symbol = policy.market_symbol
      const skip = (reason: string) => {
        summary.skipped[symbol] = reason
      }
      const market = stats.markets.find((m) => m.symbol === symbol)
      if (market === undefined) {
        skip('not listed on our chain (unknown or delisted): not hedged')
        continue
      }
      if (market.lifecycle !== 'Active' || market.emergency_halt) {
        skip(`our market is ${market.lifecycle}${market.emergency_halt ? ' with the emergency halt on' : ''}: not hedged`)
        continue
      }
      if (market.stats === null) {
        problems.push(this.problem(`${symbol}: no Book B stats: ${market.detail_error}`))
        continue
      }
      const vm = venueMarkets.get(symbol)
      if (vm === undefined || !vm.tradable) {
        skip(vm === undefined ? `${venue.name} lists no ${symbol}` : `${venue.name} does not trade ${symbol} now`)
        continue
      }
      if (inFlight.has(symbol)) {
        skip(`an order is still in flight (${IN_FLIGHT.join('/')}); waiting for it to settle`)
        continue
      }
      const decided = plan({
        netSize: market.stats.net_size,
        ratio: policy.hedge_ratio,
        mode: policy.hedge_mode,
        venuePosition: fmt(position.get(vm.coin) ?? 0n),
        market: vm,
        quote: quotes.get(symbol),
        ourMark: market.mark_price,
        thresholdNotional: policy.threshold_notional ?? config.threshold_notional,
        minOrderSz: policy.min_order_sz ?? config.min_order_sz,
        maxOrderSz: policy.max_order_sz,
        maxSlippageBps: config.max_slippage_bps,
      })
      if (decided.kind === 'skip') {
        skip(decided.reason)
        continue
      }
      const account = this.deps.accounts.rotation().find((a) => open.has(a.id))
      if (account === undefined) {
        problems.push(this.problem(`${symbol}: no enabled hedge account to place ${decided.is_buy ? 'a buy' : 'a sell'} of ${decided.sz}`))
        break
      }
      const record = {
        account_id: account.id,
        market_symbol: symbol,
        coin: vm.coin,
        is_buy: decided.is_buy,
        sz: decided.sz,
        px: decided.px,
        delta_before: decided.delta,
        cloid: this.cloids.next(),
      }
      const what = `${symbol}: ${decided.is_buy ? 'buy' : 'sell'} ${decided.sz} ${vm.coin} at ${decided.px} (target ${decided.target}, delta ${decided.delta}) via ${account.name}`
      if (config.dry_run) {
        const latest = orders.latestOf(symbol)
        if (latest?.status === 'dry_run' && latest.is_buy === decided.is_buy && latest.sz === decided.sz) {
          skip('dry run: the same order is already recorded')
          continue
        }
        orders.insert({ ...record, status: 'dry_run' })
        summary.orders++
        this.deps.log.info(`dry run, not sent: ${what}`)
        continue
      }
      const id = orders.insert({ ...record, status: 'pending' })
      summary.orders++
      if ((this.deps.pauseAfterRecordMs ?? 0) > 0) {
        this.deps.log.warn(
          `test pause: ${this.deps.pauseAfterRecordMs} ms after recording hedge order ${id} (PERPD_ADMIN_TEST_HEDGE_PAUSE_MS)`,
        )
        await Bun.sleep(this.deps.pauseAfterRecordMs!)
      }
      orders.transition(id, 'sent')
      this.ordersSent++
      this.deps.log.info(`placing hedge order ${id}: ${what} cloid ${record.cloid}`)
      try {
        const result = await open
          .get(account.id)!
          .place(
            { coin: vm.coin, is_buy: decided.is_buy, sz: decided.sz, px: decided.px, tif: 'Ioc', reduce_only: false, cloid: record.cloid },
            signal,
          )
        if (result.status === 'resting') orders.transition(id, 'open', { ext_oid: result.ext_oid })
        else if (result.status === 'rejected') {
          orders.transition(id, 'rejected', { error: result.error.slice(0, 500) })
          problems.push(this.problem(`hedge order ${id} rejected by ${venue.name}: ${result.error}`))
        } else {
          const full = fx(result.filled_sz) >= fx(decided.sz)
          orders.transition(id, full ? 'filled' : 'partially_filled', { ext_oid: result.ext_oid, filled_sz: result.filled_sz })
          this.deps.log.info(`hedge order ${id} ${full ? 'filled' : 'partially filled'}: ${result.filled_sz} at ${result.avg_px}`)
        }
      } catch (err) {
        orders.transition(id, 'unknown', { error: `no reply: ${errorMessage(err)}` })
        problems.push(this.problem(`hedge order ${id}: no reply from ${venue.name} (${errorMessage(err)}); resolved by cloid next cycle`))
      }
    }
  }

  private async reconcileNow(actor: string): Promise<ReconcileReport> {
    const { orders, clock, log } = this.deps
    const problems: string[] = []
    const open = this.openAccounts(problems)
    const settled = await resolveInFlight({ orders, accountOf: (id) => open.get(id), nowMs: clock(), log })
    problems.push(...settled.problems.map((p) => this.problem(p)))
    const unknownOrders: ReconcileReport['unknown_open_orders'] = []
    let unknownFills = 0
    const ours = (accountId: string, cloid: string | null) => cloid !== null && orders.byCloid(cloid)?.account_id === accountId
    for (const [id, account] of open) {
      try {
        for (const o of await account.openOrders()) {
          if (!ours(id, o.cloid)) unknownOrders.push({ account_id: id, coin: o.coin, ext_oid: o.ext_oid, cloid: o.cloid })
        }
        for (const f of await account.fillsSince(clock() - RECONCILE_FILLS_LOOKBACK_MS)) if (!ours(id, f.cloid)) unknownFills++
      } catch (err) {
        problems.push(this.problem(`reconcile: hedge account ${id}: cannot read its orders and fills: ${errorMessage(err)}`))
      }
    }
    if (unknownOrders.length > 0 || unknownFills > 0) {
      log.warn(
        `reconcile: ${unknownOrders.length} open venue orders and ${unknownFills} fills of the last 24 h have no hedge record: ${JSON.stringify(unknownOrders.slice(0, REPORT_LIST_MAX))}`,
      )
    }
    const report: ReconcileReport = { resolved: settled.moves, unknown_open_orders: unknownOrders, unknown_fills: unknownFills, problems }
    this.deps.db.write((tx) =>
      appendAudit(tx, {
        atMs: clock(),
        actor,
        action: 'hedge.reconcile',
        target: null,
        detail: {
          resolved: settled.moves,
          unknown_open_orders: unknownOrders.slice(0, REPORT_LIST_MAX),
          unknown_open_order_count: unknownOrders.length,
          unknown_fills: unknownFills,
          problems: problems.slice(0, REPORT_LIST_MAX),
        },
      }),
    )
    this.lastReconcile = {
      at_ms: clock(),
      resolved: settled.moves.length,
      unknown_open_orders: unknownOrders.length,
      unknown_fills: unknownFills,
    }
    log.info(
      `reconcile: ${settled.moves.length} records settled, ${unknownOrders.length} unknown open orders, ${unknownFills} unknown fills`,
    )
    return report
  }
}
