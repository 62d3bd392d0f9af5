// Handlers of the funds actions (area: funds): referral, bridge, transfers.
import type { FUNDS_ACTIONS } from '../../wire/actions/funds.ts'
import type { AreaHandlers } from '../core/action-context.ts'
import { cancelWithdrawRequest, claimWithdrawal, creditDeposit, refundWithdrawal, settleWithdrawal, withdrawRequest } from './bridge.ts'
import { setInviter } from './referral.ts'
import { transferFunds } from './transfers.ts'

export const FUNDS_HANDLERS = {
  SetInviter: setInviter,
  WithdrawRequest: withdrawRequest,
  CancelWithdrawRequest: cancelWithdrawRequest,
  TransferFunds: transferFunds,
  CreditDeposit: creditDeposit,
  ClaimWithdrawal: claimWithdrawal,
  SettleWithdrawal: settleWithdrawal,
  RefundWithdrawal: refundWithdrawal,
} satisfies AreaHandlers<typeof FUNDS_ACTIONS>
