// The unified WebSocket endpoint GET /api/v1/ws (docs/websocket.md#websocket-protocol) on Bun's
// WebSocket, routed by the Elysia app. Frame size, heartbeat and idle handling are the hub's (see
// wsServerOptions for the server side).
import type { ServerWebSocket } from 'bun'
import { Elysia } from 'elysia'
import { type CidrRange, clientAddress } from '../../lib/cidr.ts'
import type { RouteDoc } from '../../lib/openapi.ts'
import { GateBody } from '../../wire/results/rest.ts'
import type { WsConnection, WsTransport } from './connection.ts'
import type { WsHub } from './hub.ts'
import type { WsLimits } from './limits.ts'
import { POST_FRAME_PREFIX, type WsPosts } from './posts.ts'

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

/**
 * hubOf: the hub, or how to reach it when a connection opens (the app is served before the hub starts).
 *
 * The upgrade is Bun's own (server.upgrade), with the connection's handlers as the socket's data:
 * Elysia's Bun adapter hands every socket event to `ws.data.open/message/...`. Elysia's .ws() would
 * build a wrapper object with some fifteen bound methods and JSON-parse the frame in an async step
 * for every message, 3.4% of the block thread's time in a CPU profile of the capacity bench
 * (scripts/bench/actions.ts); here the hub gets the frame's text as it came.
 */
export function wsRoutes(hubOf: WsHub | (() => WsHub), postOptions?: WsPostOptions) {
  const hub = typeof hubOf === 'function' ? lazyHub(hubOf) : hubOf
  const post =
    postOptions === undefined
      ? undefined
      : (conn: WsConnection, frame: Readonly<Record<string, unknown>>) => postOptions.posts.post(conn, frame)
  const handlers = (request: Request) => {
    let conn: WsConnection | undefined
    return {
      open(ws: ServerWebSocket<unknown>) {
        conn = hub.open(ws as unknown as WsTransport)
        if (conn === undefined) return
        // The per-IP limit of posted actions counts the upgrade request's client, as /action does.
        const peer = ws.remoteAddress
        if (peer !== '') conn.clientAddress = clientAddress(peer, request.headers.get('x-forwarded-for'), postOptions?.trustedProxies ?? [])
      },
      message(_ws: ServerWebSocket<unknown>, message: string | Uint8Array) {
        const c = conn
        if (c === undefined) return
        // A post frame goes to admission unparsed (posts.ts postText); any other, or one it hands
        // back, is parsed by the hub.
        if (postOptions !== undefined && typeof message === 'string' && message.startsWith(POST_FRAME_PREFIX)) {
          hub.activity(c)
          if (postOptions.posts.postText(c, message, () => c.closed || hub.message(c, message, post))) return
        }
        hub.message(c, message, post)
      },
      drain() {
        conn?.drain()
      },
      ping() {
        if (conn !== undefined) hub.activity(conn)
      },
      pong() {
        if (conn !== undefined) hub.activity(conn)
      },
      close() {
        if (conn === undefined) return
        hub.closed(conn)
        conn = undefined
      },
    }
  }
  return new Elysia().route('WS', WS_PATH, ({ request, server }) => {
    if (server?.upgrade(request, { data: handlers(request) })) return
    return new Response('Expected a websocket connection', { status: 400 })
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
