// Probes (spec §4.1, §2.7): /api/v1/health (ready) and /api/v1/health/live.
import { Elysia } from 'elysia'
import type { ChainNode } from '../../node/chain-node.ts'
import { jsonResponse } from '../jsonrpc.ts'

export function healthRoutes(node: ChainNode) {
  const body = () => ({ status: 'ok' as const, height: node.state.height, store_dirty: false })
  return new Elysia()
    .get('/api/v1/health', () => jsonResponse(body()))
    .get('/api/v1/health/live', () => jsonResponse(body()))
}
