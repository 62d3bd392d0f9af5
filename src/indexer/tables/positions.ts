// Table `positions`: position changes, one row per (account, market, block) that changed a
// position: the size before the block's first change and after its last, realized PnL, fills and
// traded notional in that block, and what caused it (trade, liquidation).
import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { money, sqlInt } from '../amounts.ts'
import { keysetPage, type PageRequest } from '../paging.ts'
import type { SymbolOf } from '../symbols.ts'

export interface PositionChangeInsert {
  account: string
  height: number
  marketId: number
  timestampMs: number
  sizeBefore: string
  sizeAfter: string
  realizedPnl: bigint
  fills: number
  volume: bigint
  action: string | null
  cause: string
  firstSeq: number
  lastSeq: number
}

/** Replaces the block's row: it is computed from the whole block, so rewriting it is idempotent. */
export function upsertPositionChange(db: Database, p: PositionChangeInsert): void {
  db.query('INSERT OR REPLACE INTO positions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
    p.account,
    p.height,
    p.marketId,
    p.timestampMs,
    p.sizeBefore,
    p.sizeAfter,
    sqlInt(p.realizedPnl),
    p.fills,
    sqlInt(p.volume),
    p.action,
    p.cause,
    p.firstSeq,
    p.lastSeq,
  )
}

interface PositionRow {
  height: number
  market_id: number
  timestamp_ms: number
  account: string
  size_before: string
  size_after: string
  realized_pnl: string
  fills: number
  volume: string
  action: string | null
  cause: string
  first_seq: number
  last_seq: number
}

const SELECT =
  'height, market_id, timestamp_ms, account, size_before, size_after, CAST(realized_pnl AS TEXT) AS realized_pnl, fills, CAST(volume AS TEXT) AS volume, action, cause, first_seq, last_seq'

export function accountPositions(
  db: Database,
  f: { account: string; marketId?: number | undefined },
  page: PageRequest,
  symbolOf: SymbolOf,
) {
  const where = ['account = ?']
  const params: SQLQueryBindings[] = [f.account.toLowerCase()]
  if (f.marketId !== undefined) {
    where.push('market_id = ?')
    params.push(f.marketId)
  }
  const r = keysetPage<PositionRow>(
    db,
    { table: 'positions', select: SELECT, where, params, keys: ['height', 'market_id'], order: 'desc' },
    page,
  )
  return {
    data: r.rows.map((x) => {
      const out: Record<string, unknown> = {
        height: x.height,
        first_seq: x.first_seq,
        last_seq: x.last_seq,
        timestamp_ms: x.timestamp_ms,
        account: x.account,
        market_id: x.market_id,
        symbol: symbolOf(x.market_id),
        size_before: x.size_before,
        size_after: x.size_after,
        realized_pnl: money(x.realized_pnl),
        fills: x.fills,
        volume: money(x.volume),
        cause: x.cause,
      }
      if (x.action !== null) out.position_action = x.action
      return out
    }),
    page: r.page,
  }
}
