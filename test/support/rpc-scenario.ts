// The trading scenario behind docs/rpc.md and test/e2e/rpc-methods.test.ts: on a fresh dev node,
// funded dev accounts rest and cross orders (fills, positions, fees, a referral rebate), open a 50x
// Isolated position that the mark then puts under water, place a stop and an OCO pair, register an
// agent, request a withdrawal, take a deposit, and trade the external-peg market against a fresh
// oracle quote. Every read method then has real data to show. The actions run one after another
// (each reply comes after its block), so the ids, balances and marks are the same on every run;
// only heights, times and the hashes of time-stamped actions differ.

import type { RpcExample } from '../../scripts/docs/rpc-doc.ts'
import type { CompiledMethod } from '../../src/api/methods/registry.ts'
import {
  cancelOrder,
  creditDeposit,
  placeOcoPair,
  placeOrder,
  placeTriggerOrder,
  registerAgent,
  setGlobalRebateRatio,
  setInviter,
  submitOracleQuote,
  updateLeverage,
  updateMarginMode,
  withdrawRequest,
} from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { type ActionReply, bodyAs, type EventBodyOf, type EventSubKind } from '../../src/client/rpc-client.ts'
import { DEV_BRIDGE_INDEX, DEV_QUOTER_INDEX } from '../../src/node/dev-genesis.ts'
import { DEV_KEYS } from './node-process.ts'

export const BTC = 1
export const XAU = 4

/** Where the withdrawal pays out, and the account the bridge deposit opens. */
export const PAYOUT = '0x000000000000000000000000000000000000dead'
export const NEWCOMER = '0x00000000000000000000000000000000000c0ffe'
/** The key of the trader's agent. */
export const AGENT_KEY = `0x${'17'.repeat(32)}`

/** What the scenario made: the accounts and the ids the read methods are asked about. */
export interface RpcScenario {
  /** Dev account #1, the address of the methods' examples: rests, fills, stops, OCO, agent, withdrawal. */
  readonly trader: string
  /** #2, the trader's counterparty on BTC. */
  readonly counterparty: string
  /** #3, the trader's inviter (referral rebates). */
  readonly inviter: string
  /** #4, a 50x Isolated BTC long that the mark puts under water. */
  readonly leveraged: string
  /** #5: the sale that sets the BTC mark, and the XAU buy. */
  readonly markMover: string
  readonly admin: string
  readonly agent: string
  /** The trader's BTC bid 64000 x 0.5: 0.2 and 0.01 filled as maker, 0.29 resting. */
  readonly restingOrderId: number
  /** The trader's BTC bid 60000 x 0.01, cancelled. */
  readonly cancelledOrderId: number
  /** The trader's IOC that took 0.1 at 65000: its order, transaction and block. */
  readonly takerOrderId: number
  readonly takerTxHash: string
  readonly takerHeight: number
  /** The trader's stop: Ask 0.1 when the BTC mark falls to 60000. */
  readonly stopTriggerId: number
  /** The trader's OCO pair: Ask 0.1 at 70000 or on a fall to 58000; its legs. */
  readonly pairId: number
  readonly pairOrderId: number
  readonly pairTriggerId: number
  readonly withdrawalId: number
  /** The block of the scenario's first action, and of its last. */
  readonly firstHeight: number
  readonly lastHeight: number
}

function accepted(what: string, r: ActionReply): Extract<ActionReply, { status: 'accepted' }> {
  if (r.status !== 'accepted') throw new Error(`scenario: ${what} was not accepted: ${JSON.stringify(r)}`)
  return r
}

const bodyOf = <S extends EventSubKind>(r: Extract<ActionReply, { status: 'accepted' }>, subKind: S): EventBodyOf<S> => {
  const e = r.events.find((x) => x.sub_kind === subKind)
  if (e === undefined) throw new Error(`scenario: no ${subKind} in ${JSON.stringify(r.events)}`)
  return bodyAs(e, subKind)
}

/** Runs the scenario on a fresh dev node (it relies on the genesis balances and ids). */
export async function runRpcScenario(url: string): Promise<RpcScenario> {
  const client = (i: number) => new PerpdClient({ url, privateKey: DEV_KEYS[i]! })
  const admin = client(0)
  const trader = client(1)
  const counterparty = client(2)
  const inviter = client(3)
  const leveraged = client(4)
  const markMover = client(5)
  const quoter = client(DEV_QUOTER_INDEX)
  const bridge = client(DEV_BRIDGE_INDEX)
  const agent = new PerpdClient({ url, privateKey: AGENT_KEY }).address
  const order = (
    c: PerpdClient,
    market_id: number,
    side: 'Bid' | 'Ask',
    price: string,
    qty: string,
    tif: 'Gtc' | 'Ioc',
    client_order_id?: string,
  ) =>
    c.send(
      placeOrder({ market_id, side, price, qty, tif, reduce_only: false, ...(client_order_id === undefined ? {} : { client_order_id }) }),
    )

  // An exchange change for the audit log; the rebates below use the new ratio (20% of each fee).
  const first = accepted('SetGlobalRebateRatio', await admin.send(setGlobalRebateRatio({ ratio_bps: 2000 })))
  accepted('SetInviter', await trader.send((nonce, network) => setInviter({ network, inviter: inviter.address, nonce })))

  // BTC: the trader's bid rests, the counterparty sells into it, then rests an ask the trader lifts.
  const resting = accepted('the resting bid', await order(trader, BTC, 'Bid', '64000', '0.5', 'Gtc', 'doc-bid'))
  accepted('the sell into the bid', await order(counterparty, BTC, 'Ask', '64000', '0.2', 'Ioc'))
  accepted('the resting ask', await order(counterparty, BTC, 'Ask', '65000', '0.3', 'Gtc'))
  const taker = accepted('the lift', await order(trader, BTC, 'Bid', '65000', '0.1', 'Ioc', 'doc-lift'))

  // A 50x Isolated long of 0.1 at 65000 (130 of margin); a small sale into the trader's bid makes
  // 64000 the mark (the median of bid 64000, ask 65000 and the trade): equity 130 - 100 = 30, below
  // the maintenance of 1% x 6400 = 64.
  accepted('UpdateMarginMode', await leveraged.send(updateMarginMode({ market_id: BTC, mode: 'Isolated' })))
  accepted('UpdateLeverage', await leveraged.send(updateLeverage({ market_id: BTC, leverage: 50 })))
  accepted('the 50x long', await order(leveraged, BTC, 'Bid', '65000', '0.1', 'Ioc'))
  accepted('the mark-setting sale', await order(markMover, BTC, 'Ask', '64000', '0.01', 'Ioc'))

  const stop = accepted(
    'the stop',
    await trader.send(
      placeTriggerOrder({
        market_id: BTC,
        side: 'Ask',
        qty: '0.1',
        trigger_price: '60000',
        trigger_direction: 'Below',
        order_type: 'market',
        reduce_only: true,
        client_order_id: 'doc-stop',
      }),
    ),
  )
  const pair = accepted(
    'the OCO pair',
    await trader.send(
      placeOcoPair({
        market_id: BTC,
        side: 'Ask',
        qty: '0.1',
        limit_price: '70000',
        stop: { trigger_price: '58000', trigger_direction: 'Below', order_type: 'market' },
        reduce_only: true,
        client_pair_id: 7,
      }),
    ),
  )
  accepted('RegisterAgent', await trader.send((nonce, network) => registerAgent({ network, agent, role: 'Trader', name: 'desk', nonce })))
  const withdrawal = accepted(
    'WithdrawRequest',
    await trader.send((nonce, network) => withdrawRequest({ network, destination: PAYOUT, amount: '125.5', nonce })),
  )
  const doomed = accepted('the bid to cancel', await order(trader, BTC, 'Bid', '60000', '0.01', 'Gtc', 'doc-cancel'))
  const doomedId = bodyOf(doomed, 'OrderAccepted').order_id as number
  accepted('CancelOrder', await trader.send(cancelOrder({ market_id: BTC, order_id: doomedId })))

  accepted(
    'CreditDeposit',
    await bridge.send(creditDeposit({ account: NEWCOMER, amount: '2500', deposit_id: 'doc-deposit-1', source_chain: 'arbitrum' })),
  )

  // XAU (external peg): a fresh quote, then a buy against Book B at the quote's ask.
  accepted(
    'SubmitOracleQuote',
    await quoter.send(
      submitOracleQuote([{ market_id: XAU, bid_price: '2399.5', ask_price: '2400.5', mark_price: '2400', source_ts_ms: Date.now() }]),
    ),
  )
  const last = accepted('the XAU buy', await order(markMover, XAU, 'Bid', '2500', '1', 'Ioc'))

  return {
    trader: trader.address,
    counterparty: counterparty.address,
    inviter: inviter.address,
    leveraged: leveraged.address,
    markMover: markMover.address,
    admin: admin.address,
    agent,
    restingOrderId: bodyOf(resting, 'OrderAccepted').order_id as number,
    cancelledOrderId: doomedId,
    takerOrderId: bodyOf(taker, 'OrderAccepted').order_id as number,
    takerTxHash: taker.tx_hash,
    takerHeight: taker.height,
    stopTriggerId: bodyOf(stop, 'TriggerPlaced').trigger_id as number,
    pairId: bodyOf(pair, 'OcoPlaced').pair_id as number,
    pairOrderId: bodyOf(pair, 'OrderAccepted').order_id as number,
    pairTriggerId: bodyOf(pair, 'TriggerPlaced').trigger_id as number,
    withdrawalId: bodyOf(withdrawal, 'WithdrawalRequested').withdrawal_id as number,
    firstHeight: first.height,
    lastHeight: last.height,
  }
}

/** Waits until the history index has taken in the scenario's last block (the history reads show it all). */
export async function waitForHistory(url: string, scenario: RpcScenario, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  const reads = [
    { method: 'getRecentTrades', params: { limit: 1 } },
    { method: 'getCandles', params: { market_id: BTC, interval_ms: 60_000, limit: 1 } },
  ]
  for (;;) {
    const heights = await Promise.all(
      reads.map(async (r) => ((await rpcCall(url, r.method, r.params)) as { result?: { height: number } }).result?.height ?? -1),
    )
    if (heights.every((h) => h >= scenario.lastHeight)) return
    if (Date.now() > deadline) throw new Error(`the history index did not reach height ${scenario.lastHeight} (at ${heights.join(', ')})`)
    await Bun.sleep(25)
  }
}

/** The params the scenario's ids stand in for: an example's value under one of these names is replaced. */
export const SCENARIO_PARAMS = ['tx_hash', 'order_id', 'trigger_id', 'height', 'from_block'] as const

/** A method's example params with the ids of the scenario in place of the example's placeholders. */
export function exampleParams(m: Pick<CompiledMethod, 'example'>, s: RpcScenario): Record<string, unknown> {
  const ids: Record<(typeof SCENARIO_PARAMS)[number], unknown> = {
    tx_hash: s.takerTxHash,
    order_id: s.restingOrderId,
    trigger_id: s.stopTriggerId,
    height: s.takerHeight,
    from_block: s.firstHeight,
  }
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(m.example ?? {})) out[k] = k in ids ? ids[k as keyof typeof ids] : v
  return out
}

/** POSTs one JSON-RPC request to /api/v1/query and returns the parsed reply. */
export async function rpcCall(url: string, method: string, params: Record<string, unknown>): Promise<unknown> {
  const res = await fetch(`${url}/api/v1/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return res.json()
}

/** Calls a method with its example params (scenario ids in place) and returns request and reply. */
export async function captureExample(url: string, m: Pick<CompiledMethod, 'name' | 'example'>, s: RpcScenario): Promise<RpcExample> {
  const params = exampleParams(m, s)
  return { request: { jsonrpc: '2.0', id: 1, method: m.name, params }, response: await rpcCall(url, m.name, params) }
}
