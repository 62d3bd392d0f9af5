// The state at height 0, built from a validated genesis document.
import { assert } from '../../lib/assert.ts'
import { parseDecimal } from '../../lib/decimal.ts'
import type { Genesis } from '../../wire/genesis.ts'
import { insertAccount, newAccount } from '../access/accounts.ts'
import { type ChainState, ROLES } from '../core/types.ts'
import { countAdmins, FUNDS_LEAF, newFundsState } from '../funds/funds-state.ts'
import { decodeMarketConfig, insertMarket, newMarket } from '../markets/markets.ts'
import { newOrderIndexes } from '../orders/order-indexes.ts'
import { StateHash } from '../state/state-hash.ts'
import { commitStateRoot, markDirty, markLeaf } from '../state/state-root.ts'
import { newTriggerState } from '../triggers/trigger-types.ts'

/** Builds the genesis state and its root. Throws on an inconsistent genesis (a config error). */
export function createGenesisState(genesis: Genesis): { state: ChainState; stateRoot: Uint8Array } {
  const state: ChainState = {
    params: {
      network: genesis.network,
      actionVersion: 2,
      maxTxPerBlock: genesis.max_tx_per_block,
      settlementPaused: false,
      globalRebateRatioBps: genesis.global_rebate_ratio_bps,
      insuranceFund: insuranceFundOf(genesis),
    },
    accounts: new Map(),
    agents: new Map(),
    nonces: new Map(),
    markets: new Map(),
    books: new Map(),
    nextOrderId: 1,
    height: 0,
    timestampMs: genesis.genesis_time_ms,
    lastDigest: '',
    dirty: new Set(),
    dirtyLeaves: [],
    dirtyOrders: [],
    dirtyTriggers: [],
    rootSeq: 0,
    exchangeLeaf: { leafKey: 'x', dirtyIn: -1 },
    hash: new StateHash(),
    positionHolders: new Map(),
    flatThisBlock: new Map(),
    agentsByMaster: new Map(),
    funds: newFundsState(),
    orderIndexes: newOrderIndexes(),
    triggers: newTriggerState(),
  }
  markLeaf(state, state.exchangeLeaf)
  markLeaf(state, state.triggers.counterLeaf)
  markDirty(state, FUNDS_LEAF)
  for (const a of genesis.accounts) {
    const balance = parseDecimal(a.balance, 6)
    if (!balance.ok) throw new Error(`genesis balance of ${a.address}: ${balance.message}`)
    const roleMask = a.roles.reduce((mask, r) => mask | ROLES[r as keyof typeof ROLES], 0)
    insertAccount(state, newAccount(a.address.toLowerCase(), balance.value, roleMask))
  }
  state.funds.adminCount = countAdmins(state)
  for (const m of genesis.markets) {
    assert(!state.markets.has(m.market_id), `genesis market id ${m.market_id} repeats`)
    const decoded = decodeMarketConfig({ ...m }, m.fee_recipient)
    if (!decoded.ok) throw new Error(`genesis market ${m.symbol}: ${decoded.message}`)
    // Markets Active from genesis start their oracle staleness clock at genesis time.
    const market = newMarket(m.market_id, decoded.config, decoded.markTicks, state.timestampMs)
    market.lifecycle = m.lifecycle
    insertMarket(state, market)
  }
  return { state, stateRoot: commitStateRoot(state) }
}

/** The genesis insurance fund: `insurance_fund` when given, else the first Admin account (the dev
 * network's admin), else the zero address (a fund without a key; SetInsuranceFund replaces it). */
function insuranceFundOf(genesis: Genesis): string {
  if (genesis.insurance_fund !== undefined) return genesis.insurance_fund.toLowerCase()
  const admin = genesis.accounts.find((a) => a.roles.includes('Admin'))
  return admin === undefined ? `0x${'0'.repeat(40)}` : admin.address.toLowerCase()
}
