// Table `bridge_flows`: the cross-chain side of funds, a row per bridge event: deposits credited,
// withdrawals requested, claimed, cancelled, settled and refunded, each with the id that ties a withdrawal's
// rows together (`reference`).
import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { money } from '../amounts.ts'
import { keysetPage, type PageRequest } from '../paging.ts'

export interface BridgeFlowInsert {
  account: string
  height: number
  seq: number
  timestampMs: number
  direction: 'deposit' | 'withdraw'
  status: string
  amount: bigint
  reference: string
  counterparty: string | null
  externalTx: string | null
  reason: string | null
  txHash: string | null
}

export function insertBridgeFlow(db: Database, f: BridgeFlowInsert): void {
  db.query('INSERT OR IGNORE INTO bridge_flows VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
    f.account,
    f.height,
    f.seq,
    f.timestampMs,
    f.direction,
    f.status,
    f.amount,
    f.reference,
    f.counterparty,
    f.externalTx,
    f.reason,
    f.txHash,
  )
}

interface BridgeFlowRow {
  height: number
  seq: number
  timestamp_ms: number
  account: string
  direction: string
  status: string
  amount: string
  reference: string
  counterparty: string | null
  external_tx: string | null
  reason: string | null
  tx_hash: string | null
}

const SELECT =
  'height, seq, timestamp_ms, account, direction, status, CAST(amount AS TEXT) AS amount, reference, counterparty, external_tx, reason, tx_hash'

export function accountBridgeFlows(db: Database, f: { account: string; direction?: string | undefined }, page: PageRequest) {
  const where = ['account = ?']
  const params: SQLQueryBindings[] = [f.account.toLowerCase()]
  if (f.direction !== undefined) {
    where.push('direction = ?')
    params.push(f.direction)
  }
  const r = keysetPage<BridgeFlowRow>(
    db,
    { table: 'bridge_flows', select: SELECT, where, params, keys: ['height', 'seq'], order: 'desc' },
    page,
  )
  return { data: r.rows.map((x) => ({ ...x, amount: money(x.amount) })), page: r.page }
}
