// The node's metrics, served as GET /metrics in the Prometheus text format (src/lib/metrics.ts;
// the list and what to alert on: docs/operator.md#metrics). Counters move where the thing happens
// (a committed block, an /action refusal, an HTTP reply); gauges are read from the node at scrape time.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Type } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import type { HistoryIndex } from '../indexer/history-index.ts'
import { type HistogramChild, Registry, routeFamily, type Sample } from '../lib/metrics.ts'
import type { RouteDoc } from '../lib/openapi.ts'
import type { BlockPhases, ChainNode } from '../node/chain-node.ts'
import type { HealthStatus, ReplicationHealth } from '../node/health.ts'
import { existingFeedRuntime } from './ws/runtime.ts'

export const METRICS_PATH = '/metrics'

/** GET /metrics as the OpenAPI document lists it. */
export const METRICS_ROUTE: RouteDoc = {
  method: 'GET',
  path: METRICS_PATH,
  summary: 'Prometheus metrics (docs/operator.md#metrics)',
  tags: ['health'],
  responses: { '200': { description: 'the Prometheus text format', contentType: 'text/plain', schema: Type.String() } },
}

const HEALTH_STATUSES: readonly HealthStatus[] = ['ok', 'recovering', 'degraded', 'halted']
const REPLICATION_ROLES: readonly ReplicationHealth['role'][] = ['leader', 'follower', 'candidate']

/** The route_family label: the first path word after /api/v1/ (docs/operator.md#metrics lists them). */
const ROUTE_FAMILIES: ReadonlyMap<string, string> = new Map([
  ['action', 'action'],
  ['query', 'query'],
  ['health', 'health'],
  ['ws', 'ws'],
  ['metrics', 'metrics'],
  ['status', 'status'],
  ['markets', 'market_data'],
  ['market', 'market_data'],
  ['orderbook', 'market_data'],
  ['marks', 'market_data'],
  ['bbos', 'market_data'],
  ['stats', 'market_data'],
  ['candles', 'candles'],
  ['chain', 'chain'],
  ['blocks', 'history'],
  ['tx', 'history'],
  ['envelopes', 'history'],
  ['search', 'history'],
  ['fills', 'history'],
  ['orders', 'history'],
  ['positions', 'history'],
  ['account', 'history'],
  ['account-stats', 'history'],
  ['fund-flows', 'history'],
  ['bridge-flows', 'history'],
  ['referral', 'history'],
  ['rebate', 'history'],
  ['leaderboard', 'history'],
  ['info', 'query'],
])

const SNAPSHOT_FILE = /^state-\d{12}\.snap$/

/** perpd_block_phase_seconds' phase label of each field of BlockPhases. */
const PHASE_LABELS: Readonly<Record<keyof BlockPhases, string>> = {
  aheadMs: 'ahead',
  applyMs: 'apply',
  stateRootMs: 'state_root',
  rowsMs: 'rows',
  replicateMs: 'replicate',
  commitMs: 'commit',
  repliesMs: 'replies',
  announceMs: 'announce',
}

/** perpd_block_phase_seconds' buckets: a phase of a small block takes well under a millisecond. */
const PHASE_BUCKETS_SECONDS: readonly number[] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]

/** perpd_action_seconds' buckets: a block's wait is up to its block time (200 ms by default), then its work. */
const ACTION_BUCKETS_SECONDS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.125, 0.15, 0.2, 0.25, 0.5, 1, 2.5, 5]

export class NodeMetrics {
  readonly registry = new Registry()
  private history: HistoryIndex | undefined
  private readonly actions = this.registry.counter(
    'perpd_actions_total',
    'actions sent to /api/v1/action by kind and outcome: accepted and kept_reject (in a block), refused (before one); reason: the reject or refusal reason',
    ['kind', 'outcome', 'reason'],
  )
  private readonly blockSeconds = this.registry
    .histogram(
      'perpd_block_production_seconds',
      'time to produce a block until it is announced: apply, commit (after the replicated log), answer its actions',
    )
    .labels()
  private readonly blockPhaseSeconds = this.registry.histogram(
    'perpd_block_phase_seconds',
    'where the time of a block this node produced went: apply (the engine), state_root, rows (envelopes, event JSON, digest), replicate (the replicated log, --nats only), commit (the block store with its fsync), replies, announce (feed, pushes, history index)',
    ['phase'],
    PHASE_BUCKETS_SECONDS,
  )
  private readonly actionSeconds = this.registry
    .histogram(
      'perpd_action_seconds',
      'time from an /action request (its HTTP body, or its WebSocket post frame) to its reply, for the actions that reached a block: the wait for the next block and that block up to its replies',
      [],
      ACTION_BUCKETS_SECONDS,
    )
    .labels()
  private readonly httpRequests = this.registry.counter('perpd_http_requests_total', 'HTTP requests answered, by route family and status', [
    'route_family',
    'status',
  ])
  private readonly httpSeconds = this.registry.histogram(
    'perpd_http_request_duration_seconds',
    'time from a request to its reply, by route family',
    ['route_family'],
  )
  /** Children by family and status, so counting a request allocates nothing once they exist. */
  private readonly httpChildren = new Map<string, Map<number, Sample>>()
  private readonly httpDuration = new Map<string, HistogramChild>()

  constructor(private readonly node: ChainNode) {
    const r = this.registry
    r.gauge('perpd_block_height', 'height of the node state: the tip, or the replayed height while recovering').collect((set) =>
      set(undefined, node.state.height),
    )
    r.gauge('perpd_mempool_depth', 'envelopes waiting in the mempool').collect((set) => set(undefined, node.mempoolDepth))
    r.gauge('perpd_ws_connections', 'open WebSocket connections').collect((set) =>
      set(undefined, existingFeedRuntime(node)?.hub.connectionCount ?? 0),
    )
    r.counter('perpd_ws_dropped_frames_total', 'WebSocket frames dropped for slow consumers (each drop sends a gap frame)').collect((set) =>
      set(undefined, existingFeedRuntime(node)?.hub.droppedFramesTotal ?? 0),
    )
    r.counter('perpd_ws_gap_frames_total', 'WebSocket gap frames sent (the client must resynchronize)').collect((set) =>
      set(undefined, existingFeedRuntime(node)?.hub.gapFramesTotal ?? 0),
    )
    r.gauge('perpd_indexer_lag_blocks', 'blocks each history index stage is behind the chain tip', ['stage']).collect((set) => {
      if (this.history === undefined) return
      const tip = node.state.height
      const wm = this.history.progress.watermarks
      set({ stage: 'ingest' }, tip - wm.ingest)
      set({ stage: 'derive' }, tip - wm.derive)
      set({ stage: 'candle' }, tip - wm.candle)
      set({ stage: 'stats' }, tip - wm.stats)
    })
    r.gauge('perpd_replay_height', 'the height replayed so far at start-up (the tip once recovered)').collect((set) =>
      set(undefined, node.health.replay?.replayedHeight ?? node.state.height),
    )
    r.gauge('perpd_replay_target_height', 'the block store tip the start-up replay ends at').collect((set) =>
      set(undefined, node.health.replay?.targetHeight ?? node.state.height),
    )
    r.gauge('perpd_snapshot_age_seconds', 'seconds since the newest state snapshot was written (NaN: none)').collect((set) =>
      set(undefined, this.snapshotAgeSeconds()),
    )
    r.gauge('perpd_health_status', 'the health status (docs/operations.md#health): 1 for the current one, 0 for the others', [
      'status',
    ]).collect((set) => {
      const now = node.health.status
      for (const s of HEALTH_STATUSES) set({ status: s }, s === now ? 1 : 0)
    })
    // A node of a replicated chain (docs/replication.md#health-and-metrics); nothing on a node alone.
    r.gauge('perpd_replication_role', 'the role in a replicated chain: 1 for the current one, 0 for the others', ['role']).collect(
      (set) => {
        const role = node.health.replication?.role
        if (role !== undefined) for (const s of REPLICATION_ROLES) set({ role: s }, s === role ? 1 : 0)
      },
    )
    r.gauge('perpd_replication_lag_blocks', 'blocks the replicated log holds beyond this node').collect((set) => {
      const replication = node.health.replication
      if (replication !== undefined) set(undefined, replication.lag_blocks)
    })
    r.gauge('perpd_replication_verified_height', 'the newest block this node verified against the replicated log, or produced').collect(
      (set) => {
        const replication = node.health.replication
        if (replication !== undefined) set(undefined, replication.last_verified_height)
      },
    )
    // Every phase's series exists from the start (replicate stays at 0 on a node without --nats).
    const phases = Object.entries(PHASE_LABELS).map(
      ([field, label]) => [field as keyof BlockPhases, this.blockPhaseSeconds.labels(label)] as const,
    )
    node.onBlockPhases((p) => {
      for (const [field, series] of phases) {
        const ms = p[field]
        if (ms !== undefined) series.observe(ms / 1000)
      }
    })
    node.onBlock(({ stored, result, productionMs }) => {
      this.blockSeconds.observe(productionMs / 1000)
      for (let i = 0; i < stored.envelopes.length; i++) {
        const r = result.envelopes[i]!
        if (r.status === 'accepted') this.actions.labels(stored.envelopes[i]!.actionKind, 'accepted', '').value++
        else this.actions.labels(stored.envelopes[i]!.actionKind, 'kept_reject', r.reason?.code ?? '').value++
      }
    })
  }

  /** The history index, once started (for perpd_indexer_lag_blocks). */
  setHistory(history: HistoryIndex | undefined): void {
    this.history = history
  }

  /** An /action refused before a block: kind when known (else `unknown`), the refusal's data.reason. */
  actionRefused(kind: string | undefined, error: { readonly data?: unknown }): void {
    const reason = (error.data as { reason?: unknown } | undefined)?.reason
    this.actions.labels(kind ?? 'unknown', 'refused', typeof reason === 'string' ? reason : 'UNKNOWN').value++
  }

  /** The reply of an action that reached a block, seconds after its request was in hand. */
  actionAnswered(seconds: number): void {
    this.actionSeconds.observe(seconds)
  }

  /** One HTTP reply: its URL (for the route family), status and duration. */
  httpReply(url: string, status: number, seconds: number): void {
    const family = routeFamily(url, '/api/v1/', ROUTE_FAMILIES)
    let byStatus = this.httpChildren.get(family)
    if (byStatus === undefined) {
      byStatus = new Map()
      this.httpChildren.set(family, byStatus)
    }
    let child = byStatus.get(status)
    if (child === undefined) {
      child = this.httpRequests.labels(family, String(status))
      byStatus.set(status, child)
    }
    child.value++
    let duration = this.httpDuration.get(family)
    if (duration === undefined) {
      duration = this.httpSeconds.labels(family)
      this.httpDuration.set(family, duration)
    }
    duration.observe(seconds)
  }

  private snapshotAgeSeconds(): number {
    const dir = join(this.node.dataDir, 'snapshots')
    let newest = -1
    try {
      for (const name of readdirSync(dir)) {
        if (!SNAPSHOT_FILE.test(name)) continue
        newest = Math.max(newest, statSync(join(dir, name)).mtimeMs)
      }
    } catch {
      return NaN
    }
    return newest < 0 ? NaN : Math.max(0, (Date.now() - newest) / 1000)
  }
}

const metricsOf = new WeakMap<ChainNode, NodeMetrics>()

/** The node's metrics, created on first use. */
export function nodeMetrics(node: ChainNode): NodeMetrics {
  let m = metricsOf.get(node)
  if (m === undefined) {
    m = new NodeMetrics(node)
    metricsOf.set(node, m)
  }
  return m
}

/** When a request arrived (performance.now()), kept on the request for its reply's duration. */
const STARTED = Symbol('perpd.requestStarted')

/**
 * GET /metrics, and the hooks that count every HTTP reply (perpd_http_requests_total and
 * perpd_http_request_duration_seconds). Use it first, so its onRequest runs before the gate's.
 */
export function metricsRoutes(node: ChainNode) {
  const metrics = nodeMetrics(node)
  return new Elysia({ name: 'perpd-metrics' })
    .onRequest(({ request }) => {
      ;(request as unknown as Record<symbol, number>)[STARTED] = performance.now()
    })
    .onAfterResponse({ as: 'global' }, ({ request, set, responseValue }) => {
      const started = (request as unknown as Record<symbol, number | undefined>)[STARTED]
      const status = responseValue instanceof Response ? responseValue.status : typeof set.status === 'number' ? set.status : 200
      metrics.httpReply(request.url, status, started === undefined ? 0 : (performance.now() - started) / 1000)
    })
    .get(METRICS_PATH, () => metrics.registry.response())
}
