// Handlers of the funds actions (area: funds): referral, bridge, transfers.
import type { HandlerMap } from '../core/action-context.ts'
import { cancelWithdrawRequest, creditDeposit, refundWithdrawal, settleWithdrawal, withdrawRequest } from './bridge.ts'
import { setInviter } from './referral.ts'
import { transferFunds } from './transfers.ts'

export const FUNDS_HANDLERS: HandlerMap = {
  SetInviter: setInviter,
  WithdrawRequest: withdrawRequest,
  CancelWithdrawRequest: cancelWithdrawRequest,
  TransferFunds: transferFunds,
  CreditDeposit: creditDeposit,
  SettleWithdrawal: settleWithdrawal,
  RefundWithdrawal: refundWithdrawal,
}
