// Failover of a replicated chain on a real nats-server (docs/replication.md#failover): the leader is
// killed (SIGKILL) while traders send actions through a standby and a follower; the standby takes
// the lease once it expires and produces from the stream's last block. Every action any node
// answered `accepted` or `kept-reject` is in the chain afterwards, at the height and index of its
// reply; the old leader, started again on its data directory, follows the new one; and no height
// holds two different blocks in any node's store. Then the fence: another writer takes the next
// height of the stream, and the leader, refused, halts without storing its block.

import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { JetStreamApiError, jetstream } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import type { ActionReply } from '../../src/client/rpc-client.ts'
import { encodeBlockRecord } from '../../src/node/replication/block-record.ts'
import { ChainLog } from '../../src/node/replication/chain-log.ts'
import { namesOfStream, sequenceOf } from '../../src/node/replication/chain-stream.ts'
import { startNatsServer } from '../support/nats-server.ts'
import { DEV_KEYS, type NodeProcess, removeDir } from '../support/node-process.ts'
import { until } from '../support/poll.ts'
import { healthOf, startReplicatedNode, storedHeaders } from '../support/replicated-node.ts'

const LEASE_TTL_MS = 1_500
const nats = await startNatsServer()
const leader = await startReplicatedNode({ role: 'leader', nats: nats.url, leaseTtlMs: LEASE_TTL_MS })
const standby = await startReplicatedNode({ role: 'standby', nats: nats.url })
const follower = await startReplicatedNode({ role: 'follower', nats: nats.url })
const started: NodeProcess[] = [leader, standby, follower]
afterAll(async () => {
  for (const n of started) {
    await n.stop('SIGKILL')
    removeDir(n.dataDir)
  }
  await nats.remove()
})

type Kept = Extract<ActionReply, { status: 'accepted' | 'kept-reject' }>

test('SIGKILL of the leader under load: the standby leads, nothing acknowledged is lost, no height forks', async () => {
  for (const n of [standby, follower])
    await until(
      'the node knows the leader',
      () => healthOf(n.url),
      (h) => h.replication?.leader_url === leader.url,
      30_000,
    )
  // Traders send through all three nodes until told to stop; a refusal (the leader gone) is retried later.
  const kept: Kept[] = []
  let refusals = 0
  let sending = true
  const urls = [leader.url, standby.url, follower.url]
  const load = [1, 2, 3, 4, 5, 6].map(async (i) => {
    const client = new PerpdClient({ url: urls[i % 3]!, privateKey: DEV_KEYS[i]! })
    for (let k = 0; sending; k++) {
      const side = i % 2 === 0 ? 'Bid' : 'Ask'
      const price = String(side === 'Bid' ? 60_000 + (k % 7) : 60_003 + (k % 5))
      try {
        const r = await client.send(placeOrder({ market_id: 1, side, price, qty: '0.01', tif: 'Gtc', reduce_only: false }))
        if (r.status === 'accepted' || r.status === 'kept-reject') kept.push(r)
      } catch {
        // The node it uses is the killed leader, or a forward found no leader: not acknowledged.
        refusals++
        await Bun.sleep(50)
      }
    }
  })
  await until(
    'actions under way',
    async () => kept.length,
    (n) => n >= 30,
    30_000,
  )
  const killedAt = performance.now()
  await leader.stop('SIGKILL')
  const lead = await until(
    'the standby leads',
    () => healthOf(standby.url),
    (h) => h.replication?.role === 'leader',
    30_000,
  )
  const takeover = lead.height
  await until(
    'the new leader produces',
    () => healthOf(standby.url),
    (h) => h.height > takeover,
    30_000,
  )
  console.log(`failover: the standby produced after ${Math.round(performance.now() - killedAt)} ms (lease TTL ${LEASE_TTL_MS} ms)`)
  expect(lead.replication!.leader_url).toBe(standby.url)
  await until(
    'the follower knows the new leader',
    () => healthOf(follower.url),
    (h) => h.replication?.leader_url === standby.url,
    30_000,
  )
  const before = kept.length
  await until(
    'actions accepted by the new leader',
    async () => kept.length,
    (n) => n >= before + 20,
    60_000,
  )
  sending = false
  await Promise.all(load)

  // The old leader comes back on its data directory: it follows the new leader.
  const again = await startReplicatedNode({ role: 'leader', nats: nats.url, dataDir: leader.dataDir, leaseTtlMs: LEASE_TTL_MS })
  started.push(again)
  const tip = (await healthOf(standby.url)).height
  for (const n of [again, follower])
    await until(
      'the node catches up',
      () => healthOf(n.url),
      (h) => h.height >= tip && h.status === 'ok',
      60_000,
    )
  const back = await until(
    'the old leader knows the new one',
    () => healthOf(again.url),
    (h) => h.replication?.leader_url === standby.url,
    30_000,
  )
  expect(back.replication!.role).not.toBe('leader')

  // Every acknowledged action is in the new leader's chain at the height and index of its reply.
  const db = new Database(join(standby.dataDir, 'chain.sqlite'), { readonly: true })
  try {
    const find = db.query<{ height: number; envelope_idx: number; status: string }, [string]>(
      'SELECT height, envelope_idx, status FROM envelopes WHERE tx_hash = ?',
    )
    for (const r of kept) expect(find.get(r.tx_hash)).toEqual({ height: r.height, envelope_idx: r.envelope_idx, status: r.status })
  } finally {
    db.close()
  }
  // No height has two different blocks in any store.
  const byHeight = new Map<number, Set<string>>()
  for (const dir of [leader.dataDir, standby.dataDir, follower.dataDir])
    for (const b of storedHeaders(dir)) {
      const digests = byHeight.get(b.height) ?? new Set<string>()
      digests.add(`${b.digest}/${b.state_root}`)
      byHeight.set(b.height, digests)
    }
  const forks = [...byHeight].filter(([, digests]) => digests.size > 1)
  expect(forks).toEqual([])
  expect(byHeight.size).toBeGreaterThanOrEqual(tip)
  console.log(`${kept.length} actions acknowledged, ${refusals} refused or unanswered around the failover`)
}, 180_000)

test('the fence: a leader whose next height was taken by another writer halts and never stores its block', async () => {
  // The standby leads now. Another writer appends the next record first (retrying until it wins the race).
  const h0 = await healthOf(standby.url)
  expect(h0.replication!.role).toBe('leader')
  const nc = await connect({ servers: nats.url })
  let forgedHeight = 0
  try {
    const log = await ChainLog.open(nc, namesOfStream(h0.replication!.stream))
    for (let attempt = 0; forgedHeight === 0 && attempt < 200; attempt++) {
      const tip = await log.tipHeight()
      const last = (await log.block(tip))!
      const forged = {
        header: {
          ...last.header,
          height: tip + 1,
          parent: last.header.digest,
          envelopeCount: 0,
          eventCount: 0,
          stateRoot: `0x${'cd'.repeat(32)}`,
        },
        envelopes: [],
        events: [],
      }
      try {
        await jetstream(nc).publish(log.names.subject, encodeBlockRecord(forged), {
          msgID: `forged-${tip + 1}`,
          expect: { lastSequence: sequenceOf(tip) },
        })
        forgedHeight = tip + 1
      } catch (err) {
        if (!(err instanceof JetStreamApiError)) throw err
      }
    }
  } finally {
    await nc.close()
  }
  expect(forgedHeight).toBeGreaterThan(0)
  // The leader's block at that height is refused by the stream: it halts (LEADER_FENCED) and exits 70.
  expect(await standby.exited).toBe(70)
  expect(standby.output()).toContain('halted (LEADER_FENCED)')
  // Its store ends before the height it lost: the refused block was never stored.
  expect(storedHeaders(standby.dataDir).at(-1)!.height).toBe(forgedHeight - 1)
}, 60_000)
