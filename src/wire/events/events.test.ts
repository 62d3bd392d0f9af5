// The event body schemas hold the bodies the chain really produces: chain workloads (a seeded random
// trading workload and one scenario per area that drives every sub_kind) run through applyBlock,
// each block's events are stored as the node stores them (node/views.ts storedEvents -> eventBody
// -> JSON), and every body is decoded and checked against its sub_kind's schema and the union. A
// failure names the sub_kind, the height and the path of the field. Every sub_kind with a schema
// must be met, and the chain's event types must map onto the schemas at type level too.
import { describe, expect, test } from 'bun:test'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import {
  amendExchangeConfig,
  BRIDGE,
  cancelWithdraw,
  claim,
  deposit,
  ERIN,
  FRANK,
  forceCancel,
  fresh,
  grantRole,
  refund,
  revokeAgent,
  revokeRole,
  setFrozen,
  setInsuranceFund,
  setInviter,
  setRebateRatio,
  setSettlementPaused,
  settle,
  transfer,
  withdraw,
} from '../../../test/support/chain/funds.ts'
import {
  EVE,
  FRED,
  LIQ,
  liquidate,
  marginGenesis,
  moveMark,
  updateIsolatedMargin,
  updateLeverage,
  updateMarginMode,
} from '../../../test/support/chain/margin.ts'
import {
  activate,
  amend,
  cancelMarket,
  completeDelist,
  emergencyHalt,
  haltMarket,
  nextBlockMs,
  QUOTER,
  quote,
  requestDelist,
  resumeMarket,
  setFeeRecipient,
} from '../../../test/support/chain/markets.ts'
import { batchModify, batchPlace, massCancel, placePayload, placeX, scheduleCancel } from '../../../test/support/chain/orders.ts'
import {
  ADMIN,
  ALICE,
  agentAddress,
  BOB,
  BTC,
  CAROL,
  cancel,
  createMarket,
  DAVE,
  ETH,
  place,
  Rng,
  registerAgent,
  SOL,
  TestChain,
  XAU,
} from '../../../test/support/chain/test-chain.ts'
import { amendTrig, cancelOco, cancelTrig, oco, trig } from '../../../test/support/chain/triggers.ts'
import {
  applyBlock,
  type BlockResult,
  type ChainEvent,
  type ChainState,
  createGenesisState,
  type EnvelopeInput,
} from '../../chain/index.ts'
import { parseDecimal } from '../../lib/decimal.ts'
import { eventView, eventViewsJson, storedEvents, symbolLookup } from '../../node/views.ts'
import type { WireBody } from '../event-view.ts'
import { compileValidator } from '../validate.ts'
import type { DecimalUnit } from './fields.ts'
import {
  decodeEventBody,
  EVENT_AREAS,
  EVENT_BODY_SCHEMAS,
  EVENT_KIND_OF,
  EVENT_SUB_KINDS,
  type EventBodyOf,
  EventBodySchema,
  type EventSubKind,
  isEventSubKind,
} from './index.ts'

// ---- type level: the chain's event types, mapped as eventBody() maps them, are the schemas' types ----

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type ChainEventOf<S> = Extract<ChainEvent, { sub_kind: S }>
/** Every chain sub_kind has a schema and every schema a chain sub_kind. */
const sameSubKinds: Same<ChainEvent['sub_kind'], EventSubKind> = true
/**
 * Per sub_kind: the wire body of the chain's event type is assignable to the schema's type, with
 * the same field names. MarketConfigAmended's `changes` is a string-keyed record in the chain,
 * narrower in the schema (the AmendMarketConfig fields); its values are held by the runtime check.
 */
type BodyMatches<S extends EventSubKind> = S extends 'MarketConfigAmended'
  ? Same<keyof WireBody<ChainEventOf<S>>, keyof EventBodyOf<S>>
  : WireBody<ChainEventOf<S>> extends EventBodyOf<S>
    ? Same<keyof WireBody<ChainEventOf<S>>, keyof EventBodyOf<S>>
    : false
const bodiesMatch: { [S in EventSubKind]: true } = null as unknown as { [S in EventSubKind]: BodyMatches<S> }

test('type level: the chain event types map onto the schemas, sub_kind for sub_kind', () => {
  expect(sameSubKinds).toBe(true)
  expect(bodiesMatch).toBeNull()
})

// ---- the registry ----

describe('the event schema registry', () => {
  test('one schema per sub_kind, in one area each, with its kind and a description on the event and every field', () => {
    const fromAreas = EVENT_AREAS.flatMap((a) => a.schemas.map((s) => s.properties.sub_kind.const as string))
    expect(new Set(fromAreas).size).toBe(fromAreas.length)
    expect([...fromAreas].sort()).toEqual([...EVENT_SUB_KINDS].sort())
    for (const subKind of EVENT_SUB_KINDS) {
      const schema = EVENT_BODY_SCHEMAS[subKind]
      expect({ subKind, kind: schema.properties.kind!.const }).toEqual({ subKind, kind: EVENT_KIND_OF[subKind] })
      expect({ subKind, described: typeof schema.description === 'string' && schema.description.length > 10 }).toEqual({
        subKind,
        described: true,
      })
      for (const [name, field] of Object.entries(schema.properties)) {
        expect({ subKind, name, described: typeof field.description === 'string' && field.description.length > 0 }).toEqual({
          subKind,
          name,
          described: true,
        })
      }
    }
  })

  test('decodeEventBody parses a body of a known sub_kind and refuses anything else', () => {
    const body = decodeEventBody('{"kind":"Core","sub_kind":"InviterSet","market_id":null,"account":"0x01","inviter":"0x02"}')
    expect(body.sub_kind).toBe('InviterSet')
    if (body.sub_kind === 'InviterSet') expect(body.inviter).toBe('0x02')
    expect(() => decodeEventBody('{"kind":"Core","sub_kind":"NoSuchEvent"}')).toThrow(/known sub_kind/)
    expect(() => decodeEventBody('[1]')).toThrow(/known sub_kind/)
    expect(() => decodeEventBody('null')).toThrow(/known sub_kind/)
    expect(isEventSubKind('Filled')).toBe(true)
    expect(isEventSubKind('filled')).toBe(false)
  })
})

// ---- real bodies ----

const validators = new Map(EVENT_SUB_KINDS.map((s) => [s, compileValidator(EVENT_BODY_SCHEMAS[s])]))
const union = TypeCompiler.Compile(EventBodySchema)
/** How many bodies of each sub_kind were checked. */
const seen = new Map<string, number>()
/** The first failures, one per sub_kind and message. */
const failures = new Map<string, string>()
let checked = 0

/** Stores a block's events as the node does and checks every body. */
function checkBlock(state: ChainState, result: BlockResult): void {
  const stored = storedEvents(state, state.height, result)
  // The replies' text of these events (action-result.ts) is JSON.stringify of their views, whatever
  // runs of kinds, accounts and markets they come in.
  const symbolOf = symbolLookup(state)
  expect(eventViewsJson(stored, symbolOf)).toBe(stored.map((e) => JSON.stringify(eventView(e, symbolOf))).join(','))
  for (const e of stored) {
    checked++
    seen.set(e.subKind, (seen.get(e.subKind) ?? 0) + 1)
    const fail = (what: string) => {
      const key = `${e.subKind}: ${what}`
      if (!failures.has(key)) failures.set(key, `${key} (height ${e.height}, seq ${e.seq}) ${e.bodyJson}`)
    }
    let body: ReturnType<typeof decodeEventBody>
    try {
      body = decodeEventBody(e.bodyJson)
    } catch (err) {
      fail(String(err))
      continue
    }
    if (body.sub_kind !== e.subKind || body.kind !== e.kind)
      fail(`the body says ${body.kind}/${body.sub_kind}, the row ${e.kind}/${e.subKind}`)
    if (EVENT_KIND_OF[body.sub_kind] !== e.kind) fail(`kind ${e.kind}, the registry says ${EVENT_KIND_OF[body.sub_kind]}`)
    const v = validators.get(body.sub_kind)!.validate(body, body.sub_kind)
    if (!v.ok) fail(`${v.field}: ${v.message}`)
    else if (!union.Check(body)) fail('passes its own schema but not the union')
    // A decimal's unit is its precision: a price at the market's price decimals, a size at its size decimals, money at 6.
    const market = e.marketId === null ? undefined : state.markets.get(e.marketId)
    const fields: Readonly<Record<string, unknown>> = body
    for (const [name, field] of Object.entries(EVENT_BODY_SCHEMAS[body.sub_kind].properties)) {
      const value = fields[name]
      const unit = field.unit as DecimalUnit | undefined
      if (unit === undefined || typeof value !== 'string') continue
      const decimals =
        unit === 'amount' ? 6 : market === undefined ? undefined : unit === 'price' ? market.priceDecimals : market.sizeDecimals
      if (decimals === undefined) fail(`${name}: a ${unit} without a market`)
      else if (!parseDecimal(value, decimals, { allowNegative: true }).ok)
        fail(`${name}: ${value} is not a ${unit} at ${decimals} decimals`)
    }
  }
}

/** A TestChain whose every block is checked. */
class CheckedChain extends TestChain {
  override applyEnvelopes(envelopes: readonly EnvelopeInput[]): BlockResult {
    const result = super.applyEnvelopes(envelopes)
    checkBlock(this.state, result)
    return result
  }

  /** A block at a chosen time. */
  blockAt(timestampMs: number, envelopes: EnvelopeInput[] = []): BlockResult {
    const result = applyBlock(this.state, { height: this.state.height + 1, timestampMs, envelopes })
    checkBlock(this.state, result)
    return result
  }

  /** n empty blocks. */
  idle(n: number): void {
    for (let i = 0; i < n; i++) this.block([])
  }

  /** The id of the order an action placed (it must be accepted). */
  orderOf(by: string, action: Record<string, unknown>): number {
    return this.placeOk(by, action)
  }
}

const marginChain = () => new CheckedChain(createGenesisState(marginGenesis()).state)

/** Expects a chain event of this sub_kind among events (a scenario step did what it is there for). */
function expectEvent(events: readonly ChainEvent[], subKind: ChainEvent['sub_kind']): void {
  expect({ subKind, found: events.some((e) => e.sub_kind === subKind) }).toEqual({ subKind, found: true })
}

describe('bodies of chain workloads pass their schemas', () => {
  test('a seeded random trading workload: orders, cancels, batches, triggers and OCO pairs on three native markets and the oracle market', () => {
    const chain = new CheckedChain()
    const rng = new Rng(20_260_101)
    const traders = [ALICE, BOB, CAROL, DAVE]
    const markets = [
      { id: BTC, mid: 65_000, step: 10, qty: () => (rng.range(1, 50) / 100).toString() },
      { id: ETH, mid: 3_500, step: 1, qty: () => (rng.range(1, 200) / 100).toString() },
      { id: SOL, mid: 150, step: 0.1, qty: () => rng.range(1, 30).toString() },
    ]
    const priceOf = (m: (typeof markets)[number]) => (Math.round((m.mid + (rng.int(21) - 10) * m.step) * 10) / 10).toString()
    let cloid = 0
    for (let b = 0; b < 150; b++) {
      const txs: { by: string; action: Record<string, unknown> }[] = []
      for (let i = rng.range(1, 8); i > 0; i--) {
        const by = rng.pick(traders)
        const m = rng.pick(markets)
        const side = rng.chance(50) ? 'Bid' : 'Ask'
        const roll = rng.int(100)
        const open = [...(chain.state.accounts.get(by)?.orders.values() ?? [])]
        if (roll < 45) {
          txs.push({
            by,
            action: placeX(m.id, side, priceOf(m), m.qty(), {
              tif: rng.pick(['Gtc', 'Gtc', 'Ioc', 'PostOnly', 'Fok'] as const),
              reduceOnly: rng.chance(10),
              ...(rng.chance(30) ? { cloid: `c-${++cloid}` } : {}),
              ...(rng.chance(15) ? { expiresAtMs: nextBlockMs(chain) + rng.range(1, 5) * 1_000 } : {}),
            }),
          })
        } else if (roll < 60 && open.length > 0) {
          const o = rng.pick(open)
          txs.push({ by, action: cancel(o.marketId, rng.chance(90) ? o.id : o.id + 1_000) })
        } else if (roll < 66) {
          txs.push({ by, action: batchPlace(placePayload(m.id, side, priceOf(m), m.qty()), placePayload(m.id, side, '0', m.qty())) })
        } else if (roll < 70 && open.length > 0) {
          const o = rng.pick(open)
          const om = markets.find((x) => x.id === o.marketId) ?? m
          txs.push({
            by,
            action: batchModify({
              market_id: o.marketId,
              order_id: o.id,
              ...(rng.chance(50) ? { qty: om.qty() } : { price: priceOf(om) }),
            }),
          })
        } else if (roll < 82) {
          const trigger = priceOf(m)
          txs.push({
            by,
            action: trig(m.id, side, m.qty(), trigger, rng.chance(50) ? 'Above' : 'Below', {
              ...(rng.chance(40) ? { type: 'limit' as const, limit: priceOf(m) } : {}),
              reduceOnly: rng.chance(20),
              ...(rng.chance(20) ? { cloid: `t-${++cloid}` } : {}),
              ...(rng.chance(20) ? { expiresAtMs: nextBlockMs(chain) + rng.range(1, 8) * 1_000 } : {}),
            }),
          })
        } else if (roll < 88) {
          txs.push({
            by,
            action: oco(m.id, side, m.qty(), priceOf(m), priceOf(m), side === 'Bid' ? 'Above' : 'Below', rng.range(1, 1_000_000)),
          })
        } else if (roll < 92) {
          txs.push({ by, action: massCancel(rng.chance(50) ? { by: 'Owner' } : { by: 'Side', market_id: m.id, side }) })
        } else if (roll < 96) {
          const mark = 2_400 + rng.range(-20, 20)
          txs.push({ by: QUOTER, action: quote(XAU, (mark - 1).toString(), (mark + 1).toString(), mark.toString(), nextBlockMs(chain)) })
        } else {
          txs.push({ by, action: place(XAU, side, side === 'Bid' ? '2500' : '2300', '0.1', { tif: 'Ioc' }) })
        }
      }
      chain.block(txs)
    }
    for (const k of [
      'OrderAccepted',
      'OrderResting',
      'Filled',
      'OrderDone',
      'OrderExpired',
      'TriggerPlaced',
      'TriggerActivated',
      'OcoPlaced',
      'OracleQuoteAccepted',
    ]) {
      expect({ k, seen: (seen.get(k) ?? 0) > 0 }).toEqual({ k, seen: true })
    }
  })

  test("orders: lifecycle, rejections, batches, mass cancels, expiry and the dead man's switch", () => {
    const chain = new CheckedChain()
    const bid = chain.orderOf(ALICE, place(BTC, 'Bid', '65000', '0.5', { cloid: 'a-1' }))
    chain.ok(BOB, place(BTC, 'Ask', '64000', '0.2', { tif: 'Ioc' }))
    chain.ok(ALICE, cancel(BTC, bid))
    expectEvent(chain.send(ALICE, place(999, 'Bid', '1', '1')).events, 'Rejected')
    expectEvent(chain.send(ALICE, cancel(BTC, 424_242)).events, 'Rejected')
    expectEvent(
      chain.ok(ALICE, batchPlace(placePayload(BTC, 'Bid', '60000', '0.1', { cloid: 'b-1' }), placePayload(BTC, 'Bid', '0', '0.1'))),
      'BatchItemRejected',
    )
    const resting = chain.orderOf(ALICE, place(ETH, 'Ask', '4000', '1'))
    expectEvent(chain.ok(ALICE, massCancel({ by: 'Ids', order_ids: [resting, 777_777] })), 'MassCancelDone')
    chain.ok(ALICE, place(BTC, 'Bid', '50000', '0.1'))
    expectEvent(chain.ok(ALICE, massCancel({ by: 'Side', market_id: BTC, side: 'Bid' })), 'MassCancelDone')
    // An order that expires two blocks on.
    chain.ok(BOB, placeX(SOL, 'Bid', '140', '1', { expiresAtMs: nextBlockMs(chain) + 1_500, cloid: 'exp-1' }))
    chain.idle(3)
    expect(seen.get('OrderExpired') ?? 0).toBeGreaterThan(0)
    // The dead man's switch: set, cleared, set again and fired.
    expectEvent(chain.ok(CAROL, scheduleCancel(nextBlockMs(chain) + 60_000)), 'CancelScheduled')
    chain.ok(CAROL, scheduleCancel(null))
    chain.ok(CAROL, place(ETH, 'Bid', '3000', '1'))
    chain.ok(CAROL, scheduleCancel(nextBlockMs(chain) + 5_000))
    chain.idle(7)
    expect(seen.get('DeadMansSwitchFired') ?? 0).toBeGreaterThan(0)
  })

  test('triggers and OCO pairs: placed, amended, cancelled, expired, activated, fire_failed; pairs placed and resolved', () => {
    const chain = new CheckedChain()
    // Placed with every optional field, amended, cancelled.
    const placed = chain.ok(
      ALICE,
      trig(BTC, 'Ask', '0.1', '60000', 'Below', {
        type: 'limit',
        limit: '59000',
        tif: 'Gtc',
        cloid: 'stop-1',
        expiresAtMs: nextBlockMs(chain) + 600_000,
      }),
    )
    const id = (placed.find((e) => e.sub_kind === 'TriggerPlaced') as { trigger_id: number }).trigger_id
    expectEvent(chain.ok(ALICE, amendTrig(BTC, id, { trigger_price: '61000' })), 'TriggerAmended')
    expectEvent(chain.ok(ALICE, cancelTrig(BTC, id)), 'TriggerCancelled')
    // One that expires.
    chain.ok(ALICE, trig(BTC, 'Bid', '0.1', '90000', 'Above', { expiresAtMs: nextBlockMs(chain) + 1_500 }))
    chain.idle(3)
    expect(seen.get('TriggerExpired') ?? 0).toBeGreaterThan(0)
    // One that fires, and a reduce-only one without a position that fails when it fires.
    // (A limit that rests far from the book, so the fired order leaves moveMark's book alone.)
    chain.ok(ALICE, trig(BTC, 'Ask', '0.1', '64000', 'Below', { type: 'limit', limit: '80000' }))
    chain.ok(ERIN, trig(BTC, 'Ask', '0.1', '64000', 'Below', { reduceOnly: true }))
    moveMark(chain, BTC, '63000', '0.0001')
    chain.idle(1)
    expect(seen.get('TriggerActivated') ?? 0).toBeGreaterThan(0)
    expect(seen.get('TriggerFireFailed') ?? 0).toBeGreaterThan(0)
    // OCO: BOB long 1 BTC; a take-profit / stop-loss pair with a limit stop, cancelled; a bracket on a resting entry.
    chain.ok(CAROL, place(BTC, 'Ask', '63000', '1'))
    chain.ok(BOB, place(BTC, 'Bid', '63000', '1', { tif: 'Ioc' }))
    const pair = chain.ok(
      BOB,
      oco(BTC, 'Ask', '1', '70000', '60000', 'Below', 11, {
        reduceOnly: true,
        stopType: 'limit',
        stopLimit: '59000',
        stopExpiresAtMs: nextBlockMs(chain) + 600_000,
      }),
    )
    const pairId = (pair.find((e) => e.sub_kind === 'OcoPlaced') as { pair_id: number }).pair_id
    expectEvent(chain.ok(BOB, cancelOco(BTC, pairId)), 'OcoResolved')
    const entry = chain.orderOf(DAVE, place(BTC, 'Bid', '55000', '0.1'))
    expectEvent(chain.ok(DAVE, oco(BTC, 'Ask', '0.1', '70000', '50000', 'Below', 12, { parent: entry })), 'OcoPlaced')
    chain.ok(DAVE, cancel(BTC, entry))
  })

  test('margin: leverage, margin mode, isolated margin, liquidations, bad debt and a cross deficit', () => {
    const chain = marginChain()
    expectEvent(chain.ok(ALICE, updateLeverage(BTC, 10)), 'LeverageUpdated')
    expectEvent(chain.ok(ALICE, updateMarginMode(BTC, 'Isolated')), 'MarginModeUpdated')
    chain.ok(BOB, place(BTC, 'Ask', '65000', '0.1'))
    chain.ok(ALICE, place(BTC, 'Bid', '65000', '0.1', { tif: 'Ioc' }))
    expectEvent(chain.ok(ALICE, updateIsolatedMargin(BTC, '100', 'Add')), 'IsolatedMarginUpdated')
    chain.ok(ALICE, updateIsolatedMargin(BTC, '50', 'Remove'))
    // FRED: Cross long 1 BTC at 60000 on 10,000; the mark at 49000 leaves a shortfall the fund absorbs.
    chain.ok(BOB, place(BTC, 'Ask', '60000', '1'))
    chain.ok(FRED, place(BTC, 'Bid', '60000', '1', { tif: 'Ioc' }))
    moveMark(chain, BTC, '49000', '0.0001')
    const liq = chain.ok(LIQ, liquidate(FRED, BTC))
    expectEvent(liq, 'PositionLiquidated')
    expectEvent(liq, 'BadDebt')
    // EVE: Isolated BTC and Cross ETH; her ETH loss takes the BTC margin back before the fund pays.
    const eth = marginChain()
    eth.ok(EVE, updateMarginMode(BTC, 'Isolated'))
    eth.ok(EVE, updateLeverage(BTC, 10))
    eth.ok(BOB, place(BTC, 'Ask', '60000', '0.1'))
    eth.ok(EVE, place(BTC, 'Bid', '60000', '0.1', { tif: 'Ioc' }))
    eth.ok(BOB, place(ETH, 'Ask', '3500', '50'))
    eth.ok(EVE, place(ETH, 'Bid', '3500', '50', { tif: 'Ioc' }))
    eth.ok(EVE, place(ETH, 'Ask', '3300', '50'))
    moveMark(eth, ETH, '3200', '0.001')
    eth.block([{ by: BOB, action: place(ETH, 'Bid', '3300', '50', { tif: 'Ioc' }) }])
    expect(seen.get('IsolatedMarginUpdated') ?? 0).toBeGreaterThan(2)
  })

  test('markets: creation, lifecycle, configuration, the oracle and its staleness, delisting', () => {
    const chain = new CheckedChain()
    const created = chain.ok(ADMIN, createMarket({ symbol: 'DOGE-USD', market_id: 40 }))
    const doge = (created.find((e) => e.sub_kind === 'MarketCreated') as { market_id: number }).market_id
    expectEvent(chain.ok(ADMIN, cancelMarket(doge)), 'MarketCancelled')
    const pepe = (
      chain.ok(ADMIN, createMarket({ symbol: 'PEPE-USD' })).find((e) => e.sub_kind === 'MarketCreated') as { market_id: number }
    ).market_id
    expectEvent(chain.ok(ADMIN, activate(pepe)), 'MarketLifecycleChanged')
    chain.ok(ADMIN, haltMarket(pepe))
    chain.ok(ADMIN, resumeMarket(pepe))
    expectEvent(chain.ok(ADMIN, emergencyHalt(pepe, true)), 'EmergencyHaltChanged')
    chain.ok(ADMIN, emergencyHalt(pepe, false))
    expectEvent(chain.ok(ADMIN, setFeeRecipient(pepe, FRANK)), 'FeeRecipientChanged')
    expectEvent(chain.ok(ADMIN, amend(pepe, { taker_fee_bps: 4, min_order_qty: '0.010', max_quote_price: '0' })), 'MarketConfigAmended')
    // The oracle market: accepted, five rejected in a row (the storm alarm), stale, resumed by a quote.
    expectEvent(chain.ok(QUOTER, quote(XAU, '2399', '2401', '2400', nextBlockMs(chain))), 'OracleQuoteAccepted')
    chain.ok(ALICE, place(XAU, 'Bid', '2500', '0.1', { tif: 'Ioc' }))
    for (let i = 0; i < 5; i++) chain.send(QUOTER, quote(XAU, '2401', '2399', '2400', nextBlockMs(chain)))
    expect(seen.get('QuoteRejectStorm') ?? 0).toBeGreaterThan(0)
    chain.idle(12)
    expect(seen.get('MarketHaltedQuoteStale') ?? 0).toBeGreaterThan(0)
    expectEvent(chain.ok(QUOTER, quote(XAU, '2399', '2401', '2400', nextBlockMs(chain))), 'MarketResumedAfterQuote')
    // Delisting a market with positions, resting orders and a trigger.
    chain.ok(BOB, place(SOL, 'Ask', '150', '10'))
    chain.ok(ALICE, place(SOL, 'Bid', '150', '10', { tif: 'Ioc' }))
    chain.ok(CAROL, place(SOL, 'Bid', '100', '1'))
    chain.ok(ALICE, trig(SOL, 'Ask', '10', '120', 'Below'))
    chain.ok(ADMIN, requestDelist(SOL))
    const delisted = chain.ok(ADMIN, completeDelist(SOL))
    expectEvent(delisted, 'DelistSettlement')
    expectEvent(delisted, 'DelistCompleted')
  })

  test('funds, access and administration: bridge, transfers, referral rebates, agents, roles, freezing and exchange settings', () => {
    const chain = new CheckedChain()
    expectEvent(chain.ok(BRIDGE, deposit(fresh(1), '1000', '0xdep:1', 'arbitrum')), 'DepositCredited')
    chain.ok(BRIDGE, deposit(ALICE, '5', '0xdep:2'))
    const w1 = (chain.ok(ALICE, withdraw('10')).find((e) => e.sub_kind === 'WithdrawalRequested') as { withdrawal_id: number })
      .withdrawal_id
    expectEvent(chain.ok(ALICE, cancelWithdraw(w1)), 'WithdrawalCancelled')
    const w2 = (chain.ok(ALICE, withdraw('20')).find((e) => e.sub_kind === 'WithdrawalRequested') as { withdrawal_id: number })
      .withdrawal_id
    expectEvent(chain.ok(BRIDGE, claim(w2)), 'WithdrawalClaimed')
    expectEvent(chain.ok(BRIDGE, settle(w2, '0xfeed')), 'WithdrawalSettled')
    const w3 = (chain.ok(ALICE, withdraw('30')).find((e) => e.sub_kind === 'WithdrawalRequested') as { withdrawal_id: number })
      .withdrawal_id
    expectEvent(chain.ok(BRIDGE, refund(w3, 'destination rejected the transfer')), 'WithdrawalRefunded')
    const w4 = (chain.ok(ALICE, withdraw('1')).find((e) => e.sub_kind === 'WithdrawalRequested') as { withdrawal_id: number }).withdrawal_id
    chain.ok(BRIDGE, refund(w4))
    const w5 = (chain.ok(ALICE, withdraw('1')).find((e) => e.sub_kind === 'WithdrawalRequested') as { withdrawal_id: number }).withdrawal_id
    chain.ok(BRIDGE, settle(w5))
    expectEvent(chain.ok(ALICE, transfer(BOB, '10')), 'FundsTransferred')
    expectEvent(chain.ok(ADMIN, setRebateRatio(1_000)), 'GlobalRebateRatioChanged')
    expectEvent(chain.ok(BOB, setInviter(ALICE)), 'InviterSet')
    chain.ok(CAROL, place(BTC, 'Ask', '65000', '0.1'))
    expectEvent(chain.ok(BOB, place(BTC, 'Bid', '65000', '0.1', { tif: 'Ioc' })), 'RebatePaid')
    expectEvent(chain.ok(ALICE, registerAgent(agentAddress(1), 'Trader', 'bot-1')), 'AgentRegistered')
    expectEvent(chain.ok(ALICE, revokeAgent(agentAddress(1))), 'AgentRevoked')
    expectEvent(chain.ok(ADMIN, grantRole(ERIN, 'Quoter')), 'RoleGranted')
    expectEvent(chain.ok(ADMIN, revokeRole(ERIN, 'Quoter')), 'RoleRevoked')
    expectEvent(chain.ok(ADMIN, setFrozen(ERIN, true)), 'AccountFrozenChanged')
    chain.ok(ADMIN, setFrozen(ERIN, false))
    expectEvent(chain.ok(ADMIN, setSettlementPaused(true)), 'SettlementPausedChanged')
    chain.ok(ADMIN, setSettlementPaused(false))
    expectEvent(chain.ok(ADMIN, setInsuranceFund(FRANK)), 'InsuranceFundChanged')
    expectEvent(chain.ok(ADMIN, amendExchangeConfig(5_000)), 'ExchangeConfigAmended')
    chain.ok(DAVE, place(ETH, 'Bid', '3000', '1'))
    chain.ok(DAVE, place(BTC, 'Bid', '60000', '0.1'))
    expectEvent(chain.ok(ADMIN, forceCancel(DAVE, ETH)), 'AccountOrdersForceCancelled')
    chain.ok(ADMIN, forceCancel(DAVE))
  })

  test('every body passed its schema, and every sub_kind with a schema was met', () => {
    expect(checked).toBeGreaterThan(1_000)
    expect([...failures.values()]).toEqual([])
    const missing = EVENT_SUB_KINDS.filter((s) => (seen.get(s) ?? 0) === 0)
    expect(missing).toEqual([])
    const unknown = [...seen.keys()].filter((s) => !isEventSubKind(s))
    expect(unknown).toEqual([])
  })
})
