/**
 * Price-time-priority limit order book.
 *
 * The book only matches: it knows nothing of balances, margin or fees
 * (exchange-core style). Matching is split in two so the caller can validate
 * a whole match before committing it: {@link OrderBook.planMatch} is pure and
 * returns the fills it would make; the caller then applies them with
 * {@link OrderBook.fill} and cancels self-trade makers with
 * {@link OrderBook.remove}.
 *
 * Layout, chosen for speed (every hot operation is O(1) or O(log levels),
 * plus a memmove of at most one chunk of levels when a level is created or
 * emptied away from the touch):
 * - per side, the price levels in ascending key order, so that the BEST level
 *   is always at the END: consuming or cancelling out the best level is a
 *   `pop`. They are kept in chunks of at most LEVEL_CHUNK_MAX levels, so a
 *   level that comes or goes deep in a wide book moves one chunk, not every
 *   level between it and the best (scripts/bench/book-levels.ts: 19.05 ->
 *   2.34 us at 100,000 levels, 2.88 -> 0.72 us at 10,000);
 * - an existing level is found by checking the best level, then by binary
 *   search (O(log levels), and unlike a hash of attacker-chosen prices it has
 *   no bad case);
 * - per level, an intrusive doubly linked FIFO of nodes plus cached total lots
 *   and order count, so `levels()` is O(depth) and cancel is O(1);
 * - an open-addressing integer hash table from id to node for O(1) lookup and
 *   cancel (measured ~8x faster than `Map` for set + get + delete);
 * - nodes and levels are recycled through bounded free lists so steady-state
 *   traffic allocates nothing inside the book.
 *
 * Deterministic: integer arithmetic only, no clock, no randomness, no I/O.
 * Every loop has a named bound.
 *
 * @module
 */

import { insertAt, removeAt } from '../../lib/array-shift.ts'
import { IdIndex } from './id-index.ts'

/** Which side of the book an order rests on. */
export type Side = 'Bid' | 'Ask'

/** The minimum an order must expose to rest in the book. */
export interface BookOrder {
  /** Unique among resting orders; a non-negative safe integer, normally engine-assigned. */
  readonly id: number
  /** Account that owns the order; used for self-trade prevention. */
  readonly owner: string
  readonly side: Side
  /** Limit price in integer ticks, > 0. */
  readonly priceTicks: number
  /** Unfilled quantity in integer lots, > 0 while resting; the book mutates it on fills. */
  remainingLots: number
}

/** One maker fill a match would make. */
export interface PlannedFill<O> {
  readonly maker: O
  readonly lots: number
  /** The maker's price: takers always trade at the resting price. */
  readonly priceTicks: number
}

/** The outcome of {@link OrderBook.planMatch}; nothing has been applied yet. */
export interface MatchPlan<O> {
  /** Fills in execution order (best price first, then FIFO). */
  readonly fills: PlannedFill<O>[]
  /** Sum of `fills[i].lots`. */
  readonly filledLots: number
  /** Makers owned by the taker at acceptable prices; the caller cancels them (expire-maker STP). */
  readonly selfTradeMakers: O[]
  /** True when the walk stopped at `maxFills` while another non-self maker was still matchable. */
  readonly truncated: boolean
}

/**
 * A per-maker limit the caller may give {@link OrderBook.planMatch}: called once for each non-self
 * maker the walk reaches, in walk order, with the lots the maker would fill; returns the lots it
 * may fill (an integer in 0..lots). 0 skips the maker (it stays on the book). The book knows
 * nothing of why (the engine caps reduce-only makers at their owner's closable size).
 */
export type FillCap<O> = (maker: O, lots: number) => number

/** One aggregated price level. */
export interface LevelView {
  readonly priceTicks: number
  /** Total remaining lots resting at this price. */
  readonly lots: number
  /** Number of resting orders at this price. */
  readonly orders: number
}

/**
 * How many released nodes (and, separately, levels) a book keeps for reuse.
 * Bounds the memory a book holds after a burst of cancels while still making
 * steady-state insert/cancel traffic allocation-free.
 */
export const FREE_LIST_LIMIT = 65_536

/** A resting order's slot in its level's FIFO. */
class Node<O extends BookOrder> {
  order: O | null = null
  prev: Node<O> | null = null
  next: Node<O> | null = null
  level: Level<O> | null = null
}

/** All resting orders of one side at one price. */
class Level<O extends BookOrder> {
  /** Sort key: `priceTicks * side.sign`, so a larger key is always a better price. */
  key = 0
  priceTicks = 0
  lots = 0
  count = 0
  head: Node<O> | null = null
  tail: Node<O> | null = null
  side: SideBook<O> | null = null
}

/** Binary-search steps that suffice for any JS array (length < 2^32). */
const MAX_SEARCH_STEPS = 33

/** Levels per chunk of a side at most; a fuller chunk splits in two halves. */
export const LEVEL_CHUNK_MAX = 256

/** SideBook.topKey of an empty side: below every key (keys are prices, safe integers, signed), and
 * finite, as everything the state codec writes. */
const EMPTY_SIDE_KEY = -Number.MAX_VALUE

/** One side of the book. */
class SideBook<O extends BookOrder> {
  /**
   * +1 for bids, -1 for asks. Keying levels by `priceTicks * sign` lets both
   * sides share one ascending order with the best level last.
   */
  readonly sign: 1 | -1
  /**
   * Non-empty levels by ascending key, in non-empty chunks of at most
   * LEVEL_CHUNK_MAX (every key of a chunk is below the next chunk's): the
   * best level is the last of the last chunk.
   */
  readonly chunks: Level<O>[][] = []
  /** The best level (the last of the last chunk), kept apart: every order reads it. */
  top: Level<O> | undefined = undefined
  /**
   * The best level's key, EMPTY_SIDE_KEY when the side is empty. Whether an order crosses or joins
   * the best is decided on this number without reading a level, and an empty side takes the same
   * path as any other instead of a branch on an undefined top (no figure logged).
   */
  topKey = EMPTY_SIDE_KEY
  /** Where locate() found a key: a chunk, and an index in it. */
  foundChunk = 0
  foundIndex = 0

  constructor(sign: 1 | -1) {
    this.sign = sign
  }

  /**
   * Sets foundChunk and foundIndex to the first level whose key is >= key,
   * i.e. where `key` is or belongs (foundChunk = chunks.length when every key
   * is below it). Two binary searches: over the chunks' last keys, then in one.
   */
  locate(key: number): void {
    const chunks = this.chunks
    let lo = 0
    let hi = chunks.length
    // Each step halves [lo, hi), so MAX_SEARCH_STEPS is never the binding limit.
    for (let step = 0; lo < hi && step < MAX_SEARCH_STEPS; step++) {
      const mid = (lo + hi) >>> 1
      const chunk = chunks[mid]!
      if (chunk[chunk.length - 1]!.key < key) lo = mid + 1
      else hi = mid
    }
    this.foundChunk = lo
    const chunk = chunks[lo]
    let at = 0
    if (chunk !== undefined) {
      let end = chunk.length
      for (let step = 0; at < end && step < MAX_SEARCH_STEPS; step++) {
        const mid = (at + end) >>> 1
        if (chunk[mid]!.key < key) at = mid + 1
        else end = mid
      }
    }
    this.foundIndex = at
  }

  /** Adds a level with a key above every level's: the new best (a plain push). */
  addBest(level: Level<O>): void {
    const chunks = this.chunks
    const last = chunks[chunks.length - 1]
    if (last === undefined || last.length >= LEVEL_CHUNK_MAX) chunks.push([level])
    else last.push(level)
    this.top = level
    this.topKey = level.key
  }

  /** Adds a level whose key no level has, below the best, where the last locate() of its key found. */
  addAtFound(level: Level<O>): void {
    const c = this.foundChunk
    const chunk = this.chunks[c]!
    insertAt(chunk, this.foundIndex, level)
    if (chunk.length > LEVEL_CHUNK_MAX) this.chunks.splice(c + 1, 0, chunk.splice(chunk.length >>> 1))
  }

  /** Removes one of the side's levels. */
  delete(level: Level<O>): void {
    const chunks = this.chunks
    // Fast path: the emptied level is usually the best one (consumed by a taker).
    if (level === this.top) {
      const last = chunks[chunks.length - 1]!
      last.pop()
      if (last.length === 0) chunks.pop()
      const next = chunks[chunks.length - 1]
      this.top = next === undefined ? undefined : next[next.length - 1]
      this.topKey = this.top === undefined ? EMPTY_SIDE_KEY : this.top.key
      return
    }
    this.locate(level.key)
    const c = this.foundChunk
    const chunk = chunks[c]!
    removeAt(chunk, this.foundIndex)
    if (chunk.length === 0) removeAt(chunks, c)
  }
}

/** The book's internal classes, for the snapshot codec (state-codec.ts), which restores
 * a book's object graph as it is and so must know their prototypes. */
export const BOOK_CLASSES = { Node, Level, SideBook, IdIndex } as const

function invalid(message: string): never {
  throw new RangeError(`book: ${message}`)
}

function isPositiveInt(n: number): boolean {
  return Number.isSafeInteger(n) && n > 0
}

function isNonNegativeInt(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0
}

/**
 * A price-time-priority limit order book, generic over the stored order type.
 *
 * The book stores the caller's order objects by reference and mutates only
 * their `remainingLots` (in {@link fill} and {@link setRemaining}).
 * Invariant: the book is never crossed (best bid < best ask).
 */
export class OrderBook<O extends BookOrder> {
  private readonly bids = new SideBook<O>(1)
  private readonly asks = new SideBook<O>(-1)
  private readonly byId = new IdIndex<Node<O>>()
  private readonly freeNodes: Node<O>[] = []
  private readonly freeLevels: Level<O>[] = []

  /** Number of resting orders on both sides. */
  get size(): number {
    return this.byId.size
  }

  /** The resting order with this id, if any. */
  get(id: number): O | undefined {
    const node = this.byId.get(id)
    return node === undefined ? undefined : node.order!
  }

  /**
   * Rests `order` at the back of its price level.
   *
   * @throws RangeError if the id is already resting, the price or quantity is
   *   not a positive safe integer, the level total would leave the safe-integer
   *   range, or the order would cross the opposite best (match it first).
   */
  insert(order: O): void {
    const { id, priceTicks, remainingLots } = order
    if (!isNonNegativeInt(id)) invalid(`order id ${id} is not a non-negative safe integer`)
    if (!isPositiveInt(priceTicks)) invalid(`order ${id} price ${priceTicks} is not a positive integer`)
    if (!isPositiveInt(remainingLots)) invalid(`order ${id} remainingLots ${remainingLots} is not a positive integer`)
    let side: SideBook<O>
    if (order.side === 'Bid') side = this.bids
    else if (order.side === 'Ask') side = this.asks
    else invalid(`order ${id} has unknown side ${String(order.side)}`)
    // A crossed book would mean the caller skipped matching; fail loudly
    // rather than let best bid >= best ask leak into state.
    if (this.wouldCross(order.side, priceTicks)) invalid(`order ${id} at ${priceTicks} would cross the book`)

    const key = priceTicks * side.sign
    const topKey = side.topKey
    // Fast paths: orders most often join the best level or improve on it.
    let level: Level<O> | undefined
    if (topKey >= key) {
      if (topKey === key) level = side.top
      else {
        // A level at or above key exists (the best), so locate() lands on one.
        side.locate(key)
        const found = side.chunks[side.foundChunk]![side.foundIndex]!
        if (found.key === key) level = found
      }
    }
    if (level !== undefined && !Number.isSafeInteger(level.lots + remainingLots)) {
      invalid(`level ${priceTicks} total lots would exceed the safe-integer range`)
    }

    const node = this.freeNodes.pop() ?? new Node<O>()
    // The last check, and the first change: add() refuses a resting id without changing anything
    // (one probe, where a get and then an add took two).
    if (!this.byId.add(id, node)) {
      this.freeNodes.push(node)
      invalid(`order id ${id} is already resting`)
    }
    // A new level: the new best, or where locate() found its key above.
    if (level === undefined) level = this.newLevel(side, key, priceTicks, topKey < key)
    node.order = order
    node.level = level
    node.next = null
    node.prev = level.tail
    if (level.tail === null) level.head = node
    else level.tail.next = node
    level.tail = node
    level.lots += remainingLots
    level.count += 1
  }

  /**
   * Cancels a resting order; returns it or undefined if unknown. The returned
   * order keeps its `remainingLots` (the cancelled quantity).
   * O(1) unless its level empties.
   */
  remove(id: number): O | undefined {
    const node = this.byId.get(id)
    if (node === undefined) return undefined
    const order = node.order!
    this.unlink(node, order.remainingLots)
    return order
  }

  /**
   * Pure: plans a taker's match against the side opposite `takerSide`,
   * from the best price outwards while the price is acceptable
   * (`limitTicks` null = any price), without mutating anything.
   *
   * Makers owned by `takerOwner` are skipped and listed in `selfTradeMakers`
   * (expire-maker self-trade prevention: the caller cancels them).
   * Stops when `qtyLots` are filled, or after `maxFills` fills. In the latter
   * case the walk continues only past self-trade makers (still listing them)
   * to decide `truncated`, so when `truncated` is false the caller may, after
   * applying the fills and cancelling the self-trade makers, rest any
   * remainder without crossing the book.
   *
   * Cost: O(fills + self-trade makers + levels visited). The self-trade part
   * is amortised: each listed maker is cancelled by the caller.
   *
   * With `fillCap`, each non-self maker fills at most what the cap returns; a
   * maker capped to 0 is passed over and does not count towards `maxFills`
   * (nor makes the plan `truncated`). A capped maker may stay at an
   * acceptable price, so before resting a remainder the caller must take the
   * makers it capped off the book. The cap is also asked for the maker at
   * which the walk stops at `maxFills`, to decide `truncated`.
   */
  planMatch(
    takerSide: Side,
    takerOwner: string,
    limitTicks: number | null,
    qtyLots: number,
    maxFills: number,
    fillCap?: FillCap<O>,
  ): MatchPlan<O> {
    if (!isPositiveInt(qtyLots)) invalid(`qtyLots ${qtyLots} is not a positive integer`)
    if (!isNonNegativeInt(maxFills)) invalid(`maxFills ${maxFills} is not a non-negative integer`)
    if (limitTicks !== null && !isPositiveInt(limitTicks)) invalid(`limitTicks ${limitTicks} is not a positive integer`)
    const book = this.opposite(takerSide)
    // A maker price is acceptable iff its key >= the limit's key on the maker
    // side (bids: price >= limit; asks: -price >= -limit, i.e. price <= limit).
    const minKey = limitTicks === null ? Number.MIN_SAFE_INTEGER : limitTicks * book.sign

    const fills: PlannedFill<O>[] = []
    const selfTradeMakers: O[] = []
    let remaining = qtyLots
    let truncated = false
    const chunks = book.chunks
    // From the best level outwards: chunks from the last, levels from each chunk's end.
    scan: for (let c = chunks.length - 1; c >= 0; c--) {
      const chunk = chunks[c]!
      for (let l = chunk.length - 1; l >= 0; l--) {
        const level = chunk[l]!
        if (level.key < minKey) break scan
        const priceTicks = level.priceTicks
        let node = level.head
        const orderBound = level.count
        for (let visitedOrders = 0; visitedOrders < orderBound; visitedOrders++) {
          const maker = node!.order!
          node = node!.next
          if (maker.owner === takerOwner) {
            selfTradeMakers.push(maker)
            continue
          }
          let lots = remaining < maker.remainingLots ? remaining : maker.remainingLots
          if (fillCap !== undefined) {
            const capped = fillCap(maker, lots)
            if (!isNonNegativeInt(capped) || capped > lots) invalid(`fillCap gave ${capped} lots for maker ${maker.id}, not in 0..${lots}`)
            if (capped === 0) continue
            lots = capped
          }
          if (fills.length === maxFills) {
            truncated = true
            break scan
          }
          fills.push({ maker, lots, priceTicks })
          remaining -= lots
          if (remaining === 0) break scan
        }
      }
    }
    return { fills, filledLots: qtyLots - remaining, selfTradeMakers, truncated }
  }

  /**
   * Applies a fill to a resting order: reduces it by `lots`, removing it at 0
   * (the removed order object then reads `remainingLots === 0`).
   *
   * @throws RangeError if the order is unknown or `lots` is not in 1..remaining.
   */
  fill(id: number, lots: number): void {
    const node = this.byId.get(id)
    if (node === undefined) invalid(`fill of unknown order ${id}`)
    const order = node.order!
    if (!isPositiveInt(lots) || lots > order.remainingLots) {
      invalid(`fill of ${lots} lots on order ${id} with ${order.remainingLots} remaining`)
    }
    this.reduce(node, order, order.remainingLots - lots)
  }

  /**
   * Sets a resting order's remaining lots to a value no larger than now,
   * keeping its time priority (amend down); 0 removes the order (which then
   * reads `remainingLots === 0`).
   *
   * @throws RangeError if the order is unknown or `lots` is not in 0..remaining.
   */
  setRemaining(id: number, lots: number): void {
    const node = this.byId.get(id)
    if (node === undefined) invalid(`setRemaining of unknown order ${id}`)
    const order = node.order!
    if (!isNonNegativeInt(lots) || lots > order.remainingLots) {
      invalid(`setRemaining to ${lots} lots on order ${id} with ${order.remainingLots} remaining (only amend down)`)
    }
    this.reduce(node, order, lots)
  }

  /** Highest resting bid price, if any. */
  bestBid(): number | undefined {
    // From topKey, as wouldCross decides: the reference-book tests then check topKey at every step.
    const key = this.bids.topKey
    return key === EMPTY_SIDE_KEY ? undefined : key
  }

  /** Lowest resting ask price, if any. */
  bestAsk(): number | undefined {
    const key = this.asks.topKey
    return key === EMPTY_SIDE_KEY ? undefined : -key
  }

  /** Aggregated levels of `side` from the best price outwards, at most `depth` of them. O(depth). */
  levels(side: Side, depth: number): LevelView[] {
    if (!isNonNegativeInt(depth)) invalid(`depth ${depth} is not a non-negative integer`)
    const chunks = this.sideOf(side).chunks
    const out: LevelView[] = []
    scan: for (let c = chunks.length - 1; c >= 0; c--) {
      const chunk = chunks[c]!
      for (let l = chunk.length - 1; l >= 0; l--) {
        if (out.length === depth) break scan
        const level = chunk[l]!
        out.push({ priceTicks: level.priceTicks, lots: level.lots, orders: level.count })
      }
    }
    return out
  }

  /** Orders of `side` in priority order (best price first, then FIFO), at most `limit`. O(limit + levels visited). */
  ordersOf(side: Side, limit: number): O[] {
    if (!isNonNegativeInt(limit)) invalid(`limit ${limit} is not a non-negative integer`)
    const chunks = this.sideOf(side).chunks
    const out: O[] = []
    scan: for (let c = chunks.length - 1; c >= 0; c--) {
      const chunk = chunks[c]!
      for (let l = chunk.length - 1; l >= 0; l--) {
        const level = chunk[l]!
        let node = level.head
        const orderBound = level.count
        for (let visitedOrders = 0; visitedOrders < orderBound; visitedOrders++) {
          if (out.length === limit) break scan
          out.push(node!.order!)
          node = node!.next
        }
      }
    }
    return out
  }

  /** Whether a limit order at `priceTicks` on `side` would cross (reach) the opposite best price. */
  wouldCross(side: Side, priceTicks: number): boolean {
    // By the keys (an ask's key is minus its price): an empty side's EMPTY_SIDE_KEY crosses nothing.
    return side === 'Bid' ? priceTicks >= -this.asks.topKey : priceTicks <= this.bids.topKey
  }

  private sideOf(side: Side): SideBook<O> {
    return side === 'Bid' ? this.bids : this.asks
  }

  private opposite(side: Side): SideBook<O> {
    return side === 'Bid' ? this.asks : this.bids
  }

  /**
   * Shrinks a resting order to `lots` (<= its remaining), removing it at 0.
   * The order object is left with `remainingLots === lots`, so a fully filled
   * maker reads 0 afterwards.
   */
  private reduce(node: Node<O>, order: O, lots: number): void {
    const removed = order.remainingLots - lots
    order.remainingLots = lots
    if (lots === 0) this.unlink(node, removed)
    else node.level!.lots -= removed
  }

  /** Takes a node out of its level and the id index, dropping the level if it empties. */
  private unlink(node: Node<O>, lots: number): void {
    const level = node.level!
    const { prev, next } = node
    if (prev === null) level.head = next
    else prev.next = next
    if (next === null) level.tail = prev
    else next.prev = prev
    level.lots -= lots
    level.count -= 1
    this.byId.delete(node.order!.id)
    node.order = null
    node.prev = null
    node.next = null
    node.level = null
    if (this.freeNodes.length < FREE_LIST_LIMIT) this.freeNodes.push(node)
    if (level.count === 0) this.dropLevel(level)
  }

  /** Creates an empty level for `key` on side: its new best, or where side's last locate() found. */
  private newLevel(side: SideBook<O>, key: number, priceTicks: number, isBest: boolean): Level<O> {
    const level = this.freeLevels.pop() ?? new Level<O>()
    level.key = key
    level.priceTicks = priceTicks
    level.lots = 0
    level.count = 0
    level.head = null
    level.tail = null
    level.side = side
    if (isBest) side.addBest(level)
    else side.addAtFound(level)
    return level
  }

  private dropLevel(level: Level<O>): void {
    level.side!.delete(level)
    level.side = null
    level.head = null
    level.tail = null
    if (this.freeLevels.length < FREE_LIST_LIMIT) this.freeLevels.push(level)
  }
}
