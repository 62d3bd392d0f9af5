// The derive modules, one per derived table, in the order they run for each event. Order matters
// only where one reads another's rows: orders (the archive) before fills (which tag each fill with
// its order's client_order_id and trigger origin).
import { accountEventsModule } from './account-events.ts'
import { bridgeFlowsModule } from './bridge-flows.ts'
import { fillsModule } from './fills.ts'
import { fundFlowsModule } from './fund-flows.ts'
import { ordersModule } from './orders.ts'
import { positionsModule } from './positions.ts'
import { rebateEventsModule, referralEventsModule } from './referrals.ts'
import type { DeriveModule } from './types.ts'

export const DERIVE_MODULES: readonly DeriveModule[] = [
  ordersModule,
  fillsModule,
  positionsModule,
  fundFlowsModule,
  bridgeFlowsModule,
  referralEventsModule,
  rebateEventsModule,
  accountEventsModule,
]
