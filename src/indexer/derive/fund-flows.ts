// Derives `fund_flows` from BalanceChanged: every movement of money outside trading carries one
// (deposits, withdrawals, refunds, transfers, rebates), so new reasons need no code here.
import { units6 } from '../amounts.ts'
import { txHashLookup } from '../tables/envelopes.ts'
import { insertFundFlow } from '../tables/fund-flows.ts'
import type { DeriveModule } from './types.ts'

export const fundFlowsModule: DeriveModule = {
  table: 'fund_flows',
  subKinds: ['BalanceChanged'],
  create: (db) => {
    const txHashOf = txHashLookup(db)
    return {
      event(e) {
        const b = e.body
        if (b.sub_kind !== 'BalanceChanged') return
        insertFundFlow(db, {
          account: e.account ?? b.account,
          height: e.height,
          seq: e.seq,
          timestampMs: e.timestampMs,
          flowType: b.reason,
          amount: units6(b.amount),
          balanceAfter: units6(b.balance_after),
          marketId: e.marketId,
          txHash: txHashOf(e.height, e.envelopeIdx),
        })
      },
    }
  },
}
