// Derives `bridge_flows` from the Bridge events: a deposit credited; a withdrawal requested, maybe
// claimed by the bridge, then cancelled, settled or refunded (its rows share `reference`, the
// withdrawal id).
import { units6 } from '../amounts.ts'
import { type BridgeFlowInsert, insertBridgeFlow } from '../tables/bridge-flows.ts'
import { txHashLookup } from '../tables/envelopes.ts'
import type { DeriveModule } from './types.ts'

/** One bridge event's row fields: `reference` is the deposit or withdrawal id, `counterparty` the source chain or destination. */
interface Flow {
  readonly direction: BridgeFlowInsert['direction']
  readonly status: string
  readonly reference: string
  readonly counterparty: string | null
  readonly externalTx: string | null
  readonly reason: string | null
}

const BRIDGE_SUB_KINDS = [
  'DepositCredited',
  'WithdrawalRequested',
  'WithdrawalClaimed',
  'WithdrawalCancelled',
  'WithdrawalSettled',
  'WithdrawalRefunded',
] as const

export const bridgeFlowsModule: DeriveModule = {
  table: 'bridge_flows',
  subKinds: BRIDGE_SUB_KINDS,
  create: (db) => {
    // A block's own events have an envelope index no envelope has: no tx hash.
    const txHashOf = txHashLookup(db)
    return {
      event(e) {
        const b = e.body
        let f: Flow
        switch (b.sub_kind) {
          case 'DepositCredited':
            f = {
              direction: 'deposit',
              status: 'credited',
              reference: b.deposit_id,
              counterparty: b.source_chain,
              externalTx: null,
              reason: null,
            }
            break
          case 'WithdrawalRequested':
            f = {
              direction: 'withdraw',
              status: 'requested',
              reference: String(b.withdrawal_id),
              counterparty: b.destination,
              externalTx: null,
              reason: null,
            }
            break
          case 'WithdrawalClaimed':
            f = {
              direction: 'withdraw',
              status: 'claimed',
              reference: String(b.withdrawal_id),
              counterparty: b.destination,
              externalTx: null,
              reason: null,
            }
            break
          case 'WithdrawalCancelled':
            f = {
              direction: 'withdraw',
              status: 'cancelled',
              reference: String(b.withdrawal_id),
              counterparty: null,
              externalTx: null,
              reason: null,
            }
            break
          case 'WithdrawalSettled':
            f = {
              direction: 'withdraw',
              status: 'settled',
              reference: String(b.withdrawal_id),
              counterparty: b.destination,
              externalTx: b.external_tx,
              reason: null,
            }
            break
          case 'WithdrawalRefunded':
            f = {
              direction: 'withdraw',
              status: 'refunded',
              reference: String(b.withdrawal_id),
              counterparty: null,
              externalTx: null,
              reason: b.reason,
            }
            break
          default:
            return
        }
        insertBridgeFlow(db, {
          account: e.account ?? b.account,
          height: e.height,
          seq: e.seq,
          timestampMs: e.timestampMs,
          direction: f.direction,
          status: f.status,
          amount: units6(b.amount),
          reference: f.reference,
          counterparty: f.counterparty,
          externalTx: f.externalTx,
          reason: f.reason,
          txHash: txHashOf(e.height, e.envelopeIdx),
        })
      },
    }
  },
}
