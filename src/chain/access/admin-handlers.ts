// Handlers of the admin actions (area: agents/admin).
import type { ADMIN_ACTIONS } from '../../wire/actions/admin.ts'
import type { AreaHandlers } from '../core/action-context.ts'
import {
  amendExchangeConfig,
  forceCancelAccountOrders,
  setAccountFrozen,
  setGlobalRebateRatio,
  setInsuranceFund,
  setSettlementPaused,
} from './admin-config.ts'
import { grantRole, revokeRole } from './roles.ts'

export const ADMIN_HANDLERS = {
  SetGlobalRebateRatio: setGlobalRebateRatio,
  SetSettlementPaused: setSettlementPaused,
  GrantRole: grantRole,
  RevokeRole: revokeRole,
  SetInsuranceFund: setInsuranceFund,
  AmendExchangeConfig: amendExchangeConfig,
  SetAccountFrozen: setAccountFrozen,
  ForceCancelAccountOrders: forceCancelAccountOrders,
} satisfies AreaHandlers<typeof ADMIN_ACTIONS>
