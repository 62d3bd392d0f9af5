// A new follower that starts from a peer's newest snapshot instead of genesis
// (docs/replication.md#starting-from-a-peers-snapshot), on a real nats-server: the leader snapshots
// every 5 blocks under signed load; a follower started with --snapshot-from <leader> stores the
// leader's block rows up to the snapshot page by page (each checked against the stream), loads the
// snapshot, follows the stream from there, and answers the same account and history reads as the
// leader.
// Then a peer that tampers (a proxy in front of the leader altering one field of the snapshot, or
// of a block row) is refused: the new node names the height and exits 1 without serving, and a
// data directory whose start was cut short is refused at the next start.

import { afterAll, describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { Signer } from '../../src/client/signer.ts'
import { runScript } from '../support/child-process.ts'
import { startNatsServer } from '../support/nats-server.ts'
import { DEV_KEYS, type NodeProcess, removeDir, tempDataDir } from '../support/node-process.ts'
import { until } from '../support/poll.ts'
import { healthOf, startReplicatedNode, storedHeaders } from '../support/replicated-node.ts'

const nats = await startNatsServer()
const leader = await startReplicatedNode({ role: 'leader', nats: nats.url, extraArgs: ['--snapshot-every-blocks', '5'] })
const started: NodeProcess[] = [leader]
const dirs: string[] = []
afterAll(async () => {
  for (const n of started) {
    await n.stop('SIGKILL')
    removeDir(n.dataDir)
  }
  for (const d of dirs) removeDir(d)
  await nats.remove()
})

const BTC = 1
const alice = new Signer(DEV_KEYS[1]!).address
const query = async (url: string, method: string, params: Record<string, unknown>) => {
  const res = await fetch(`${url}/api/v1/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: { height: number; data: unknown } }).result
}
const snapshotHeights = (dataDir: string) =>
  readdirSync(join(dataDir, 'snapshots'))
    .map((name) => /^state-(\d+)\.snap$/.exec(name)?.[1])
    .filter((h) => h !== undefined)
    .map(Number)

/** A proxy in front of the leader (the lossy-proxy.ts pattern) that passes every reply through `alter`. */
function tamperingProxy(alter: (path: string, body: Uint8Array) => Uint8Array): { url: string; stop(): void } {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url)
      const res = await fetch(leader.url + url.pathname + url.search)
      const body = alter(url.pathname, new Uint8Array(await res.arrayBuffer()))
      const headers = new Headers(res.headers)
      headers.delete('content-length')
      return new Response(body, { status: res.status, headers })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) }
}

/** Runs a new follower on dataDir from peer until it exits (it must: a refusal); its exit code and output. */
async function refusedStart(dataDir: string, peer: string): Promise<{ code: number; output: string }> {
  const r = await runScript(
    'src/main.ts',
    ['--follow', '--nats', nats.url, '--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0', '--snapshot-from', peer],
    { timeoutMs: 60_000 },
  )
  return { code: r.code, output: r.stdout + r.stderr }
}

describe('a follower started from the leader’s snapshot', () => {
  let loadHeight = 0

  test('signed load on the leader, which snapshots every 5 blocks', async () => {
    await until(
      'the leader holds the lease',
      () => healthOf(leader.url),
      (h) => h.replication?.role === 'leader',
      30_000,
    )
    const bid = new PerpdClient({ url: leader.url, privateKey: DEV_KEYS[1]! })
    const ask = new PerpdClient({ url: leader.url, privateKey: DEV_KEYS[2]! })
    for (let k = 0; k < 8; k++) {
      const a = await bid.send(
        placeOrder({ market_id: BTC, side: 'Bid', price: String(64_000 + k), qty: '0.01', tif: 'Gtc', reduce_only: false }),
      )
      const b = await ask.send(
        placeOrder({ market_id: BTC, side: 'Ask', price: String(63_990 + k), qty: '0.01', tif: 'Gtc', reduce_only: false }),
      )
      expect([a.status, b.status]).toEqual(['accepted', 'accepted'])
      if (b.status === 'accepted') loadHeight = b.height
    }
    await until(
      'a snapshot after the load',
      async () => snapshotHeights(leader.dataDir),
      (heights) => heights.some((h) => h > loadHeight),
      30_000,
    )
  }, 60_000)

  test('it stores the rows up to the snapshot, loads it, follows, and answers the same reads', async () => {
    // Through a proxy that cuts every page of block rows to 4 blocks (a page's size is the peer's
    // choice), so the new node reads them page by page.
    let pages = 0
    const proxy = tamperingProxy((path, body) => {
      if (path !== '/api/v1/replication/blocks') return body
      pages++
      const page = JSON.parse(new TextDecoder().decode(body)) as { blocks: { header: { height: number } }[]; next_from: number | null }
      const kept = page.blocks.slice(0, 4)
      const next = kept.length < page.blocks.length ? kept.at(-1)!.header.height + 1 : page.next_from
      return new TextEncoder().encode(JSON.stringify({ blocks: kept, next_from: next }))
    })
    const follower = await startReplicatedNode({ role: 'follower', nats: nats.url, extraArgs: ['--snapshot-from', proxy.url] }).finally(
      () => proxy.stop(),
    )
    started.push(follower)
    const m = /starting from the snapshot of \S+ at height (\d+)/.exec(follower.output())
    expect(m).not.toBeNull()
    const snapshotHeight = Number(m![1])
    expect(snapshotHeight).toBeGreaterThan(loadHeight)
    expect(pages).toBe(Math.ceil(snapshotHeight / 4))
    // The snapshot is restored, unless another helper's edit of src/ between the two starts made
    // the code fingerprints differ: then the checked rows are replayed instead (the same state).
    expect(follower.output()).toMatch(
      new RegExp(`restored the state at height ${snapshotHeight} from|was written by another version of the code: this node replays`),
    )
    const target = (await healthOf(leader.url)).height
    await until(
      'the follower reaches the leader',
      () => healthOf(follower.url),
      (h) => h.status === 'ok' && h.height >= target && h.replication?.lag_blocks === 0,
      60_000,
    )
    const lead = storedHeaders(leader.dataDir).filter((b) => b.height <= target)
    expect(storedHeaders(follower.dataDir).filter((b) => b.height <= target)).toEqual(lead)
    // The same account, read at the same height on both.
    await until(
      'the same account at the same height',
      async () => Promise.all([query(leader.url, 'getAccount', { address: alice }), query(follower.url, 'getAccount', { address: alice })]),
      ([a, b]) => a.height === b.height && JSON.stringify(a.data) === JSON.stringify(b.data),
      30_000,
    )
    // The history index of the follower derived blocks 1..H from the stored rows, and the rest as followed.
    const fills = async (url: string) => (await fetch(`${url}/api/v1/fills?account=${alice}&limit=100`)).json()
    const expected = await fills(leader.url)
    expect(JSON.stringify(expected)).toContain('price')
    await until(
      'the same fills',
      () => fills(follower.url),
      (got) => JSON.stringify(got) === JSON.stringify(expected),
      30_000,
    )
  }, 120_000)
})

describe('a peer that tampers is refused', () => {
  test('a snapshot whose state root is not the stream’s: exit 1, naming the height', async () => {
    const proxy = tamperingProxy((path, body) => {
      if (path !== '/api/v1/replication/snapshot') return body
      // The header's state root, one hex digit changed (same length, so the file still parses).
      const text = new TextDecoder('latin1').decode(body)
      const at = text.indexOf('"stateRoot":"0x') + '"stateRoot":"0x'.length
      const altered = body.slice()
      altered[at] = body[at] === 0x30 ? 0x31 : 0x30
      return altered
    })
    const dataDir = tempDataDir()
    dirs.push(dataDir)
    try {
      const { code, output } = await refusedStart(dataDir, proxy.url)
      expect(code).toBe(1)
      expect(output).toMatch(
        /cannot start from the snapshot of \S+: the snapshot of \S+ at height \d+ has state_root 0x[0-9a-f]{64}, the stream's block \d+ 0x[0-9a-f]{64}/,
      )
      expect(output).not.toContain('listening on')
    } finally {
      proxy.stop()
    }
  }, 60_000)

  test('a block row whose action is not the stream’s: exit 1 naming the block; the directory is refused after', async () => {
    let altered = 0
    const proxy = tamperingProxy((path, body) => {
      if (path !== '/api/v1/replication/blocks') return body
      const text = new TextDecoder().decode(body)
      // Alice's first order, as a bigger one.
      const changed = text.replace('\\"qty\\":\\"0.01\\"', '\\"qty\\":\\"0.09\\"')
      if (changed !== text) altered++
      return new TextEncoder().encode(changed)
    })
    const dataDir = tempDataDir()
    dirs.push(dataDir)
    try {
      const { code, output } = await refusedStart(dataDir, proxy.url)
      expect(altered).toBeGreaterThan(0)
      expect(code).toBe(1)
      expect(output).toMatch(
        /cannot start from the snapshot of \S+: block \d+: the row of the peer has envelope 0 with another actionJson than the stream's/,
      )
      expect(output).not.toContain('listening on')
      // The rows stored before the refusal are not served: the next start on that directory refuses it.
      const again = await refusedStart(dataDir, leader.url)
      expect(again.code).toBe(1)
      expect(again.output).toContain('the data directory holds an unfinished start from the snapshot of')
    } finally {
      proxy.stop()
    }
  }, 90_000)
})
