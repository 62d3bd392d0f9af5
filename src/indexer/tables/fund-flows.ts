// Table `fund_flows`: every balance movement outside trading (BalanceChanged: deposits,
// withdrawals and their refunds, transfers, rebates), signed, with the balance after it.
import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { money } from '../amounts.ts'
import { keysetPage, type PageRequest } from '../paging.ts'
import type { SymbolOf } from '../symbols.ts'

export interface FundFlowInsert {
  account: string
  height: number
  seq: number
  timestampMs: number
  flowType: string
  amount: bigint
  balanceAfter: bigint | null
  marketId: number | null
  txHash: string | null
}

export function insertFundFlow(db: Database, f: FundFlowInsert): void {
  db.query('INSERT OR IGNORE INTO fund_flows VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
    f.account,
    f.height,
    f.seq,
    f.timestampMs,
    f.flowType,
    f.amount,
    f.balanceAfter,
    f.marketId,
    f.txHash,
  )
}

interface FundFlowRow {
  height: number
  seq: number
  timestamp_ms: number
  account: string
  flow_type: string
  amount: string
  balance_after: string | null
  market_id: number | null
  tx_hash: string | null
}

const SELECT =
  'height, seq, timestamp_ms, account, flow_type, CAST(amount AS TEXT) AS amount, CAST(balance_after AS TEXT) AS balance_after, market_id, tx_hash'

/** An account's fund flows newest first; `flowType` filters by flow_type. */
export function accountFundFlows(
  db: Database,
  f: { account: string; flowType?: string | undefined },
  page: PageRequest,
  symbolOf: SymbolOf,
) {
  const where = ['account = ?']
  const params: SQLQueryBindings[] = [f.account.toLowerCase()]
  if (f.flowType !== undefined) {
    where.push('flow_type = ?')
    params.push(f.flowType)
  }
  const r = keysetPage<FundFlowRow>(
    db,
    { table: 'fund_flows', select: SELECT, where, params, keys: ['height', 'seq'], order: 'desc' },
    page,
  )
  return {
    data: r.rows.map((x) => ({
      height: x.height,
      seq: x.seq,
      timestamp_ms: x.timestamp_ms,
      account: x.account,
      flow_type: x.flow_type,
      amount: money(x.amount),
      balance_after: x.balance_after === null ? null : money(x.balance_after),
      market_id: x.market_id,
      symbol: symbolOf(x.market_id),
      tx_hash: x.tx_hash,
    })),
    page: r.page,
  }
}
