// A replicated chain on a real nats-server (docs/replication.md): a leader and two followers started
// without a genesis file. Under signed load sent to all three (the followers forward /action and
// WebSocket posts to the leader), the followers store the leader's blocks with equal digests and
// state roots at every height and answer the same reads the same. Then the tamper cases: a follower
// whose own store was corrupted refuses to start, and a record written to the stream by someone
// other than the leader (with another state root) is refused: the follower says degraded with the
// height and both roots and serves nothing but its probes.

import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { jetstream } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import type { ActionReply } from '../../src/client/rpc-client.ts'
import { Signer } from '../../src/client/signer.ts'
import { encodeBlockRecord } from '../../src/node/replication/block-record.ts'
import { ChainLog } from '../../src/node/replication/chain-log.ts'
import { sequenceOf } from '../../src/node/replication/chain-stream.ts'
import { spawnListening } from '../support/child-process.ts'
import { startNatsServer } from '../support/nats-server.ts'
import { DEV_KEYS, type NodeProcess, removeDir } from '../support/node-process.ts'
import { until } from '../support/poll.ts'
import { parsePrometheusText, sampleValue } from '../support/prometheus-text.ts'
import { healthOf, startReplicatedNode, storedHeaders } from '../support/replicated-node.ts'

const nats = await startNatsServer()
const leader = await startReplicatedNode({ role: 'leader', nats: nats.url })
const followers = [
  await startReplicatedNode({ role: 'follower', nats: nats.url }),
  await startReplicatedNode({ role: 'follower', nats: nats.url }),
]
const started: NodeProcess[] = [leader, ...followers]
afterAll(async () => {
  for (const n of started) {
    await n.stop('SIGKILL')
    removeDir(n.dataDir)
  }
  await nats.remove()
})

const BTC = 1
const query = async <T>(url: string, method: string, params: Record<string, unknown> = {}): Promise<T> => {
  const res = await fetch(`${url}/api/v1/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await res.json()) as T
}
const getJson = async (url: string, path: string): Promise<unknown> => (await fetch(`${url}${path}`)).json()

/** A WebSocket subscribed to topics, keeping every frame it receives. */
async function subscribed(url: string, topics: string[]): Promise<{ frames: Record<string, unknown>[]; close(): void }> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/api/v1/ws`)
  const frames: Record<string, unknown>[] = []
  ws.onmessage = (e) => frames.push(JSON.parse(String(e.data)) as Record<string, unknown>)
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve()
    ws.onerror = () => reject(new Error(`websocket ${url}`))
  })
  ws.send(JSON.stringify({ op: 'subscribe', topics }))
  await until(
    'subscribed',
    async () => frames.some((f) => f.op === 'subscribed'),
    (ok) => ok,
    10_000,
  )
  return { frames, close: () => ws.close() }
}

describe('a leader and two followers', () => {
  const replies: ActionReply[] = []
  const pushes: { frames: Record<string, unknown>[]; close(): void }[] = []

  test('the followers report their role, the leader, the stream, and follow from genesis', async () => {
    const lh = await healthOf(leader.url)
    expect(lh.replication).toMatchObject({ role: 'leader', leader_url: leader.url })
    expect(lh.replication!.stream).toMatch(/^PERPD_dev_[0-9a-f]{16}$/)
    // The leader waits for the log's acknowledgement of each block it produces: its replicate phase.
    const leaderMetrics = await until(
      'the leader has produced a block',
      async () => parsePrometheusText(await (await fetch(`${leader.url}/metrics`)).text()),
      (m) => (sampleValue(m, 'perpd_block_phase_seconds_count', { phase: 'replicate' }) ?? 0) > 0,
      30_000,
    )
    expect(sampleValue(leaderMetrics, 'perpd_block_phase_seconds_count', { phase: 'replicate' })).toBe(
      sampleValue(leaderMetrics, 'perpd_block_phase_seconds_count', { phase: 'commit' }),
    )
    for (const f of followers) {
      const h = await until(
        'the follower knows the leader',
        () => healthOf(f.url),
        (h) => h.replication?.leader_url === leader.url,
        30_000,
      )
      expect(h.status).toBe('ok')
      expect(h.replication).toMatchObject({ role: 'follower', stream: lh.replication!.stream })
      const metrics = parsePrometheusText(await (await fetch(`${f.url}/metrics`)).text())
      expect(sampleValue(metrics, 'perpd_replication_role', { role: 'follower' })).toBe(1)
      expect(sampleValue(metrics, 'perpd_replication_role', { role: 'leader' })).toBe(0)
      expect(sampleValue(metrics, 'perpd_replication_verified_height')).toBeGreaterThanOrEqual(0)
      expect(metrics.has('perpd_replication_lag_blocks')).toBe(true)
    }
  }, 60_000)

  test('signed load through every node: accepted through the leader, the same blocks everywhere', async () => {
    const urls = [leader.url, ...followers.map((f) => f.url)]
    for (const url of [leader.url, followers[0]!.url]) pushes.push(await subscribed(url, ['block', 'trades.BTC-USD']))
    // Traders 1..6, each on one node (its nonces stay with one client); bids and asks that cross.
    const traders = [1, 2, 3, 4, 5, 6].map((i) => new PerpdClient({ url: urls[i % 3]!, privateKey: DEV_KEYS[i]! }))
    await Promise.all(
      traders.map(async (client, t) => {
        for (let k = 0; k < 12; k++) {
          const side = t % 2 === 0 ? 'Bid' : 'Ask'
          const price = String(side === 'Bid' ? 64_000 + (k % 4) : 63_999 + (k % 5))
          replies.push(await client.send(placeOrder({ market_id: BTC, side, price, qty: '0.01', tif: 'Gtc', reduce_only: false })))
        }
      }),
    )
    expect(replies).toHaveLength(72)
    for (const r of replies) expect(r.status).toBe('accepted')
    // A WebSocket post to a follower is forwarded too, and answered with the leader's reply.
    const signer = new Signer(DEV_KEYS[7]!)
    const nonce = (await query<{ result: { data: { nonce: number } } }>(leader.url, 'getNonce', { address: signer.address })).result.data
      .nonce
    const action = placeOrder({ market_id: BTC, side: 'Bid', price: '63000', qty: '0.01', tif: 'Gtc', reduce_only: false })
    const { params } = signer.sign(action, nonce, 'dev')
    const ws = new WebSocket(`${followers[0]!.url.replace('http', 'ws')}/api/v1/ws`)
    const reply = await new Promise<{ result?: ActionReply; error?: unknown }>((resolve, reject) => {
      ws.onopen = () => ws.send(JSON.stringify({ op: 'post', id: 'p1', action: params }))
      ws.onmessage = (e) => {
        const frame = JSON.parse(String(e.data)) as { op?: string; id?: string; result?: ActionReply; error?: unknown }
        if (frame.op === 'post' && frame.id === 'p1') resolve(frame)
      }
      ws.onerror = () => reject(new Error('websocket error'))
    })
    ws.close()
    expect(reply.error).toBeUndefined()
    expect(reply.result!.status).toBe('accepted')
    replies.push(reply.result!)
  }, 120_000)

  test('every follower stores the leader’s blocks: equal digests and state roots at every height', async () => {
    const target = (await healthOf(leader.url)).height
    for (const f of followers)
      await until(
        'the follower reaches the leader',
        () => healthOf(f.url),
        (h) => h.height >= target && h.replication?.lag_blocks === 0,
        60_000,
      )
    const lead = storedHeaders(leader.dataDir).filter((b) => b.height <= target)
    expect(lead).toHaveLength(target)
    for (const f of followers) {
      const own = storedHeaders(f.dataDir).filter((b) => b.height <= target)
      expect(own).toEqual(lead)
      expect((await healthOf(f.url)).replication!.last_verified_height).toBeGreaterThanOrEqual(target)
    }
    // Every accepted action is in the followers' history at the leader's height and index.
    for (const r of replies) {
      if (r.status !== 'accepted') continue
      for (const f of followers) {
        const row = (await until(
          `tx ${r.tx_hash} indexed`,
          () => fetch(`${f.url}/api/v1/tx/${r.tx_hash}`).then((res) => (res.status === 200 ? res.json() : undefined)),
          (v) => v !== undefined,
          30_000,
        )) as { data: { height: number; envelope_idx: number } }
        expect(row.data).toMatchObject({ height: r.height, envelope_idx: r.envelope_idx })
      }
    }
  }, 120_000)

  test('the WebSocket topics push the same blocks and trades on a follower, seq without gaps', async () => {
    // More than 20 blocks pushed by both, however fast the tests before ran.
    const blockHeights = (frames: Record<string, unknown>[]) => new Set(frames.filter((f) => f.topic === 'block').map((f) => f.height))
    await until(
      'both nodes pushed more than 20 of the same blocks',
      async () => {
        const lead = blockHeights(pushes[0]!.frames)
        return [...blockHeights(pushes[1]!.frames)].filter((h) => lead.has(h)).length
      },
      (common) => common > 20,
      20_000,
    )
    await Bun.sleep(500)
    for (const p of pushes) p.close()
    const [onLeader, onFollower] = pushes.map((p) => p.frames)
    for (const frames of [onLeader!, onFollower!]) {
      const seqs = frames.map((f) => f.seq as number)
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i))
      expect(frames.some((f) => f.type === 'gap')).toBe(false)
    }
    const byHeight = (frames: Record<string, unknown>[], topic: string) =>
      new Map(frames.filter((f) => f.topic === topic).map(({ seq: _, ...body }) => [body.height as number, body]))
    for (const topic of ['block', 'trades.BTC-USD']) {
      const lead = byHeight(onLeader!, topic)
      const follow = byHeight(onFollower!, topic)
      const common = [...lead.keys()].filter((h) => follow.has(h))
      expect(common.length).toBeGreaterThan(topic === 'block' ? 20 : 0)
      for (const h of common) expect(follow.get(h)).toEqual(lead.get(h)!)
    }
  }, 30_000)

  test('the same reads give the same answers on every node', async () => {
    const height = Math.min(...(await Promise.all([leader, ...followers].map(async (n) => (await healthOf(n.url)).height))))
    // The data of /query replies (their envelope names the chain height of the moment, which moves on).
    const data = async (url: string, method: string, params: Record<string, unknown>) =>
      (await query<{ result: { data: unknown } }>(url, method, params)).result.data
    const reads = async (url: string) => ({
      block: await data(url, 'getBlock', { height }),
      book: await data(url, 'getOrderbook', { market_id: BTC }),
      orders: await Promise.all([1, 2, 3].map(async (i) => data(url, 'getAccountOrders', { address: new Signer(DEV_KEYS[i]!).address }))),
      historyBlock: await until(
        'the block indexed',
        () => getJson(url, `/api/v1/blocks/${height}`),
        (v) => JSON.stringify(v).includes('digest'),
        30_000,
      ),
      fills: await until(
        'fills indexed',
        () => getJson(url, `/api/v1/fills?account=${new Signer(DEV_KEYS[1]!).address}`),
        (v) => JSON.stringify(v).includes('price'),
        30_000,
      ),
      hotBook: await getJson(url, '/api/v1/market/orderbook/BTC-USD'),
    })
    const expected = await reads(leader.url)
    const bookOnly = (b: unknown) => {
      const { bids, asks } = b as { bids: unknown; asks: unknown }
      return { bids, asks }
    }
    for (const f of followers) {
      const got = await reads(f.url)
      expect(got.block).toEqual(expected.block)
      // The live book names the height it was read at, which moves on between the reads.
      expect({ ...(got.book as object), height: 0 }).toEqual({ ...(expected.book as object), height: 0 })
      expect(got.orders).toEqual(expected.orders)
      expect(got.historyBlock).toEqual(expected.historyBlock)
      expect(got.fills).toEqual(expected.fills)
      expect(bookOnly(got.hotBook)).toEqual(bookOnly(expected.hotBook))
    }
  }, 60_000)
})

describe('tampering', () => {
  test('a follower whose own store was corrupted refuses to start (the replay checks every root)', async () => {
    const victim = followers[1]!
    expect(await victim.stop('SIGTERM')).toBe(0)
    const db = new Database(join(victim.dataDir, 'chain.sqlite'))
    const changed = db
      .query(
        'UPDATE envelopes SET action = replace(action, \'"qty":"0.01"\', \'"qty":"0.02"\') WHERE (height, envelope_idx) IN (SELECT height, envelope_idx FROM envelopes LIMIT 1)',
      )
      .run()
    db.close()
    expect(changed.changes).toBe(1)
    const restarted = await spawnListening('corrupted follower', 'src/main.ts', [
      '--follow',
      '--nats',
      nats.url,
      '--data-dir',
      victim.dataDir,
      '--port',
      '0',
      '--halt-exit-delay-ms',
      '0',
    ])
    started.push({ ...restarted, dataDir: victim.dataDir })
    expect(await restarted.exited).toBe(65)
    expect(restarted.output()).toMatch(
      /the stored chain does not replay: replay of block \d+ reached state_root 0x[0-9a-f]{64}, stored 0x[0-9a-f]{64}/,
    )
  }, 60_000)

  test('a record the leader did not write, with another state root, is refused: degraded, both roots, no reads', async () => {
    const follower = followers[0]!
    // The leader stops (its lease goes); the follower never leads. Someone else writes the next record.
    expect(await leader.stop('SIGTERM')).toBe(0)
    const nc = await connect({ servers: nats.url })
    try {
      const stream = (await healthOf(follower.url)).replication!.stream
      const log = await ChainLog.find(nc, stream).then((found) => ChainLog.open(nc, found.names))
      const tip = await log.tipHeight()
      await until(
        'the follower has the leader’s last block',
        () => healthOf(follower.url),
        (h) => h.height === tip,
        30_000,
      )
      const last = (await log.block(tip))!
      const forged = {
        header: {
          ...last.header,
          height: tip + 1,
          parent: last.header.digest,
          timestampMs: last.header.timestampMs + 50,
          envelopeCount: 0,
          eventCount: 0,
          stateRoot: `0x${'ab'.repeat(32)}`,
        },
        envelopes: [],
        events: [],
      }
      await jetstream(nc).publish(log.names.subject, encodeBlockRecord(forged), {
        msgID: String(tip + 1),
        expect: { lastSequence: sequenceOf(tip) },
      })
      const h = await until(
        'the follower refuses the record',
        () => healthOf(follower.url),
        (h) => h.status === 'degraded',
        30_000,
      )
      expect(h.height).toBe(tip)
      const reason = h.reasons.find((r) => r.code === 'REPLICATION_DIVERGED')!
      expect(reason.message).toMatch(new RegExp(`^block ${tip + 1}: state_root computed 0x[0-9a-f]{64}, the stream's 0x(ab){32}$`))
      const read = await fetch(`${follower.url}/api/v1/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBlock', params: {} }),
      })
      expect(read.status).toBe(503)
      expect(((await read.json()) as { error: { data: { reason: string } } }).error.data.reason).toBe('DIVERGED')
      // Its store kept the verified chain only.
      expect(storedHeaders(follower.dataDir).at(-1)!.height).toBe(tip)
    } finally {
      await nc.close()
    }
  }, 60_000)
})
