// Handlers of the admin actions (area: agents/admin).
import type { HandlerMap } from '../core/action-context.ts'
import {
  amendExchangeConfig, forceCancelAccountOrders, setAccountFrozen, setGlobalRebateRatio, setInsuranceFund, setSettlementPaused,
} from './admin-config.ts'
import { grantRole, revokeRole } from './roles.ts'

export const ADMIN_HANDLERS: HandlerMap = {
  SetGlobalRebateRatio: setGlobalRebateRatio,
  SetSettlementPaused: setSettlementPaused,
  GrantRole: grantRole,
  RevokeRole: revokeRole,
  SetInsuranceFund: setInsuranceFund,
  AmendExchangeConfig: amendExchangeConfig,
  SetAccountFrozen: setAccountFrozen,
  ForceCancelAccountOrders: forceCancelAccountOrders,
}
