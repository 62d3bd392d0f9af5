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

/** A withdrawal's row fields: its id is the reference of all its rows. */
const withdrawal = (
  status: string,
  withdrawalId: number,
  counterparty: string | null,
  more: { externalTx?: string | null; reason?: string | null } = {},
): Flow => ({
  direction: 'withdraw',
  status,
  reference: String(withdrawalId),
  counterparty,
  externalTx: more.externalTx ?? null,
  reason: more.reason ?? null,
})

export const bridgeFlowsModule: DeriveModule = {
  table: 'bridge_flows',
  subKinds: BRIDGE_SUB_KINDS,
  create: (db) => {
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
            f = withdrawal('requested', b.withdrawal_id, b.destination)
            break
          case 'WithdrawalClaimed':
            f = withdrawal('claimed', b.withdrawal_id, b.destination)
            break
          case 'WithdrawalCancelled':
            f = withdrawal('cancelled', b.withdrawal_id, null)
            break
          case 'WithdrawalSettled':
            f = withdrawal('settled', b.withdrawal_id, b.destination, { externalTx: b.external_tx })
            break
          case 'WithdrawalRefunded':
            f = withdrawal('refunded', b.withdrawal_id, null, { reason: b.reason })
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
