// The state at height 0, built from a validated genesis document.
import { assert } from '../lib/assert.ts'
import { parseDecimal } from '../lib/decimal.ts'
import type { Genesis } from '../wire/genesis.ts'
import { insertAccount, newAccount } from './accounts.ts'
import { decodeMarketConfig, insertMarket, newMarket } from './markets.ts'
import { StateHash } from './state-hash.ts'
import { commitStateRoot, markLeaf } from './state-root.ts'
import { ROLES, type ChainState } from './types.ts'

/** Builds the genesis state and its root. Throws on an inconsistent genesis (a config error). */
export function createGenesisState(genesis: Genesis): { state: ChainState; stateRoot: Uint8Array } {
  const state: ChainState = {
    params: {
      network: genesis.network, actionVersion: 2, maxTxPerBlock: genesis.max_tx_per_block,
      settlementPaused: false, globalRebateRatioBps: genesis.global_rebate_ratio_bps,
    },
    accounts: new Map(), agents: new Map(), nonces: new Map(), markets: new Map(), books: new Map(),
    nextOrderId: 1, height: 0, timestampMs: genesis.genesis_time_ms, lastDigest: '',
    dirty: new Set(), dirtyLeaves: [], dirtyOrders: [], rootSeq: 0, exchangeLeaf: { leafKey: 'x', dirtyIn: -1 }, hash: new StateHash(),
  }
  markLeaf(state, state.exchangeLeaf)
  for (const a of genesis.accounts) {
    const balance = parseDecimal(a.balance, 6)
    if (!balance.ok) throw new Error(`genesis balance of ${a.address}: ${balance.message}`)
    const roleMask = a.roles.reduce((mask, r) => mask | ROLES[r as keyof typeof ROLES], 0)
    insertAccount(state, newAccount(a.address.toLowerCase(), balance.value, roleMask))
  }
  for (const m of genesis.markets) {
    assert(!state.markets.has(m.market_id), `genesis market id ${m.market_id} repeats`)
    const decoded = decodeMarketConfig({ ...m }, m.fee_recipient)
    if (!decoded.ok) throw new Error(`genesis market ${m.symbol}: ${decoded.message}`)
    const market = newMarket(m.market_id, decoded.config, decoded.markTicks)
    market.lifecycle = m.lifecycle
    insertMarket(state, market)
  }
  return { state, stateRoot: commitStateRoot(state) }
}
