// Derives `bridge_flows` from the Bridge events: a deposit credited; a withdrawal requested, then
// cancelled, settled or refunded (its rows share `reference`, the withdrawal id).
import { units6 } from '../amounts.ts'
import { insertBridgeFlow, type BridgeFlowInsert } from '../tables/bridge-flows.ts'
import { optStr, str, type DeriveModule } from './types.ts'

const STATUS: Record<string, { direction: BridgeFlowInsert['direction']; status: string; reference: string; counterparty: string | null }> = {
  DepositCredited: { direction: 'deposit', status: 'credited', reference: 'deposit_id', counterparty: 'source_chain' },
  WithdrawalRequested: { direction: 'withdraw', status: 'requested', reference: 'withdrawal_id', counterparty: 'destination' },
  WithdrawalCancelled: { direction: 'withdraw', status: 'cancelled', reference: 'withdrawal_id', counterparty: null },
  WithdrawalSettled: { direction: 'withdraw', status: 'settled', reference: 'withdrawal_id', counterparty: 'destination' },
  WithdrawalRefunded: { direction: 'withdraw', status: 'refunded', reference: 'withdrawal_id', counterparty: null },
}

export const bridgeFlowsModule: DeriveModule = {
  table: 'bridge_flows',
  subKinds: Object.keys(STATUS),
  create: (db) => ({
    event(e) {
      const b = e.body
      const s = STATUS[e.subKind]!
      insertBridgeFlow(db, {
        account: e.account ?? str(b, 'account'), height: e.height, seq: e.seq, timestampMs: e.timestampMs, direction: s.direction, status: s.status,
        amount: units6(b.amount), reference: str(b, s.reference), counterparty: s.counterparty === null ? null : optStr(b, s.counterparty),
        externalTx: optStr(b, 'external_tx'), reason: e.subKind === 'WithdrawalRefunded' ? optStr(b, 'reason') : null, txHash: e.txHash,
      })
    },
  }),
}
