// What every node exports, read-only, so a new node of a replicated chain can start from its newest
// state snapshot instead of genesis (docs/replication.md#starting-from-a-peers-snapshot): the
// snapshot file as written, and its stored block rows by height range. The new node trusts neither:
// it checks the snapshot and every row's header and envelopes against the chain's stream
// (src/node/replication/start-from-peer.ts). REPLICATION_ROUTES declares them (rest-route.ts).
import { Type } from '@sinclair/typebox'
import type { StoredBlock, StoredEnvelope, StoredEvent } from '../../node/block-store.ts'
import type { ChainNode } from '../../node/chain-node.ts'
import { parseSnapshotFile, snapshotFilesOf } from '../../node/snapshots.ts'
import {
  EXPORT_PAGE_BLOCKS_MAX,
  EXPORT_PAGE_ROWS_MAX,
  ExportedBlocksPage,
  SNAPSHOT_HEIGHT_HEADER,
  SNAPSHOT_ROOT_HEADER,
} from '../../wire/results/replication.ts'
import { jsonResponse } from '../jsonrpc.ts'
import { IntQuery, Opt } from './query-params.ts'
import { errorReply, GATE_REPLY, jsonReply, type RouteTable, serveRoutes } from './rest-route.ts'

/** Bytes read of a snapshot file to parse its header (a few hundred bytes of JSON). */
const SNAPSHOT_HEADER_READ_BYTES = 64 * 1024

export const REPLICATION_ROUTES = {
  snapshot: {
    method: 'GET',
    path: '/api/v1/replication/snapshot',
    summary: "This node's newest state snapshot file, for a new node of the chain",
    description: `The file as the node wrote it (docs/operator.md#data-directory); the headers ${SNAPSHOT_HEIGHT_HEADER} and ${SNAPSHOT_ROOT_HEADER} name its height and state root. The receiver checks it against the chain's stream.`,
    tags: ['replication'],
    responses: {
      '200': { description: 'the snapshot file', contentType: 'application/octet-stream', schema: Type.String({ format: 'binary' }) },
      '404': errorReply('this node holds no snapshot'),
      '503': GATE_REPLY,
    },
  },
  blocks: {
    method: 'GET',
    path: '/api/v1/replication/blocks',
    summary: "This node's stored block rows of a height range, for a new node of the chain",
    description: `Consecutive blocks from \`from\`: at most ${EXPORT_PAGE_BLOCKS_MAX} blocks, and the page ends after the block whose envelopes and events reach ${EXPORT_PAGE_ROWS_MAX} rows (one block at least).`,
    tags: ['replication'],
    query: Type.Object({
      from: IntQuery('the first height (1 or more)'),
      to: Opt(IntQuery('the last height; absent: the stored tip')),
    }),
    responses: {
      '200': jsonReply('the block rows', ExportedBlocksPage),
      '400': errorReply('bad from or to'),
      '500': errorReply('missing from'),
      '503': GATE_REPLY,
    },
  },
} as const satisfies RouteTable

export function replicationRoutes(node: ChainNode) {
  return serveRoutes(REPLICATION_ROUTES, {
    snapshot: async () => {
      const newest = snapshotFilesOf(node.dataDir)[0]
      if (newest === undefined) return jsonResponse({ error: 'this node holds no snapshot' }, 404)
      const file = Bun.file(newest.file)
      try {
        const { header } = parseSnapshotFile(await file.slice(0, SNAPSHOT_HEADER_READ_BYTES).bytes())
        return new Response(file, {
          headers: {
            'content-type': 'application/octet-stream',
            [SNAPSHOT_HEIGHT_HEADER]: String(header.height),
            [SNAPSHOT_ROOT_HEADER]: header.stateRoot,
          },
        })
      } catch (err) {
        // Dropped by a newer snapshot meanwhile, or not readable: the receiver asks again.
        return jsonResponse({ error: `the snapshot at height ${newest.height} could not be read: ${(err as Error).message}` }, 503)
      }
    },
    blocks: ({ query }) => {
      const from = query.from
      if (from < 1) return jsonResponse({ error: 'from must be 1 or more' }, 400)
      const tip = node.store.tipHeight()
      const to = Math.min(query.to ?? tip, tip)
      if (query.to !== undefined && query.to < from) return jsonResponse({ error: 'to must be from or more' }, 400)
      return jsonResponse(blockPage(node, from, to))
    },
  })
}

/** The stored blocks from `from` up to `to` within a page's bounds, and where the next page starts. */
function blockPage(node: ChainNode, from: number, to: number): { blocks: StoredBlock[]; next_from: number | null } {
  if (from > to) return { blocks: [], next_from: null }
  const headers = node.store.headers(from, to, EXPORT_PAGE_BLOCKS_MAX)
  let rows = 0
  let last = 0
  for (const h of headers) {
    if (last > 0 && rows + h.envelopeCount + h.eventCount > EXPORT_PAGE_ROWS_MAX) break
    rows += h.envelopeCount + h.eventCount
    last++
  }
  const page = headers.slice(0, last)
  if (page.length === 0) return { blocks: [], next_from: null }
  const lastHeight = page.at(-1)!.height
  const envelopes = groupByHeight(node.store.envelopesBetween(from, lastHeight))
  const events = groupByHeight(node.store.eventsBetween(from, lastHeight))
  return {
    blocks: page.map((header) => ({ header, envelopes: envelopes.get(header.height) ?? [], events: events.get(header.height) ?? [] })),
    next_from: lastHeight < to ? lastHeight + 1 : null,
  }
}

function groupByHeight<T extends StoredEnvelope | StoredEvent>(rows: readonly T[]): Map<number, T[]> {
  const by = new Map<number, T[]>()
  for (const row of rows) {
    const list = by.get(row.height)
    if (list === undefined) by.set(row.height, [row])
    else list.push(row)
  }
  return by
}
