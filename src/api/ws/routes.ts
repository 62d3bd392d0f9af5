// The unified WebSocket endpoint GET /api/v1/ws (docs/websocket.md#websocket-protocol) on Elysia's
// native (Bun) WebSocket. Frame size, heartbeat and idle handling are the hub's (see
// wsServerOptions for the server side).
import { Elysia } from 'elysia'
import { type CidrRange, clientAddress } from '../../lib/cidr.ts'
import type { RouteDoc } from '../../lib/openapi.ts'
import { GateBody } from '../../wire/results/rest.ts'
import type { WsConnection, WsTransport } from './connection.ts'
import type { WsHub } from './hub.ts'
import type { WsLimits } from './limits.ts'
import type { WsPosts } from './posts.ts'

export const WS_PATH = '/api/v1/ws'

/** The upgrade as the OpenAPI document lists it; the frames are docs/websocket.md's. */
export const WS_ROUTE: RouteDoc = {
  method: 'GET',
  path: WS_PATH,
  summary: 'WebSocket upgrade (docs/websocket.md)',
  tags: ['websocket'],
  responses: { '101': { description: 'switching protocols' }, '503': { description: 'recovering or halted', schema: GateBody } },
}

/**
 * Bun's WebSocket server options for the app's root Elysia config: the frame limit is enforced by
 * Bun (a larger client frame closes with 1009); Bun's own idle timer and pings are off because the
 * hub runs the 15 s heartbeat and 30 s idle timeout (docs/limits.md#websocket) itself.
 */
export function wsServerOptions(limits: WsLimits) {
  return { maxPayloadLength: limits.frameBytesMax, idleTimeout: 0, sendPings: false, perMessageDeflate: false }
}

/** Posting actions over the socket (docs/websocket.md#posting-actions); absent: `post` frames are unknown ops. */
export interface WsPostOptions {
  readonly posts: WsPosts
  /** Proxies trusted to name the client in X-Forwarded-For (--trusted-proxy), as on /action. */
  readonly trustedProxies?: readonly CidrRange[]
}

/** hubOf: the hub, or how to reach it when a connection opens (the app is served before the hub starts). */
export function wsRoutes(hubOf: WsHub | (() => WsHub), postOptions?: WsPostOptions) {
  const hub = typeof hubOf === 'function' ? lazyHub(hubOf) : hubOf
  // Bun hands every event of one connection the same ServerWebSocket object.
  const connections = new Map<object, WsConnection>()
  // Elysia wraps the socket for open/message/close/drain and passes it raw to ping/pong.
  const rawOf = (ws: unknown): object => (ws as { raw?: object }).raw ?? (ws as object)
  const connOf = (ws: unknown) => connections.get(rawOf(ws))
  const post =
    postOptions === undefined
      ? undefined
      : (conn: WsConnection, frame: Readonly<Record<string, unknown>>) => postOptions.posts.post(conn, frame)
  return new Elysia().ws(WS_PATH, {
    open(ws) {
      const conn = hub.open(rawOf(ws) as unknown as WsTransport)
      if (conn === undefined) return
      connections.set(rawOf(ws), conn)
      // The per-IP limit of posted actions counts the upgrade request's client, as /action does.
      const peer = (rawOf(ws) as { remoteAddress?: string }).remoteAddress
      const forwardedFor = (ws as { data?: { request?: Request } }).data?.request?.headers.get('x-forwarded-for')
      if (peer !== undefined && peer !== '') conn.clientAddress = clientAddress(peer, forwardedFor, postOptions?.trustedProxies ?? [])
    },
    message(ws, message) {
      const conn = connOf(ws)
      if (conn !== undefined) hub.message(conn, message, post)
    },
    drain(ws) {
      connOf(ws)?.drain()
    },
    ping(ws) {
      const conn = connOf(ws)
      if (conn !== undefined) hub.activity(conn)
    },
    pong(ws) {
      const conn = connOf(ws)
      if (conn !== undefined) hub.activity(conn)
    },
    close(ws) {
      const raw = rawOf(ws)
      const conn = connections.get(raw)
      if (conn === undefined) return
      connections.delete(raw)
      hub.closed(conn)
    },
  })
}

/** The hub's methods wsRoutes calls, each reaching the hub when it runs. */
function lazyHub(hubOf: () => WsHub): Pick<WsHub, 'open' | 'message' | 'activity' | 'closed'> {
  return {
    open: (transport) => hubOf().open(transport),
    message: (conn, message, post) => hubOf().message(conn, message, post),
    activity: (conn) => hubOf().activity(conn),
    closed: (conn) => hubOf().closed(conn),
  }
}
