// GET /metrics on the node and on the admin service, both real processes: after some traffic the
// scrape parses with a strict Prometheus text-format parser (test/support/prometheus-text.ts) and
// its values moved: the height, actions counted by kind and outcome (accepted, kept reject, refused
// with its reason), HTTP requests by route family, the runner states of the admin service.
import { afterAll, describe, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { PerpdWsClient } from '../../src/client/ws-client.ts'
import { type AdminProcess, removeAdminFiles, startAdmin } from '../support/admin-process.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode } from '../support/node-process.ts'
import { type PromFamily, parsePrometheusText, sampleValue } from '../support/prometheus-text.ts'

let node: NodeProcess | undefined
let admin: AdminProcess | undefined

afterAll(async () => {
  if (admin !== undefined) {
    await admin.stop()
    removeAdminFiles(admin)
  }
  if (node !== undefined) {
    await node.stop()
    removeDir(node.dataDir)
  }
})

async function scrape(url: string): Promise<Map<string, PromFamily>> {
  const res = await fetch(`${url}/metrics`)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  return parsePrometheusText(await res.text())
}

describe('GET /metrics', () => {
  test('the node counts blocks, actions by kind and outcome, and HTTP requests', async () => {
    node = await startNode()
    const trader = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] as Hex })
    // Accepted: a resting bid far under the mark. Kept reject: a quantity under the market's minimum step.
    const accepted = await trader.send(
      placeOrder({ market_id: 1, side: 'Bid', price: '30000', qty: '0.01', tif: 'Gtc', reduce_only: false }),
    )
    expect(accepted.status).toBe('accepted')
    const rejected = await trader.send(
      placeOrder({ market_id: 1, side: 'Bid', price: '30000', qty: '1000000', tif: 'Gtc', reduce_only: false }),
    )
    expect(rejected.status).toBe('kept-reject')
    // Accepted again, posted over the WebSocket: its latency counts like the HTTP ones.
    const ws = new PerpdWsClient({ url: node.url })
    await ws.connect()
    const overWs = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[2] as Hex, ws })
    const posted = await overWs.send(placeOrder({ market_id: 1, side: 'Bid', price: '30000', qty: '0.01', tif: 'Gtc', reduce_only: false }))
    expect(posted.status).toBe('accepted')
    ws.close()
    // Refused before a block: not JSON.
    const refused = await fetch(`${node.url}/api/v1/action`, { method: 'POST', body: 'not json' })
    expect(refused.status).toBe(200)
    expect((await fetch(`${node.url}/api/v1/markets`)).status).toBe(200)
    expect((await fetch(`${node.url}/api/v1/health`)).status).toBe(200)

    const m = await scrape(node.url)
    expect(sampleValue(m, 'perpd_block_height')!).toBeGreaterThan(0)
    expect(sampleValue(m, 'perpd_actions_total', { kind: 'PlaceOrder', outcome: 'accepted' })).toBe(2)
    expect(sampleValue(m, 'perpd_actions_total', { kind: 'PlaceOrder', outcome: 'kept_reject' })).toBe(1)
    const keptReason = m.get('perpd_actions_total')!.samples.find((s) => s.labels.outcome === 'kept_reject')!.labels.reason
    expect(keptReason).toBe('InsufficientMargin')
    expect(sampleValue(m, 'perpd_actions_total', { kind: 'unknown', outcome: 'refused', reason: 'PARSE_ERROR' })).toBe(1)
    expect(sampleValue(m, 'perpd_block_production_seconds_count')!).toBeGreaterThan(0)
    expect(sampleValue(m, 'perpd_http_requests_total', { route_family: 'action', status: '200' })!).toBeGreaterThanOrEqual(3)
    expect(sampleValue(m, 'perpd_http_requests_total', { route_family: 'market_data', status: '200' })).toBe(1)
    expect(sampleValue(m, 'perpd_http_requests_total', { route_family: 'health', status: '200' })!).toBeGreaterThanOrEqual(1)
    expect(sampleValue(m, 'perpd_http_request_duration_seconds_count', { route_family: 'action' })!).toBeGreaterThanOrEqual(3)
    // The three actions that reached a block, not the refusal; each waited for a block (50 ms here)
    // inside its HTTP request or WebSocket post.
    expect(m.get('perpd_action_seconds')!.type).toBe('histogram')
    expect(sampleValue(m, 'perpd_action_seconds_count')).toBe(3)
    expect(sampleValue(m, 'perpd_action_seconds_bucket', { le: '+Inf' })).toBe(3)
    expect(sampleValue(m, 'perpd_action_seconds_sum')!).toBeGreaterThan(0)
    // In seconds: three waits for a 50 ms block are a fraction of one, where milliseconds would be hundreds.
    expect(sampleValue(m, 'perpd_action_seconds_sum')!).toBeLessThan(3 * 5)
    expect(sampleValue(m, 'perpd_health_status', { status: 'ok' })).toBe(1)
    expect(sampleValue(m, 'perpd_health_status', { status: 'halted' })).toBe(0)
    expect(sampleValue(m, 'perpd_mempool_depth')).toBe(0)
    for (const name of [
      'perpd_ws_connections',
      'perpd_ws_dropped_frames_total',
      'perpd_ws_gap_frames_total',
      'perpd_replay_height',
      'perpd_replay_target_height',
      'perpd_snapshot_age_seconds',
    ]) {
      expect(m.has(name)).toBe(true)
    }
    expect(
      m
        .get('perpd_indexer_lag_blocks')!
        .samples.map((s) => s.labels.stage)
        .sort(),
    ).toEqual(['candle', 'derive', 'ingest', 'stats'])
    expect(m.get('perpd_block_production_seconds')!.type).toBe('histogram')
    expect(m.get('perpd_actions_total')!.type).toBe('counter')
    // Every produced block's phases: each counted once a block, and together within its production
    // time (they are its parts, on the same clock); no replicated log here, so no replicate time.
    expect(m.get('perpd_block_phase_seconds')!.type).toBe('histogram')
    const blocks = sampleValue(m, 'perpd_block_production_seconds_count')!
    const produced = ['apply', 'state_root', 'rows', 'commit', 'replies']
    // `ahead` is before the tick, outside the block's production time.
    for (const phase of [...produced, 'announce', 'ahead'])
      expect(sampleValue(m, 'perpd_block_phase_seconds_count', { phase })).toBe(blocks)
    expect(sampleValue(m, 'perpd_block_phase_seconds_count', { phase: 'replicate' })).toBe(0)
    const phaseSeconds = produced.reduce((sum, phase) => sum + sampleValue(m, 'perpd_block_phase_seconds_sum', { phase })!, 0)
    expect(phaseSeconds).toBeGreaterThan(0)
    expect(phaseSeconds).toBeLessThanOrEqual(sampleValue(m, 'perpd_block_production_seconds_sum')! + 1e-9)

    // Counters only grow: a second scrape after another block.
    const height = sampleValue(m, 'perpd_block_height')!
    await Bun.sleep(300)
    const again = await scrape(node.url)
    expect(sampleValue(again, 'perpd_block_height')!).toBeGreaterThan(height)
    expect(sampleValue(again, 'perpd_http_requests_total', { route_family: 'metrics', status: '200' })!).toBeGreaterThanOrEqual(1)
  }, 120_000)

  test('the admin service reports its runners and its HTTP requests', async () => {
    admin = await startAdmin({ nodeUrl: node!.url, args: ['--dev'] })
    expect((await fetch(`${admin.url}/api/health`)).status).toBe(200)
    expect((await fetch(`${admin.url}/api/keys`)).status).toBe(401)
    const m = await scrape(admin.url)
    for (const runner of ['oracle', 'liquidator', 'bridge_deposit', 'bridge_withdraw']) {
      const states = m.get('perpd_admin_runner_state')!.samples.filter((s) => s.labels.runner === runner)
      expect(states.length).toBe(6)
      expect(states.reduce((n, s) => n + s.value, 0)).toBe(1)
    }
    expect(sampleValue(m, 'perpd_admin_http_requests_total', { route_family: 'health', status: '200' })).toBe(1)
    expect(sampleValue(m, 'perpd_admin_http_requests_total', { route_family: 'keys', status: '401' })).toBe(1)
    expect(
      m
        .get('perpd_admin_payouts_total')!
        .samples.map((s) => s.labels.outcome)
        .sort(),
    ).toEqual(['claimed', 'paid', 'refunded', 'settled'])
    expect(m.has('perpd_admin_runner_last_success_age_seconds')).toBe(true)
  }, 120_000)
})
