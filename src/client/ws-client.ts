// The WebSocket client of /api/v1/ws (docs/websocket.md#websocket-protocol). It keeps a subscription set across connections:
// after a disconnect it reconnects (with backoff) and resubscribes; it checks that every frame's
// `seq` follows the last one, and on a `gap` frame or a seq jump it drops the connection and starts
// over, because frames were lost. A push the server split into parts (docs/websocket.md#split-frames)
// reaches the handlers as one message, reassembled; a part that is missing or out of place is a loss
// like a gap. After every (re)subscription it runs the resync hooks, where state built from
// incremental topics is re-read over HTTP (getBootstrap / getAccountOrders); see OpenOrderSet for
// the orderUpdates maintenance rules. post() sends signed actions over the same connection
// (docs/websocket.md#posting-actions) and resolves with the /action result when the reply comes.
import { formatDecimal, parseDecimal } from '../lib/decimal.ts'
import { type ActionReply, RpcCallError, type RpcClient, type RpcErrorBody } from './rpc-client.ts'

/** A server frame as parsed JSON. */
export type WsFrame = Record<string, unknown> & { seq?: number; topic?: string; op?: string; type?: string }

/** Why the hooks run: a first connection, a reconnect, a loss (gap frame, seq jump), a changed subscription set. */
export type ResyncReason = 'connect' | 'reconnect' | 'gap' | 'seq' | 'subscribe'

export interface WsClientOptions {
  /** The node's base address (http://host:port) or the full ws:// URL of /api/v1/ws. */
  readonly url: string
  /** First reconnect delay; it doubles per failed attempt up to reconnectDelayMaxMs. */
  readonly reconnectDelayMs?: number
  readonly reconnectDelayMaxMs?: number
  /** Called with protocol problems (error frames, rejected topics); default: ignored. */
  readonly onWarning?: (message: string) => void
}

export interface WsClientStats {
  connects: number
  gapFrames: number
  seqGaps: number
  /** Split pushes whose parts did not arrive in order and complete (handled like a gap). */
  partGaps: number
  /** Split pushes reassembled. */
  reassembled: number
  lastSeq: number
}

/**
 * One message from the parts of a split push (docs/websocket.md#split-frames), given in part order:
 * lists are concatenated, maps merged, every other field taken from the first part (all parts carry
 * it alike); `part` and `parts` are dropped, and `seq` is the last part's.
 */
export function mergeParts(parts: readonly WsFrame[]): WsFrame {
  const out: Record<string, unknown> = {}
  for (const p of parts) {
    for (const [key, value] of Object.entries(p)) {
      if (key === 'part' || key === 'parts') continue
      const have = out[key]
      if (!(key in out)) out[key] = Array.isArray(value) ? [...value] : value
      else if (Array.isArray(have) && Array.isArray(value)) for (const v of value) have.push(v)
      // A post reply is split along result.events (docs/websocket.md#posting-actions).
      else if (p.op === 'post' && key === 'result' && isPlainObject(have) && isPlainObject(value))
        out[key] = { ...have, ...value, events: [...(have.events as unknown[]), ...(value.events as unknown[])] }
      else if (isPlainObject(have) && isPlainObject(value)) out[key] = { ...have, ...value }
    }
  }
  out.seq = parts[parts.length - 1]?.seq
  return out as WsFrame
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The block height a push is about (`height`, or blocks.live's `block.height`). */
const heightOf = (f: WsFrame): unknown => f.height ?? (f.block as { height?: unknown } | undefined)?.height

/** The ws:// URL of /api/v1/ws for a base address. */
export function wsUrlOf(url: string): string {
  if (url.startsWith('ws://') || url.startsWith('wss://')) return url
  return `${url.replace(/^http/, 'ws').replace(/\/$/, '')}/api/v1/ws`
}

export class PerpdWsClient {
  readonly url: string
  readonly stats: WsClientStats = { connects: 0, gapFrames: 0, seqGaps: 0, partGaps: 0, reassembled: 0, lastSeq: 0 }
  private socket: WebSocket | undefined
  private topics: string[] = []
  private readonly handlers = new Map<string, Set<(frame: WsFrame) => void>>()
  private readonly anyHandlers = new Set<(frame: WsFrame) => void>()
  private readonly resyncHooks = new Set<(reason: ResyncReason) => Promise<void> | void>()
  private closedByUser = false
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined
  private delayMs: number
  /** Why the next subscription confirmation triggers a resync. */
  private pendingReason: ResyncReason = 'connect'
  /** The current connection has confirmed a subscription (later confirmations are set changes). */
  private confirmed = false
  private readonly opened: Promise<void>
  private resolveOpened!: () => void
  private subscribedWaiters: (() => void)[] = []
  /** The parts received so far of a split push (they arrive back to back). */
  private parts: WsFrame[] = []
  /** Posted actions awaiting their reply, by post id. */
  private readonly posts = new Map<number, { readonly resolve: (r: ActionReply) => void; readonly reject: (err: unknown) => void }>()
  private nextPostId = 1

  constructor(private readonly options: WsClientOptions) {
    this.url = wsUrlOf(options.url)
    this.delayMs = options.reconnectDelayMs ?? 250
    this.opened = new Promise((resolve) => {
      this.resolveOpened = resolve
    })
  }

  /** Opens the connection; resolves once the first subscription (possibly empty) is confirmed. */
  connect(): Promise<void> {
    this.closedByUser = false
    this.open()
    return this.opened
  }

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN
  }

  /** Replaces the subscription set (sent now if connected, and again after every reconnect). */
  subscribe(topics: readonly string[]): Promise<void> {
    this.topics = [...topics]
    return this.sendSubscription()
  }

  /** Adds topics to the set. */
  add(...topics: string[]): Promise<void> {
    return this.subscribe([...new Set([...this.topics, ...topics])])
  }

  /** Removes topics from the set. */
  unsubscribe(topics: readonly string[]): void {
    this.topics = this.topics.filter((t) => !topics.includes(t))
    if (this.connected) this.socket!.send(JSON.stringify({ op: 'unsubscribe', topics }))
  }

  /** Frames of one topic (as subscribed), or every frame with '*'. Returns the unsubscriber. */
  on(topic: string, handler: (frame: WsFrame) => void): () => void {
    if (topic === '*') {
      this.anyHandlers.add(handler)
      return () => this.anyHandlers.delete(handler)
    }
    let set = this.handlers.get(topic)
    if (set === undefined) {
      set = new Set()
      this.handlers.set(topic, set)
    }
    set.add(handler)
    return () => set.delete(handler)
  }

  /** A hook run after every confirmed (re)subscription, before later frames are dispatched further. */
  onResync(hook: (reason: ResyncReason) => Promise<void> | void): () => void {
    this.resyncHooks.add(hook)
    return () => this.resyncHooks.delete(hook)
  }

  /** Posts awaiting their reply. */
  get postsInFlight(): number {
    return this.posts.size
  }

  /**
   * Sends signed action params (Signer.sign(...).params) over the connection
   * (docs/websocket.md#posting-actions): resolves with the /action result (accepted or kept
   * reject) once the block commits, or rejects with the refusal as RpcCallError. When the
   * connection is lost first it rejects with a plain Error: the outcome is unknown (the action may
   * still be in a block; look it up by tx hash with getTx).
   */
  post<T = ActionReply>(params: unknown): Promise<T> {
    const socket = this.socket
    if (socket === undefined || socket.readyState !== WebSocket.OPEN)
      return Promise.reject(new Error('post: the WebSocket is not connected'))
    const id = this.nextPostId++
    return new Promise<T>((resolve, reject) => {
      this.posts.set(id, { resolve: resolve as (r: ActionReply) => void, reject })
      socket.send(JSON.stringify({ op: 'post', id, action: params }))
    })
  }

  /** The connection is gone: every post without a reply has an unknown outcome. */
  private failPosts(why: string): void {
    if (this.posts.size === 0) return
    const held = [...this.posts.values()]
    this.posts.clear()
    for (const p of held) p.reject(new Error(`post: ${why} before the reply; the outcome is unknown (look the action up with getTx)`))
  }

  /** Closes for good. */
  close(): void {
    this.closedByUser = true
    this.failPosts('the client closed the connection')
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer)
    this.socket?.close(1000, 'client closed')
    this.socket = undefined
  }

  /** Drops the connection as a network failure would: the client reconnects and resynchronizes. */
  forceDisconnect(): void {
    this.socket?.close(4000, 'forced disconnect')
  }

  private sendSubscription(): Promise<void> {
    if (!this.connected) return Promise.resolve()
    const done = new Promise<void>((resolve) => this.subscribedWaiters.push(resolve))
    this.socket!.send(JSON.stringify({ op: 'subscribe', topics: this.topics }))
    return done
  }

  private open(): void {
    const socket = new WebSocket(this.url)
    this.socket = socket
    this.stats.lastSeq = 0
    this.confirmed = false
    this.parts = []
    socket.onopen = () => {
      this.stats.connects++
      this.delayMs = this.options.reconnectDelayMs ?? 250
      void this.sendSubscription()
    }
    socket.onmessage = (e) => {
      if (socket !== this.socket) return
      let frame: WsFrame
      try {
        frame = JSON.parse(String(e.data)) as WsFrame
      } catch {
        this.options.onWarning?.(`unparsable frame ${String(e.data).slice(0, 80)}`)
        return
      }
      this.receive(socket, frame)
    }
    socket.onclose = () => {
      if (socket !== this.socket) return
      this.socket = undefined
      this.failPosts('the connection closed')
      if (this.closedByUser) return
      this.pendingReason = 'reconnect'
      this.scheduleReconnect()
    }
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer !== undefined || this.closedByUser) return
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined
      if (!this.closedByUser) this.open()
    }, this.delayMs)
    this.delayMs = Math.min(this.delayMs * 2, this.options.reconnectDelayMaxMs ?? 5_000)
  }

  /** Loss: a gap frame or a seq jump. Start over on a fresh connection. */
  private restart(socket: WebSocket, reason: ResyncReason): void {
    this.pendingReason = reason
    this.parts = []
    // Replies may be among the lost frames.
    this.failPosts(`the connection was dropped after a ${reason}`)
    socket.onclose = null
    socket.close(4001, `resync after ${reason}`)
    this.socket = undefined
    this.scheduleReconnect()
  }

  /**
   * Collects the parts of a split push: the whole message once its last part is in, else
   * undefined. The parts of one push come back to back, numbered 1..parts, with one topic and one
   * height; anything else means parts were lost, and the client starts over as after a gap.
   */
  private gather(socket: WebSocket, frame: WsFrame): WsFrame | undefined {
    const first = this.parts[0]
    const part = frame.part
    const parts = frame.parts
    const fits =
      typeof part === 'number' &&
      typeof parts === 'number' &&
      Number.isInteger(parts) &&
      parts >= 1 &&
      part === this.parts.length + 1 &&
      (first === undefined ||
        (frame.topic === first.topic && frame.id === first.id && parts === first.parts && heightOf(frame) === heightOf(first)))
    if (!fits) {
      this.stats.partGaps++
      this.restart(socket, 'gap')
      return undefined
    }
    this.parts.push(frame)
    if (part < parts) return undefined
    const whole = mergeParts(this.parts)
    this.parts = []
    this.stats.reassembled++
    return whole
  }

  private receive(socket: WebSocket, frame: WsFrame): void {
    if (frame.type === 'gap') {
      this.stats.gapFrames++
      this.restart(socket, 'gap')
      return
    }
    if (typeof frame.seq === 'number') {
      if (this.stats.lastSeq !== 0 && frame.seq !== this.stats.lastSeq + 1) {
        this.stats.seqGaps++
        this.restart(socket, 'seq')
        return
      }
      this.stats.lastSeq = frame.seq
    }
    if (typeof frame.part === 'number' || this.parts.length > 0) {
      const whole = this.gather(socket, frame)
      if (whole === undefined) return
      frame = whole
    }
    if (frame.op === 'subscribed') {
      const rejected = frame.rejected as string[] | undefined
      if (rejected !== undefined) this.options.onWarning?.(`rejected topics: ${rejected.join('; ')}`)
      const reason = this.confirmed ? 'subscribe' : this.pendingReason
      this.confirmed = true
      for (const hook of this.resyncHooks) void hook(reason)
      for (const w of this.subscribedWaiters.splice(0)) w()
      this.resolveOpened()
    } else if (frame.op === 'post') {
      const pending = typeof frame.id === 'number' ? this.posts.get(frame.id) : undefined
      if (pending !== undefined) {
        this.posts.delete(frame.id as number)
        if (frame.error !== undefined) pending.reject(new RpcCallError('action', frame.error as RpcErrorBody))
        else pending.resolve(frame.result as ActionReply)
      }
    } else if (frame.op === 'error') {
      this.options.onWarning?.(`server error: ${String(frame.message)}`)
    }
    for (const h of this.anyHandlers) h(frame)
    if (typeof frame.topic === 'string') for (const h of this.handlers.get(frame.topic) ?? []) h(frame)
  }
}

/** An open order as the set keeps it (the detail fields of a `resting` update). */
export interface OpenOrder {
  order_id: number
  market_id: number
  symbol: string
  side: string
  price: string
  qty: string
  remaining: string
  tif: string
  reduce_only: boolean
  client_order_id?: string
}

interface OrderUpdateRow {
  block_height: number
  event_seq: number
  order_id: number
  kind: string
  market_id: number
  symbol: string
  side?: string
  price?: string
  qty?: string
  remaining: string
  tif?: string
  reduce_only?: boolean
  client_order_id?: string
}

interface FillRow {
  block_height: number
  event_seq: number
  order_id: number
  qty: string
  is_taker: boolean
}

/** Wait before retrying a failed getAccountOrders. */
const RESYNC_RETRY_MS = 500

type HeldFrame = { readonly kind: 'orders'; readonly rows: OrderUpdateRow[] } | { readonly kind: 'fills'; readonly rows: FillRow[] }

/** a - b for decimal strings (exact, at the larger of their precisions). */
export function subtractDecimal(a: string, b: string): string {
  const places = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0)
  const x = parseDecimal(a, places, { allowNegative: true })
  const y = parseDecimal(b, places, { allowNegative: true })
  if (!x.ok || !y.ok) throw new Error(`not decimals: ${a}, ${b}`)
  return formatDecimal(x.value - y.value, places)
}

/**
 * The open orders of one address, kept from `orderUpdates` by the rules of
 * docs/orders.md#order-lifecycle (resting upserts, done and expired remove, accepted only confirms
 * intent) and from the maker rows of `userFills` (a partial fill lowers `remaining`), and re-read
 * with getAccountOrders after every (re)subscription. Rows that arrive while the re-read is in
 * flight are held and applied afterwards when their block is newer than the read's height, so
 * nothing is applied twice.
 *
 * The hub pushes a block's userFills before its orderUpdates; a `resting` row (which states the
 * remainder when the order rested) is corrected by the maker fills of its own block that came after
 * it (higher event_seq).
 */
export class OpenOrderSet {
  readonly orders = new Map<number, OpenOrder>()
  /** Height of the last getAccountOrders read; rows of that block or older are already in it. */
  baseHeight = 0
  private syncing: Promise<void> | undefined
  /** Resyncs started; only the latest one's read is used. */
  private generation = 0
  private held: HeldFrame[] = []
  /** Maker fills of the latest block seen, for correcting that block's resting rows. */
  private blockFills: FillRow[] = []
  readonly orderTopic: string
  readonly fillTopic: string

  constructor(
    private readonly client: PerpdWsClient,
    private readonly rpc: RpcClient,
    readonly address: string,
  ) {
    this.orderTopic = `orderUpdates.${address.toLowerCase()}`
    this.fillTopic = `userFills.${address.toLowerCase()}`
    client.on(this.orderTopic, (frame) => this.receive({ kind: 'orders', rows: frame.updates as OrderUpdateRow[] }))
    client.on(this.fillTopic, (frame) => this.receive({ kind: 'fills', rows: frame.fills as FillRow[] }))
    client.onResync(() => this.resync())
  }

  /** Adds the two topics to the client's set (the confirmation triggers the first read). */
  start(): Promise<void> {
    return this.client.add(this.orderTopic, this.fillTopic)
  }

  /** Resolves when no re-read is in flight. */
  async settled(): Promise<void> {
    while (this.syncing !== undefined) await this.syncing
  }

  /** Re-reads the orders; rows arriving meanwhile are held. A newer resync supersedes an older one. */
  private resync(): Promise<void> {
    const generation = ++this.generation
    if (this.syncing === undefined) this.held = []
    const run = async () => {
      const r = await this.rpc.query<
        {
          order_id: number
          market_id: number
          symbol: string
          side: string
          price: string
          qty: string
          remaining: string
          tif: string
          reduce_only: boolean
          client_order_id: string | null
        }[]
      >('getAccountOrders', { address: this.address })
      if (generation !== this.generation) return
      this.orders.clear()
      for (const o of r.data) {
        const row: OpenOrder = {
          order_id: o.order_id,
          market_id: o.market_id,
          symbol: o.symbol,
          side: o.side,
          price: o.price,
          qty: o.qty,
          remaining: o.remaining,
          tif: o.tif,
          reduce_only: o.reduce_only,
        }
        if (o.client_order_id !== null) row.client_order_id = o.client_order_id
        this.orders.set(o.order_id, row)
      }
      this.baseHeight = r.height
      this.blockFills = []
      const held = this.held
      this.held = []
      this.syncing = undefined
      for (const frame of held) this.apply(frame)
    }
    // A failed read is retried shortly (rows keep being held); the promise settles with the retry.
    const p = run().catch(
      () =>
        new Promise<void>((resolve) => {
          setTimeout(() => resolve(generation === this.generation ? this.resync() : undefined), RESYNC_RETRY_MS)
        }),
    )
    this.syncing = p
    return p
  }

  private receive(frame: HeldFrame): void {
    if (this.syncing !== undefined) this.held.push(frame)
    else this.apply(frame)
  }

  private apply(frame: HeldFrame): void {
    if (frame.kind === 'fills') {
      for (const f of frame.rows) {
        if (f.block_height <= this.baseHeight || f.is_taker) continue
        if (this.blockFills.length > 0 && this.blockFills[0]!.block_height !== f.block_height) this.blockFills = []
        this.blockFills.push(f)
        const o = this.orders.get(f.order_id)
        if (o !== undefined) o.remaining = subtractDecimal(o.remaining, f.qty)
      }
      return
    }
    for (const u of frame.rows) {
      if (u.block_height <= this.baseHeight) continue
      if (u.kind === 'resting') {
        let remaining = u.remaining
        for (const f of this.blockFills) {
          if (f.block_height === u.block_height && f.order_id === u.order_id && f.event_seq > u.event_seq)
            remaining = subtractDecimal(remaining, f.qty)
        }
        const row: OpenOrder = {
          order_id: u.order_id,
          market_id: u.market_id,
          symbol: u.symbol,
          side: u.side!,
          price: u.price!,
          qty: u.qty!,
          remaining,
          tif: u.tif!,
          reduce_only: u.reduce_only === true,
        }
        if (u.client_order_id !== undefined) row.client_order_id = u.client_order_id
        this.orders.set(u.order_id, row)
      } else if (u.kind === 'done' || u.kind === 'expired') {
        this.orders.delete(u.order_id)
      }
    }
  }
}
