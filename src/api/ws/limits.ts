// Limits of the WebSocket endpoint, with the defaults of docs/limits.md#websocket; tests
// shorten the timers with the node's `--ws-limits name=value,...` flag so they need not wait 30 s.

export interface WsLimits {
  /** Largest client frame, bytes; a larger one closes the connection with 1009. */
  readonly frameBytesMax: number
  /** Server ping interval. */
  readonly pingIntervalMs: number
  /** No message, ping or pong from the client for this long disconnects it. */
  readonly idleTimeoutMs: number
  /** Concurrent connections; more are refused (closed with 1013 right after the upgrade). */
  readonly connectionsMax: number
  /** A frame the socket cannot take for this long disconnects the slow consumer. */
  readonly sendTimeoutMs: number
  /** Frames and bytes a connection may have waiting; past either, they are dropped for a gap frame. */
  readonly outboxFramesMax: number
  readonly outboxBytesMax: number
  /** Topics one connection may hold. */
  readonly topicsPerConnectionMax: number
  /** The account.* fallback push interval. */
  readonly accountRefreshMs: number
  /** Posted actions without a reply yet per connection; past it a post is answered with an error (docs/websocket.md#posting-actions). */
  readonly postsInFlightMax: number
}

export const WS_LIMITS_DEFAULT: WsLimits = {
  frameBytesMax: 65_536,
  pingIntervalMs: 15_000,
  idleTimeoutMs: 30_000,
  connectionsMax: 1_024,
  sendTimeoutMs: 5_000,
  outboxFramesMax: 1_024,
  outboxBytesMax: 8 * 1024 * 1024,
  topicsPerConnectionMax: 1_000,
  accountRefreshMs: 3_000,
  postsInFlightMax: 1_024,
}

/** The flag's names for each limit. */
const NAMES: Readonly<Record<string, keyof WsLimits>> = {
  frame_bytes: 'frameBytesMax',
  ping_ms: 'pingIntervalMs',
  idle_ms: 'idleTimeoutMs',
  connections: 'connectionsMax',
  send_timeout_ms: 'sendTimeoutMs',
  outbox_frames: 'outboxFramesMax',
  outbox_bytes: 'outboxBytesMax',
  topics: 'topicsPerConnectionMax',
  account_refresh_ms: 'accountRefreshMs',
  posts_in_flight: 'postsInFlightMax',
}

/** Parses `idle_ms=1500,ping_ms=500` over the defaults; throws an Error naming a bad entry. */
export function parseWsLimits(text: string): WsLimits {
  const out: Record<string, number> = { ...WS_LIMITS_DEFAULT }
  for (const entry of text.split(',')) {
    if (entry.trim() === '') continue
    const [name, value, extra] = entry.split('=')
    const key = NAMES[name?.trim() ?? '']
    if (key === undefined || value === undefined || extra !== undefined)
      throw new Error(`--ws-limits: unknown entry ${entry} (names: ${Object.keys(NAMES).join(', ')})`)
    if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new Error(`--ws-limits: ${name} must be a positive integer, got ${value}`)
    out[key] = Number(value)
  }
  return out as unknown as WsLimits
}
