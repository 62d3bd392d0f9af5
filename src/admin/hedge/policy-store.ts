// Hedge policies (one per market symbol, upserted) and the one-row global hedge config
// (docs/admin.md#hedge-policies-and-config). Every change writes its audit row in the same
// transaction.
import type { Database } from 'bun:sqlite'
import { appendAudit } from '../store/audit.ts'
import type { AdminDb } from '../store/db.ts'
import type { HedgeConfig, HedgeMode, HedgePolicy } from './schemas.ts'

/** A policy as PUT /api/hedge/policies gives it (symbol upper case, decimals validated). */
export interface PolicyInput {
  readonly market_symbol: string
  readonly hedge_ratio: string
  readonly hedge_mode: HedgeMode
  readonly account_id: string | null
  readonly enabled: boolean
  readonly threshold_notional: string | null
  readonly min_order_sz: string | null
  readonly max_order_sz: string | null
}

/** The fields PUT /api/hedge/config may change. */
export type ConfigChange = Partial<Omit<HedgeConfig, 'updated_at_ms' | 'updated_by'>>

/** The policy seeded for a market when an account is added (docs/admin.md#hedge-accounts): disabled, ratio 1, follow. */
export const DEFAULT_POLICY = { hedge_ratio: '1', hedge_mode: 'follow', enabled: false } as const

interface PolicyRow extends Omit<HedgePolicy, 'enabled' | 'hedge_mode'> {
  enabled: number
  hedge_mode: string
}

interface ConfigRow extends Omit<HedgeConfig, 'dry_run' | 'ext_network'> {
  dry_run: number
  ext_network: string
}

export class HedgePolicyStore {
  constructor(
    private readonly db: AdminDb,
    private readonly clock: () => number = Date.now,
  ) {}

  list(): HedgePolicy[] {
    return this.db.read((d) => (d.query('SELECT * FROM hedge_policies ORDER BY market_symbol').all() as PolicyRow[]).map(policyOf))
  }

  /** Inserts or replaces the policy of a symbol; audited with what it was before. */
  upsert(p: PolicyInput, actor: string): void {
    const now = this.clock()
    this.db.write((tx) => {
      const before = tx.query('SELECT * FROM hedge_policies WHERE market_symbol = ?').get(p.market_symbol) as PolicyRow | null
      tx.query(
        `INSERT INTO hedge_policies (market_symbol, hedge_ratio, hedge_mode, account_id, enabled, threshold_notional, min_order_sz, max_order_sz, updated_at_ms, updated_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(market_symbol) DO UPDATE SET hedge_ratio = excluded.hedge_ratio, hedge_mode = excluded.hedge_mode,
           account_id = excluded.account_id, enabled = excluded.enabled, threshold_notional = excluded.threshold_notional,
           min_order_sz = excluded.min_order_sz, max_order_sz = excluded.max_order_sz, updated_at_ms = excluded.updated_at_ms,
           updated_by = excluded.updated_by`,
      ).run(
        p.market_symbol,
        p.hedge_ratio,
        p.hedge_mode,
        p.account_id,
        p.enabled ? 1 : 0,
        p.threshold_notional,
        p.min_order_sz,
        p.max_order_sz,
        now,
        actor,
      )
      appendAudit(tx, {
        atMs: now,
        actor,
        action: 'hedge.policy.upsert',
        target: p.market_symbol,
        detail: { policy: { ...p }, before: before === null ? null : policyOf(before) },
      })
    })
  }

  /** Deletes the policy of a symbol; false when there is none. */
  delete(symbol: string, actor: string): boolean {
    return this.db.write((tx) => {
      const before = tx.query('SELECT * FROM hedge_policies WHERE market_symbol = ?').get(symbol) as PolicyRow | null
      if (before === null) return false
      tx.query('DELETE FROM hedge_policies WHERE market_symbol = ?').run(symbol)
      appendAudit(tx, { atMs: this.clock(), actor, action: 'hedge.policy.delete', target: symbol, detail: { before: policyOf(before) } })
      return true
    })
  }

  /** Inside an account's creation: the default policy for each symbol that has none; the symbols seeded. */
  seedDefaults(tx: Database, symbols: readonly string[], accountId: string, now: number, actor: string): string[] {
    const seeded: string[] = []
    const insert = tx.query(
      `INSERT INTO hedge_policies (market_symbol, hedge_ratio, hedge_mode, account_id, enabled, updated_at_ms, updated_by)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(market_symbol) DO NOTHING`,
    )
    for (const symbol of symbols) {
      const r = insert.run(symbol, DEFAULT_POLICY.hedge_ratio, DEFAULT_POLICY.hedge_mode, accountId, 0, now, actor)
      if (r.changes > 0) seeded.push(symbol)
    }
    if (seeded.length > 0) {
      appendAudit(tx, {
        atMs: now,
        actor,
        action: 'hedge.policy.upsert',
        target: seeded.join(','),
        detail: { seeded_for_account: accountId, policy: DEFAULT_POLICY },
      })
    }
    return seeded
  }

  config(): HedgeConfig {
    return this.db.read((d) => configOf(d.query('SELECT * FROM hedge_config WHERE id = 1').get() as ConfigRow))
  }

  /** Changes the given fields; absent ones keep their value. */
  setConfig(change: ConfigChange, actor: string): void {
    const now = this.clock()
    this.db.write((tx) => {
      const before = configOf(tx.query('SELECT * FROM hedge_config WHERE id = 1').get() as ConfigRow)
      const next = { ...before, ...change }
      tx.query(
        `UPDATE hedge_config SET interval_ms = ?, threshold_notional = ?, min_order_sz = ?, max_slippage_bps = ?, dry_run = ?,
           ext_network = ?, updated_at_ms = ?, updated_by = ? WHERE id = 1`,
      ).run(
        next.interval_ms,
        next.threshold_notional,
        next.min_order_sz,
        next.max_slippage_bps,
        next.dry_run ? 1 : 0,
        next.ext_network,
        now,
        actor,
      )
      appendAudit(tx, { atMs: now, actor, action: 'hedge.config.update', target: null, detail: { change: { ...change } } })
    })
  }
}

function policyOf(r: PolicyRow): HedgePolicy {
  return {
    market_symbol: r.market_symbol,
    hedge_ratio: r.hedge_ratio,
    hedge_mode: r.hedge_mode as HedgeMode,
    account_id: r.account_id,
    enabled: r.enabled === 1,
    threshold_notional: r.threshold_notional,
    min_order_sz: r.min_order_sz,
    max_order_sz: r.max_order_sz,
    updated_at_ms: r.updated_at_ms,
    updated_by: r.updated_by,
  }
}

function configOf(r: ConfigRow): HedgeConfig {
  return {
    interval_ms: r.interval_ms,
    threshold_notional: r.threshold_notional,
    min_order_sz: r.min_order_sz,
    max_slippage_bps: r.max_slippage_bps,
    dry_run: r.dry_run === 1,
    ext_network: r.ext_network as HedgeConfig['ext_network'],
    updated_at_ms: r.updated_at_ms,
    updated_by: r.updated_by,
  }
}
