// Synthetic committed blocks for the indexer's tests and benchmark: blocks of Filled events (with
// bodies made by the node's own wire/event-view.ts, so they are byte-for-byte what the node
// stores) committed through the real block store. Positions follow the chain's rule (close
// against the cost basis pro rata, open with the rest), so sizes and realized PnL are consistent.

import { mulberry32Unit } from '../../src/lib/prng.ts'
import type { BlockStore, StoredBlock, StoredEvent } from '../../src/node/block-store.ts'
import { eventBody } from '../../src/wire/event-view.ts'

export interface SyntheticMarket {
  readonly marketId: number
  readonly priceDecimals: number
  readonly sizeDecimals: number
  /** Price in ticks the synthetic trades move around. */
  readonly midTicks: number
}

export interface SyntheticOptions {
  readonly markets: readonly SyntheticMarket[]
  readonly accounts: readonly string[]
  readonly startTimeMs: number
  readonly blockTimeMs: number
  readonly seed?: number
}

interface Pos {
  size: number
  basis: bigint
}

export class SyntheticChain {
  private height: number
  private timeMs: number
  private nextOrderId = 1
  private readonly positions = new Map<string, Pos>()
  private readonly random: () => number
  private parent = `0x${'00'.repeat(32)}`

  constructor(
    private readonly store: BlockStore,
    private readonly options: SyntheticOptions,
  ) {
    this.height = store.tipHeight()
    this.timeMs = options.startTimeMs
    this.random = mulberry32Unit(options.seed ?? 1)
  }

  get tip(): number {
    return this.height
  }

  /** Applies a trade of `delta` lots for `notional` to a position; returns the realized PnL. */
  private trade(key: string, delta: number, notional: bigint): { before: number; after: number; pnl: bigint } {
    const p = this.positions.get(key) ?? { size: 0, basis: 0n }
    const before = p.size
    const buying = delta > 0
    const qty = Math.abs(delta)
    let pnl = 0n
    let openNotional = notional
    const closeLots = before !== 0 && before > 0 !== buying ? Math.min(qty, Math.abs(before)) : 0
    if (closeLots > 0) {
      const closeNotional = closeLots === qty ? notional : (notional * BigInt(closeLots)) / BigInt(qty)
      openNotional = notional - closeNotional
      const removed = closeLots === Math.abs(before) ? p.basis : (p.basis * BigInt(closeLots)) / BigInt(Math.abs(before))
      pnl = buying ? -removed - closeNotional : closeNotional - removed
      p.basis -= removed
      p.size += buying ? closeLots : -closeLots
    }
    const openLots = qty - closeLots
    if (openLots > 0) {
      p.size += buying ? openLots : -openLots
      p.basis += buying ? openNotional : -openNotional
    }
    this.positions.set(key, p)
    return { before, after: p.size, pnl }
  }

  /** Builds and commits the next block with `fills` Filled events (time moves by blockTimeMs). */
  commitBlock(fills: number): StoredBlock {
    const block = this.makeBlock(fills)
    this.store.commitBlock(block)
    return block
  }

  /** Builds the next block without committing it (commit them in order with the store). */
  makeBlock(fills: number): StoredBlock {
    this.height++
    this.timeMs += this.options.blockTimeMs
    const events: StoredEvent[] = []
    const accounts = this.options.accounts
    for (let i = 0; i < fills; i++) {
      const m = this.options.markets[Math.floor(this.random() * this.options.markets.length)]!
      const ti = Math.floor(this.random() * accounts.length)
      const mi = (ti + 1 + Math.floor(this.random() * (accounts.length - 1))) % accounts.length
      const taker = accounts[ti]!
      const maker = accounts[mi]!
      const takerSide = this.random() < 0.5 ? 'Bid' : 'Ask'
      const priceTicks = m.midTicks + Math.floor((this.random() - 0.5) * m.midTicks * 0.01)
      const qtyLots = 1 + Math.floor(this.random() * 100)
      // notional = price x qty at SCALE_6, exact for these decimals.
      const notional = (BigInt(priceTicks) * BigInt(qtyLots) * 1_000_000n) / 10n ** BigInt(m.priceDecimals + m.sizeDecimals)
      const takerFee = (notional * 5n) / 10_000n
      const makerFee = (notional * 2n) / 10_000n
      const t = this.trade(`${taker}:${m.marketId}`, takerSide === 'Bid' ? qtyLots : -qtyLots, notional)
      const k = this.trade(`${maker}:${m.marketId}`, takerSide === 'Bid' ? -qtyLots : qtyLots, notional)
      const event = {
        kind: 'Exec',
        sub_kind: 'Filled',
        market_id: m.marketId,
        account: taker,
        taker,
        maker,
        taker_order_id: this.nextOrderId++,
        maker_order_id: this.nextOrderId++,
        taker_side: takerSide,
        price_ticks: priceTicks,
        qty_lots: qtyLots,
        notional,
        taker_fee: takerFee,
        maker_fee: makerFee,
        taker_realized_pnl: t.pnl,
        maker_realized_pnl: k.pnl,
        taker_size_before: t.before,
        taker_size_after: t.after,
        maker_size_before: k.before,
        maker_size_after: k.after,
        maker_remaining_lots: 0,
        taker_source_trigger_id: null,
        maker_source_trigger_id: null,
        taker_source_tx_hash: null,
        maker_source_tx_hash: null,
      }
      events.push({
        // The blocks have no envelopes: their events are the block's own (envelope_idx = envelope_count = 0).
        height: this.height,
        seq: i,
        envelopeIdx: 0,
        kind: 'Exec',
        subKind: 'Filled',
        marketId: m.marketId,
        account: taker,
        bodyJson: JSON.stringify(eventBody(event, m)),
      })
    }
    const digest = `0x${this.height.toString(16).padStart(64, '0')}`
    const block: StoredBlock = {
      header: {
        height: this.height,
        parent: this.parent,
        digest,
        timestampMs: this.timeMs,
        envelopeCount: 0,
        eventCount: events.length,
        stateRoot: digest,
      },
      envelopes: [],
      events,
    }
    this.parent = digest
    return block
  }
}
