// Composition of the node's HTTP interface: one Elysia instance per concern.
import { Elysia } from 'elysia'
import type { CidrRange } from '../lib/cidr.ts'
import { createLogger, errorMessage, logLine } from '../lib/log.ts'
import type { ChainNode } from '../node/chain-node.ts'
import { ActionAdmission } from './admission/action-admission.ts'
import type { ActionForwarding } from './admission/action-forward.ts'
import type { AdmissionPool } from './admission/admission-pool.ts'
import { clientGoneResponse, isClientGone } from './client-gone.ts'
import { jsonResponse } from './jsonrpc.ts'
import { marketStatsReader } from './methods/market-methods.ts'
import { metricsRoutes } from './metrics.ts'
import { openApiRoutes } from './openapi.ts'
import { REQUEST_BODY_BACKSTOP_BYTES } from './request-body.ts'
import { actionRoutes } from './routes/action-routes.ts'
import { aliasRoutes } from './routes/alias-routes.ts'
import { candleRoutes } from './routes/candle-routes.ts'
import { explorerServeRoutes } from './routes/explorer-routes.ts'
import { feedRoutes } from './routes/feed-routes.ts'
import { gateResponse, healthRoutes } from './routes/health-routes.ts'
import { historyRoutes } from './routes/history-routes.ts'
import { queryRoutes } from './routes/query-routes.ts'
import { replicationRoutes } from './routes/replication-routes.ts'
import { WS_LIMITS_DEFAULT, type WsLimits } from './ws/limits.ts'
import { WsPosts } from './ws/posts.ts'
import { wsRoutes, wsServerOptions } from './ws/routes.ts'
import { type FeedRuntime, feedRuntime } from './ws/runtime.ts'

export interface AppOptions {
  /** /action requests per second per client IP; 0 disables. */
  readonly actionIpRatePerSec?: number
  /** Proxies trusted to name the client in X-Forwarded-For (--trusted-proxy); per-IP limits count that address. */
  readonly trustedProxies?: readonly CidrRange[]
  /** A /query request times out after this long, queueing included; default QUERY_TIMEOUT_MS. */
  readonly queryTimeoutMs?: number
  /** WebSocket limits (defaults: docs/limits.md#websocket) and the block time the hot feed's staleness follows. */
  readonly ws?: WsLimits
  readonly blockTimeMs?: number
  /** The admission threads of /action (--admission-threads); absent: admission runs on the block thread. */
  readonly admissionPool?: AdmissionPool
  /** A node of a replicated chain: /action and WebSocket posts are forwarded to the leader while it does not lead. */
  readonly actionForwarding?: ActionForwarding
}

const log = createLogger('api')
const ACTION_PATH = '/api/v1/action'

/**
 * Seeds the node's hot feed from its state and starts the WebSocket hub: once the node is
 * recovered (the feed reads the tip's state). createApp does it for a node recovered already; an
 * owner that serves while the node recovers (src/main.ts) calls it after ChainNode.recover().
 */
export function startFeed(node: ChainNode, options: AppOptions = {}): FeedRuntime {
  const feed = feedRuntime(node, { ws: options.ws, blockTimeMs: options.blockTimeMs })
  feed.setMarketStats(marketStatsReader(node))
  return feed
}

/**
 * The node's HTTP and WebSocket API. It may be served before the node is recovered: until the node
 * produces blocks only the probes answer (routes/health-routes.ts, the gate), and the hot feed is
 * started by startFeed once the node is recovered.
 */
export function createApp(node: ChainNode, options: AppOptions = {}) {
  if (node.isRecovered) startFeed(node, options)
  // The routes reach the feed when they run, by then started.
  const feed: FeedRuntime = {
    get feed() {
      return feedRuntime(node).feed
    },
    get hub() {
      return feedRuntime(node).hub
    },
    setHistoryStatus: (read) => feedRuntime(node).setHistoryStatus(read),
    followHistory: (index) => feedRuntime(node).followHistory(index),
    setMarketStats: (read) => feedRuntime(node).setMarketStats(read),
  }
  // One admission for /action and the WebSocket's post frames: one per-IP budget for both.
  const admission = new ActionAdmission(node, options.actionIpRatePerSec ?? 0, options.admissionPool, options.actionForwarding)
  const trustedProxies = options.trustedProxies ?? []
  const posts = new WsPosts(admission, options.ws ?? WS_LIMITS_DEFAULT, logLine(log))
  return (
    new Elysia({
      serve: {
        maxRequestBodySize: REQUEST_BODY_BACKSTOP_BYTES,
        // The explorer page at `/`, answered by Bun before the app's hooks (routes/explorer-routes.ts).
        routes: explorerServeRoutes,
        // Bun's development mode would serve the page with hot reloading and rebundle it on changes;
        // a node serves the one bundle it was started (or compiled) with.
        development: false,
      },
      websocket: wsServerOptions(options.ws ?? WS_LIMITS_DEFAULT),
    })
      .onError(({ code, error, request }) => {
        if (code === 'NOT_FOUND') return jsonResponse({ error: 'not found' }, 404)
        if (isClientGone(error, request)) return clientGoneResponse()
        log.error(`http error: ${errorMessage(error)}`, { error })
        return jsonResponse({ error: 'internal error' }, 500)
      })
      // GET /metrics and the counting of every reply; its request hook runs before the gate's.
      .use(metricsRoutes(node))
      // Everything but /action reads the state or shows its height: it waits while the state holds
      // a block executed ahead of its tick (ChainNode.whenSettled), so only committed blocks are
      // shown. Before the gate, so that a request the halt of that block released answers 503.
      .onRequest(({ request }) => (request.url.endsWith(ACTION_PATH) ? undefined : node.whenSettled()))
      // Recovering or halted: every route but the probes and /metrics answers 503 (the WebSocket upgrade too).
      .onRequest(({ request }) => gateResponse(node, request))
      .use(healthRoutes(node))
      .use(queryRoutes(node, options.queryTimeoutMs))
      .use(actionRoutes(admission, trustedProxies))
      .use(aliasRoutes(node))
      .use(historyRoutes(node))
      .use(candleRoutes(node))
      .use(feedRoutes(feed))
      .use(replicationRoutes(node))
      .use(wsRoutes(() => feed.hub, { posts, trustedProxies }))
      .use(openApiRoutes())
  )
}
