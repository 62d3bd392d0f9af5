// Composition of the node's HTTP interface: one Elysia instance per concern.
import { Elysia } from 'elysia'
import type { ChainNode } from '../node/chain-node.ts'
import { actionRoutes } from './action-routes.ts'
import { aliasRoutes } from './alias-routes.ts'
import { healthRoutes } from './health-routes.ts'
import { jsonResponse } from './jsonrpc.ts'
import { queryRoutes } from './query-routes.ts'

/** Largest request body accepted, bytes (a signed action is well under 4 KiB; a batch of 20 reads too). */
export const REQUEST_BODY_MAX_BYTES = 256 * 1024

export interface AppOptions {
  /** /action requests per second per client IP; 0 disables. */
  readonly actionIpRatePerSec?: number
}

export function createApp(node: ChainNode, options: AppOptions = {}) {
  return new Elysia({ serve: { maxRequestBodySize: REQUEST_BODY_MAX_BYTES } })
    .onError(({ code, error }) => {
      if (code === 'NOT_FOUND') return jsonResponse({ error: 'not found' }, 404)
      console.error('http error:', error)
      return jsonResponse({ error: 'internal error' }, 500)
    })
    .use(healthRoutes(node))
    .use(queryRoutes(node))
    .use(actionRoutes(node, options.actionIpRatePerSec ?? 0))
    .use(aliasRoutes(node))
}
